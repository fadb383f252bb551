//! `kernels::layernorm_kernel` on the GPU: random inputs in [-4, 4), random weights in
//! [0.5, 1.5) and biases in [-1, 1), odd row counts and row lengths (17, 1000, 1001, 4096,
//! 12345, 16384, a single column), outputs poisoned first (0xFF bytes = NaN), every element
//! compared with an f64 host layer norm, and the poison past the end checked to be intact.
//! Without a driver or GPU every test prints `SKIP: <reason>` and passes.
//!
//! The error bound: layer-norm outputs cross zero, so a plain relative error means nothing
//! near 0; each element is held to `|got - want| ≤ 1e-5 · max(|want|, 1)` (relative for
//! `|y| ≥ 1`, absolute below; the outputs here are of order 1).
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use common::gpu::device;
use common::rng::Rng;
use weft::codegen::kernels::{layernorm_kernel, layernorm_reference, LayernormConfig};
use weft::codegen::{Context, Target};
use weft::runtime::cuda::Device;
use weft::runtime::prelude::*;
use weft::runtime::{KernelArgs, LaunchConfig};

const POISON: u32 = 0xFFFF_FFFF;
/// Elements allocated past the output, which must keep the poison.
const PAD: usize = 64;
/// The largest error allowed against the f64 layer norm, relative to `max(|y|, 1)`.
const MAX_REL: f64 = 1e-5;
/// PyTorch's default.
const EPS: f32 = 1e-5;

/// Runs the kernel of `c` on a random `m × n` matrix `x` plus `offset` (a row mean far from 0
/// tests the centred variance); returns the max error.
fn run(dev: &Device, c: LayernormConfig, m: usize, n: usize, offset: f32, seed: u64) -> f64 {
    let what = format!("layernorm {m} × {n} (+{offset}), {c:?}");
    c.check_shape(m, n)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let ctx = Context::new();
    let k = layernorm_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let sig = k.signature().clone();
    let kernel = dev
        .load_ptx(&k.ptx().unwrap())
        .unwrap_or_else(|e| panic!("{what}: load: {e}"))
        .kernel(sig.clone())
        .unwrap();
    let mut rng = Rng(seed);
    let x: Vec<f32> = rng.vec(m * n).into_iter().map(|v| v + offset).collect();
    let w: Vec<f32> = (0..n).map(|_| rng.uniform(0.5, 1.5) as f32).collect();
    let b: Vec<f32> = (0..n).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
    let dx = dev.upload(&x).unwrap();
    let dw = dev.upload(&w).unwrap();
    let db = dev.upload(&b).unwrap();
    let mut y = dev.alloc::<f32>(m * n + PAD).unwrap();
    y.fill_bytes(0xFF).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx)
        .ptr(&y)
        .ptr(&dw)
        .ptr(&db)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(EPS);
    let cfg = LaunchConfig::for_kernel(c.grid(m), &sig).unwrap();
    let stream = dev.stream();
    // SAFETY: the kernel reads x[r * n + j], w[j], b[j] and writes y[r * n + j] for r < m,
    // j < n only (masked); x holds m * n f32, w and b n, y m * n + PAD.
    unsafe { stream.launch(&kernel, &cfg, &args) }.unwrap_or_else(|e| panic!("{what}: {e}"));
    stream.synchronize().unwrap();
    let out = y.to_vec().unwrap();
    let want = layernorm_reference(&x, &w, &b, n, EPS);
    let mut worst = 0.0f64;
    let mut bad = 0;
    for (i, (&g, &w)) in out.iter().zip(&want).enumerate() {
        let err = (g as f64 - w).abs() / w.abs().max(1.0);
        if err.is_nan() || err > MAX_REL {
            if bad < 5 {
                eprintln!(
                    "{what}: row {} col {}: got {g}, want {w} (err {err:.2e})",
                    i / n,
                    i % n
                );
            }
            bad += 1;
        } else {
            worst = worst.max(err);
        }
    }
    assert_eq!(bad, 0, "{what}: {bad} of {} elements differ", want.len());
    for (i, g) in out[m * n..].iter().enumerate() {
        assert_eq!(
            g.to_bits(),
            POISON,
            "{what}: element {i} past the end was written"
        );
    }
    println!("{what}: max error {worst:.2e}");
    worst
}

#[test]
fn layernorm_matches_f64_on_odd_shapes() {
    let Some(dev) = device() else { return };
    let f = LayernormConfig::for_n;
    // (config, m, n): n not a multiple of 16 gets narrower accesses (n_divisibility from for_n).
    let cases = [
        (f(1000, 2, 4, 4), 37, 1000),
        (f(1000, 1, 4, 8), 1, 1000),
        (f(1001, 1, 4, 8), 37, 1001),
        (f(17, 16, 1, 4), 1001, 17),
        // Threads beyond the tile: lanes and warps hold copies.
        (f(17, 1, 4, 4), 33, 17),
        (f(4096, 1, 4, 8), 65, 4096),
        (f(4096, 2, 8, 4), 65, 4096),
        (f(4096, 4, 4, 16), 3, 4096),
        (f(16, 8, 4, 1), 3, 16),
        (f(1, 32, 1, 1), 5, 1),
        (f(12345, 1, 2, 16), 7, 12345),
        (f(16384, 1, 4, 16), 3, 16384),
        (f(16384, 1, 4, 32), 5, 16384),
        (f(16384, 2, 4, 32), 5, 16384),
    ];
    let mut worst = 0.0f64;
    for (i, &(c, m, n)) in cases.iter().enumerate() {
        worst = worst.max(run(&dev, c, m, n, 0.0, 500 + i as u64));
    }
    println!("layernorm: max error over all cases {worst:.2e} (bound {MAX_REL:.0e})");
}

/// A row shorter than the tile (more masked columns, which must not count in the mean or the
/// variance), n a multiple of 16 built for any n (n_divisibility 1), and rows whose mean is far
/// from 0 (the variance is taken of the centred values, so the offset does not cancel it away).
#[test]
fn layernorm_with_wide_tiles_weak_promises_and_offsets() {
    let Some(dev) = device() else { return };
    let wide = LayernormConfig {
        block_n: 2048,
        ..LayernormConfig::for_n(1000, 2, 4, 4)
    };
    run(&dev, wide, 19, 1000, 0.0, 600);
    let weak = LayernormConfig {
        n_divisibility: 1,
        ..LayernormConfig::for_n(4096, 1, 4, 8)
    };
    run(&dev, weak, 21, 4096, 0.0, 601);
    run(
        &dev,
        LayernormConfig::for_n(1000, 2, 4, 4),
        37,
        1000,
        8.0,
        602,
    );
    // w and b loaded after the statistics.
    let late = LayernormConfig {
        params_first: false,
        ..LayernormConfig::for_n(1000, 2, 4, 4)
    };
    run(&dev, late, 37, 1000, 8.0, 603);
    // A register limit that makes ptxas spill.
    let tight = LayernormConfig {
        max_registers: Some(24),
        ..LayernormConfig::for_n(4096, 1, 4, 8)
    };
    run(&dev, tight, 13, 4096, 1.0, 604);
}
