//! row_sum: `y[i] = Σ_j x[i, j]` of a 16K × 16K f32 matrix. Each CTA owns a few rows and walks
//! along them one tile at a time (`for_range` carrying a tile of partial sums, 16-byte loads),
//! then one `reduce(Sum, 1)` and a store per row.
//!
//! `cargo run --release --example row_sum --features llvm,cuda [-- sm_80|sm_90|sm_90a]`
//!
//! Without a GPU (or without `cuda`): prints the PTX of the first configuration and says it
//! skipped. With one: each tile configuration is run on random data, every row checked against
//! an f64 host sum (relative error), then timed with `weft::runtime::bench` (L2 flushed before
//! each run) next to a device-to-device copy moving the same bytes: GB/s count the bytes read
//! (1 GiB; the output is 64 KiB), and the D2D copy moves as many (512 MiB read + 512 MiB written).
//!
//! The kernel is [`weft::codegen::kernels::row_sum_kernel`].

#[cfg(feature = "llvm")]
mod common;

#[cfg(not(feature = "llvm"))]
fn main() {
    println!("SKIP: the row_sum example needs the `llvm` feature (--features llvm,cuda)");
}

#[cfg(feature = "llvm")]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use weft::codegen::kernels::{self, ROW_SUM_TILES};
    use weft::codegen::Context;

    let target = common::target_arg()?;
    let tiles = ROW_SUM_TILES;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        return gpu::run(&dev, &ctx, target, &tiles);
    }
    let k = kernels::row_sum_kernel(&ctx, target, tiles[0])?;
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

    pub fn run(dev: &Device, ctx: &Context, target: Target, tiles: &[Tile2d]) -> Result<()> {
        println!(
            "# row_sum {M}x{N} f32 on {}; GB/s count bytes read",
            describe(dev)
        );
        let x = random(M * N, 2);
        // f64 reference and Σ|x| per row (the scale of the rounding error).
        let want: Vec<(f64, f64)> = x
            .chunks(N)
            .map(|r| {
                (
                    r.iter().map(|&v| v as f64).sum(),
                    r.iter().map(|&v| (v as f64).abs()).sum(),
                )
            })
            .collect();
        let dx = dev.upload(&x)?;
        drop(x);
        let mut dy = dev.alloc::<f32>(M)?;
        let bytes = (M * N * 4) as f64;
        let stream = dev.stream();
        println!();
        println!("| tile | warps | check (max rel. err / Σ|x|) | weft ms | weft GB/s | D2D GB/s | weft / D2D |");
        println!("|---|---|---|---|---|---|---|");
        let mut failed = false;
        for t in tiles {
            let k = kernels::row_sum_kernel(ctx, target, *t)?;
            let kernel = dev.load_ptx(&k.ptx()?)?.kernel(k.signature().clone())?;
            let cfg = LaunchConfig::for_kernel(kernels::row_sum_grid(*t, M as u64), k.signature())?;
            dy.fill_bytes(0xFF)?;
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&dy).scalar(M as i32).scalar(N as i32);
            // SAFETY: reads x[0..M*N), writes y[0..M).
            unsafe { stream.launch(&kernel, &cfg, &args)? };
            stream.synchronize()?;
            let y = dy.to_vec()?;
            // Error relative to Σ|x| of the row: f32 accumulation stays far below n · 2⁻²⁴.
            let mut worst = 0f64;
            let mut bad = 0usize;
            for (&g, &(w, abs)) in y.iter().zip(&want) {
                let e = ((g as f64) - w).abs() / abs;
                if e.is_nan() || e > 2.0 * N as f64 * f32::EPSILON as f64 {
                    bad += 1;
                }
                worst = if e.is_nan() { f64::NAN } else { worst.max(e) };
            }
            let status = if bad == 0 {
                format!("ok ({worst:.1e})")
            } else {
                failed = true;
                format!("FAIL: {bad} rows ({worst:.1e})")
            };
            // The D2D baseline moves as many bytes: a copy of half of them (read + write).
            let (ms, base_ms) = time_against_d2d(dev, &kernel, &cfg, &args, M * N * 2)?;
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
