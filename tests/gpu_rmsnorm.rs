//! `kernels::rmsnorm_kernel` against an f64 host RMSNorm: f32, bf16 and f16 rows of odd lengths
//! (masked columns, rows per CTA that leave a ragged last CTA), with the residual add written
//! back, and with fp8 e4m3 outputs scaled per row (the scales checked too) or per tensor.
//! Outputs are poisoned first (0xFF) and the poison past the end is checked to be intact.
//!
//! Written once over the runtime's `Backend`: every test runs in the interpreter (few rows) and
//! on a CUDA GPU when there is one (`*_on_the_gpu`, more rows).
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, poison_intact, Tol};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use common::rows::{bound, chunked, rounded, wide, RowElem};
use weft::codegen::kernels::{
    fp8_row_scales_reference, rmsnorm_kernel, rmsnorm_looped_kernel, rmsnorm_reference,
    rmsnorm_staged_kernel, RmsNormOptions, RmsNormOutput, RowConfig,
};
use weft::codegen::{Context, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend, KernelArgs, F8E4M3};

const EPS: f32 = 1e-6;

/// Random `x` (and residual) in [-4, 4), `w` in [0.5, 1.5), all rounded to `T`.
struct Inputs<T> {
    x: (Vec<T>, Vec<f32>),
    r: (Vec<T>, Vec<f32>),
    w: (Vec<T>, Vec<f32>),
}

fn inputs<T: RowElem>(m: usize, n: usize, seed: u64) -> Inputs<T> {
    let mut rng = Rng(seed);
    let x = rng.vec(m * n);
    let r = rng.vec(m * n);
    let w: Vec<f32> = (0..n).map(|_| rng.uniform(0.5, 1.5) as f32).collect();
    Inputs {
        x: rounded(&x),
        r: rounded(&r),
        w: rounded(&w),
    }
}

/// Runs RMSNorm with output in `T` on an `m × n` matrix, with or without the residual; checks
/// `y` (and the residual written back) against f64.
fn plain<B: Backend, T: RowElem>(
    dev: &B::Device,
    (c, staged): (RowConfig, bool),
    m: usize,
    n: usize,
    residual: bool,
) {
    let what = format!(
        "rmsnorm {m} × {n} {} residual {residual}, {c:?}, staged {staged}",
        T::DTYPE
    );
    if n <= c.block_n as usize {
        c.check_shape("rmsnorm", m, n).unwrap();
    }
    let ctx = Context::new();
    let o = RmsNormOptions {
        residual,
        ..RmsNormOptions::PLAIN
    };
    let k = kernel_for(&ctx, (c, staged), o, n).unwrap_or_else(|e| panic!("{what}: {e}"));
    let kernel = load::<B>(dev, &k, &what);
    let inp = inputs::<T>(m, n, (m * 31 + n) as u64);
    let dx = dev.upload(&inp.x.0).unwrap();
    let dr = dev.upload(&inp.r.0).unwrap();
    let dw = dev.upload(&inp.w.0).unwrap();
    let y = poisoned::<B, T>(dev, m * n);
    let mut args = KernelArgs::new();
    args.ptr(&dx);
    if residual {
        args.ptr(&dr);
    }
    args.ptr(&dw)
        .ptr(&y)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(EPS);
    // SAFETY: the kernel reads x, residual (and writes it) at r * n + j, w[j], and writes
    // y[r * n + j], for r < m, j < n (masked); every buffer holds m * n (w: n) elements.
    unsafe { launch::<B>(dev, &kernel, grid_of(c, m, staged), &args, &what) };
    let h = if residual {
        let got = dr.to_vec().unwrap();
        let sum: Vec<f64> = inp
            .x
            .1
            .iter()
            .zip(&inp.r.1)
            .map(|(&a, &b)| a as f64 + b as f64)
            .collect();
        close(
            &wide(&got),
            &sum,
            bound(T::DTYPE, 1.0),
            &format!("{what}: x + residual"),
        );
        got.iter().map(|v| v.to_f32()).collect()
    } else {
        inp.x.1.clone()
    };
    let out = y.to_vec().unwrap();
    let want = rmsnorm_reference(&h, &inp.w.1, n, EPS);
    let worst = close(&wide(&out[..m * n]), &want, bound(T::DTYPE, 1.0), &what);
    poison_intact(&out, m * n, T::bits, &what);
    println!("{what} on {}: max error {worst:.2e}", B::KIND);
}

