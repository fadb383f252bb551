//! The static profile of the row kernels at `bench_rows`'s shapes, without a GPU: for each
//! kernel's configuration, ptxas's registers and spills (`ptxas -v`), the CTAs an sm_90 SM holds
//! at once (`codegen::occupancy`) and the bytes its row loads keep in flight per SM, against the
//! 32–64 KB an H100 or H200 needs to saturate HBM.
//!
//! ```sh
//! cargo run --features llvm,cuda --example row_occupancy                  # the defaults (WEFT_NO_TUNE=1)
//! cargo run --features llvm,cuda --example row_occupancy -- rmsnorm_bwd   # one kernel, every candidate
//! cargo run --features llvm,cuda --example row_occupancy -- rmsnorm 16384 # one kernel and width
//! ```
//!
//! `WEFT_PTX_DIR=dir` also writes each kernel's PTX there, to read what the figures come from.
//!
//! Kernels: `rmsnorm`, `rmsnorm_staged`, `rmsnorm_bwd`, `layernorm_bwd`, `rmsnorm_bwd_staged`,
//! `layernorm_bwd_staged`, `layernorm`, `softmax`, `softmax_bwd`,
//! `softmax_split`, `cross_entropy_fwd`, `cross_entropy_bwd` (bf16 rows, as `bench_rows` runs
//! them). Needs ptxas (`$PTXAS`); without it, says so and exits.

mod common;

use common::Result;
use weft::codegen::kernels::{Norm, RmsNormOptions, RowConfig, RowKernel};
use weft::codegen::occupancy::occupancy;
use weft::codegen::{Context, DType, Target};

/// A kernel by its name on the command line, and the row tiles it loads before their first use.
fn kernel_named(name: &str) -> Option<(RowKernel, u64)> {
    Some(match name {
        "rmsnorm" => (RowKernel::RmsNorm(RmsNormOptions::PLAIN), 1),
        "rmsnorm_staged" => (RowKernel::RmsNormStaged(RmsNormOptions::PLAIN), 1),
        "rmsnorm_bwd" => (RowKernel::NormBwd(Norm::Rms), 2),
        "layernorm_bwd" => (RowKernel::NormBwd(Norm::Layer), 2),
        "rmsnorm_bwd_staged" => (RowKernel::NormBwdStaged(Norm::Rms), 2),
        "layernorm_bwd_staged" => (RowKernel::NormBwdStaged(Norm::Layer), 2),
        "layernorm" => (RowKernel::LayernormFwd, 1),
        "softmax" => (RowKernel::SoftmaxFwd, 1),
        "softmax_bwd" => (RowKernel::SoftmaxBwd, 2),
        "softmax_split" => (RowKernel::SoftmaxSplit, 1),
        "cross_entropy_fwd" => (RowKernel::CrossEntropyFwd, 1),
        "cross_entropy_bwd" => (RowKernel::CrossEntropyBwd, 1),
        _ => return None,
    })
}

const NAMES: [&str; 12] = [
    "rmsnorm",
    "rmsnorm_staged",
    "rmsnorm_bwd",
    "layernorm_bwd",
    "rmsnorm_bwd_staged",
    "layernorm_bwd_staged",
    "layernorm",
    "softmax",
    "softmax_bwd",
    "softmax_split",
    "cross_entropy_fwd",
    "cross_entropy_bwd",
];

/// The widths `bench_rows` runs each kernel at.
fn widths(name: &str) -> Vec<u32> {
    match name {
        "softmax_split" => vec![262144],
        "cross_entropy_fwd" | "cross_entropy_bwd" => vec![131072],
        _ => vec![4096, 8192, 16384],
    }
}

/// Appends a line to the report.
macro_rules! line {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

/// Writes the report to stdout; a closed pipe ends it quietly.
fn finish(out: &str) -> Result<()> {
    use std::io::Write as _;
    match std::io::stdout().write_all(out.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("row_occupancy: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let chosen: Vec<&str> = match args.first() {
        Some(a) => vec![NAMES
            .iter()
            .copied()
            .find(|n| n == a)
            .ok_or_else(|| format!("unknown kernel `{a}`: one of {}", NAMES.join(", ")))?],
        None => NAMES.to_vec(),
    };
    let width: Option<u32> = match args.get(1) {
        Some(w) => Some(w.parse().map_err(|_| format!("width `{w}`: a number"))?),
        None => None,
    };
    // Printed at the end in one write (a closed pipe, as `| head` leaves, is no error).
    let mut out = String::new();
    let target = Target::SM90;
    let dtype = DType::BF16;
    let ctx = Context::new();
    line!(
        out,
        "# row kernels on sm_90, bf16 rows: registers, CTAs per SM, bytes in flight per SM"
    );
    line!(out, "| kernel | n | block_n rows vec warps | threads | regs | spill B | CTAs/SM (by) | KB/CTA | KB in flight/SM |");
    line!(out, "|---|---|---|---|---|---|---|---|---|");
    for name in chosen {
        let Some((kind, tiles)) = kernel_named(name) else {
            continue;
        };
        for n in width.map_or_else(|| widths(name), |w| vec![w]) {
            // One kernel named: every candidate; else the default (what WEFT_NO_TUNE=1 runs).
            let configs = match args.first() {
                Some(_) => kind.candidates(n, dtype, target),
                None => vec![kind.default_config(n, dtype)],
            };
            for c in configs {
                match profile(&ctx, target, kind, c, tiles) {
                    Ok(Some(line)) => line!(out, "| {name} | {n} | {line} |"),
                    Ok(None) => {
                        line!(out, "no ptxas (set $PTXAS): nothing to profile");
                        return finish(&out);
                    }
                    Err(e) => line!(out, "| {name} | {n} | {c:?}: {e} |"),
                }
            }
        }
    }
    finish(&out)
}

/// One table line for `kind` at `c`, or `None` without ptxas.
fn profile(
    ctx: &Context,
    target: Target,
    kind: RowKernel,
    c: RowConfig,
    tiles: u64,
) -> Result<Option<String>> {
    let k = kind.build(ctx, target, c)?;
    if let Ok(dir) = std::env::var("WEFT_PTX_DIR") {
        let file = format!(
            "{}_{}_{}x{}_{}w.ptx",
            kind.name(),
            c.block_n,
            c.rows_per_cta,
            c.per_thread,
            c.num_warps
        );
        std::fs::write(std::path::Path::new(&dir).join(file), k.ptx()?)?;
    }
    let report = match k.report_with_ptxas() {
        Ok(r) => r,
        Err(weft::codegen::CodegenError::Ptxas(_)) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let Some(p) = report.ptxas else {
        return Ok(None);
    };
    let threads = c.num_warps * target.warp_size();
    let o = occupancy(target, threads, p.registers as u32, report.shared_bytes)?;
    let per_cta = tiles * c.rows_per_cta as u64 * c.block_n as u64 * c.dtype.mem_bytes();
    Ok(Some(format!(
        "{} {} {} {} | {threads} | {} | {} | {} ({:?}) | {} | {}",
        c.block_n,
        c.rows_per_cta,
        c.per_thread,
        c.num_warps,
        p.registers,
        p.spill_store_bytes + p.spill_load_bytes,
        o.ctas_per_sm,
        o.limit,
        per_cta / 1024,
        o.bytes_in_flight(per_cta) / 1024,
    )))
}
