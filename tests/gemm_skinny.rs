//! The skinny split-K GEMM (`gemm_skinny_kernel` + `gemm_skinny_reduce_kernel`: `Y = X · Wᵀ`
//! for a few tokens) against the f64 host reference on ragged shapes, in bf16, f16 and fp8: on
//! the CPU backend (the interpreter) always, on the GPU when there is one; the reduction's
//! determinism, also when the last program of each tile finishes the sum instead of the
//! reduction kernel (the same bits); and its PTX through ptxas (no spills).
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, tol};
use common::gemm::quarters;
use common::launch::{launch_split_k, load, SplitOutputs};
use common::rng::Rng;
use weft::codegen::kernels::{
    gemm_reference, gemm_skinny_kernel, gemm_skinny_reduce_kernel, SkinnyConfig, FINISH_MAX_TOKENS,
};
use weft::codegen::{CodegenError, Context, DType, Target};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend, DeviceElem, KernelArgs, F8E4M3};

/// Runs both kernels of `c` with `splits` K ranges on an `m × n × k` problem of quarters (exact
/// in every input type); checks Y against the host and the poison past it. Returns Y's bits.
fn run<B: Backend>(
    dev: &B::Device,
    c: SkinnyConfig,
    [m, n, k]: [usize; 3],
    splits: u32,
) -> Vec<u16> {
    match c.dtype {
        DType::F16 => run_as::<B, f16, f16>(dev, c, [m, n, k], splits, f16::from_f32, |y| {
            (y.to_f64(), y.to_bits())
        }),
        DType::BF16 => run_as::<B, bf16, bf16>(dev, c, [m, n, k], splits, bf16::from_f32, |y| {
            (y.to_f64(), y.to_bits())
        }),
        _ => run_as::<B, F8E4M3, bf16>(dev, c, [m, n, k], splits, F8E4M3::from_f32, |y| {
            (y.to_f64(), y.to_bits())
        }),
    }
}

fn run_as<B: Backend, T: DeviceElem, O: DeviceElem + Copy>(
    dev: &B::Device,
    c: SkinnyConfig,
    [m, n, k]: [usize; 3],
    splits: u32,
    to: fn(f32) -> T,
    from: fn(O) -> (f64, u16),
) -> Vec<u16> {
    let what = format!("gemm_skinny {m}x{n}x{k} in {splits} splits, {c:?}");
    let ctx = Context::new();
    let kp = gemm_skinny_kernel(&ctx, Target::SM90A, c).unwrap();
    let kr = gemm_skinny_reduce_kernel(&ctx, Target::SM90A, c.out_dtype()).unwrap();
    let (partial, reduce) = (load::<B>(dev, &kp, &what), load::<B>(dev, &kr, &what));
    let mut rng = Rng(29 + m as u64);
    let (x, w) = (quarters(&mut rng, m * k), quarters(&mut rng, n * k));
    let up = |v: &[f32]| {
        dev.upload(&v.iter().map(|&e| to(e)).collect::<Vec<T>>())
            .unwrap()
    };
    let (dx, dw) = (up(&x), up(&w));
    let (mu, nu, ku) = (m as u64, n as u64, k as u64);
    let out = SplitOutputs::<B, O>::new(dev, [m, n, splits as usize], c.tiles(mu, nu));
    let w_map = dev
        .tensor_map(&dw, &[nu, ku], &[ku], &c.w_box(), c.swizzle())
        .unwrap();
    let x_map = dev
        .tensor_map(&dx, &[mu, ku], &[ku], &c.x_box(), c.swizzle())
        .unwrap();
    let mut args = KernelArgs::new();
    args.tensor_map(&w_map).tensor_map(&x_map);
    let sizes = [m, n, k, splits as usize];
    let grid = c.grid(mu, nu, splits);
    // SAFETY: the maps cover W and X; the partials hold splits · m · n floats, Y m · n, the
    // tickets one per tile.
    unsafe {
        launch_split_k::<B, O>(
            dev,
            (&partial, &reduce),
            args,
            &out,
            c.finish_in_kernel,
            sizes,
            grid,
            &what,
        )
    };
    let out: Vec<(f64, u16)> = out.y.to_vec().unwrap().into_iter().map(from).collect();
    assert!(
        out[m * n..].iter().all(|&(_, b)| b == 0xFFFF),
        "{what}: wrote past Y"
    );
    let got: Vec<f64> = out[..m * n].iter().map(|&(v, _)| v).collect();
    let want: Vec<f64> = gemm_reference(&x, &w, m, n, k, true)
        .into_iter()
        .map(f64::from)
        .collect();
    close(&got, &want, tol(c.out_dtype()), &what);
    out[..m * n].iter().map(|&(_, b)| b).collect()
}

