//! `associative_scan` and the cumsum kernel on the GPU (sm_90): random small tiles in several
//! blocked layouts (lanes, warps and register repeats along the axis), scanned along both axes,
//! masked edges; integer sums and float maxima compared exactly, cumulative f32 sums against an
//! f64 host reference with a relative bound. Outputs are poisoned first (0xFF bytes) with
//! poisoned padding past the end. Without a driver or GPU every test prints `SKIP: <reason>` and
//! passes.
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;
#[path = "common/scan_kernel.rs"]
mod scan_kernel;

use common::gpu::device;
use common::rng::Rng;
use scan_kernel::{scan_kernel, scan_layouts, scan_reference, SCAN_TILES};
use weft::codegen::kernels::{self, Tile2d};
use weft::codegen::{Context, DType, Kernel, ScanOp, Target};
use weft::runtime::cuda::{self, Device};
use weft::runtime::prelude::*;
use weft::runtime::{KernelArgs, LaunchConfig};

/// Elements allocated past each output, which must keep the poison.
const PAD: usize = 64;

fn load(dev: &Device, k: &Kernel<'_>) -> cuda::Kernel {
    let sig = k.signature();
    dev.load_ptx(&k.ptx().expect("PTX"))
        .unwrap_or_else(|e| panic!("{}: load: {e}", sig.name))
        .kernel(sig.clone())
        .unwrap_or_else(|e| panic!("{}: kernel: {e}", sig.name))
}

#[test]
fn scans_of_small_tiles_match_the_host() {
    let Some(dev) = device() else { return };
    let stream = dev.stream();
    let mut rng = Rng(4242);
    for (l, warps) in scan_layouts() {
        for (shape, m, n) in SCAN_TILES {
            for axis in [0, 1] {
                // Integer sums: exact.
                let xi: Vec<i32> = (0..m * n)
                    .map(|_| (rng.next_u64() % 201) as i32 - 100)
                    .collect();
                let want = scan_reference(&xi, m, n, axis, |a, b| a.wrapping_add(b));
                let what = format!("scan i32 Sum {l:?} {shape:?} ({m}x{n}) axis {axis}");
                let ctx = Context::new();
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
                let kernel = load(&dev, &k);
                let dx = dev.upload(&xi).unwrap();
                let mut dy = dev.alloc::<i32>(m * n + PAD).unwrap();
                dy.fill_bytes(0xFF).unwrap();
                let mut args = KernelArgs::new();
                args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
                let cfg = LaunchConfig::for_kernel((1, 1, 1), k.signature()).unwrap();
                // SAFETY: reads x[0..m*n), writes y[0..m*n); y has PAD more.
                unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
                stream.synchronize().unwrap();
                let y = dy.to_vec().unwrap();
                for (i, (&g, &w)) in y.iter().zip(&want).enumerate() {
                    assert_eq!(g, w, "{what}: element ({}, {})", i / n, i % n);
                }
                assert!(
                    y[m * n..].iter().all(|&p| p == -1),
                    "{what}: wrote past the end"
                );

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
                let kernel = load(&dev, &k);
                let dx = dev.upload(&xf).unwrap();
                let mut dy = dev.alloc::<f32>(m * n + PAD).unwrap();
                dy.fill_bytes(0xFF).unwrap();
                let mut args = KernelArgs::new();
                args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
                let cfg = LaunchConfig::for_kernel((1, 1, 1), k.signature()).unwrap();
                // SAFETY: as above.
                unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
                stream.synchronize().unwrap();
                let y = dy.to_vec().unwrap();
                for (i, (&g, &w)) in y.iter().zip(&want).enumerate() {
                    assert_eq!(
                        g.to_bits(),
                        w.to_bits(),
                        "{what}: element ({}, {}): {g} vs {w}",
                        i / n,
                        i % n
                    );
                }
                assert!(
                    y[m * n..].iter().all(|p| p.to_bits() == u32::MAX),
                    "{what}: wrote past the end"
                );
            }
        }
    }
}

#[test]
fn cumsums_match_an_f64_host_reference() {
    let Some(dev) = device() else { return };
    let stream = dev.stream();
    let mut tiles = kernels::CUMSUM_TILES.to_vec();
    tiles.push(Tile2d {
        rows: 1,
        cols: 64,
        per_thread: 4,
        num_warps: 1,
    });
    let mut rng = Rng(777);
    for (m, n) in [
        (37, 1000),
        (33, 2049),
        (1, 1),
        (16, 1040),
        (3, 5),
        (64, 4096),
    ] {
        let x = rng.vec(m * n);
        let want = kernels::cumsum_reference(&x, m, n);
        // Running Σ|x| bounds the rounding error of any summation order.
        let abs = kernels::cumsum_reference(&x.iter().map(|v| v.abs()).collect::<Vec<_>>(), m, n);
        let dx = dev.upload(&x).unwrap();
        for &t in &tiles {
            let what = format!("cumsum {m}x{n} {t:?}");
            let ctx = Context::new();
            let k = kernels::cumsum_kernel_for_shape(&ctx, Target::SM90, t, n as u64)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let kernel = load(&dev, &k);
            let mut dy = dev.alloc::<f32>(m * n + PAD).unwrap();
            dy.fill_bytes(0xFF).unwrap();
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
            let cfg =
                LaunchConfig::for_kernel(kernels::cumsum_grid(t, m as u64), k.signature()).unwrap();
            // SAFETY: reads x[0..m*n), writes y[0..m*n); y has PAD more.
            unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
            stream.synchronize().unwrap();
            let y = dy.to_vec().unwrap();
            for i in 0..m * n {
                let bound = 2.0 * (n as f64) * f32::EPSILON as f64 * abs[i] + 1e-6;
                let g = y[i] as f64;
                assert!(
                    (g - want[i]).abs() <= bound,
                    "{what}: element ({}, {}): got {g}, want {} (bound {bound})",
                    i / n,
                    i % n,
                    want[i]
                );
            }
            assert!(
                y[m * n..].iter().all(|p| p.to_bits() == u32::MAX),
                "{what}: wrote past the end"
            );
        }
    }
}
