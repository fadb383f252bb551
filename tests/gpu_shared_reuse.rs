//! Shared-memory reuse (sm_90): kernels whose op scratch and buffers share bytes,
//! on random data against the host. Back-to-back conversions (and conversions in a loop after
//! them), three reductions across warps in a row, a buffer freed and its bytes given to the next,
//! and a replicated warp role reusing its own scratch copies. Written to be run under
//! `compute-sanitizer --tool racecheck` too: a missing barrier between the last reads of one user
//! of the bytes and the first writes of the next is a race it reports. The data are
//! multiples of 1/8 below 64, so the sums are exact in any order and every result is compared
//! exactly.
//!
//! Written once over the runtime's `Backend` traits: every test runs on the CPU backend (the
//! interpreter: one round of random data each, where the run is also the interpreter's racecheck
//! and initcheck, and the replicas are cooperating tasks) and on a CUDA GPU when there is one
//! (ten rounds). Without a GPU the GPU tests print `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::reuse::{chain_kernel, column_stats_kernel, free_reuse_kernel, replica_stats_kernel};
use common::rng::Rng;
use weft::codegen::{Context, Kernel, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::Backend;

/// Runs `k(x, y)` with `ylen` outputs on one CTA; returns `y` (checked to keep its poison past
/// `ylen`).
fn run<B: Backend>(dev: &B::Device, k: &Kernel<'_>, x: &[f32], ylen: usize) -> Vec<f32> {
    let what = k.signature().name.clone();
    // Every kernel here reads x[0..x.len()) and writes y[0..ylen).
    let y: Vec<f32> = common::launch::run_one_cta::<B, f32, f32>(dev, k, x, ylen, &what);
    common::check::poison_intact(&y, ylen, common::check::f32_bits, &what);
    y
}

/// Random `f32` in [-64, 64) on a 1/8 grid: sums of 64 are exact.
fn data(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| (rng.next_u64() % 1024) as f32 / 8.0 - 64.0)
        .collect()
}

fn back_to_back_conversions_reuse_their_scratch<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let mut rng = Rng(3);
    for hops in 1..=4 {
        for iters in [0, 3] {
            let k = chain_kernel(&ctx, Target::SM90, hops, iters).unwrap();
            let x = data(&mut rng, 4096);
            let y = run::<B>(dev, &k, &x, 4096);
            for i in 0..4096 {
                assert_eq!(
                    y[i],
                    x[i] + iters as f32,
                    "{hops} hops, {iters} iterations, y[{i}]"
                );
            }
        }
    }
    println!(
        "conversion chains on {}: 1 to 4 hops, with and without a loop, match the host",
        B::KIND
    );
}

fn back_to_back_reductions_reuse_their_scratch<B: Backend>(dev: &B::Device, rounds: usize) {
    let ctx = Context::new();
    let k = column_stats_kernel(&ctx, Target::SM90).unwrap();
    let mut rng = Rng(5);
    for round in 0..rounds {
        let x = data(&mut rng, 4096);
        let y = run::<B>(dev, &k, &x, 192);
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
    println!(
        "three reductions in a row on one scratch on {}: {rounds} rounds match the host",
        B::KIND
    );
}

fn a_freed_buffer_is_reused_by_the_next<B: Backend>(dev: &B::Device, rounds: usize) {
    let ctx = Context::new();
    let k = free_reuse_kernel(&ctx, Target::SM90).unwrap();
    let mut rng = Rng(8);
    for round in 0..rounds {
        let x = data(&mut rng, 4096);
        let y = run::<B>(dev, &k, &x, 4096);
        for i in 0..4096 {
            assert_eq!(y[i], 2.0 * x[i], "round {round}, y[{i}]");
        }
    }
    println!(
        "free_shared then alloc_shared on the same bytes on {}: {rounds} rounds match the host",
        B::KIND
    );
}

fn replicas_reuse_their_own_scratch<B: Backend>(dev: &B::Device, rounds: usize) {
    if !dev.target().unwrap().supports(weft::target::Feature::Wgmma) {
        println!("SKIP: warp roles with register budgets need sm_90a");
        return;
    }
    let ctx = Context::new();
    let k = replica_stats_kernel(&ctx).unwrap();
    let mut rng = Rng(13);
    for round in 0..rounds {
        let x = data(&mut rng, 2 * 4096);
        let y = run::<B>(dev, &k, &x, 256);
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
    println!(
        "two replicas, two reductions each on their own reused scratch on {}: match the host",
        B::KIND
    );
}

#[test]
fn back_to_back_conversions_reuse_their_scratch_in_the_interpreter() {
    back_to_back_conversions_reuse_their_scratch::<Cpu>(&common::gpu::cpu());
}

#[test]
fn back_to_back_reductions_reuse_their_scratch_in_the_interpreter() {
    back_to_back_reductions_reuse_their_scratch::<Cpu>(&common::gpu::cpu(), 1);
}

#[test]
fn a_freed_buffer_is_reused_by_the_next_in_the_interpreter() {
    a_freed_buffer_is_reused_by_the_next::<Cpu>(&common::gpu::cpu(), 1);
}

#[test]
fn replicas_reuse_their_own_scratch_in_the_interpreter() {
    replicas_reuse_their_own_scratch::<Cpu>(&common::gpu::cpu(), 1);
}

#[cfg(feature = "cuda")]
mod on_the_gpu {
    //! The same tests on a CUDA GPU, ten rounds each.
    use weft::runtime::cuda::Cuda;

    #[test]
    fn back_to_back_conversions_reuse_their_scratch() {
        super::common::gpu::on_cuda(|dev| {
            super::back_to_back_conversions_reuse_their_scratch::<Cuda>(dev)
        });
    }

    #[test]
    fn back_to_back_reductions_reuse_their_scratch() {
        super::common::gpu::on_cuda(|dev| {
            super::back_to_back_reductions_reuse_their_scratch::<Cuda>(dev, 10)
        });
    }

    #[test]
    fn a_freed_buffer_is_reused_by_the_next() {
        super::common::gpu::on_cuda(|dev| {
            super::a_freed_buffer_is_reused_by_the_next::<Cuda>(dev, 10)
        });
    }

    #[test]
    fn replicas_reuse_their_own_scratch() {
        super::common::gpu::on_cuda(|dev| super::replicas_reuse_their_own_scratch::<Cuda>(dev, 10));
    }
}
