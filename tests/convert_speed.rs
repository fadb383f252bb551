//! Planning speed in CPU time (immune to other processes on a shared machine, unlike wall time):
//! `cargo test --release --test convert_speed -- --ignored --nocapture`.

use weft::layout::convert::{classify, plan_conversion, plan_shared, Target};
use weft::layout::LinearLayout;

fn ll(reg: &[[u64; 2]], lane: &[[u64; 2]], warp: &[[u64; 2]]) -> LinearLayout {
    let v = |b: &[[u64; 2]]| b.iter().map(|x| x.to_vec()).collect::<Vec<_>>();
    LinearLayout::from_bases(
        [
            ("register", v(reg)),
            ("lane", v(lane)),
            ("warp", v(warp)),
            ("block", vec![]),
        ],
        [("dim0", 64), ("dim1", 64)],
        true,
    )
    .unwrap()
}

/// CPU seconds this thread has used (Linux: utime + stime of /proc/thread-self/stat, in 1/100 s).
fn cpu_seconds() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    let f: Vec<&str> = s
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let t = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (t(11) + t(12)) / 100.0
}

fn time(name: &str, n: u32, mut f: impl FnMut()) -> f64 {
    let c0 = cpu_seconds();
    let w0 = std::time::Instant::now();
    for _ in 0..n {
        f();
    }
    let cpu = (cpu_seconds() - c0) / n as f64 * 1e6;
    let wall = w0.elapsed().as_secs_f64() / n as f64 * 1e6;
    eprintln!("{name:<45} {cpu:>8.2} µs CPU  {wall:>8.2} µs wall");
    cpu
}

#[test]
#[ignore]
fn planning_speed() {
    let src = ll(
        &[[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]],
        &[[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]],
        &[[4, 0], [8, 0]],
    );
    let dst = ll(
        &[[1, 0], [2, 0], [4, 0], [0, 16], [0, 32]],
        &[[8, 0], [16, 0], [32, 0], [0, 1], [0, 2]],
        &[[0, 4], [0, 8]],
    );
    let mma = ll(
        &[[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]],
        &[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
        &[[16, 0], [32, 0]],
    );
    let n = 40_000;
    let t = time("plan 64x64 f16 blocked transpose (sm_90)", n, || {
        std::hint::black_box(plan_conversion(&src, &dst, 16, Target::SM90).unwrap());
    });
    time("plan 64x64 f16 mma_v2 -> blocked (sm_80)", n, || {
        std::hint::black_box(plan_conversion(&mma, &src, 16, Target::SM80).unwrap());
    });
    time("  classify (transpose)", n, || {
        std::hint::black_box(classify(&src, &dst).unwrap());
    });
    time("  plan_shared (transpose)", n, || {
        std::hint::black_box(plan_shared(&src, &dst, 16, Target::SM90).unwrap());
    });
    assert!(t <= 20.0, "planning took {t} µs of CPU");
}
