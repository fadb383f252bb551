//! criterion benches of the layout algebra on layouts of 16 input bits and two output dims (the targets of
//! issue 2: apply ≤ 10 ns, compose and `*` ≤ 100 ns, invert and invert_and_compose ≤ 300 ns). Baseline: the
//! same `apply` on Triton-style unpacked bases (`Vec<Vec<u64>>`, one XOR per out dim per set bit), in the same
//! run. Results go to BENCHMARKS.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

#[path = "common/cpu_time.rs"]
mod cpu_time;
use cpu_time::ThreadCpu;

#[path = "common/layouts.rs"]
mod layouts;
use layouts::{apply_unpacked, Workloads, KEYED, NAMED};

fn benches(c: &mut Criterion<ThreadCpu>) {
    let w = Workloads::new();
    let (reg, other, shared) = (&w.reg, &w.other, &w.shared);
    let mut g = c.benchmark_group("layout");
    let mut x = 0u64;
    g.bench_function("apply_packed (16 bits)", |b| {
        b.iter(|| {
            x = (x + 0x9e37) & 0xffff;
            black_box(reg.apply_packed(black_box(x)))
        })
    });
    g.bench_function("apply named (16 bits)", |b| {
        b.iter(|| black_box(reg.apply(black_box(&NAMED)).unwrap()))
    });
    g.bench_function("apply named, Dim keys (16 bits)", |b| {
        b.iter(|| black_box(reg.apply(black_box(&KEYED)).unwrap()))
    });
    g.bench_function("baseline: apply on unpacked bases", |b| {
        b.iter(|| {
            x = (x + 0x9e37) & 0xffff;
            black_box(apply_unpacked(&w.unpacked, black_box(x)))
        })
    });
    g.bench_function("compose (16 -> 16 -> 16 bits)", |b| {
        b.iter(|| black_box(black_box(reg).compose(black_box(&w.to_offset)).unwrap()))
    });
    g.bench_function("product (9 x 7 bits)", |b| {
        b.iter(|| black_box((black_box(&w.lo) * black_box(&w.hi)).unwrap()))
    });
    g.bench_function("invert (16 bits)", |b| {
        b.iter(|| black_box(black_box(reg).invert().unwrap()))
    });
    g.bench_function("invert_and_compose reg->shared (16 bits)", |b| {
        b.iter(|| {
            black_box(
                black_box(reg)
                    .invert_and_compose(black_box(shared))
                    .unwrap(),
            )
        })
    });
    g.bench_function("invert_and_compose reg->reg (16 bits, shared dims)", |b| {
        b.iter(|| black_box(black_box(reg).invert_and_compose(black_box(other)).unwrap()))
    });
    g.finish();
}

criterion_group! {
    name = layout;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = benches
}
criterion_main!(layout);
