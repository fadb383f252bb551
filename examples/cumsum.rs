//! cumsum: `y[i, j] = Σ_{k ≤ j} x[i, k]` of a 16K × 16K f32 matrix. Each CTA owns a few rows and
//! walks along them one tile at a time (`for_range` carrying each row's running total, 16-byte
//! loads and stores): every tile is scanned along its columns with `associative_scan(Sum, 1)`
//! (in-thread, then `shfl.sync.up` across the lanes), the carry added, and the tile's row totals
//! added to the carry.
//!
//! `cargo run --release --example cumsum --features llvm,cuda [-- sm_80|sm_90|sm_90a]`
//!
//! With a GPU: each tile configuration is run on random data, sample rows checked against an
//! f64 host cumulative sum, then timed with `weft::runtime::bench` (L2 flushed before each run)
//! next to a device-to-device copy of the same bytes: GB/s count the bytes read and written
//! (2 GiB), and the D2D copy moves as many (1 GiB read + 1 GiB written). Without a GPU (or
//! without `cuda`): prints the PTX of the first configuration, then runs every configuration in
//! weft's interpreter on a 37 × 2064 matrix (ragged tiles), every row checked.
//!
//! The kernel is [`weft::codegen::kernels::cumsum_kernel`].
mod common;

use common::Result;
use weft::codegen::kernels::{self, Tile2d, CUMSUM_TILES};
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
            "# cumsum {m}x{n} f32 on {}; GB/s count bytes read + written",
            common::gpu::describe(&dev)
        );
        return run::<weft::runtime::cuda::Cuda>(&dev, &ctx, target, &CUMSUM_TILES, (m, n), true)
            .map(|_| ());
    }
    let k = kernels::cumsum_kernel(&ctx, target, CUMSUM_TILES[0])?;
    common::print_kernel(&CUMSUM_TILES[0], &k)?;
    // Rows not a multiple of any tile's; columns a multiple of 16 (as declared), of no tile's.
    let (m, n) = (37, 2064);
    println!("# cumsum {m}x{n} f32 in the interpreter ({target})");
    let dev = common::interpreter(target)?;
    let worst = run::<weft::runtime::cpu::Cpu>(&dev, &ctx, target, &CUMSUM_TILES, (m, n), false)?;
    common::interpreted(&format!(
        "cumsum of {m}×{n} f32 in {} tile configurations, every row: max err {worst:.1e} (of the running Σ|x|) against f64",
        CUMSUM_TILES.len()
    ));
    Ok(())
}

/// Runs every tile on `dev` (any backend) for an `m × n` matrix, checks the sample rows against
/// an f64 host cumulative sum and, when `timed` (a GPU), times it next to a D2D copy; prints a
/// table row per tile and returns the largest error relative to the running Σ|x|.
fn run<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    tiles: &[Tile2d],
    (m, n): (usize, usize),
    timed: bool,
) -> Result<f64> {
    let x = common::random(m * n, 3);
    let samples = common::sample_rows(m, &[0, 1, 17, 4099, m / 2 + 3, m.saturating_sub(1)]);
    // f64 reference and running Σ|x| (the scale of the rounding error) of the sample rows.
    let want: Vec<Vec<(f64, f64)>> = samples
        .iter()
        .map(|&r| {
            let (mut s, mut a) = (0f64, 0f64);
            x[r * n..(r + 1) * n]
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
    let mut dy = dev.alloc::<f32>(m * n)?;
    let bytes = (2 * m * n * 4) as f64;
    println!();
    if timed {
        println!("| tile | warps | check (max err / Σ|x|) | weft ms | weft GB/s | D2D GB/s | weft / D2D |");
        println!("|---|---|---|---|---|---|---|");
    } else {
        println!("| tile | warps | check (max err / Σ|x|) |");
        println!("|---|---|---|");
    }
    let mut failed = false;
    let mut overall = 0f64;
    for t in tiles {
        let k = kernels::cumsum_kernel(ctx, target, *t)?;
        let kernel = k.load_on::<B>(dev)?;
        let cfg = LaunchConfig::for_kernel(kernels::cumsum_grid(*t, m as u64), k.signature())?;
        dy.fill_bytes(0xFF)?;
        let mut args = KernelArgs::new();
        args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
        // SAFETY: reads x[0..m*n), writes y[0..m*n).
        unsafe { common::launch_once::<B>(dev, &kernel, &cfg, &args)? };
        let y = dy.to_vec()?;
        let mut worst = 0f64;
        let mut bad = 0usize;
        for (&r, w) in samples.iter().zip(&want) {
            for (j, &(s, a)) in w.iter().enumerate() {
                let g = y[r * n + j] as f64;
                let e = (g - s).abs() / a.max(1e-30);
                if e.is_nan() || e > 2.0 * n as f64 * f32::EPSILON as f64 {
                    bad += 1;
                }
                worst = if e.is_nan() { f64::NAN } else { worst.max(e) };
            }
        }
        drop(y);
        overall = if worst.is_nan() {
            worst
        } else {
            overall.max(worst)
        };
        let status = if bad == 0 {
            format!("ok ({worst:.1e})")
        } else {
            failed = true;
            format!("FAIL: {bad} elements ({worst:.1e})")
        };
        let row = format!("| {}x{} | {} | {status} |", t.rows, t.cols, t.num_warps);
        if !timed {
            println!("{row}");
            continue;
        }
        // The D2D baseline moves as many bytes: a copy of the matrix (read + write).
        let (ms, base_ms) = common::time_against_d2d::<B>(dev, &kernel, &cfg, &args, m * n * 4)?;
        let (w, b) = (bytes / (ms * 1e6), bytes / (base_ms * 1e6));
        println!("{row} {ms:.3} | {w:.0} | {b:.0} | {:.3} |", w / b);
    }
    if failed {
        return Err("a configuration failed its host check".into());
    }
    Ok(overall)
}
