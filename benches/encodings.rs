//! An encoding to its linear layout, for typical 2-D layouts (target: at most 2 µs each). The baseline in
//! the same run is building the same-sized layout directly from its bases (`LinearLayout::from_bases`).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use weft::layout::encoding::{
    Blocked, DotOperand, Encoding, NvidiaMma, NvmmaShared, SwizzledShared,
};
use weft::layout::{Dim, LinearLayout};

#[path = "common/cpu_time.rs"]
mod cpu_time;
use cpu_time::ThreadCpu;

fn cases() -> Vec<(&'static str, Encoding, Vec<u64>)> {
    let mma2 = NvidiaMma::ampere(&[2, 2]);
    vec![
        (
            "blocked 128x64",
            Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]).into(),
            vec![128, 64],
        ),
        (
            "blocked 32x32 (broadcast)",
            Blocked::new(&[1, 8], &[4, 8], &[8, 1], &[1, 0]).into(),
            vec![32, 32],
        ),
        ("mma v2 128x128", mma2.clone().into(), vec![128, 128]),
        (
            "mma v3 128x256",
            NvidiaMma::hopper(&[8, 1], 256, 16).into(),
            vec![128, 256],
        ),
        (
            "dot_op A of mma v2 128x64",
            DotOperand::new(0, mma2.into(), 2).into(),
            vec![128, 64],
        ),
        (
            "nvmma_shared 128B 128x64 f16",
            NvmmaShared::new(128, 16, 2, false).into(),
            vec![128, 64],
        ),
        (
            "swizzled_shared 128x64",
            SwizzledShared::new(8, 1, 8, &[1, 0]).into(),
            vec![128, 64],
        ),
    ]
}

fn bench(c: &mut Criterion<ThreadCpu>) {
    let mut g = c.benchmark_group("encoding_to_linear_layout");
    for (name, enc, shape) in cases() {
        g.bench_function(name, |b| {
            b.iter(|| black_box(&enc).to_linear_layout(black_box(&shape)).unwrap())
        });
    }
    // Baseline: checked construction of an equally sized layout (blocked 128x64) from its bases.
    let ll = Encoding::from(Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]))
        .to_linear_layout(&[128, 64])
        .unwrap();
    let bases = ll.all_bases();
    let outs: Vec<(Dim, u64)> = ll.out_dims().map(|(d, s)| (*d, s)).collect();
    g.bench_function("baseline: from_bases of blocked 128x64", |b| {
        b.iter(|| LinearLayout::from_bases(black_box(bases.clone()), outs.clone(), true).unwrap())
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = bench
}
criterion_main!(benches);
