//! The reduction and scan suites (`gpu_scan`, `gpu_argreduce`, the row sums of `gpu_transpose`)
//! in the interpreter: the same kernels and layouts on the GPU suites' ragged, masked shapes
//! (fewer of the large ones), random inputs, poisoned outputs, the same host references.
//! Integer sums, float maxima and arg-reductions are compared bit for bit; float sums within a
//! bound from `Σ|x|`.
#![cfg(feature = "llvm")]

mod common;
#[path = "common/scan_kernel.rs"]
mod scan_kernel;

use common::argreduce::{arg_kernel, host_arg, layouts};
use common::interp as ci;
use common::rng::Rng;
use half::f16;
use scan_kernel::{scan_kernel, scan_layouts, scan_reference, SCAN_TILES};
use weft::codegen::interp::{HostElem, LaunchArg, Memory};
use weft::codegen::kernels::{self, Tile2d};
use weft::codegen::{Context, DType, Kernel, ScanOp, Target};

/// Runs `k(x, y, m, n)` over `grid` with a poisoned `y` of `ylen` elements; returns `y`.
fn run_xy<X: HostElem, Y: HostElem>(
    k: &Kernel<'_>,
    grid: (u32, u32, u32),
    x: &[X],
    ylen: usize,
    m: usize,
    n: usize,
    what: &str,
) -> Vec<Y> {
    let mut mem = Memory::new();
    let dx = mem.upload(x);
    let dy = ci::poisoned::<Y>(&mut mem, ylen);
    let args = [
        LaunchArg::Buffer(dx),
        LaunchArg::Buffer(dy),
        LaunchArg::I32(m as i32),
        LaunchArg::I32(n as i32),
    ];
    ci::launch(k, grid, &args, &mut mem, what);
    mem.download(dy)
}

/// f32 sums: the rounding error of any summation order stays below `n · 2⁻²⁴ · Σ|x|` (doubled).
fn sum_bound(n: usize, abs: f64) -> f64 {
    2.0 * (n as f64) * f64::from(f32::EPSILON) * abs + 1e-6
}

#[test]
fn scans_of_small_tiles_match_the_host() {
    let mut rng = Rng(4242);
    let ctx = Context::new();
    for (l, warps) in scan_layouts() {
        // Every layout on the ragged tiles, one full tile.
        for &(shape, m, n) in &[SCAN_TILES[0], SCAN_TILES[3], SCAN_TILES[4]] {
            for axis in [0, 1] {
                let xi: Vec<i32> = (0..m * n)
                    .map(|_| (rng.next_u64() % 201) as i32 - 100)
                    .collect();
                let want = scan_reference(&xi, m, n, axis, |a, b| a.wrapping_add(b));
                let what = format!("scan i32 Sum {l:?} {shape:?} ({m}x{n}) axis {axis}");
                let k = scan_kernel(
                    &ctx,
                    Target::SM90,
                    &l,
                    shape,
                    axis,
                    Some(ScanOp::Sum),
                    DType::I32,
                    warps,
                )
                .unwrap_or_else(|e| panic!("{what}: {e}"));
                let y: Vec<i32> = run_xy(&k, (1, 1, 1), &xi, m * n, m, n, &what);
                let bits = |v: i32| u64::from(v as u32);
                ci::exact(&y, &want, bits, &what);
                ci::poison_intact(&y, m * n, bits, &what);

                let xf = rng.vec(m * n);
                let want = scan_reference(&xf, m, n, axis, f32::max);
                let what = format!("scan f32 Max {l:?} {shape:?} ({m}x{n}) axis {axis}");
                let k = scan_kernel(
                    &ctx,
                    Target::SM90,
                    &l,
                    shape,
                    axis,
                    Some(ScanOp::Max),
                    DType::F32,
                    warps,
                )
                .unwrap_or_else(|e| panic!("{what}: {e}"));
                let y: Vec<f32> = run_xy(&k, (1, 1, 1), &xf, m * n, m, n, &what);
                ci::exact(&y, &want, ci::f32_bits, &what);
                ci::poison_intact(&y, m * n, ci::f32_bits, &what);
            }
        }
    }
}

/// Row-wise tiles of the cumsum and row-sum kernels, and one narrow single-warp tile.
fn row_tiles(shipped: &[Tile2d]) -> Vec<Tile2d> {
    let mut tiles = shipped.to_vec();
    tiles.push(Tile2d {
        rows: 1,
        cols: 64,
        per_thread: 4,
        num_warps: 1,
    });
    tiles
}

