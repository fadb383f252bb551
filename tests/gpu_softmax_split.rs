//! The split softmax (`kernels::softmax_split_stats_kernel` then `softmax_split_apply_kernel`)
//! and the one-pass `kernels::softmax_rows_kernel` over f32 and bf16 rows against the f64
//! softmax: rows split into 2–5 chunks with a ragged last chunk, a chunk of 16 over two rows per
//! CTA, rows whose max sits in the last chunk (the online merge's rescale), poisoned outputs.
//! Bound: the softmax's f32 relative bound (1e-5; `ex2.approx` and the sums), or two ulps of
//! bf16, relative to each output (all positive).
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, poison_intact, Tol};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use common::rows::{chunked, rounded, wide, RowElem};
use weft::codegen::kernels::{
    softmax_reference, softmax_rows_kernel, softmax_split_apply_kernel, softmax_split_grid,
    softmax_split_stats_kernel, RowConfig,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, KernelArgs};

fn tol(dtype: DType) -> Tol {
    let rel = if dtype == DType::F32 {
        1e-5
    } else {
        2.0 / 256.0
    };
    Tol { rel, abs: 0.0 }
}

/// Random rows in [-8, 8), row 0 rising to its end (its max in the last chunk).
fn input<T: RowElem>(m: usize, n: usize) -> (Vec<T>, Vec<f32>) {
    let mut x: Vec<f32> = Rng((m * 3 + n) as u64)
        .vec(m * n)
        .iter()
        .map(|v| 2.0 * v)
        .collect();
    for (j, v) in x[..n].iter_mut().enumerate() {
        *v = 16.0 * j as f32 / n as f32 - 8.0;
    }
    rounded::<T>(&x)
}

fn split<B: Backend, T: RowElem>(dev: &B::Device, c: RowConfig, m: usize, n: usize) {
    let what = format!("split softmax {m} × {n} {}, {c:?}", T::DTYPE);
    let ctx = Context::new();
    let stats =
        softmax_split_stats_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let apply =
        softmax_split_apply_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let (stats, apply) = (load::<B>(dev, &stats, &what), load::<B>(dev, &apply, &what));
    let (xt, xf) = input::<T>(m, n);
    let grid = softmax_split_grid(&c, m, n);
    let splits = grid.1 as usize;
    assert!(splits >= 2, "{what}: {splits} split");
    let dx = dev.upload(&xt).unwrap();
    let pmax = poisoned::<B, f32>(dev, m * splits);
    let psum = poisoned::<B, f32>(dev, m * splits);
    let y = poisoned::<B, T>(dev, m * n);
    let mut args = KernelArgs::new();
    args.ptr(&dx)
        .ptr(&pmax)
        .ptr(&psum)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(splits as i32);
    // SAFETY: x holds m * n elements, the partials m * splits; rows < m, columns < n only.
    unsafe { launch::<B>(dev, &stats, grid, &args, &what) };
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&pmax).ptr(&psum).ptr(&y);
    args.scalar(m as i32).scalar(n as i32).scalar(splits as i32);
    // SAFETY: as above; y holds m * n elements.
    unsafe { launch::<B>(dev, &apply, grid, &args, &what) };
    let got = y.to_vec().unwrap();
    poison_intact(&got, m * n, T::bits, &what);
    let worst = close(
        &wide(&got[..m * n]),
        &softmax_reference(&xf, n),
        tol(T::DTYPE),
        &what,
    );
    println!("{what} on {}: max rel error {worst:.2e}", B::KIND);
}

fn one_pass<B: Backend, T: RowElem>(dev: &B::Device, c: RowConfig, m: usize, n: usize) {
    let what = format!("softmax rows {m} × {n} {}, {c:?}", T::DTYPE);
    c.check_shape("softmax_rows", m, n).unwrap();
    let ctx = Context::new();
    let k = softmax_rows_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let got: Vec<T> = common::launch::run_xy::<B, T, T>(
        dev,
        &k,
        c.grid(m),
        &input::<T>(m, n).0,
        m * n,
        m,
        n,
        &what,
    );
    poison_intact(&got, m * n, T::bits, &what);
    let worst = close(
        &wide(&got[..m * n]),
        &softmax_reference(&input::<T>(m, n).1, n),
        tol(T::DTYPE),
        &what,
    );
    println!("{what} on {}: max rel error {worst:.2e}", B::KIND);
}

fn softmax_matches_f64<B: Backend, T: RowElem>(dev: &B::Device, on_gpu: bool) {
    let rows = |g: usize, c: usize| if on_gpu { g } else { c };
    let chunk = |block_n, num_warps, rows_per_cta, n| {
        chunked(T::DTYPE, n, block_n, num_warps, rows_per_cta)
    };
    split::<B, T>(dev, chunk(256, 2, 1, 1000), rows(37, 3), 1000);
    split::<B, T>(dev, chunk(1024, 4, 1, 4099), rows(33, 2), 4099);
    split::<B, T>(dev, chunk(16, 1, 2, 33), rows(101, 5), 33);
    // 65 chunks: the partials merge in two steps of 64 (the second of one partial).
    split::<B, T>(dev, chunk(32, 1, 2, 2053), rows(29, 3), 2053);
    one_pass::<B, T>(dev, RowConfig::for_n(1000, T::DTYPE), rows(37, 3), 1000);
    one_pass::<B, T>(
        dev,
        RowConfig {
            rows_per_cta: 4,
            per_thread: 1,
            ..RowConfig::for_n(17, T::DTYPE)
        },
        rows(101, 9),
        17,
    );
}

#[test]
fn softmax_split_and_rows_match_f64_in_the_interpreter() {
    let dev = common::gpu::cpu();
    softmax_matches_f64::<Cpu, f32>(&dev, false);
    softmax_matches_f64::<Cpu, bf16>(&dev, false);
}

#[cfg(feature = "cuda")]
#[test]
fn softmax_split_and_rows_match_f64_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        use weft::runtime::cuda::Cuda;
        softmax_matches_f64::<Cuda, f32>(dev, true);
        softmax_matches_f64::<Cuda, bf16>(dev, true);
    });
}
