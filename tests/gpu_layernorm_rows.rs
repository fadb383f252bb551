//! `kernels::layernorm_rows_kernel` (the one-pass layer norm over f32, f16 and bf16 rows, with
//! `w` and `b` of the same type) against the f64 layer norm: odd row lengths (masked columns),
//! rows per CTA leaving a ragged last CTA, `w` and `b` loaded early and late, a row mean far from
//! zero; outputs poisoned and the poison past the end checked.
//! Bound: one rounding to the type of values of order 1 (two ulps, absolute below 1).
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, poison_intact};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use common::rows::{bound, rounded, wide, RowElem};
use weft::codegen::kernels::{layernorm_reference, layernorm_rows_kernel, RowConfig};
use weft::codegen::{Context, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend, KernelArgs};

const EPS: f32 = 1e-5;

fn case<B: Backend, T: RowElem>(dev: &B::Device, c: RowConfig, m: usize, n: usize, offset: f32) {
    let what = format!("layernorm rows {m} × {n} {} (+{offset}), {c:?}", T::DTYPE);
    c.check_shape("layernorm_rows", m, n).unwrap();
    let ctx = Context::new();
    let k = layernorm_rows_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let kernel = load::<B>(dev, &k, &what);
    let mut rng = Rng((m * 11 + n) as u64);
    let x: Vec<f32> = rng.vec(m * n).iter().map(|v| v + offset).collect();
    let (xt, xf) = rounded::<T>(&x);
    let (wt, wf) = rounded::<T>(
        &(0..n)
            .map(|_| rng.uniform(0.5, 1.5) as f32)
            .collect::<Vec<_>>(),
    );
    let (bt, bf) = rounded::<T>(
        &(0..n)
            .map(|_| rng.uniform(-1.0, 1.0) as f32)
            .collect::<Vec<_>>(),
    );
    let (dx, dw, db) = (
        dev.upload(&xt).unwrap(),
        dev.upload(&wt).unwrap(),
        dev.upload(&bt).unwrap(),
    );
    let y = poisoned::<B, T>(dev, m * n);
    let mut args = KernelArgs::new();
    args.ptr(&dx)
        .ptr(&y)
        .ptr(&dw)
        .ptr(&db)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(EPS);
    // SAFETY: x and y hold m * n elements, w and b n; rows < m and columns < n only.
    unsafe { launch::<B>(dev, &kernel, c.grid(m), &args, &what) };
    let got = y.to_vec().unwrap();
    poison_intact(&got, m * n, T::bits, &what);
    let want = layernorm_reference(&xf, &wf, &bf, n, EPS);
    let worst = close(&wide(&got[..m * n]), &want, bound(T::DTYPE, 2.0), &what);
    println!("{what} on {}: max error {worst:.2e}", B::KIND);
}

fn layernorm_rows_matches_f64<B: Backend, T: RowElem>(dev: &B::Device, on_gpu: bool) {
    let rows = |g: usize, c: usize| if on_gpu { g } else { c };
    let f = |n| RowConfig::for_n(n, T::DTYPE);
    case::<B, T>(dev, f(1000), rows(37, 3), 1000, 0.0);
    case::<B, T>(
        dev,
        RowConfig {
            rows_per_cta: 2,
            ..f(1001)
        },
        rows(37, 3),
        1001,
        8.0,
    );
    case::<B, T>(
        dev,
        RowConfig {
            rows_per_cta: 4,
            per_thread: 1,
            ..f(17)
        },
        rows(1001, 9),
        17,
        0.0,
    );
    // 32 warps: w and b loaded after the statistics.
    case::<B, T>(
        dev,
        RowConfig {
            num_warps: 32,
            ..f(4096)
        },
        rows(65, 2),
        4096,
        0.0,
    );
}

#[test]
fn layernorm_rows_matches_f64_in_the_interpreter() {
    let dev = common::gpu::cpu();
    layernorm_rows_matches_f64::<Cpu, f32>(&dev, false);
    layernorm_rows_matches_f64::<Cpu, bf16>(&dev, false);
    layernorm_rows_matches_f64::<Cpu, f16>(&dev, false);
}

#[cfg(feature = "cuda")]
#[test]
fn layernorm_rows_matches_f64_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        use weft::runtime::cuda::Cuda;
        layernorm_rows_matches_f64::<Cuda, f32>(dev, true);
        layernorm_rows_matches_f64::<Cuda, bf16>(dev, true);
        layernorm_rows_matches_f64::<Cuda, f16>(dev, true);
    });
}
