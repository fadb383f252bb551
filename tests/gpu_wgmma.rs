//! One `wgmma` on the GPU for every input type (f16, bf16, fp8 e4m3 and e5m2, tf32) and every
//! operand layout it takes (32, 64 and 128-byte swizzles; K-major and, for 16-bit types, MN-major A
//! and B): A and B are loaded from global memory, stored into their NVMMA buffers, multiplied into a
//! Hopper-layout accumulator of 64 or 128 rows (one or two warpgroups) and stored back, then
//! compared with the host. The same kernels are assembled by ptxas for sm_90a without a GPU.
#![cfg(feature = "llvm")]

mod common;

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target, Value};
use weft::layout::encoding::{Blocked, Encoding, NvidiaMma, NvmmaShared, Slice};

/// One case: input type, swizzle, A and B transposed in the NVMMA sense (dim 0 contiguous),
/// M × N × K and warps.
#[derive(Debug, Clone, Copy)]
struct Case {
    dtype: DType,
    swizzle: u32,
    ta: bool,
    tb: bool,
    m: u64,
    n: u64,
    k: u64,
    warps: u32,
    /// A comes from registers (loaded, then converted to the accumulator-like layout).
    a_regs: bool,
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for dtype in [
        DType::F16,
        DType::BF16,
        DType::F8E4M3,
        DType::F8E5M2,
        DType::F32,
    ] {
        let sixteen = dtype.bits() == 16;
        for swizzle in [32, 64, 128] {
            // A K-major (not transposed), B K-major (transposed: [K, N] with K contiguous), or for
            // 16-bit types either major.
            let majors: &[(bool, bool)] = if sixteen {
                &[(false, true), (false, false), (true, true), (true, false)]
            } else {
                &[(false, true)]
            };
            for &(ta, tb) in majors {
                let k = 128 / (dtype.bits() as u64 / 8); // two 64-byte rows of K
                v.push(Case {
                    dtype,
                    swizzle,
                    ta,
                    tb,
                    m: 64,
                    n: 64,
                    k,
                    warps: 4,
                    a_regs: false,
                });
            }
        }
    }
    // Two warpgroups, a wider N and a deeper K.
    v.push(Case {
        dtype: DType::F16,
        swizzle: 128,
        ta: false,
        tb: false,
        m: 128,
        n: 256,
        k: 128,
        warps: 8,
        a_regs: false,
    });
    v.push(Case {
        dtype: DType::BF16,
        swizzle: 64,
        ta: true,
        tb: true,
        m: 128,
        n: 32,
        k: 64,
        warps: 4,
        a_regs: false,
    });
    // A from registers (as attention's P · V): both B majors, one and two warpgroups, two
    // 64-row blocks per warpgroup.
    for (dtype, tb, m, k, warps, sw) in [
        (DType::F16, false, 64, 64, 4, 128),
        (DType::F16, true, 64, 128, 4, 64),
        (DType::BF16, false, 128, 64, 8, 128),
        (DType::BF16, true, 128, 64, 4, 32),
    ] {
        v.push(Case {
            dtype,
            swizzle: sw,
            ta: false,
            tb,
            m,
            n: 64,
            k,
            warps,
            a_regs: true,
        });
    }
    v
}

/// Pointers `base + row * cols + col` over an `[rows, cols]` tile in `enc`.
fn ptr_tile(
    kb: &mut KernelBuilder<'_>,
    base: Value,
    enc: &Encoding,
    rows: u64,
    cols: u64,
) -> Value {
    let r = kb
        .arange(0, rows as i32, Slice::new(1, enc.clone()))
        .unwrap();
    let c = kb
        .arange(0, cols as i32, Slice::new(0, enc.clone()))
        .unwrap();
    let r = kb.expand_dims(r, 1).unwrap();
    let r = kb.mul(r, cols as i32).unwrap();
    let c = kb.expand_dims(c, 0).unwrap();
    let offs = kb.add(r, c).unwrap();
    kb.add(base, offs).unwrap()
}