/// Runs RMSNorm with an fp8 e4m3 output scaled per row or by `tensor_scale`; checks
/// `q · scale` against the f64 norm within fp8's half ulp (2⁻⁴ relative, 2⁻¹⁰ of the scale
/// absolute for subnormals), and the per-row scales against `amax / 448`.
fn fp8<B: Backend>(
    dev: &B::Device,
    (c, staged): (RowConfig, bool),
    m: usize,
    n: usize,
    tensor_scale: Option<f32>,
) {
    let output = match tensor_scale {
        Some(_) => RmsNormOutput::Fp8TensorScale,
        None => RmsNormOutput::Fp8RowScale,
    };
    let what = format!(
        "rmsnorm {m} × {n} {} → {output:?}, staged {staged}",
        c.dtype
    );
    let ctx = Context::new();
    let o = RmsNormOptions {
        residual: false,
        output,
    };
    let k = kernel_for(&ctx, (c, staged), o, n).unwrap_or_else(|e| panic!("{what}: {e}"));
    let kernel = load::<B>(dev, &k, &what);
    let inp = inputs::<bf16>(m, n, 77 + m as u64);
    let dx = dev.upload(&inp.x.0).unwrap();
    let dw = dev.upload(&inp.w.0).unwrap();
    let y = poisoned::<B, F8E4M3>(dev, m * n);
    let scale = match tensor_scale {
        Some(s) => dev.upload(&[s]).unwrap(),
        None => poisoned::<B, f32>(dev, m),
    };
    let mut args = KernelArgs::new();
    args.ptr(&dx)
        .ptr(&dw)
        .ptr(&y)
        .ptr(&scale)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(EPS);
    // SAFETY: x, y hold m * n elements, w n, scale m (per row, written) or 1 (read).
    unsafe { launch::<B>(dev, &kernel, grid_of(c, m, staged), &args, &what) };
    let want = rmsnorm_reference(&inp.x.1, &inp.w.1, n, EPS);
    let scales: Vec<f64> = match tensor_scale {
        Some(s) => vec![s as f64; m],
        None => {
            let got = scale.to_vec().unwrap();
            let want_s = fp8_row_scales_reference(&want, n);
            close(
                &got[..m].iter().map(|&v| v as f64).collect::<Vec<_>>(),
                &want_s,
                bound(weft::codegen::DType::F32, 1.0),
                &format!("{what}: scales"),
            );
            poison_intact(&got, m, |v: f32| v.to_bits() as u64, &what);
            got[..m].iter().map(|&v| v as f64).collect()
        }
    };
    let q = y.to_vec().unwrap();
    poison_intact(&q, m * n, |v: F8E4M3| v.0 as u64, &what);
    for (r, row) in want.chunks(n).enumerate() {
        let s = scales[r];
        let got: Vec<f64> = q[r * n..(r + 1) * n]
            .iter()
            .map(|v| v.to_f32() as f64 * s)
            .collect();
        // Per tensor, values past ±448 · s saturate.
        let want_q: Vec<f64> = row.iter().map(|v| v.clamp(-448.0 * s, 448.0 * s)).collect();
        let t = Tol {
            rel: 1.0 / 16.0 + 1e-5,
            abs: s / 1024.0,
        };
        close(&got, &want_q, t, &format!("{what}: row {r}"));
    }
    println!("{what} on {}: fp8 within half an ulp", B::KIND);
}

/// The staged kernel when asked, the one-pass kernel when a row fits the tile, else the looped
/// one (`block_n` a chunk).
fn kernel_for<'c>(
    ctx: &'c Context,
    (c, staged): (RowConfig, bool),
    o: RmsNormOptions,
    n: usize,
) -> weft::codegen::Result<weft::codegen::Kernel<'c>> {
    if staged {
        rmsnorm_staged_kernel(ctx, Target::SM90, c, o)
    } else if n <= c.block_n as usize {
        rmsnorm_kernel(ctx, Target::SM90, c, o)
    } else {
        rmsnorm_looped_kernel(ctx, Target::SM90, c, o)
    }
}

