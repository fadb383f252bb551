//! Planning speed: a typical 2-D conversion (64×64 f16, 4 warps, row-major blocked → column-major blocked,
//! shared memory with the swizzle search and instruction tiles) and an MMA v2 → blocked one.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use weft::layout::convert::{classify, plan_conversion, plan_shared, plan_shuffle, Target};
use weft::layout::LinearLayout;

fn ll(reg: &[[u64; 2]], lane: &[[u64; 2]], warp: &[[u64; 2]], shape: [u64; 2]) -> LinearLayout {
    let v = |b: &[[u64; 2]]| b.iter().map(|x| x.to_vec()).collect::<Vec<_>>();
    LinearLayout::from_bases(
        [
            ("register", v(reg)),
            ("lane", v(lane)),
            ("warp", v(warp)),
            ("block", vec![]),
        ],
        [("dim0", shape[0]), ("dim1", shape[1])],
        true,
    )
    .unwrap()
}

fn bench(c: &mut Criterion) {
    // blocked sizePerThread [1, 8], threadsPerWarp [4, 8], warpsPerCTA [4, 1], order [1, 0] on 64×64.
    let src = ll(
        &[[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]],
        &[[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]],
        &[[4, 0], [8, 0]],
        [64, 64],
    );
    // blocked sizePerThread [8, 1], threadsPerWarp [8, 4], warpsPerCTA [1, 4], order [0, 1].
    let dst = ll(
        &[[1, 0], [2, 0], [4, 0], [0, 16], [0, 32]],
        &[[8, 0], [16, 0], [32, 0], [0, 1], [0, 2]],
        &[[0, 4], [0, 8]],
        [64, 64],
    );
    c.bench_function("plan 64x64 f16 blocked transpose (sm_90)", |b| {
        b.iter(|| plan_conversion(black_box(&src), black_box(&dst), 16, Target::SM90).unwrap())
    });
    // MMA v2 accumulator (16×8 tiles, 4 warps along M) → blocked on 64×64 f16.
    let mma = ll(
        &[[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]],
        &[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
        &[[16, 0], [32, 0]],
        [64, 64],
    );
    c.bench_function("plan 64x64 f16 mma_v2 -> blocked (sm_80)", |b| {
        b.iter(|| plan_conversion(black_box(&mma), black_box(&src), 16, Target::SM80).unwrap())
    });
    // The parts, to see where the time goes.
    c.bench_function("  classify (transpose)", |b| {
        b.iter(|| classify(black_box(&src), black_box(&dst)).unwrap())
    });
    c.bench_function("  plan_shared (transpose, sm_90)", |b| {
        b.iter(|| plan_shared(black_box(&src), black_box(&dst), 16, Target::SM90).unwrap())
    });
    c.bench_function("  plan_shuffle (mma_v2 -> blocked)", |b| {
        b.iter(|| plan_shuffle(black_box(&mma), black_box(&src), 16))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
