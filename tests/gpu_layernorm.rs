//! `kernels::layernorm_kernel` against an f64 host layer norm: random inputs in [-4, 4), random
//! weights in [0.5, 1.5) and biases in [-1, 1), odd row counts and row lengths (17, 1000, 1001,
//! 4096, 12345, 16384, a single column), rows per program, wide tiles, weak divisibility
//! promises, row means far from zero, parameters loaded late, a register limit that spills;
//! outputs poisoned first (0xFF bytes = NaN), every element compared, and the poison past the
//! end checked to be intact.
//!
//! The error bound: layer-norm outputs cross zero, so a plain relative error means nothing
//! near 0; each element is held to `|got - want| ≤ 1e-5 · max(|want|, 1)` (the f32 relative bound
//! of `check::tol`, taken absolute below `|y| = 1`; the outputs here are of order 1).
//!
//! Written once over the runtime's `Backend` traits: every test runs on the CPU backend (the
//! interpreter) with 1–37 rows per case, and on a CUDA GPU when there is one with the full rows
//! (up to 1001), printing the largest error. Without a GPU the GPU tests print `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, f32_bits, poison_intact, tol, widen, Tol};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use weft::codegen::kernels::{layernorm_kernel, layernorm_reference, LayernormConfig};
use weft::codegen::{Context, DType, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs};

/// PyTorch's default.
const EPS: f32 = 1e-5;

/// The f32 relative bound, absolute below |y| = 1.
fn bound() -> Tol {
    let t = tol(DType::F32);
    Tol { abs: t.rel, ..t }
}

/// Runs the kernel of `c` on a random `m × n` matrix `x` plus `offset` (a row mean far from 0
/// tests the centred variance); returns the max error.
fn run<B: Backend>(
    dev: &B::Device,
    c: LayernormConfig,
    m: usize,
    n: usize,
    offset: f32,
    seed: u64,
) -> f64 {
    let what = format!("layernorm {m} × {n} (+{offset}), {c:?}");
    c.check_shape(m, n)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let ctx = Context::new();
    let k = layernorm_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let kernel = load::<B>(dev, &k, &what);
    let mut rng = Rng(seed);
    let x: Vec<f32> = rng.vec(m * n).into_iter().map(|v| v + offset).collect();
    let w: Vec<f32> = (0..n).map(|_| rng.uniform(0.5, 1.5) as f32).collect();
    let b: Vec<f32> = (0..n).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
    let dx = dev.upload(&x).unwrap();
    let dw = dev.upload(&w).unwrap();
    let db = dev.upload(&b).unwrap();
    let y = poisoned::<B, f32>(dev, m * n);
    let mut args = KernelArgs::new();
    args.ptr(&dx)
        .ptr(&y)
        .ptr(&dw)
        .ptr(&db)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(EPS);
    // SAFETY: the kernel reads x[r * n + j], w[j], b[j] and writes y[r * n + j] for r < m,
    // j < n only (masked); x holds m * n f32, w and b n, y m * n + PAD.
    unsafe { launch::<B>(dev, &kernel, c.grid(m), &args, &what) };
    let out = y.to_vec().unwrap();
    let want = layernorm_reference(&x, &w, &b, n, EPS);
    let worst = close(&widen(&out), &want, bound(), &what);
    poison_intact(&out, m * n, f32_bits, &what);
    println!("{what} on {}: max error {worst:.2e}", B::KIND);
    worst
}

