//! `kernels::softmax_kernel` on the GPU: random inputs in [-4, 4) (never zeros), odd row counts
//! and row lengths (17, 1000, 4096, 12345, a single column), outputs poisoned first (0xFF bytes
//! = NaN), every element compared with an f64 host softmax (relative error ≤ 1e-5, the maximum
//! printed), and the poison past the end checked to be intact. Without a driver or GPU every test
//! prints `SKIP: <reason>` and passes.
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use common::gpu::device;
use common::rng::Rng;
use weft::codegen::kernels::{softmax_kernel, softmax_reference, SoftmaxConfig};
use weft::codegen::{Context, Target};
use weft::runtime::cuda::Device;
use weft::runtime::prelude::*;
use weft::runtime::{KernelArgs, LaunchConfig};

const POISON: u32 = 0xFFFF_FFFF;
/// Elements allocated past the output, which must keep the poison.
const PAD: usize = 64;
/// The largest relative error allowed against the f64 softmax.
const MAX_REL: f64 = 1e-5;

/// Runs the kernel of `c` on a random `m × n` matrix; returns the max relative error.
fn run(dev: &Device, c: SoftmaxConfig, m: usize, n: usize, seed: u64) -> f64 {
    let what = format!("softmax {m} × {n}, {c:?}");
    c.check_shape(m, n)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let ctx = Context::new();
    let k = softmax_kernel(&ctx, Target::SM90, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    let sig = k.signature().clone();
    let kernel = dev
        .load_ptx(&k.ptx().unwrap())
        .unwrap_or_else(|e| panic!("{what}: load: {e}"))
        .kernel(sig.clone())
        .unwrap();
    let x = Rng(seed).vec(m * n);
    let dx = dev.upload(&x).unwrap();
    let mut y = dev.alloc::<f32>(m * n + PAD).unwrap();
    y.fill_bytes(0xFF).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&y).scalar(m as i32).scalar(n as i32);
    let cfg = LaunchConfig::for_kernel(c.grid(m), &sig).unwrap();
    let stream = dev.stream();
    // SAFETY: the kernel reads x[r * n + j] and writes y[r * n + j] for r < m, j < n only (masked);
    // x holds m * n f32 and y m * n + PAD.
    unsafe { stream.launch(&kernel, &cfg, &args) }.unwrap_or_else(|e| panic!("{what}: {e}"));
    stream.synchronize().unwrap();
    let out = y.to_vec().unwrap();
    let want = softmax_reference(&x, n);
    let mut worst = 0.0f64;
    let mut bad = 0;
    for (i, (&g, &w)) in out.iter().zip(&want).enumerate() {
        let rel = (g as f64 - w).abs() / w;
        if rel.is_nan() || rel > MAX_REL {
            if bad < 5 {
                eprintln!("{what}: row {} col {}: got {g}, want {w}", i / n, i % n);
            }
            bad += 1;
        } else {
            worst = worst.max(rel);
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
    println!("{what}: max relative error {worst:.2e}");
    worst
}

#[test]
fn softmax_matches_f64_on_odd_shapes() {
    let Some(dev) = device() else { return };
    let f = SoftmaxConfig::for_n;
    // (config, m, n): n not a multiple of 16 gets scalar accesses (n_divisibility from for_n).
    let cases = [
        (f(1000, 2, 4, 4), 37, 1000),
        (f(1000, 1, 4, 8), 1, 1000),
        (f(17, 16, 1, 4), 1001, 17),
        // Threads beyond the tile: lanes and warps hold copies.
        (f(17, 1, 4, 4), 33, 17),
        (f(4096, 1, 4, 8), 65, 4096),
        (f(4096, 2, 8, 4), 65, 4096),
        (f(4096, 4, 4, 16), 3, 4096),
        (f(16, 8, 4, 1), 3, 16),
        (f(1, 32, 1, 1), 5, 1),
        (f(12345, 1, 2, 16), 7, 12345),
        (f(16384, 1, 4, 16), 9, 16384),
    ];
    let mut worst = 0.0f64;
    for (i, &(c, m, n)) in cases.iter().enumerate() {
        worst = worst.max(run(&dev, c, m, n, 300 + i as u64));
    }
    println!("softmax: max relative error over all cases {worst:.2e} (bound {MAX_REL:.0e})");
}

/// A row shorter than the tile: block_n larger than the next power of two still works (more
/// masked columns), and so does n a multiple of 16 built for any n (n_divisibility 1).
#[test]
fn softmax_with_wide_tiles_and_weak_promises() {
    let Some(dev) = device() else { return };
    let wide = SoftmaxConfig {
        block_n: 2048,
        ..SoftmaxConfig::for_n(1000, 2, 4, 4)
    };
    run(&dev, wide, 19, 1000, 400);
    let weak = SoftmaxConfig {
        n_divisibility: 1,
        ..SoftmaxConfig::for_n(4096, 1, 4, 8)
    };
    run(&dev, weak, 21, 4096, 401);
}
