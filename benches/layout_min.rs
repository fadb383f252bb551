//! The layout benches of `benches/layout.rs` timed a second way: the minimum and median, over 60 runs of
//! 20 000 calls each, of the wall time per call. On a shared virtual machine the criterion mean also counts
//! the time other tenants take from the core; the minimum is the cost of the code itself, the median what a
//! caller sees on such a machine. Results go to BENCHMARKS.md next to the criterion numbers.
//!
//! `cargo bench --bench layout_min`

use std::hint::black_box;
use std::time::Instant;

#[path = "common/layouts.rs"]
mod layouts;
use layouts::{apply_unpacked, Workloads, KEYED, NAMED};

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
    let w = Workloads::new();
    let (reg, other, shared) = (&w.reg, &w.other, &w.shared);
    let n = 20_000;
    let mut x = 0u64;
    time("apply_packed (16 bits)", n * 10, || {
        x = (x + 0x9e37) & 0xffff;
        black_box(reg.apply_packed(black_box(x)));
    });
    time("apply named (16 bits)", n, || {
        black_box(reg.apply(black_box(&NAMED)).unwrap());
    });
    time("apply named, Dim keys (16 bits)", n, || {
        black_box(reg.apply(black_box(&KEYED)).unwrap());
    });
    time("baseline: apply on unpacked bases", n * 10, || {
        x = (x + 0x9e37) & 0xffff;
        black_box(apply_unpacked(&w.unpacked, black_box(x)));
    });
    time("compose (16 -> 16 -> 16 bits)", n, || {
        black_box(black_box(reg).compose(black_box(&w.to_offset)).unwrap());
    });
    time("product (9 x 7 bits)", n, || {
        black_box((black_box(&w.lo) * black_box(&w.hi)).unwrap());
    });
    time("invert (16 bits)", n, || {
        black_box(black_box(reg).invert().unwrap());
    });
    time("invert_and_compose reg->shared (16 bits)", n, || {
        black_box(
            black_box(reg)
                .invert_and_compose(black_box(shared))
                .unwrap(),
        );
    });
    time("invert_and_compose reg->reg (16 bits)", n, || {
        black_box(black_box(reg).invert_and_compose(black_box(other)).unwrap());
    });
}
