//! `kernels::norm_bwd_kernel` (RMSNorm and layer norm backward) followed by
//! `kernels::col_sum_kernel` against the f64 host gradients: f32, bf16 and f16 rows of odd
//! lengths, row counts that leave CTAs with different numbers of row blocks (a grid smaller
//! than the row blocks, so each CTA walks several), rows per CTA, poisoned outputs; and the
//! weight gradient is bit-for-bit the same on a second run (no atomics).
//!
//! Bounds: `dx` is one f32 expression of order 1 rounded to the element type (two ulps of it,
//! absolute below 1, for the cancellation in `g - x̂·a - b`); `dw`, `db` are sums over the
//! rows, held to `check::sum_bound` of `Σ|dy·x̂|` plus the type's rounding.
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, poison_intact, sum_bound, tol, Tol};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use common::rows::{bound, rounded, wide, RowElem};
use weft::codegen::kernels::{
    col_sum_kernel, norm_bwd_grid, norm_bwd_kernel, norm_bwd_reference, norm_bwd_staged_kernel,
    ColSumConfig, Norm, RowConfig,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend, KernelArgs};

const EPS: f32 = 1e-5;

/// The gradients from the device: `dx`, `dw`, `db` (empty for RMSNorm), as f64.
type Grads = (Vec<f64>, Vec<f64>, Vec<f64>);

/// Runs the backward kernel over `ctas` CTAs and the column sums; returns the gradients.
#[allow(clippy::too_many_arguments)]
fn run<B: Backend, T: RowElem>(
    dev: &B::Device,
    c: RowConfig,
    (norm, staged): (Norm, bool),
    x: &[T],
    w: &[T],
    dy: &[T],
    m: usize,
    n: usize,
    ctas: u32,
    what: &str,
) -> Grads {
    let ctx = Context::new();
    let k = if staged {
        norm_bwd_staged_kernel(&ctx, Target::SM90, c, norm)
    } else {
        norm_bwd_kernel(&ctx, Target::SM90, c, norm)
    }
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    let kernel = load::<B>(dev, &k, what);
    let cs = ColSumConfig {
        block_p: 4,
        block_n: 64,
        ..ColSumConfig::new(T::DTYPE)
    };
    let sum = col_sum_kernel(&ctx, Target::SM90, cs).unwrap_or_else(|e| panic!("{what}: {e}"));
    let sum = load::<B>(dev, &sum, what);
    let grid = norm_bwd_grid(&c, m, ctas);
    let (dx_, dw_, dy_) = (
        dev.upload(x).unwrap(),
        dev.upload(w).unwrap(),
        dev.upload(dy).unwrap(),
    );
    let dx = poisoned::<B, T>(dev, m * n);
    let parts: Vec<_> = (0..2)
        .map(|_| poisoned::<B, f32>(dev, grid as usize * n))
        .collect();
    let mut args = KernelArgs::new();
    args.ptr(&dx_).ptr(&dy_).ptr(&dw_).ptr(&dx).ptr(&parts[0]);
    if norm == Norm::Layer {
        args.ptr(&parts[1]);
    }
    args.scalar(m as i32).scalar(n as i32).scalar(EPS);
    // SAFETY: x, dy, dx hold m * n elements, w n, each partial grid * n; the kernel touches
    // rows < m, columns < n and partial rows < grid only.
    unsafe { launch::<B>(dev, &kernel, grid, &args, what) };
    let dxv = dx.to_vec().unwrap();
    poison_intact(&dxv, m * n, T::bits, what);
    let mut sums = vec![];
    for part in &parts[..1 + (norm == Norm::Layer) as usize] {
        let out = poisoned::<B, T>(dev, n);
        let mut args = KernelArgs::new();
        args.ptr(part)
            .ptr(&out)
            .scalar(grid as i32)
            .scalar(n as i32);
        // SAFETY: part holds grid * n f32, out n elements.
        unsafe { launch::<B>(dev, &sum, cs.grid(n), &args, what) };
        let v = out.to_vec().unwrap();
        poison_intact(&v, n, T::bits, what);
        sums.push(wide(&v[..n]));
    }
    let db = if sums.len() > 1 {
        sums.pop().unwrap()
    } else {
        vec![]
    };
    (wide(&dxv[..m * n]), sums.pop().unwrap(), db)
}