/// (config, m, n): n not a multiple of 16 gets narrower accesses (n_divisibility from `for_n`).
/// On the GPU, many rows; in the interpreter, fewer (still ragged against rows per program).
fn odd_shapes(on_gpu: bool) -> Vec<(LayernormConfig, usize, usize)> {
    let f = LayernormConfig::for_n;
    let rows = |gpu: usize, cpu: usize| if on_gpu { gpu } else { cpu };
    let mut cases = vec![
        (f(1000, 2, 4, 4), rows(37, 3), 1000),
        (f(1000, 1, 4, 8), 1, 1000),
        (f(1001, 1, 4, 8), rows(37, 2), 1001),
        (f(17, 16, 1, 4), rows(1001, 37), 17),
        // Threads beyond the tile: lanes and warps hold copies.
        (f(17, 1, 4, 4), rows(33, 3), 17),
        (f(4096, 1, 4, 8), rows(65, 2), 4096),
        (f(4096, 2, 8, 4), rows(65, 3), 4096),
        (f(4096, 4, 4, 16), 3, 4096),
        (f(16, 8, 4, 1), 3, 16),
        (f(1, 32, 1, 1), 5, 1),
        (f(12345, 1, 2, 16), rows(7, 1), 12345),
    ];
    if on_gpu {
        cases.extend([
            (f(16384, 1, 4, 16), 3, 16384),
            (f(16384, 1, 4, 32), 5, 16384),
        ]);
    }
    cases.push((f(16384, 2, 4, 32), rows(5, 1), 16384));
    cases
}

fn layernorm_matches_f64_on_odd_shapes<B: Backend>(dev: &B::Device, on_gpu: bool) {
    let mut worst = 0.0f64;
    for (i, (c, m, n)) in odd_shapes(on_gpu).into_iter().enumerate() {
        worst = worst.max(run::<B>(dev, c, m, n, 0.0, 500 + i as u64));
    }
    println!(
        "layernorm on {}: max error over all cases {worst:.2e} (bound {:.0e})",
        B::KIND,
        bound().rel
    );
}

/// A row shorter than the tile (more masked columns, which must not count in the mean or the
/// variance), n a multiple of 16 built for any n (n_divisibility 1), and rows whose mean is far
/// from 0 (the variance is taken of the centred values, so the offset does not cancel it away).
/// `rows`: the five cases' row counts.
fn layernorm_with_wide_tiles_weak_promises_and_offsets<B: Backend>(
    dev: &B::Device,
    rows: [usize; 5],
) {
    let wide = LayernormConfig {
        block_n: 2048,
        ..LayernormConfig::for_n(1000, 2, 4, 4)
    };
    run::<B>(dev, wide, rows[0], 1000, 0.0, 600);
    let weak = LayernormConfig {
        n_divisibility: 1,
        ..LayernormConfig::for_n(4096, 1, 4, 8)
    };
    run::<B>(dev, weak, rows[1], 4096, 0.0, 601);
    let plain = LayernormConfig::for_n(1000, 2, 4, 4);
    run::<B>(dev, plain, rows[2], 1000, 8.0, 602);
    // w and b loaded after the statistics.
    let late = LayernormConfig {
        params_first: false,
        ..plain
    };
    run::<B>(dev, late, rows[3], 1000, 8.0, 603);
    // A register limit that makes ptxas spill.
    let tight = LayernormConfig {
        max_registers: Some(24),
        ..LayernormConfig::for_n(4096, 1, 4, 8)
    };
    run::<B>(dev, tight, rows[4], 4096, 1.0, 604);
}

#[test]
fn layernorm_matches_f64_on_odd_shapes_in_the_interpreter() {
    layernorm_matches_f64_on_odd_shapes::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn layernorm_with_wide_tiles_weak_promises_and_offsets_in_the_interpreter() {
    layernorm_with_wide_tiles_weak_promises_and_offsets::<Cpu>(
        &common::gpu::cpu(),
        [3, 2, 3, 3, 2],
    );
}

#[cfg(feature = "cuda")]
#[test]
fn layernorm_matches_f64_on_odd_shapes_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        layernorm_matches_f64_on_odd_shapes::<weft::runtime::cuda::Cuda>(dev, true)
    });
}

#[cfg(feature = "cuda")]
#[test]
fn layernorm_with_wide_tiles_weak_promises_and_offsets_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        layernorm_with_wide_tiles_weak_promises_and_offsets::<weft::runtime::cuda::Cuda>(
            dev,
            [19, 21, 37, 37, 13],
        )
    });
}
