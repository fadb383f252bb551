//! `weft bank-conflicts REG SHARED --shape 64x64 --dtype f16 [--json]`: the bank conflicts of writing a
//! register layout to a shared layout (and of reading it back), the number Gluon's `gl.bank_conflicts` gives,
//! next to the exact count.

use weft::layout::convert::bank_conflicts_detail;

use crate::convert::{dtype_bits, layout_of, parse_shape};

/// Arguments of `weft bank-conflicts`.
#[derive(clap::Args, Debug, Clone)]
pub struct BankConflictsArgs {
    /// Distributed (register) layout: TTGIR, Gluon or JSON text.
    pub reg: String,
    /// Shared layout: TTGIR, Gluon or JSON text.
    pub shared: String,
    /// Tensor shape, e.g. `64x64`.
    #[arg(long)]
    pub shape: String,
    /// Element type.
    #[arg(long, default_value = "f16")]
    pub dtype: String,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `weft bank-conflicts`; returns what to print, or the one-line error (exit status 2).
pub fn run(args: &BankConflictsArgs) -> Result<String, String> {
    let shape = parse_shape(&args.shape)?;
    let bits = dtype_bits(&args.dtype)?;
    let reg = layout_of("REG", &args.reg, &shape)?;
    let shared = layout_of("SHARED", &args.shared, &shape)?;
    let d = bank_conflicts_detail(&reg, &shared, bits).map_err(|e| e.to_string())?;
    Ok(if args.json {
        format!(
            "{{\"bank_conflicts\": {}, \"exact_bank_conflicts\": {}, \"vector\": {}, \"lanes_per_phase\": {}, \"wavefronts_per_phase\": {}}}\n",
            d.gluon_conflicts, d.conflicts, d.vector, d.lanes_per_phase, d.wavefronts_per_phase
        )
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
