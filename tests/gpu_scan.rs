//! `associative_scan` and the cumsum kernel (sm_90): random small tiles in several blocked
//! layouts (lanes, warps and register repeats along the axis), scanned along both axes, masked
//! edges; integer sums and float maxima compared bit for bit, cumulative f32 sums against an
//! f64 host reference within `check::sum_bound` (from the running `Σ|x|`). Outputs are poisoned
//! first (0xFF bytes) and the poison past the end checked to be intact.
//!
//! Written once over the runtime's `Backend` traits: every test runs on the CPU backend (the
//! interpreter) on the ragged tiles and one full one per layout and cumsums of up to 3 × 2049, and
//! on a CUDA GPU when there is one on every tile and cumsums of up to 64 × 4096. Without a GPU the
//! GPU tests print `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;
#[path = "common/scan_kernel.rs"]
mod scan_kernel;

use common::check::{exact, f32_bits, poison_intact, sum_bound};
use common::kernels::row_tiles;
use common::launch::run_xy;
use common::rng::Rng;
use scan_kernel::{scan_kernel, scan_layouts, scan_reference, SCAN_TILES};
use weft::codegen::kernels;
use weft::codegen::{Context, DType, ScanOp, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::Backend;

/// Every scan layout on `tiles` (shape, m, n), along both axes: i32 sums and f32 maxima.
fn scans_of_small_tiles_match_the_host<B: Backend>(
    dev: &B::Device,
    tiles: &[([u64; 2], usize, usize)],
) {
    let mut rng = Rng(4242);
    let ctx = Context::new();
    for (l, warps) in scan_layouts() {
        for &(shape, m, n) in tiles {
            for axis in [0, 1] {
                // Integer sums: exact.
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
                let y: Vec<i32> = run_xy::<B, _, _>(dev, &k, 1u32, &xi, m * n, m, n, &what);
                let bits = |v: i32| u64::from(v as u32);
                exact(&y, &want, bits, &what);
                poison_intact(&y, m * n, bits, &what);

                // Float maxima: exact.
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
                let y: Vec<f32> = run_xy::<B, _, _>(dev, &k, 1u32, &xf, m * n, m, n, &what);
                exact(&y, &want, f32_bits, &what);
                poison_intact(&y, m * n, f32_bits, &what);
            }
        }
    }
}

/// Every cumsum tile on `shapes` (m, n).
fn cumsums_match_an_f64_host_reference<B: Backend>(dev: &B::Device, shapes: &[(usize, usize)]) {
    let mut rng = Rng(777);
    for &(m, n) in shapes {
        let x = rng.vec(m * n);
        let want = kernels::cumsum_reference(&x, m, n);
        // Running Σ|x| bounds the rounding error of any summation order.
        let abs = kernels::cumsum_reference(&x.iter().map(|v| v.abs()).collect::<Vec<_>>(), m, n);
        for t in row_tiles(&kernels::CUMSUM_TILES) {
            let what = format!("cumsum {m}x{n} {t:?}");
            let ctx = Context::new();
            let k = kernels::cumsum_kernel_for_shape(&ctx, Target::SM90, t, n as u64)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let grid = kernels::cumsum_grid(t, m as u64);
            let y: Vec<f32> = run_xy::<B, _, _>(dev, &k, grid, &x, m * n, m, n, &what);
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
            poison_intact(&y, m * n, f32_bits, &what);
        }
    }
}

#[test]
fn scans_of_small_tiles_match_the_host_in_the_interpreter() {
    let tiles = [SCAN_TILES[0], SCAN_TILES[3], SCAN_TILES[4]];
    scans_of_small_tiles_match_the_host::<Cpu>(&common::gpu::cpu(), &tiles);
}

#[test]
fn cumsums_match_an_f64_host_reference_in_the_interpreter() {
    let shapes = [(5, 1000), (3, 2049), (1, 1), (16, 1040), (3, 5)];
    cumsums_match_an_f64_host_reference::<Cpu>(&common::gpu::cpu(), &shapes);
}

#[cfg(feature = "cuda")]
#[test]
fn scans_of_small_tiles_match_the_host_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        scans_of_small_tiles_match_the_host::<weft::runtime::cuda::Cuda>(dev, &SCAN_TILES)
    });
}

#[cfg(feature = "cuda")]
#[test]
fn cumsums_match_an_f64_host_reference_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        let shapes = [
            (37, 1000),
            (33, 2049),
            (1, 1),
            (16, 1040),
            (3, 5),
            (64, 4096),
        ];
        cumsums_match_an_f64_host_reference::<weft::runtime::cuda::Cuda>(dev, &shapes);
    });
}
