//! cumsum: `y[i, j] = Σ_{k ≤ j} x[i, k]` of a 16K × 16K f32 matrix. Each CTA owns a few rows and
//! walks along them one tile at a time (`for_range` carrying each row's running total, 16-byte
//! loads and stores): every tile is scanned along its columns with `associative_scan(Sum, 1)`
//! (in-thread, then `shfl.sync.up` across the lanes), the carry added, and the tile's row totals
//! added to the carry.
//!
//! `cargo run --release --example cumsum --features llvm,cuda [-- sm_80|sm_90|sm_90a]`
//!
//! Without a GPU (or without `cuda`): prints the PTX of the first configuration and says it
//! skipped. With one: each tile configuration is run on random data, sample rows checked against
//! an f64 host cumulative sum, then timed with `weft::runtime::bench` (L2 flushed before each
//! run) next to a device-to-device copy of the same bytes: GB/s count the bytes read and written
//! (2 GiB), and the D2D copy moves as many (1 GiB read + 1 GiB written).
//!
//! The kernel is [`weft::codegen::kernels::cumsum_kernel`].

#[cfg(feature = "llvm")]
mod common;

#[cfg(not(feature = "llvm"))]
fn main() {
    println!("SKIP: the cumsum example needs the `llvm` feature (--features llvm,cuda)");
}

#[cfg(feature = "llvm")]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use weft::codegen::kernels::{self, CUMSUM_TILES};
    use weft::codegen::Context;

    let target = common::target_arg()?;
    let tiles = CUMSUM_TILES;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        return gpu::run(&dev, &ctx, target, &tiles);
    }
    let k = kernels::cumsum_kernel(&ctx, target, tiles[0])?;
    common::print_and_skip(&tiles[0], &k)
}

#[cfg(all(feature = "llvm", feature = "cuda"))]
mod gpu {
    use crate::common::gpu::{describe, random, time_against_d2d, Result};
    use weft::codegen::kernels::{self, Tile2d};
    use weft::codegen::{Context, Target};
    use weft::runtime::cuda::Device;
    use weft::runtime::prelude::*;
    use weft::runtime::{KernelArgs, LaunchConfig};

    const M: usize = 16384;
    const N: usize = 16384;
    /// The rows checked against the host.
    const SAMPLES: [usize; 6] = [0, 1, 17, 4099, M / 2 + 3, M - 1];

    pub fn run(dev: &Device, ctx: &Context, target: Target, tiles: &[Tile2d]) -> Result<()> {
        println!(
            "# cumsum {M}x{N} f32 on {}; GB/s count bytes read + written",
            describe(dev)
        );
        let x = random(M * N, 3);
        // f64 reference and running Σ|x| (the scale of the rounding error) of the sample rows.
        let want: Vec<Vec<(f64, f64)>> = SAMPLES
            .iter()
            .map(|&r| {
                let (mut s, mut a) = (0f64, 0f64);
                x[r * N..(r + 1) * N]
                    .iter()
                    .map(|&v| {
                        s += v as f64;
                        a += (v as f64).abs();
                        (s, a)
                    })
                    .collect()
            })
            .collect();
        let dx = dev.upload(&x)?;
        drop(x);
        let mut dy = dev.alloc::<f32>(M * N)?;
        let bytes = (2 * M * N * 4) as f64;
        let stream = dev.stream();
        println!();
        println!("| tile | warps | check (max err / Σ|x|) | weft ms | weft GB/s | D2D GB/s | weft / D2D |");
        println!("|---|---|---|---|---|---|---|");
        let mut failed = false;
        for t in tiles {
            let k = kernels::cumsum_kernel(ctx, target, *t)?;
            let kernel = dev.load_ptx(&k.ptx()?)?.kernel(k.signature().clone())?;
            let cfg = LaunchConfig::for_kernel(kernels::cumsum_grid(*t, M as u64), k.signature())?;
            dy.fill_bytes(0xFF)?;
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&dy).scalar(M as i32).scalar(N as i32);
            // SAFETY: reads x[0..M*N), writes y[0..M*N).
            unsafe { stream.launch(&kernel, &cfg, &args)? };
            stream.synchronize()?;
            let y = dy.to_vec()?;
            let mut worst = 0f64;
            let mut bad = 0usize;
            for (&r, w) in SAMPLES.iter().zip(&want) {
                for (j, &(s, a)) in w.iter().enumerate() {
                    let g = y[r * N + j] as f64;
                    let e = (g - s).abs() / a.max(1e-30);
                    if e.is_nan() || e > 2.0 * N as f64 * f32::EPSILON as f64 {
                        bad += 1;
                    }
                    worst = if e.is_nan() { f64::NAN } else { worst.max(e) };
                }
            }
            drop(y);
            let status = if bad == 0 {
                format!("ok ({worst:.1e})")
            } else {
                failed = true;
                format!("FAIL: {bad} elements ({worst:.1e})")
            };
            // The D2D baseline moves as many bytes: a copy of the matrix (read + write).
            let (ms, base_ms) = time_against_d2d(dev, &kernel, &cfg, &args, M * N * 4)?;
            let (w, b) = (bytes / (ms * 1e6), bytes / (base_ms * 1e6));
            println!(
                "| {}x{} | {} | {status} | {:.3} | {w:.0} | {b:.0} | {:.3} |",
                t.rows,
                t.cols,
                t.num_warps,
                ms,
                w / b
            );
        }
        if failed {
            return Err("a configuration failed its host check".into());
        }
        Ok(())
    }
}
