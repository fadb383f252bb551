//! criterion benches of the layout algebra on layouts of 16 input bits and two output dims (the targets of
//! issue 2: apply ≤ 10 ns, compose and `*` ≤ 100 ns, invert and invert_and_compose ≤ 300 ns). Baseline: the
//! same `apply` on Triton-style unpacked bases (`Vec<Vec<u64>>`, one XOR per out dim per set bit), in the same
//! run. Results go to BENCHMARKS.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use weft::layout::{Dim, LinearLayout};

#[path = "common/cpu_time.rs"]
mod cpu_time;
use cpu_time::ThreadCpu;

/// An MMA-like invertible layout: 16 input bits (register 4, lane 5, warp 4, block 3) onto 256 × 256,
/// with a swizzle-like non-unit basis so solves do real elimination.
fn mma_like(names: [&str; 4]) -> LinearLayout {
    let u = |d0: u64, d1: u64| vec![d0, d1];
    LinearLayout::from_bases(
        [
            (names[0], vec![u(0, 1), u(8, 0), u(0, 8), u(0, 16)]),
            (names[1], vec![u(0, 2), u(0, 4), u(1, 0), u(2, 0), u(4, 0)]),
            (names[2], vec![u(16, 0), u(32, 1), u(64, 0), u(128, 0)]),
            (names[3], vec![u(0, 32), u(0, 64), u(3, 128)]),
        ],
        [("dim0", 256), ("dim1", 256)],
        true,
    )
    .unwrap()
}

/// A shared-memory-like layout: `offset` (16 bits) onto the same 256 × 256 tile, XOR-swizzled.
fn shared_like() -> LinearLayout {
    let mut bases = Vec::new();
    for c in 0..8 {
        bases.push(vec![0, 1u64 << c]);
    }
    for r in 0..8 {
        bases.push(vec![1u64 << r, (1u64 << r) & 0xff]);
    }
    LinearLayout::from_bases([("offset", bases)], [("dim0", 256), ("dim1", 256)], true).unwrap()
}

fn benches(c: &mut Criterion<ThreadCpu>) {
    let reg = mma_like(["register", "lane", "warp", "block"]);
    let other = mma_like(["block", "warp", "lane", "register"])
        .transpose_ins(&["register", "lane", "warp", "block"])
        .unwrap();
    let shared = shared_like();
    assert_eq!(reg.total_in_bits(), 16);
    assert!(reg.is_invertible() && shared.is_invertible());

    let mut g = c.benchmark_group("layout");
    let mut x = 0u64;
    g.bench_function("apply_packed (16 bits)", |b| {
        b.iter(|| {
            x = (x + 0x9e37) & 0xffff;
            black_box(reg.apply_packed(black_box(x)))
        })
    });
    let named = [("register", 5u64), ("lane", 17), ("warp", 9), ("block", 3)];
    g.bench_function("apply named (16 bits)", |b| {
        b.iter(|| black_box(reg.apply(black_box(&named)).unwrap()))
    });
    let keyed = [
        (Dim::REGISTER, 5u64),
        (Dim::LANE, 17),
        (Dim::WARP, 9),
        (Dim::BLOCK, 3),
    ];
    g.bench_function("apply named, Dim keys (16 bits)", |b| {
        b.iter(|| black_box(reg.apply(black_box(&keyed)).unwrap()))
    });
    // Baseline: Triton's representation and loop.
    let bases: Vec<Vec<u64>> = reg.all_bases().into_iter().flat_map(|(_, b)| b).collect();
    g.bench_function("baseline: apply on unpacked bases", |b| {
        b.iter(|| {
            x = (x + 0x9e37) & 0xffff;
            let x = black_box(x);
            let mut out = [0u64; 2];
            for (k, basis) in bases.iter().enumerate() {
                if x >> k & 1 == 1 {
                    for (o, v) in out.iter_mut().zip(basis) {
                        *o ^= v;
                    }
                }
            }
            black_box(out)
        })
    });
    let to_offset = shared.invert().unwrap();
    g.bench_function("compose (16 -> 16 -> 16 bits)", |b| {
        b.iter(|| black_box(black_box(&reg).compose(black_box(&to_offset)).unwrap()))
    });
    let lo = reg
        .sublayout(&["register", "lane"], &["dim0", "dim1"])
        .unwrap();
    let hi = reg
        .sublayout(&["warp", "block"], &["dim0", "dim1"])
        .unwrap();
    g.bench_function("product (9 x 7 bits)", |b| {
        b.iter(|| black_box((black_box(&lo) * black_box(&hi)).unwrap()))
    });
    g.bench_function("invert (16 bits)", |b| {
        b.iter(|| black_box(black_box(&reg).invert().unwrap()))
    });
    g.bench_function("invert_and_compose reg->shared (16 bits)", |b| {
        b.iter(|| {
            black_box(
                black_box(&reg)
                    .invert_and_compose(black_box(&shared))
                    .unwrap(),
            )
        })
    });
    g.bench_function("invert_and_compose reg->reg (16 bits, shared dims)", |b| {
        b.iter(|| {
            black_box(
                black_box(&reg)
                    .invert_and_compose(black_box(&other))
                    .unwrap(),
            )
        })
    });
    g.finish();
}

criterion_group! {
    name = layout;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = benches
}
criterion_main!(layout);
