//! `weft bank-conflicts REG SHARED --shape 64x64 --dtype f16 [--json]`: the bank conflicts of writing a
//! register layout to a shared layout (reading it back has the same pattern): Gluon's `gl.bank_conflicts`
//! number, with the exact count beside it.

use clap::Args as ClapArgs;
use weft::layout::convert::bank_conflicts_detail;
use weft::layout::json::to_line;

use crate::convert::{dtype_bits, layout_of};
use crate::layout::parse_shape;
use crate::Failure;

/// Arguments of `weft bank-conflicts`.
#[derive(ClapArgs, Debug)]
pub(crate) struct Args {
    /// Distributed (register) layout: TTGIR, Gluon, JSON text or @file.
    reg: String,
    /// Shared layout: TTGIR, Gluon, JSON text or @file.
    shared: String,
    /// Tensor shape, e.g. `64x64`.
    #[arg(long)]
    shape: String,
    /// Element type.
    #[arg(long, default_value = "f16")]
    dtype: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `weft bank-conflicts --json`: Gluon's count first, then the exact one and what it depends on.
#[derive(serde::Serialize)]
struct BankConflictsJson {
    bank_conflicts: u64,
    exact_bank_conflicts: u64,
    vector: u64,
    lanes_per_phase: u64,
    wavefronts_per_phase: u64,
}

pub(crate) fn run(args: Args) -> Result<String, Failure> {
    let shape = parse_shape(&args.shape)?;
    let bits = dtype_bits(&args.dtype)?;
    let reg = layout_of("REG", &args.reg, &shape)?;
    let shared = layout_of("SHARED", &args.shared, &shape)?;
    let d = bank_conflicts_detail(&reg, &shared, bits)?;
    Ok(if args.json {
        let json = BankConflictsJson {
            bank_conflicts: d.gluon_conflicts,
            exact_bank_conflicts: d.conflicts,
            vector: d.vector,
            lanes_per_phase: d.lanes_per_phase,
            wavefronts_per_phase: d.wavefronts_per_phase,
        };
        to_line(&json)? + "\n"
    } else {
        format!(
            "bank conflicts        {} (Gluon's count; exact: {})\nvector                {} elements ({} bits per access)\nlanes per phase       {}\nwavefronts per phase  {}\n",
            d.gluon_conflicts,
            d.conflicts,
            d.vector,
            d.vector * bits.max(8) as u64,
            d.lanes_per_phase,
            d.wavefronts_per_phase
        )
    })
}
