//! Shared-memory reuse on the GPU (sm_90): kernels whose op scratch and buffers share bytes,
//! on random data against the host. Back-to-back conversions (and conversions in a loop after
//! them), three reductions across warps in a row, a buffer freed and its bytes given to the next,
//! and a replicated warp role reusing its own scratch copies. Written to be run under
//! `compute-sanitizer --tool racecheck` too: a missing barrier between the last reads of one user
//! of the bytes and the first writes of the next is a race it reports. Without a driver or GPU
//! every test prints `SKIP: <reason>` and passes.
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use common::gpu::device;
use common::reuse::{chain_kernel, column_stats_kernel, free_reuse_kernel, replica_stats_kernel};
use common::rng::Rng;
use weft::codegen::{Context, Kernel, Target};
use weft::runtime::prelude::*;

/// Runs `k(x, y)` with `ylen` outputs on one CTA; returns `y`.
fn run(dev: &weft::runtime::cuda::Device, k: &Kernel<'_>, x: &[f32], ylen: usize) -> Vec<f32> {
    // Every kernel here reads x[0..x.len()) and writes y[0..ylen).
    common::gpu::run_one_cta(dev, k, x, ylen)
}

/// Random `f32` in [-64, 64) on a 1/8 grid: sums of 64 are exact.
fn data(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| (rng.next_u64() % 1024) as f32 / 8.0 - 64.0)
        .collect()
}

#[test]
fn back_to_back_conversions_reuse_their_scratch() {
    let Some(dev) = device() else { return };
    let ctx = Context::new();
    let mut rng = Rng(3);
    for hops in 1..=4 {
        for iters in [0, 3] {
            let k = chain_kernel(&ctx, Target::SM90, hops, iters).unwrap();
            let x = data(&mut rng, 4096);
            let y = run(&dev, &k, &x, 4096);
            for i in 0..4096 {
                assert_eq!(
                    y[i],
                    x[i] + iters as f32,
                    "{hops} hops, {iters} iterations, y[{i}]"
                );
            }
        }
    }
    println!("conversion chains: 1 to 4 hops, with and without a loop, match the host");
}

#[test]
fn back_to_back_reductions_reuse_their_scratch() {
    let Some(dev) = device() else { return };
    let ctx = Context::new();
    let k = column_stats_kernel(&ctx, Target::SM90).unwrap();
    let mut rng = Rng(5);
    for round in 0..10 {
        let x = data(&mut rng, 4096);
        let y = run(&dev, &k, &x, 192);
        for c in 0..64 {
            let col: Vec<f32> = (0..64).map(|r| x[r * 64 + c]).collect();
            let sum: f32 = col.iter().sum();
            let max = col.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
            let min = col.iter().cloned().fold(f32::INFINITY, f32::min);
            assert_eq!(y[c], sum, "round {round} sum of column {c}");
            assert_eq!(y[64 + c], max, "round {round} max of column {c}");
            assert_eq!(y[128 + c], min, "round {round} min of column {c}");
        }
    }
    println!("three reductions in a row on one scratch: 10 rounds match the host");
}

#[test]
fn a_freed_buffer_is_reused_by_the_next() {
    let Some(dev) = device() else { return };
    let ctx = Context::new();
    let k = free_reuse_kernel(&ctx, Target::SM90).unwrap();
    let mut rng = Rng(8);
    for round in 0..10 {
        let x = data(&mut rng, 4096);
        let y = run(&dev, &k, &x, 4096);
        for i in 0..4096 {
            assert_eq!(y[i], 2.0 * x[i], "round {round}, y[{i}]");
        }
    }
    println!("free_shared then alloc_shared on the same bytes: 10 rounds match the host");
}

#[test]
fn replicas_reuse_their_own_scratch() {
    let Some(dev) = device() else { return };
    if !dev.target().unwrap().supports(weft::target::Feature::Wgmma) {
        println!("SKIP: warp roles with register budgets need sm_90a");
        return;
    }
    let ctx = Context::new();
    let k = replica_stats_kernel(&ctx).unwrap();
    let mut rng = Rng(13);
    for round in 0..10 {
        let x = data(&mut rng, 2 * 4096);
        let y = run(&dev, &k, &x, 256);
        for q in 0..2 {
            for c in 0..64 {
                let col: Vec<f32> = (0..64).map(|r| x[4096 * q + r * 64 + c]).collect();
                let sum: f32 = col.iter().sum();
                let max = col.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
                assert_eq!(y[128 * q + c], sum, "round {round} replica {q} sum of {c}");
                assert_eq!(
                    y[128 * q + 64 + c],
                    max,
                    "round {round} replica {q} max of {c}"
                );
            }
        }
    }
    println!("two replicas, two reductions each on their own reused scratch: match the host");
}
