//! The layout benches of `benches/layout.rs` timed a second way: the minimum and median, over 60 runs of
//! 20 000 calls each, of the wall time per call. On a shared virtual machine the criterion mean also counts
//! the time other tenants take from the core; the minimum is the cost of the code itself, the median what a
//! caller sees on such a machine. Results go to BENCHMARKS.md next to the criterion numbers.
//!
//! `cargo bench --bench layout_min`

use std::hint::black_box;
use std::time::Instant;

use weft::layout::{Dim, LinearLayout};

/// The same layouts as `benches/layout.rs`.
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

/// Prints the minimum and median over 60 runs of `calls` calls of `f`, in ns per call. Under `cargo test`
/// (no `--bench` argument, as criterion does) each workload runs once, as a smoke test.
fn time(name: &str, calls: u64, mut f: impl FnMut()) {
    if !std::env::args().any(|a| a == "--bench") {
        f();
        println!("{name}: ok (run `cargo bench --bench layout_min` to time it)");
        return;
    }
    let mut per_call: Vec<f64> = (0..60)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..calls {
                f();
            }
            t.elapsed().as_nanos() as f64 / calls as f64
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    println!(
        "{name:52} min {:8.1} ns   median {:8.1} ns",
        per_call[0], per_call[30]
    );
}

fn main() {
    let reg = mma_like(["register", "lane", "warp", "block"]);
    let other = mma_like(["block", "warp", "lane", "register"])
        .transpose_ins(&["register", "lane", "warp", "block"])
        .unwrap();
    let shared = shared_like();
    let to_offset = shared.invert().unwrap();
    let lo = reg
        .sublayout(&["register", "lane"], &["dim0", "dim1"])
        .unwrap();
    let hi = reg
        .sublayout(&["warp", "block"], &["dim0", "dim1"])
        .unwrap();
    let named = [("register", 5u64), ("lane", 17), ("warp", 9), ("block", 3)];
    let keyed = [
        (Dim::REGISTER, 5u64),
        (Dim::LANE, 17),
        (Dim::WARP, 9),
        (Dim::BLOCK, 3),
    ];
    let bases: Vec<Vec<u64>> = reg.all_bases().into_iter().flat_map(|(_, b)| b).collect();
    let n = 20_000;
    let mut x = 0u64;
    time("apply_packed (16 bits)", n * 10, || {
        x = (x + 0x9e37) & 0xffff;
        black_box(reg.apply_packed(black_box(x)));
    });
    time("apply named (16 bits)", n, || {
        black_box(reg.apply(black_box(&named)).unwrap());
    });
    time("apply named, Dim keys (16 bits)", n, || {
        black_box(reg.apply(black_box(&keyed)).unwrap());
    });
    time("baseline: apply on unpacked bases", n * 10, || {
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
        black_box(out);
    });
    time("compose (16 -> 16 -> 16 bits)", n, || {
        black_box(black_box(&reg).compose(black_box(&to_offset)).unwrap());
    });
    time("product (9 x 7 bits)", n, || {
        black_box((black_box(&lo) * black_box(&hi)).unwrap());
    });
    time("invert (16 bits)", n, || {
        black_box(black_box(&reg).invert().unwrap());
    });
    time("invert_and_compose reg->shared (16 bits)", n, || {
        black_box(
            black_box(&reg)
                .invert_and_compose(black_box(&shared))
                .unwrap(),
        );
    });
    time("invert_and_compose reg->reg (16 bits)", n, || {
        black_box(
            black_box(&reg)
                .invert_and_compose(black_box(&other))
                .unwrap(),
        );
    });
}
