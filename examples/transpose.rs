//! transpose: `y = xᵀ` of a 16K × 16K f32 matrix through shared memory, as Gluon's transpose
//! tutorial: load a tile coalesced along `x`'s rows, `convert_layout` (the planner's swizzled
//! shared-memory round trip), store coalesced along `y`'s rows; 16-byte vectors both ways.
//!
//! `cargo run --release --example transpose --features llvm,cuda [-- sm_80|sm_90|sm_90a]`
//!
//! With a GPU: each tile configuration is run on random data, the whole result checked against
//! the host, then timed with `weft::runtime::bench` (L2 flushed before each run) next to a
//! device-to-device copy moving the same bytes (a copy of 1 GiB reads and writes 1 GiB, the
//! transpose reads and writes 1 GiB: GB/s count read + write). Gluon's anchor on the H200:
//! 3844 GB/s, D2D about 4250 GB/s. Without a GPU (or without `cuda`): prints the PTX of the
//! first configuration, then runs every configuration in weft's interpreter on a 208 × 144
//! matrix (ragged tiles) with the same host check.
//!
//! The kernel is [`weft::codegen::kernels::transpose_smem_kernel`].
mod common;

use common::Result;
use weft::codegen::kernels::{self, TransposeConfig, TRANSPOSE_CONFIGS as CONFIGS};
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
            "# transpose {m}x{n} f32 on {}; GB/s count read + write",
            common::gpu::describe(&dev)
        );
        return run::<weft::runtime::cuda::Cuda>(&dev, &ctx, target, &CONFIGS, (m, n), true);
    }
    let k = kernels::transpose_smem_kernel(&ctx, target, CONFIGS[0])?;
    common::print_kernel(&CONFIGS[0], &k)?;
    // Multiples of 16 (as the kernel declares), not of any tile: every edge tile is masked.
    let (m, n) = (208, 144);
    println!("# transpose {m}x{n} f32 in the interpreter ({target})");
    run::<weft::runtime::cpu::Cpu>(
        &common::interpreter(target)?,
        &ctx,
        target,
        &CONFIGS,
        (m, n),
        false,
    )?;
    common::interpreted(&format!(
        "transpose of {m}×{n} f32 in {} tile configurations: equal to the host's bit for bit",
        CONFIGS.len()
    ));
    Ok(())
}

/// The number of mismatches of `y` (`n × m`) against `xᵀ` (`x` is `m × n`; bitwise), and the
/// first, walking tile by tile (cache-friendly at 16K × 16K).
fn check(x: &[f32], y: &[f32], m: usize, n: usize) -> (usize, Option<(usize, usize)>) {
    const B: usize = 64;
    let (mut bad, mut first) = (0, None);
    for i0 in (0..m).step_by(B) {
        for j0 in (0..n).step_by(B) {
            for i in i0..(i0 + B).min(m) {
                for j in j0..(j0 + B).min(n) {
                    if y[j * m + i].to_bits() != x[i * n + j].to_bits() {
                        bad += 1;
                        first.get_or_insert((i, j));
                    }
                }
            }
        }
    }
    (bad, first)
}

/// Runs every configuration on `dev` (any backend) for an `m × n` matrix, checks each result
/// against the host and, when `timed` (a GPU), times it next to a D2D copy; prints a table row
/// per configuration.
fn run<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    configs: &[TransposeConfig],
    (m, n): (usize, usize),
    timed: bool,
) -> Result<()> {
    let x = common::random(m * n, 1);
    let dx = dev.upload(&x)?;
    let mut dy = dev.alloc::<f32>(m * n)?;
    let bytes = (2 * m * n * 4) as f64;
    println!();
    if timed {
        println!("| tile | warps | smem bytes | check | weft ms | weft GB/s | D2D GB/s | weft / D2D | vs Gluon 3844 GB/s |");
        println!("|---|---|---|---|---|---|---|---|---|");
    } else {
        println!("| tile | warps | smem bytes | check |");
        println!("|---|---|---|---|");
    }
    let mut failed = false;
    for c in configs {
        let k = kernels::transpose_smem_kernel(ctx, target, *c)?;
        let kernel = k.load_on::<B>(dev)?;
        let cfg = LaunchConfig::for_kernel(c.grid(m as u64, n as u64), k.signature())?;
        dy.fill_bytes(0xFF)?;
        let mut args = KernelArgs::new();
        args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
        // SAFETY: reads x[0..m*n), writes y[0..n*m), both m*n f32.
        unsafe { common::launch_once::<B>(dev, &kernel, &cfg, &args)? };
        let y = dy.to_vec()?;
        let (bad, first) = check(&x, &y, m, n);
        drop(y);
        let status = match first {
            None => "ok".to_string(),
            Some((i, j)) => {
                failed = true;
                format!("FAIL: {bad} differ, first y[{j}, {i}]")
            }
        };
        let row = format!(
            "| {}x{} | {} | {} | {status} |",
            c.tile_rows,
            c.tile_cols,
            c.num_warps,
            k.signature().shared_bytes
        );
        if !timed {
            println!("{row}");
            continue;
        }
        // The D2D baseline: a copy of m·n f32 reads and writes as many bytes.
        let (ms, base_ms) = common::time_against_d2d::<B>(dev, &kernel, &cfg, &args, m * n * 4)?;
        let (w, b) = (bytes / (ms * 1e6), bytes / (base_ms * 1e6));
        println!(
            "{row} {ms:.3} | {w:.0} | {b:.0} | {:.3} | {:.3} |",
            w / b,
            w / 3844.0
        );
    }
    if failed {
        return Err("a configuration failed its host check".into());
    }
    Ok(())
}
