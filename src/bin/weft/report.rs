//! `weft report KERNEL [--target sm_90a] [--json] [--ptxas] [--ir]`: what the builder predicted for
//! a ready-made kernel (`weft::codegen::kernels::example_kernel`): vector widths, shared-memory
//! instructions and bank conflicts, conversion plans, shuffles, scratch, barriers; with `--ptxas`,
//! ptxas's registers and spills; with `--ir`, the kernel's tile IR instead (one op a line, each
//! with the source line that made it). Needs the `llvm` feature.

use clap::Args as ClapArgs;

use crate::Failure;

/// Arguments of `weft report`.
#[derive(ClapArgs, Debug)]
pub(crate) struct Args {
    /// A ready-made kernel: memcpy, add, copy_2d, transpose, transpose_smem, row_sum, softmax,
    /// layernorm, cumsum, smem_round_trip, smem_round_trip_swizzled, gemm, gemm_ws, gemm_sm80,
    /// attention, attention_pp.
    kernel: String,
    /// Target: sm_80, sm_90, sm_90a, gfx90a, gfx942, gfx950.
    #[arg(long, default_value = "sm_90a")]
    target: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Add ptxas's registers, spills and stack frame (`$PTXAS`, else `ptxas` on the PATH).
    #[arg(long)]
    ptxas: bool,
    /// Print the kernel's tile IR (with each op's source line) instead of the report.
    #[arg(long, conflicts_with_all = ["json", "ptxas"])]
    ir: bool,
}

#[cfg(feature = "llvm")]
pub(crate) fn run(a: Args) -> Result<String, Failure> {
    use weft::codegen::kernels::example_kernel;
    use weft::codegen::{Context, Target};

    let target: Target = a
        .target
        .parse()
        .map_err(|e| Failure(format!("--target: {e}")))?;
    let ctx = Context::new();
    let kernel = example_kernel(&ctx, &a.kernel, target)?;
    if a.ir {
        return Ok(kernel.program().to_text(true));
    }
    let report = if a.ptxas {
        kernel.report_with_ptxas()?
    } else {
        kernel.report()
    };
    Ok(if a.json {
        format!("{}\n", report.to_json())
    } else {
        report.to_string()
    })
}

#[cfg(not(feature = "llvm"))]
pub(crate) fn run(_: Args) -> Result<String, Failure> {
    Err(Failure(
        "`weft report` builds kernels: rebuild weft with `--features cli,llvm`".into(),
    ))
}
