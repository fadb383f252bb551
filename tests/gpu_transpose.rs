//! The shared-memory transpose and the row sum of `weft::codegen::kernels` run on the GPU (sm_90):
//! random data (never zeros), odd and even shapes (masked edges, scalar and vector accesses),
//! outputs poisoned first (0xFF bytes = NaN) with poisoned padding past the end. The transpose is
//! compared bit for bit; row sums against an f64 host reference with a relative bound. Without a
//! driver or GPU every test prints `SKIP: <reason>` and passes.
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use common::gpu::device;
use common::rng::Rng;
use weft::codegen::kernels::{self, Tile2d, TransposeConfig};
use weft::codegen::{Context, Kernel, Target};
use weft::runtime::cuda::{self, Buffer, Device};
use weft::runtime::prelude::*;
use weft::runtime::{KernelArgs, LaunchConfig};

const POISON: u32 = 0xFFFF_FFFF;
/// Elements allocated past each output, which must keep the poison.
const PAD: usize = 64;

const SHAPES: [(usize, usize); 6] = [
    (1000, 777),
    (4096, 4096),
    (33, 2049),
    (1, 1),
    (2048, 48),
    (16, 1040),
];

fn load(dev: &Device, k: &Kernel<'_>) -> cuda::Kernel {
    let sig = k.signature();
    dev.load_ptx(&k.ptx().expect("PTX"))
        .unwrap_or_else(|e| panic!("{}: load: {e}", sig.name))
        .kernel(sig.clone())
        .unwrap_or_else(|e| panic!("{}: kernel: {e}", sig.name))
}

fn poisoned(dev: &Device, n: usize) -> Buffer<f32> {
    let mut b = dev.alloc::<f32>(n + PAD).unwrap();
    b.fill_bytes(0xFF).unwrap();
    b
}

fn check_padding(out: &[f32], len: usize, what: &str) {
    for (i, g) in out[len..].iter().enumerate() {
        assert_eq!(
            g.to_bits(),
            POISON,
            "{what}: element {i} past the end was written"
        );
    }
}

/// Runs the transpose kernel `k` (built for `c`) on the `m × n` matrix `x` into a poisoned output
/// and checks it bit for bit, and the poison past its end.
fn run_transpose(dev: &Device, k: &Kernel<'_>, c: TransposeConfig, x: &[f32], m: usize, n: usize) {
    let what = format!("transpose {m}x{n} {c:?}");
    let kernel = load(dev, k);
    let dx = dev.upload(x).unwrap();
    let dy = poisoned(dev, m * n);
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
    let cfg = LaunchConfig::for_kernel(c.grid(m as u64, n as u64), k.signature()).unwrap();
    let stream = dev.stream();
    // SAFETY: reads x[0..m*n), writes y[0..n*m); y has PAD more.
    unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
    stream.synchronize().unwrap();
    let y = dy.to_vec().unwrap();
    let mut bad = 0usize;
    for j in 0..n {
        for i in 0..m {
            let (g, w) = (y[j * m + i], x[i * n + j]);
            if g.to_bits() != w.to_bits() {
                if bad < 5 {
                    eprintln!("{what}: y[{j}, {i}] = {g}, want x[{i}, {j}] = {w}");
                }
                bad += 1;
            }
        }
    }
    assert_eq!(bad, 0, "{what}: {bad} of {} elements differ", m * n);
    check_padding(&y, m * n, &what);
}

#[test]
fn transpose_through_shared_memory_is_exact_on_odd_shapes() {
    let Some(dev) = device() else { return };
    let mut configs = kernels::TRANSPOSE_CONFIGS.to_vec();
    configs.push(TransposeConfig::new(16, 32, 1));
    let mut rng = Rng(4242);
    for (m, n) in SHAPES {
        let x = rng.vec(m * n);
        for &c in &configs {
            let ctx = Context::new();
            let k =
                kernels::transpose_smem_kernel_for_shape(&ctx, Target::SM90, c, m as u64, n as u64)
                    .unwrap_or_else(|e| panic!("transpose {m}x{n} {c:?}: {e}"));
            run_transpose(&dev, &k, c, &x, m, n);
        }
    }
}

#[test]
fn transpose_with_vector_accesses_on_multiples_of_16() {
    // The kernel declared for multiples of 16 (16-byte vectors both ways), on sizes that are not
    // multiples of the tile: the masked edge tiles still vectorise.
    let Some(dev) = device() else { return };
    let mut rng = Rng(99);
    for c in kernels::TRANSPOSE_CONFIGS {
        let ctx = Context::new();
        let k = kernels::transpose_smem_kernel(&ctx, Target::SM90, c).unwrap();
        for (m, n) in [(1008, 784), (16, 2064), (4096, 16), (2048, 2048)] {
            run_transpose(&dev, &k, c, &rng.vec(m * n), m, n);
        }
    }
}

#[test]
fn row_sums_match_an_f64_host_reference() {
    let Some(dev) = device() else { return };
    let stream = dev.stream();
    let mut tiles = kernels::ROW_SUM_TILES.to_vec();
    tiles.push(Tile2d {
        rows: 1,
        cols: 64,
        per_thread: 4,
        num_warps: 1,
    });
    let mut rng = Rng(31337);
    for (m, n) in SHAPES {
        let x = rng.vec(m * n);
        let dx = dev.upload(&x).unwrap();
        // Sums of |x| bound the rounding error of any summation order.
        let want: Vec<(f64, f64)> = (0..m)
            .map(|r| {
                let row = &x[r * n..(r + 1) * n];
                (
                    row.iter().map(|&v| v as f64).sum(),
                    row.iter().map(|&v| (v as f64).abs()).sum(),
                )
            })
            .collect();
        for &t in &tiles {
            let what = format!("row_sum {m}x{n} {t:?}");
            let ctx = Context::new();
            let k = kernels::row_sum_kernel_for_shape(&ctx, Target::SM90, t, n as u64)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let kernel = load(&dev, &k);
            let dy = poisoned(&dev, m);
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
            let cfg = LaunchConfig::for_kernel(kernels::row_sum_grid(t, m as u64), k.signature())
                .unwrap();
            // SAFETY: reads x[0..m*n), writes y[0..m); y has PAD more.
            unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
            stream.synchronize().unwrap();
            let y = dy.to_vec().unwrap();
            for (r, (&g, &(w, abs))) in y.iter().zip(&want).enumerate() {
                // f32 accumulation: error below n · 2⁻²⁴ · Σ|x| (with margin).
                let bound = 2.0 * (n as f64) * f32::EPSILON as f64 * abs + 1e-6;
                assert!(
                    ((g as f64) - w).abs() <= bound,
                    "{what}: row {r}: got {g}, want {w} (bound {bound})"
                );
            }
            check_padding(&y, m, &what);
        }
    }
}