fn wgmma_kernel(ctx: &Context, c: Case) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "one_wgmma", c.warps).unwrap();
    let eb = c.dtype.bits() as u64 / 8;
    let a = kb.arg_ptr("a", c.dtype, 16).unwrap();
    let b = kb.arg_ptr("b", c.dtype, 16).unwrap();
    let out = kb.arg_ptr("c", DType::F32, 16).unwrap();
    let blocked: Encoding =
        Blocked::new(&[1, (16 / eb) as u32], &[8, 4], &[c.warps, 1], &[1, 0]).into();
    let bits = c.dtype.bits();
    let sb = kb
        .alloc_shared(
            c.dtype,
            &[c.k, c.n],
            NvmmaShared::new(c.swizzle, bits, 2, c.tb),
        )
        .unwrap();
    let pa = ptr_tile(&mut kb, a, &blocked, c.m, c.k);
    let ta = kb.load(pa, None, None).unwrap();
    let a_op = if c.a_regs {
        let frag: Encoding = NvidiaMma::hopper(&[c.warps, 1], c.k as u32, 16).into();
        kb.convert_layout(ta, (&frag, [c.m, c.k])).unwrap()
    } else {
        let sa = kb
            .alloc_shared(
                c.dtype,
                &[c.m, c.k],
                NvmmaShared::new(c.swizzle, bits, 2, c.ta),
            )
            .unwrap();
        kb.store_shared(sa, ta).unwrap();
        sa
    };
    let pb = ptr_tile(&mut kb, b, &blocked, c.k, c.n);
    let tb = kb.load(pb, None, None).unwrap();
    kb.store_shared(sb, tb).unwrap();
    kb.fence_async_shared().unwrap();
    kb.barrier().unwrap();
    let acc_enc: Encoding = NvidiaMma::hopper(&[c.warps, 1], c.n as u32, 16).into();
    let acc = kb.zeros((&acc_enc, [c.m, c.n]), DType::F32).unwrap();
    let acc = kb.wgmma(a_op, sb, acc).unwrap();
    let acc = kb.wgmma_wait(0, &[acc]).unwrap()[0];
    let pc = ptr_tile(&mut kb, out, &acc_enc, c.m, c.n);
    kb.store(pc, acc, None).unwrap();
    kb.finish().unwrap()
}

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

/// The value of fp8 code `b` (e4m3: 4 exponent bits, bias 7; e5m2: 5, bias 15).
fn fp8_value(b: u8, e5m2: bool) -> f32 {
    let (mbits, bias) = if e5m2 { (2, 15) } else { (3, 7) };
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = ((b & 0x7F) >> mbits) as i32;
    let m = (b & ((1 << mbits) - 1)) as f32 / (1 << mbits) as f32;
    let v = if e == 0 {
        m * 2f32.powi(1 - bias)
    } else {
        (1.0 + m) * 2f32.powi(e - bias)
    };
    sign * v
}

#[cfg(feature = "cuda")]
#[test]
fn every_wgmma_case_matches_the_host() {
    use common::gpu::device;
    use common::rng::Rng;
    use weft::runtime::prelude::*;
    use weft::runtime::{bf16, f16, DevicePointer, ElemType, KernelArgs, LaunchConfig};
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
        let mut vals = |len: usize| -> Vec<f32> {
            (0..len)
                .map(|_| ((rng.next_u64() % 16) as f32 - 8.0) / 2.0)
                .collect()
        };
        let a = vals(m * kk);
        let b = vals(kk * n);
        let bytes = |v: &[f32]| -> Vec<u8> {
            match c.dtype {
                DType::F16 => v
                    .iter()
                    .flat_map(|x| f16::from_f32(*x).to_bits().to_le_bytes())
                    .collect(),
                DType::BF16 => v
                    .iter()
                    .flat_map(|x| bf16::from_f32(*x).to_bits().to_le_bytes())
                    .collect(),
                DType::F32 => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
                _ => {
                    let e5 = c.dtype == DType::F8E5M2;
                    v.iter()
                        .map(|x| {
                            (0..=255u8)
                                .find(|&b| fp8_value(b, e5) == *x)
                                .expect("exact in fp8")
                        })
                        .collect()
                }
            }
        };
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