fn case<B: Backend, T: RowElem>(
    dev: &B::Device,
    c: RowConfig,
    (norm, staged): (Norm, bool),
    m: usize,
    n: usize,
    ctas: u32,
) {
    let how = if staged { " (staged)" } else { "" };
    let what = format!(
        "{norm:?} backward{how} {m} × {n} {} over {ctas} CTAs, {c:?}",
        T::DTYPE
    );
    c.check_shape("norm_bwd", m, n).unwrap();
    let mut rng = Rng((m * 7 + n) as u64);
    let (x, xf) = rounded::<T>(&rng.vec(m * n));
    let (dy, dyf) = rounded::<T>(&rng.vec(m * n));
    let wv: Vec<f32> = (0..n).map(|_| rng.uniform(0.5, 1.5) as f32).collect();
    let (w, wf) = rounded::<T>(&wv);
    let got = run::<B, T>(dev, c, (norm, staged), &x, &w, &dy, m, n, ctas, &what);
    let (dx, dw, db) = norm_bwd_reference(norm, &xf, &wf, &dyf, n, EPS);
    let worst = close(&got.0, &dx, bound(T::DTYPE, 2.0), &format!("{what}: dx"));
    // Σ|dy·x̂| per column bounds the f32 summation error; then one rounding to T.
    let t = tol(T::DTYPE);
    let abs_dw: f64 = dyf.iter().map(|v| v.abs() as f64 * 4.0).sum::<f64>() / n as f64;
    let sum_tol = Tol {
        rel: if T::DTYPE == DType::F32 { 1e-5 } else { t.rel },
        abs: sum_bound(m, abs_dw) + t.abs,
    };
    close(&got.1, &dw, sum_tol, &format!("{what}: dw"));
    if norm == Norm::Layer {
        close(&got.2, &db, sum_tol, &format!("{what}: db"));
    }
    // The same launch again: the same bits (the partial sums come in a fixed order).
    let again = run::<B, T>(dev, c, (norm, staged), &x, &w, &dy, m, n, ctas, &what);
    assert!(
        again
            .1
            .iter()
            .zip(&got.1)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "{what}: dw differs between two runs"
    );
    println!("{what} on {}: dx max error {worst:.2e}", B::KIND);
}

/// (config, rows on the GPU, rows in the interpreter, n, CTAs at most).
fn shapes(dtype: DType) -> Vec<(RowConfig, usize, usize, usize, u32)> {
    let f = |n| RowConfig::for_n(n, dtype);
    vec![
        (f(1000), 129, 5, 1000, 3),
        (f(1001), 37, 3, 1001, 8),
        (
            RowConfig {
                rows_per_cta: 4,
                per_thread: 1,
                ..f(17)
            },
            1001,
            11,
            17,
            2,
        ),
        (
            RowConfig {
                num_warps: 8,
                ..f(4096)
            },
            65,
            3,
            4096,
            2,
        ),
    ]
}

fn backward_matches_f64<B: Backend, T: RowElem>(dev: &B::Device, norm: Norm, on_gpu: bool) {
    for (c, gm, cm, n, ctas) in shapes(T::DTYPE) {
        for staged in [false, true] {
            case::<B, T>(
                dev,
                c,
                (norm, staged),
                if on_gpu { gm } else { cm },
                n,
                ctas,
            );
        }
    }
}

#[test]
fn rmsnorm_backward_matches_f64_in_the_interpreter() {
    let dev = common::gpu::cpu();
    backward_matches_f64::<Cpu, f32>(&dev, Norm::Rms, false);
    backward_matches_f64::<Cpu, bf16>(&dev, Norm::Rms, false);
}

#[test]
fn layernorm_backward_matches_f64_in_the_interpreter() {
    let dev = common::gpu::cpu();
    backward_matches_f64::<Cpu, f32>(&dev, Norm::Layer, false);
    backward_matches_f64::<Cpu, f16>(&dev, Norm::Layer, false);
}

#[test]
fn reference_matches_hand_computed_rows() {
    // RMSNorm of [3, 4] (rstd = 1/√12.5), w = 1, dy = [1, 0]: dx = rstd·(g - x̂·mean(g·x̂)).
    let (dx, dw, db) = norm_bwd_reference(Norm::Rms, &[3.0, 4.0], &[1.0, 1.0], &[1.0, 0.0], 2, 0.0);
    let r = 1.0 / 12.5f64.sqrt();
    let a = 3.0 * r / 2.0;
    assert!((dx[0] - r * (1.0 - 3.0 * r * a)).abs() < 1e-15);
    assert!((dx[1] - r * (0.0 - 4.0 * r * a)).abs() < 1e-15);
    assert_eq!(dw, vec![3.0 * r, 0.0]);
    assert_eq!(db, vec![0.0, 0.0]);
    // Layer norm of a constant row: x̂ = 0, so dw = 0 and db = dy.
    let (_, dw, db) =
        norm_bwd_reference(Norm::Layer, &[2.0, 2.0], &[1.0, 1.0], &[0.5, -1.0], 2, 1e-5);
    assert_eq!((dw, db), (vec![0.0, 0.0], vec![0.5, -1.0]));
}

#[test]
fn configs_it_cannot_hold_are_typed_errors() {
    let ctx = Context::new();
    let c = RowConfig {
        num_warps: 4,
        ..RowConfig::for_n(8192, DType::F32)
    };
    let e = norm_bwd_kernel(&ctx, Target::SM90, c, Norm::Layer).unwrap_err();
    assert!(e.to_string().contains("more than 128"), "{e}");
    let bad = ColSumConfig {
        block_p: 3,
        ..ColSumConfig::new(DType::F32)
    };
    assert!(col_sum_kernel(&ctx, Target::SM90, bad).is_err());
    let bad = ColSumConfig::new(DType::I32);
    assert!(col_sum_kernel(&ctx, Target::SM90, bad).is_err());
}

#[cfg(feature = "cuda")]
#[test]
fn norm_backward_matches_f64_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        use weft::runtime::cuda::Cuda;
        for norm in [Norm::Rms, Norm::Layer] {
            backward_matches_f64::<Cuda, f32>(dev, norm, true);
            backward_matches_f64::<Cuda, bf16>(dev, norm, true);
            backward_matches_f64::<Cuda, f16>(dev, norm, true);
        }
    });
}