#[test]
fn cumsums_match_an_f64_host_reference() {
    let mut rng = Rng(777);
    for (m, n) in [(5, 1000), (3, 2049), (1, 1), (16, 1040), (3, 5)] {
        let x = rng.vec(m * n);
        let want = kernels::cumsum_reference(&x, m, n);
        let abs = kernels::cumsum_reference(&x.iter().map(|v| v.abs()).collect::<Vec<_>>(), m, n);
        for t in row_tiles(&kernels::CUMSUM_TILES) {
            let what = format!("cumsum {m}x{n} {t:?}");
            let ctx = Context::new();
            let k = kernels::cumsum_kernel_for_shape(&ctx, Target::SM90, t, n as u64)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let y: Vec<f32> = run_xy(
                &k,
                kernels::cumsum_grid(t, m as u64),
                &x,
                m * n,
                m,
                n,
                &what,
            );
            for i in 0..m * n {
                let (g, bound) = (f64::from(y[i]), sum_bound(n, abs[i]));
                assert!(
                    (g - want[i]).abs() <= bound,
                    "{what}: element ({}, {}): got {g}, want {} (bound {bound})",
                    i / n,
                    i % n,
                    want[i]
                );
            }
            ci::poison_intact(&y, m * n, ci::f32_bits, &what);
        }
    }
}

#[test]
fn row_sums_match_an_f64_host_reference() {
    let mut rng = Rng(31337);
    for (m, n) in [(9, 777), (33, 129), (1, 1), (16, 1040)] {
        let x = rng.vec(m * n);
        let want: Vec<(f64, f64)> = x
            .chunks(n)
            .map(|row| {
                (
                    row.iter().map(|&v| f64::from(v)).sum(),
                    row.iter().map(|&v| f64::from(v).abs()).sum(),
                )
            })
            .collect();
        for t in row_tiles(&kernels::ROW_SUM_TILES) {
            let what = format!("row_sum {m}x{n} {t:?}");
            let ctx = Context::new();
            let k = kernels::row_sum_kernel_for_shape(&ctx, Target::SM90, t, n as u64)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let y: Vec<f32> = run_xy(&k, kernels::row_sum_grid(t, m as u64), &x, m, m, n, &what);
            for (r, (&g, &(w, abs))) in y.iter().zip(&want).enumerate() {
                let bound = sum_bound(n, abs);
                assert!(
                    (f64::from(g) - w).abs() <= bound,
                    "{what}: row {r}: got {g}, want {w} (bound {bound})"
                );
            }
            ci::poison_intact(&y, m, ci::f32_bits, &what);
        }
    }
}

#[test]
fn argmax_and_argmin_match_the_host() {
    let ctx = Context::new();
    let mut rng = Rng(5);
    for (li, l) in layouts().iter().enumerate() {
        for dtype in [DType::F32, DType::F16, DType::I32] {
            for axis in [0usize, 1] {
                for max in [true, false] {
                    let k = arg_kernel(&ctx, l, dtype, axis, max).unwrap();
                    for (m, n) in [(50usize, 37usize), (1, 63), (33, 1)] {
                        // Few distinct values: many ties (the lowest index must win).
                        let x: Vec<f64> = (0..m * n)
                            .map(|_| (rng.next_u64() % 9) as f64 - 4.0)
                            .collect();
                        let want = host_arg(&x, m, n, axis, max);
                        let what = format!("layout {li} {dtype} {m}x{n} axis {axis} max {max}");
                        let g = (1, 1, 1);
                        let y: Vec<i32> = match dtype {
                            DType::F32 => {
                                let x: Vec<f32> = x.iter().map(|&v| v as f32).collect();
                                run_xy(&k, g, &x, want.len(), m, n, &what)
                            }
                            DType::F16 => {
                                let x: Vec<f16> = x.iter().map(|&v| f16::from_f64(v)).collect();
                                run_xy(&k, g, &x, want.len(), m, n, &what)
                            }
                            _ => {
                                let x: Vec<i32> = x.iter().map(|&v| v as i32).collect();
                                run_xy(&k, g, &x, want.len(), m, n, &what)
                            }
                        };
                        let bits = |v: i32| u64::from(v as u32);
                        ci::exact(&y, &want, bits, &what);
                        ci::poison_intact(&y, want.len(), bits, &what);
                    }
                }
            }
        }
    }
}