/// The grid: one CTA per row block, or for the staged kernel two CTAs that walk every block.
fn grid_of(c: RowConfig, m: usize, staged: bool) -> u32 {
    if staged {
        c.grid(m).min(2)
    } else {
        c.grid(m)
    }
}

/// (config, rows on the GPU, rows in the interpreter, n).
fn shapes(dtype: weft::codegen::DType) -> Vec<(RowConfig, usize, usize, usize)> {
    let f = |n| RowConfig::for_n(n, dtype);
    vec![
        (f(1000), 37, 3, 1000),
        (f(1001), 37, 2, 1001),
        (
            RowConfig {
                rows_per_cta: 4,
                per_thread: 1,
                ..f(17)
            },
            1001,
            7,
            17,
        ),
        (
            RowConfig {
                rows_per_cta: 2,
                num_warps: 8,
                ..f(4096)
            },
            65,
            3,
            4096,
        ),
        (f(12345), 7, 1, 12345),
    ]
}

fn rmsnorm_matches_f64<B: Backend, T: RowElem>(dev: &B::Device, on_gpu: bool) {
    for (i, (c, gm, cm, n)) in shapes(T::DTYPE).into_iter().enumerate() {
        let m = if on_gpu { gm } else { cm };
        plain::<B, T>(dev, (c, false), m, n, i % 2 == 1);
    }
}

fn rmsnorm_fp8_matches_f64<B: Backend>(dev: &B::Device, on_gpu: bool) {
    let dtype = weft::codegen::DType::BF16;
    let rows = |g: usize, c: usize| if on_gpu { g } else { c };
    let c = RowConfig {
        rows_per_cta: 2,
        ..RowConfig::for_n(1000, dtype)
    };
    fp8::<B>(dev, (c, false), rows(37, 3), 1000, None);
    fp8::<B>(
        dev,
        (RowConfig::for_n(33, dtype), false),
        rows(100, 5),
        33,
        Some(0.01),
    );
}

/// Rows longer than the tile: the looped kernel, chunks of 256 (ragged last chunk), 1024, and
/// 16 over two rows per CTA; with and without the residual, and with both fp8 scalings.
fn rmsnorm_looped_matches_f64<B: Backend, T: RowElem>(dev: &B::Device, on_gpu: bool) {
    let rows = |g: usize, c: usize| if on_gpu { g } else { c };
    let chunk = |block_n, num_warps, rows_per_cta, n| {
        chunked(T::DTYPE, n, block_n, num_warps, rows_per_cta)
    };
    plain::<B, T>(
        dev,
        (chunk(256, 2, 1, 1000), false),
        rows(37, 3),
        1000,
        false,
    );
    plain::<B, T>(
        dev,
        (chunk(1024, 4, 1, 4099), false),
        rows(37, 2),
        4099,
        true,
    );
    plain::<B, T>(dev, (chunk(16, 1, 2, 33), false), rows(101, 5), 33, true);
    if T::DTYPE == weft::codegen::DType::BF16 {
        fp8::<B>(
            dev,
            (chunk(256, 2, 2, 1000), false),
            rows(37, 3),
            1000,
            None,
        );
        fp8::<B>(
            dev,
            (chunk(16, 1, 1, 33), false),
            rows(100, 5),
            33,
            Some(0.01),
        );
    }
}

/// The staged (persistent) kernel: two CTAs walking the row blocks, odd widths, a residual, rows
/// per CTA with threads holding copies of the tile, and both fp8 scalings.
fn rmsnorm_staged_matches_f64<B: Backend, T: RowElem>(dev: &B::Device, on_gpu: bool) {
    let rows = |g: usize, c: usize| if on_gpu { g } else { c };
    let f = |n| RowConfig::for_n(n, T::DTYPE);
    plain::<B, T>(dev, (f(1000), true), rows(37, 5), 1000, false);
    plain::<B, T>(dev, (f(4099), true), rows(37, 3), 4099, true);
    let many = RowConfig {
        rows_per_cta: 4,
        per_thread: 1,
        ..f(17)
    };
    plain::<B, T>(dev, (many, true), rows(1001, 11), 17, true);
    if T::DTYPE == weft::codegen::DType::BF16 {
        let two = RowConfig {
            rows_per_cta: 2,
            ..f(1000)
        };
        fp8::<B>(dev, (two, true), rows(37, 5), 1000, None);
        fp8::<B>(dev, (f(33), true), rows(100, 5), 33, Some(0.01));
    }
}