#[test]
fn split_k_partials_sum_to_the_product_in_the_interpreter() {
    let dev = common::gpu::cpu();
    type Cpu = weft::runtime::cpu::Cpu;
    let mut fp8 = SkinnyConfig::new(DType::F8E4M3, 40);
    fp8.block_m = 64;
    fp8.stages = 3;
    for (c, mnk, splits) in [
        // One token; two tiles of W rows (the last ragged); K ragged (6 blocks) in 4 splits of
        // 2, the last empty.
        (SkinnyConfig::new(DType::BF16, 1), [1, 200, 328], 4),
        // 13 tokens in f16, one split.
        (SkinnyConfig::new(DType::F16, 13), [13, 72, 200], 1),
        // fp8: 40 tokens in a 64-token tile, 64 rows of W per program, 2 splits.
        (fp8, [40, 136, 400], 2),
    ] {
        // Finished by the reduction kernel, or by the last program of each tile: the same bits.
        let apart = run::<Cpu>(&dev, c, mnk, splits);
        let fused = run::<Cpu>(&dev, c.with_finish_in_kernel(true), mnk, splits);
        assert_eq!(apart, fused, "{c:?} {mnk:?}: finished in the kernel");
    }
}

#[test]
fn the_reduction_is_deterministic_across_splits() {
    let dev = common::gpu::cpu();
    type Cpu = weft::runtime::cpu::Cpu;
    let c = SkinnyConfig::new(DType::BF16, 3);
    let first = run::<Cpu>(&dev, c, [3, 64, 512], 4);
    assert_eq!(first, run::<Cpu>(&dev, c, [3, 64, 512], 4));
}

#[cfg(feature = "cuda")]
#[test]
fn split_k_partials_sum_to_the_product_on_the_gpu() {
    let Some(dev) = common::gpu::device() else {
        return;
    };
    type Cuda = weft::runtime::cuda::Cuda;
    let sms = dev.props().sm_count;
    for dtype in [DType::BF16, DType::F16, DType::F8E4M3] {
        // K ragged against every K block, yet a multiple of 16 elements: an fp8 row of W must
        // be a multiple of 16 bytes to be a TMA tensor (the launcher refuses others).
        for (m, n, k) in [
            (1, 4096, 4096),
            (16, 1000, 2064),
            (64, 2048, 1024),
            (128, 776, 4112),
        ] {
            let c = SkinnyConfig::new(dtype, m as u32);
            let splits = c.splits(m as u64, n as u64, k as u64, sms);
            let a = run::<Cuda>(&dev, c, [m, n, k], splits);
            assert_eq!(
                a,
                run::<Cuda>(&dev, c, [m, n, k], splits),
                "{m}x{n}x{k}: not deterministic"
            );
            let fused = c.with_finish_in_kernel(true);
            // Twice: the first launch must leave the tickets as it found them.
            for _ in 0..(if m <= FINISH_MAX_TOKENS as usize {
                2
            } else {
                0
            }) {
                assert_eq!(
                    a,
                    run::<Cuda>(&dev, fused, [m, n, k], splits),
                    "{m}x{n}x{k}: finished in the kernel"
                );
            }
        }
    }
}

#[test]
fn the_skinny_kernels_assemble_without_spills() {
    for dtype in [DType::BF16, DType::F8E4M3] {
        for (m, finish) in [1, 16, 64, 128]
            .into_iter()
            .flat_map(|m| [(m, false), (m, m <= FINISH_MAX_TOKENS)])
        {
            let c = SkinnyConfig::new(dtype, m).with_finish_in_kernel(finish);
            let what = format!("gemm_skinny {c:?}");
            let ctx = Context::new();
            let k = gemm_skinny_kernel(&ctx, Target::SM90A, c).unwrap();
            let ptx = k.ptx().unwrap();
            common::assemble_without_spills(&ptx, "sm_90a", &what);
        }
    }
}

#[test]
fn split_counts_fill_the_device_and_bad_configurations_are_typed_errors() {
    let c = SkinnyConfig::new(DType::BF16, 1);
    // Two programs fit an SM's shared memory (6 stages of 128 + 16 rows × 128 bytes): the
    // chosen splits fill the last wave of 264 program slots almost whole.
    for (n, k) in [(8192u64, 8192u64), (28672, 4096)] {
        let s = c.splits(1, n, k, 132);
        let programs = u64::from(c.grid(1, n, s).0);
        let fill = programs as f64 / (programs.div_ceil(264) * 264) as f64;
        assert!(
            fill > 0.95,
            "{n}×{k}: {s} splits, {programs} programs fill {fill:.2}"
        );
    }
    // A K of 4 blocks splits at most in 2 (2 blocks a split).
    assert!(c.splits(1, 128, 256, 132) <= 2);
    let ctx = Context::new();
    let mut bad = c;
    bad.block_n = 24;
    let e = gemm_skinny_kernel(&ctx, Target::SM90A, bad).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::InvalidArgument { .. }),
        "{e}"
    );
    let e = gemm_skinny_reduce_kernel(&ctx, Target::SM90A, DType::I32).unwrap_err();
    assert!(e.to_string().contains("out i32"), "{e}");
    // A grid past u32 saturates (the launch then refuses it) instead of wrapping to a small one.
    assert_eq!(c.grid(1, 1 << 40, 1 << 20).0, u32::MAX);
    assert_eq!(c.reduce_grid(1 << 40, 1 << 30).0, u32::MAX);
    let wide = SkinnyConfig::new(DType::BF16, 128).with_finish_in_kernel(true);
    let e = gemm_skinny_kernel(&ctx, Target::SM90A, wide).unwrap_err();
    assert!(e.to_string().contains("finish_in_kernel"), "{e}");
}
