//! `weft convert SRC DST --shape 64x64 --dtype f16 [--num-warps 4] [--target sm_90] [--json]`: the plan of a
//! layout conversion (kind, scratch, shuffles, bank conflicts, instructions, cost) as a table or as the JSON
//! of design.md.

use clap::Args as ClapArgs;
use weft::layout::convert::{element_bits, plan_conversion, Target};
use weft::layout::text;
use weft::layout::LinearLayout;

use crate::layout::parse_shape;
use crate::{read_arg, Failure};

/// Arguments of `weft convert`.
#[derive(ClapArgs, Debug)]
pub(crate) struct Args {
    /// Source layout: TTGIR attribute text (`#ttg.blocked<{…}>`), Gluon text (`BlockedLayout(…)`), a JSON
    /// layout, or @file.
    src: String,
    /// Destination layout, in the same forms.
    dst: String,
    /// Tensor shape, e.g. `64x64`.
    #[arg(long)]
    shape: String,
    /// Element type: i8, i16, i32, i64, f8, f16, bf16, f32, f64.
    #[arg(long, default_value = "f16")]
    dtype: String,
    /// Warps per CTA; both layouts must use exactly this many.
    #[arg(long)]
    num_warps: Option<u64>,
    /// Target: sm_80, sm_90, gfx90a, gfx942, gfx950.
    #[arg(long, default_value = "sm_90")]
    target: String,
    /// Print the plan as JSON.
    #[arg(long)]
    json: bool,
}

/// Bits of an element type name; the error names the `--dtype` option.
pub(crate) fn dtype_bits(dtype: &str) -> Result<u32, Failure> {
    element_bits(dtype).map_err(|e| Failure(format!("--{e}")))
}

/// The linear layout of `arg` (TTGIR, Gluon, JSON or @file) for `shape`; `what` names the argument.
pub(crate) fn layout_of(what: &str, arg: &str, shape: &[u64]) -> Result<LinearLayout, Failure> {
    let text = read_arg(arg)?;
    let t = text.trim();
    let ll = if t.starts_with('{') {
        LinearLayout::from_json(t).map_err(|e| Failure(format!("{what}: {e}")))?
    } else {
        let enc = text::parse_any(t).map_err(|e| Failure(format!("{what}: {e}")))?;
        // Conversions and bank conflicts take the distributed layout Triton's compiler works with (generic
        // linear layouts keep their XOR bases), not the one Gluon's `to_linear_layout` hands back.
        if enc.is_distributed() {
            enc.tensor_layout(shape)
        } else {
            enc.to_linear_layout(shape)
        }
        .map_err(|e| Failure(format!("{what}: {e}")))?
    };
    let sizes: Vec<u64> = ll.out_dims().map(|(_, s)| s).collect();
    if sizes != shape {
        return Err(Failure(format!(
            "{what}: the layout covers {}, not --shape {}",
            weft::layout::cut_list(&sizes),
            weft::layout::cut_list(shape)
        )));
    }
    Ok(ll)
}

pub(crate) fn run(args: Args) -> Result<String, Failure> {
    let shape = parse_shape(&args.shape)?;
    let bits = dtype_bits(&args.dtype)?;
    let target = Target::parse(&args.target).map_err(|e| Failure(format!("--target: {e}")))?;
    let src = layout_of("SRC", &args.src, &shape)?;
    let dst = layout_of("DST", &args.dst, &shape)?;
    if let Some(w) = args.num_warps {
        for (what, l) in [("SRC", &src), ("DST", &dst)] {
            let have = l.in_dim_size("warp").unwrap_or(1);
            if have != w {
                return Err(Failure(format!(
                    "{what}: the layout uses {have} warps, --num-warps is {w}"
                )));
            }
        }
    }
    let plan = plan_conversion(&src, &dst, bits, target)?;
    Ok(if args.json {
        plan.to_json() + "\n"
    } else {
        plan.to_string()
    })
}