#[test]
fn rmsnorm_staged_matches_f64_in_the_interpreter() {
    let dev = common::gpu::cpu();
    rmsnorm_staged_matches_f64::<Cpu, f32>(&dev, false);
    rmsnorm_staged_matches_f64::<Cpu, bf16>(&dev, false);
}

#[test]
fn rmsnorm_looped_matches_f64_in_the_interpreter() {
    let dev = common::gpu::cpu();
    rmsnorm_looped_matches_f64::<Cpu, f32>(&dev, false);
    rmsnorm_looped_matches_f64::<Cpu, bf16>(&dev, false);
}

#[test]
fn rmsnorm_f32_matches_f64_in_the_interpreter() {
    rmsnorm_matches_f64::<Cpu, f32>(&common::gpu::cpu(), false);
}

#[test]
fn rmsnorm_bf16_matches_f64_in_the_interpreter() {
    rmsnorm_matches_f64::<Cpu, bf16>(&common::gpu::cpu(), false);
}

#[test]
fn rmsnorm_f16_matches_f64_in_the_interpreter() {
    rmsnorm_matches_f64::<Cpu, f16>(&common::gpu::cpu(), false);
}

#[test]
fn rmsnorm_fp8_matches_f64_in_the_interpreter() {
    rmsnorm_fp8_matches_f64::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn rmsnorm_configs_it_cannot_hold_are_typed_errors() {
    let ctx = Context::new();
    // 16K f32 columns over one warp: 512 a thread.
    let c = RowConfig {
        num_warps: 1,
        ..RowConfig::for_n(16384, weft::codegen::DType::F32)
    };
    let e = rmsnorm_kernel(&ctx, Target::SM90, c, RmsNormOptions::PLAIN).unwrap_err();
    assert!(e.to_string().contains("more than 128"), "{e}");
    let c = RowConfig::for_n(1024, weft::codegen::DType::I32);
    let e = rmsnorm_kernel(&ctx, Target::SM90, c, RmsNormOptions::PLAIN).unwrap_err();
    assert!(e.to_string().contains("f32, f16 or bf16"), "{e}");
    // fp8 needs sm_90.
    let c = RowConfig::for_n(1024, weft::codegen::DType::BF16);
    let o = RmsNormOptions {
        residual: false,
        output: RmsNormOutput::Fp8RowScale,
    };
    assert!(rmsnorm_kernel(&ctx, Target::SM80, c, o).is_err());
    let e = c.check_shape("rmsnorm", 3, 1025).unwrap_err();
    assert!(e.to_string().contains("n = 1025 > block_n = 1024"), "{e}");
}

#[test]
fn reference_matches_hand_computed_rows() {
    // [3, 4]: mean square 12.5; [0, 0]: all zero.
    let y = rmsnorm_reference(&[3.0, 4.0, 0.0, 0.0], &[1.0, 2.0], 2, 0.0);
    let r = 12.5f64.sqrt();
    assert_eq!(&y[..2], &[3.0 / r, 8.0 / r]);
    let s = fp8_row_scales_reference(&[-896.0, 1.0, 0.0, 0.0], 2);
    assert_eq!(s, vec![2.0, 0.0]);
}

#[cfg(feature = "cuda")]
#[test]
fn rmsnorm_matches_f64_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        use weft::runtime::cuda::Cuda;
        rmsnorm_matches_f64::<Cuda, f32>(dev, true);
        rmsnorm_matches_f64::<Cuda, bf16>(dev, true);
        rmsnorm_matches_f64::<Cuda, f16>(dev, true);
        rmsnorm_looped_matches_f64::<Cuda, f32>(dev, true);
        rmsnorm_staged_matches_f64::<Cuda, f32>(dev, true);
        rmsnorm_staged_matches_f64::<Cuda, bf16>(dev, true);
    });
}

#[cfg(feature = "cuda")]
#[test]
fn rmsnorm_fp8_matches_f64_on_the_gpu() {
    common::gpu::on_cuda_with(&[weft::target::Feature::Fp8], |dev| {
        rmsnorm_fp8_matches_f64::<weft::runtime::cuda::Cuda>(dev, true);
        rmsnorm_looped_matches_f64::<weft::runtime::cuda::Cuda, bf16>(dev, true);
    });
}
