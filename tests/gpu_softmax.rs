//! `kernels::softmax_kernel` against an f64 host softmax: random inputs in [-4, 4) (never zeros),
//! odd row counts and row lengths (17, 1000, 4096, 12345, a single column), rows per program,
//! threads beyond the tile, wide tiles and weak divisibility promises; outputs poisoned first
//! (0xFF bytes = NaN), every element held to a relative error ≤ 1e-5 (`check::tol(F32)`, relative
//! only: the outputs are positive), and the poison past the end checked to be intact.
//!
//! Written once over the runtime's `Backend` traits: every test runs on the CPU backend (the
//! interpreter) with 1–37 rows per case, and on a CUDA GPU when there is one with the full rows
//! (up to 1001, and n = 16384), printing the largest error. Without a GPU the GPU tests print
//! `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, f32_bits, poison_intact, tol, widen, Tol};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use weft::codegen::kernels::{softmax_kernel, softmax_reference, SoftmaxConfig};
use weft::codegen::{Context, DType, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs};

/// Softmax outputs are positive and as small as e⁻⁸/n: the f32 relative bound alone.
fn bound() -> Tol {
    Tol {
        abs: 0.0,
        ..tol(DType::F32)
    }
}

/// Runs the kernel of `c` on a random `m × n` matrix on `dev`; returns the max relative error.
fn run<B: Backend>(dev: &B::Device, c: SoftmaxConfig, m: usize, n: usize, seed: u64) -> f64 {
    let what = format!("softmax {m} × {n}, {c:?}");
    c.check_shape(m, n)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let ctx = Context::new();
    let k = softmax_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let kernel = load::<B>(dev, &k, &what);
    let x = Rng(seed).vec(m * n);
    let dx = dev.upload(&x).unwrap();
    let y = poisoned::<B, f32>(dev, m * n);
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&y).scalar(m as i32).scalar(n as i32);
    // SAFETY: the kernel reads x[r * n + j] and writes y[r * n + j] for r < m, j < n only (masked);
    // x holds m * n f32 and y m * n + PAD.
    unsafe { launch::<B>(dev, &kernel, c.grid(m), &args, &what) };
    let out = y.to_vec().unwrap();
    let worst = close(&widen(&out), &softmax_reference(&x, n), bound(), &what);
    poison_intact(&out, m * n, f32_bits, &what);
    println!("{what} on {}: max relative error {worst:.2e}", B::KIND);
    worst
}

/// (config, m, n): n not a multiple of 16 gets scalar accesses (n_divisibility from `for_n`).
/// On the GPU, many rows; in the interpreter, fewer (still ragged against rows per program).
fn odd_shapes(on_gpu: bool) -> Vec<(SoftmaxConfig, usize, usize)> {
    let f = SoftmaxConfig::for_n;
    let rows = |gpu: usize, cpu: usize| if on_gpu { gpu } else { cpu };
    let mut cases = vec![
        (f(1000, 2, 4, 4), rows(37, 3), 1000),
        (f(1000, 1, 4, 8), 1, 1000),
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
        cases.push((f(16384, 1, 4, 16), 9, 16384));
    }
    cases
}

fn softmax_matches_f64_on_odd_shapes<B: Backend>(dev: &B::Device, on_gpu: bool) {
    let mut worst = 0.0f64;
    for (i, (c, m, n)) in odd_shapes(on_gpu).into_iter().enumerate() {
        worst = worst.max(run::<B>(dev, c, m, n, 300 + i as u64));
    }
    println!(
        "softmax on {}: max relative error over all cases {worst:.2e} (bound {:.0e})",
        B::KIND,
        bound().rel
    );
}

/// A row shorter than the tile: block_n larger than the next power of two still works (more
/// masked columns), and so does n a multiple of 16 built for any n (n_divisibility 1).
/// `rows`: the two cases' row counts.
fn softmax_with_wide_tiles_and_weak_promises<B: Backend>(dev: &B::Device, rows: [usize; 2]) {
    let wide = SoftmaxConfig {
        block_n: 2048,
        ..SoftmaxConfig::for_n(1000, 2, 4, 4)
    };
    run::<B>(dev, wide, rows[0], 1000, 400);
    let weak = SoftmaxConfig {
        n_divisibility: 1,
        ..SoftmaxConfig::for_n(4096, 1, 4, 8)
    };
    run::<B>(dev, weak, rows[1], 4096, 401);
}

#[test]
fn softmax_matches_f64_on_odd_shapes_in_the_interpreter() {
    softmax_matches_f64_on_odd_shapes::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn softmax_with_wide_tiles_and_weak_promises_in_the_interpreter() {
    softmax_with_wide_tiles_and_weak_promises::<Cpu>(&common::gpu::cpu(), [3, 2]);
}

#[cfg(feature = "cuda")]
#[test]
fn softmax_matches_f64_on_odd_shapes_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        softmax_matches_f64_on_odd_shapes::<weft::runtime::cuda::Cuda>(dev, true)
    });
}

#[cfg(feature = "cuda")]
#[test]
fn softmax_with_wide_tiles_and_weak_promises_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        softmax_with_wide_tiles_and_weak_promises::<weft::runtime::cuda::Cuda>(dev, [19, 21])
    });
}
