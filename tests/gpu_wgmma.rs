//! One `wgmma` on the GPU for every input type (f16, bf16, fp8 e4m3 and e5m2, tf32) and every
//! operand layout it takes (32, 64 and 128-byte swizzles; K-major and, for 16-bit types, MN-major A
//! and B): A and B are loaded from global memory, stored into their NVMMA buffers, multiplied into a
//! Hopper-layout accumulator of 64 or 128 rows (one or two warpgroups) and stored back, then
//! compared with the host. The same kernels are assembled by ptxas for sm_90a without a GPU.
#![cfg(feature = "llvm")]

mod common;

use common::wgmma::{cases, operand_bytes, small_values, wgmma_kernel};
use weft::codegen::{Context, DType};

#[test]
fn every_wgmma_case_assembles() {
    let ctx = Context::new();
    for c in cases() {
        let k = wgmma_kernel(&ctx, c);
        let ptx = k.ptx().unwrap();
        let steps = c.k / (256 / c.dtype.bits() as u64);
        let reps = c.m / (16 * c.warps as u64);
        assert_eq!(
            ptx.matches("wgmma.mma_async").count() as u64,
            steps * reps,
            "{c:?}"
        );
        common::assemble(&ptx, "sm_90a", &format!("{c:?}"));
    }
}

#[cfg(feature = "cuda")]
#[test]
fn every_wgmma_case_matches_the_host() {
    use common::gpu::device;
    use common::rng::Rng;
    use weft::runtime::prelude::*;
    use weft::runtime::{DevicePointer, ElemType, KernelArgs, LaunchConfig};
    let Some(dev) = device() else { return };
    if !dev.target().unwrap().supports(weft::target::Feature::Wgmma) {
        println!("SKIP: no wgmma on this GPU");
        return;
    }
    let ctx = Context::new();
    let mut rng = Rng(99);
    for c in cases() {
        let k = wgmma_kernel(&ctx, c);
        let kernel = common::gpu::load_kernel(&dev, &k);
        let (m, n, kk) = (c.m as usize, c.n as usize, c.k as usize);
        // Small integers and halves: exact in every input type.
        let a = small_values(&mut rng, m * kk);
        let b = small_values(&mut rng, kk * n);
        let bytes = |v: &[f32]| operand_bytes(c.dtype, v);
        let da = dev.upload(&bytes(&a)).unwrap();
        let db = dev.upload(&bytes(&b)).unwrap();
        let mut dc = dev.alloc::<f32>(m * n).unwrap();
        dc.fill_bytes(0xFF).unwrap();
        let elem = match c.dtype {
            DType::F16 => ElemType::F16,
            DType::BF16 => ElemType::BF16,
            DType::F32 => ElemType::F32,
            DType::F8E4M3 => ElemType::F8E4M3,
            _ => ElemType::F8E5M2,
        };
        let mut args = KernelArgs::new();
        args.raw_ptr(elem, da.device_addr())
            .raw_ptr(elem, db.device_addr())
            .ptr(&dc);
        let cfg = LaunchConfig::for_kernel(1, k.signature()).unwrap();
        // SAFETY: the kernel reads m·k and k·n elements of a and b and writes m·n of c.
        unsafe { dev.stream().launch(&kernel, &cfg, &args).unwrap() };
        let got = dc.to_vec().unwrap();
        let mut max_err = 0f32;
        for i in 0..m {
            for j in 0..n {
                let want: f32 = (0..kk).map(|p| a[i * kk + p] * b[p * n + j]).sum();
                let g = got[i * n + j];
                max_err = max_err.max((g - want).abs());
                assert_eq!(g, want, "{c:?}: C[{i}, {j}]");
            }
        }
        println!("{c:?}: ok (max abs error {max_err})");
    }
}
