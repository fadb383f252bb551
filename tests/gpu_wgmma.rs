//! One `wgmma` for every input type (f16, bf16, fp8 e4m3 and e5m2, tf32) and every
//! operand layout it takes (32, 64 and 128-byte swizzles; K-major and, for 16-bit types, MN-major A
//! and B): A and B are loaded from global memory, stored into their NVMMA buffers, multiplied into a
//! Hopper-layout accumulator of 64 or 128 rows (one or two warpgroups) and stored back, then
//! compared with the host bit for bit (the inputs are small integers and halves, exact in every
//! type, so the f32 sums are exact), and the poison past C checked to be intact. The same kernels
//! are assembled by ptxas for sm_90a.
//!
//! Written once over the runtime's `Backend` traits: every case runs on the CPU backend (the
//! interpreter, emulating sm_90a) and on a CUDA GPU with wgmma when there is one. Without a GPU
//! the GPU test prints `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::check::{exact, f32_bits, poison_intact};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use common::wgmma::{cases, operand_bytes, small_values, wgmma_kernel};
use weft::codegen::{Context, DType};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, DevicePointer, ElemType, KernelArgs};

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

fn every_wgmma_case_matches_the_host<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let mut rng = Rng(99);
    for c in cases() {
        let what = format!("{c:?}");
        let k = wgmma_kernel(&ctx, c);
        let kernel = load::<B>(dev, &k, &what);
        let (m, n, kk) = (c.m as usize, c.n as usize, c.k as usize);
        // Small integers and halves: exact in every input type.
        let a = small_values(&mut rng, m * kk);
        let b = small_values(&mut rng, kk * n);
        let bytes = |v: &[f32]| operand_bytes(c.dtype, v);
        let da = dev.upload(&bytes(&a)).unwrap();
        let db = dev.upload(&bytes(&b)).unwrap();
        let dc = poisoned::<B, f32>(dev, m * n);
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
        // SAFETY: the kernel reads m·k and k·n elements of a and b and writes m·n of c.
        unsafe { launch::<B>(dev, &kernel, 1u32, &args, &what) };
        let got = dc.to_vec().unwrap();
        let want: Vec<f32> = (0..m * n)
            .map(|ij| {
                (0..kk)
                    .map(|p| a[ij / n * kk + p] * b[p * n + ij % n])
                    .sum()
            })
            .collect();
        exact(&got, &want, f32_bits, &what);
        poison_intact(&got, m * n, f32_bits, &what);
        println!("{what} on {}: exact", B::KIND);
    }
}

#[test]
fn every_wgmma_case_matches_the_host_in_the_interpreter() {
    every_wgmma_case_matches_the_host::<weft::runtime::cpu::Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
#[test]
fn every_wgmma_case_matches_the_host_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Wgmma], |dev| {
        every_wgmma_case_matches_the_host::<weft::runtime::cuda::Cuda>(dev)
    });
}
