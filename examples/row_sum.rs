//! row_sum: `y[i] = Σ_j x[i, j]` of a 16K × 16K f32 matrix. Each CTA owns a few rows and walks
//! along them one tile at a time (`for_range` carrying a tile of partial sums, 16-byte loads),
//! then one `reduce(Sum, 1)` and a store per row.
//!
//! `cargo run --release --example row_sum --features llvm,cuda [-- sm_80|sm_90|sm_90a]`
//!
//! With a GPU: each tile configuration is run on random data, every row checked against an f64
//! host sum (relative error), then timed with `weft::runtime::bench` (L2 flushed before each
//! run) next to a device-to-device copy moving the same bytes: GB/s count the bytes read (1 GiB;
//! the output is 64 KiB), and the D2D copy moves as many (512 MiB read + 512 MiB written).
//! Without a GPU (or without `cuda`): prints the PTX of the first configuration, then runs every
//! configuration in weft's interpreter on a 37 × 2064 matrix (ragged tiles) with the same check.
//!
//! The kernel is [`weft::codegen::kernels::row_sum_kernel`].
mod common;

use common::Result;
use weft::codegen::kernels::{self, Tile2d, ROW_SUM_TILES};
use weft::codegen::{Context, Target};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

fn main() -> Result<()> {
    let target = common::target_arg()?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        let (m, n) = (16384, 16384);
        println!(
            "# row_sum {m}x{n} f32 on {}; GB/s count bytes read",
            common::gpu::describe(&dev)
        );
        return run::<weft::runtime::cuda::Cuda>(&dev, &ctx, target, &ROW_SUM_TILES, (m, n), true)
            .map(|_| ());
    }
    let k = kernels::row_sum_kernel(&ctx, target, ROW_SUM_TILES[0])?;
    common::print_kernel(&ROW_SUM_TILES[0], &k)?;
    // Rows not a multiple of any tile's; columns a multiple of 16 (as declared), of no tile's.
    let (m, n) = (37, 2064);
    println!("# row_sum {m}x{n} f32 in the interpreter ({target})");
    let dev = common::interpreter(target)?;
    let worst = run::<weft::runtime::cpu::Cpu>(&dev, &ctx, target, &ROW_SUM_TILES, (m, n), false)?;
    common::interpreted(&format!(
        "row_sum of {m}×{n} f32 in {} tile configurations, max rel err {worst:.1e} (of Σ|x|) against f64",
        ROW_SUM_TILES.len()
    ));
    Ok(())
}

/// Runs every tile on `dev` (any backend) for an `m × n` matrix, checks every row against an
/// f64 host sum and, when `timed` (a GPU), times it next to a D2D copy; prints a table row per
/// tile and returns the largest error relative to the row's Σ|x|.
fn run<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    tiles: &[Tile2d],
    (m, n): (usize, usize),
    timed: bool,
) -> Result<f64> {
    let x = common::random(m * n, 2);
    // f64 reference and Σ|x| per row (the scale of the rounding error).
    let want: Vec<(f64, f64)> = x
        .chunks(n)
        .map(|r| {
            (
                r.iter().map(|&v| v as f64).sum(),
                r.iter().map(|&v| (v as f64).abs()).sum(),
            )
        })
        .collect();
    let dx = dev.upload(&x)?;
    drop(x);
    let mut dy = dev.alloc::<f32>(m)?;
    let bytes = (m * n * 4) as f64;
    println!();
    if timed {
        println!("| tile | warps | check (max rel. err / Σ|x|) | weft ms | weft GB/s | D2D GB/s | weft / D2D |");
        println!("|---|---|---|---|---|---|---|");
    } else {
        println!("| tile | warps | check (max rel. err / Σ|x|) |");
        println!("|---|---|---|");
    }
    let mut failed = false;
    let mut overall = 0f64;
    for t in tiles {
        let k = kernels::row_sum_kernel(ctx, target, *t)?;
        let kernel = k.load_on::<B>(dev)?;
        let cfg = LaunchConfig::for_kernel(kernels::row_sum_grid(*t, m as u64), k.signature())?;
        dy.fill_bytes(0xFF)?;
        let mut args = KernelArgs::new();
        args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
        // SAFETY: reads x[0..m*n), writes y[0..m).
        unsafe { common::launch_once::<B>(dev, &kernel, &cfg, &args)? };
        let y = dy.to_vec()?;
        // Error relative to Σ|x| of the row: f32 accumulation stays far below n · 2⁻²⁴.
        let mut worst = 0f64;
        let mut bad = 0usize;
        for (&g, &(w, abs)) in y.iter().zip(&want) {
            let e = ((g as f64) - w).abs() / abs;
            if e.is_nan() || e > 2.0 * n as f64 * f32::EPSILON as f64 {
                bad += 1;
            }
            worst = if e.is_nan() { f64::NAN } else { worst.max(e) };
        }
        overall = if worst.is_nan() {
            worst
        } else {
            overall.max(worst)
        };
        let status = if bad == 0 {
            format!("ok ({worst:.1e})")
        } else {
            failed = true;
            format!("FAIL: {bad} rows ({worst:.1e})")
        };
        let row = format!("| {}x{} | {} | {status} |", t.rows, t.cols, t.num_warps);
        if !timed {
            println!("{row}");
            continue;
        }
        // The D2D baseline moves as many bytes: a copy of half of them (read + write).
        let (ms, base_ms) = common::time_against_d2d::<B>(dev, &kernel, &cfg, &args, m * n * 2)?;
        let (w, b) = (bytes / (ms * 1e6), bytes / (base_ms * 1e6));
        println!("{row} {ms:.3} | {w:.0} | {b:.0} | {:.3} |", w / b);
    }
    if failed {
        return Err("a configuration failed its host check".into());
    }
    Ok(overall)
}
