//! `weft convert SRC DST --shape 64x64 --dtype f16 --num-warps 4 [--target sm_90] [--json]`: the plan of a
//! layout conversion (kind, scratch, shuffles, bank conflicts, instructions, cost), as a table or as the
//! JSON of design.md.

use weft::layout::convert::{plan_conversion, Target};
use weft::layout::LinearLayout;

/// Arguments of `weft convert`.
#[derive(clap::Args, Debug, Clone)]
pub struct ConvertArgs {
    /// Source layout: TTGIR attribute text (`#ttg.blocked<{…}>`), Gluon constructor text
    /// (`BlockedLayout(…)`) or a JSON layout (inline or `@file`).
    pub src: String,
    /// Destination layout, in the same forms.
    pub dst: String,
    /// Tensor shape, e.g. `64x64`.
    #[arg(long)]
    pub shape: String,
    /// Element type: i1, i8, i16, i32, i64, f8, f16, bf16, f32, f64.
    #[arg(long, default_value = "f16")]
    pub dtype: String,
    /// Warps per CTA the layouts must use (checked when given).
    #[arg(long)]
    pub num_warps: Option<u64>,
    /// Target: sm_80, sm_90, gfx90a, gfx942, gfx950.
    #[arg(long, default_value = "sm_90")]
    pub target: String,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Parses `64x64` into `[64, 64]`.
pub fn parse_shape(text: &str) -> Result<Vec<u64>, String> {
    let dims: Result<Vec<u64>, _> = text.split('x').map(|d| d.trim().parse::<u64>()).collect();
    match dims {
        Ok(d) if !d.is_empty() && d.iter().all(|x| x.is_power_of_two()) => Ok(d),
        Ok(_) => Err(format!("--shape {text}: every dimension must be a power of two")),
        Err(_) => Err(format!("--shape {text}: expected sizes separated by `x`, e.g. 64x64")),
    }
}

/// Bits of an element type name.
pub fn dtype_bits(dtype: &str) -> Result<u32, String> {
    Ok(match dtype {
        "i1" => 1,
        "i8" | "u8" | "f8" | "f8e4m3" | "f8e5m2" => 8,
        "i16" | "u16" | "f16" | "bf16" => 16,
        "i32" | "u32" | "f32" | "tf32" => 32,
        "i64" | "u64" | "f64" => 64,
        _ => return Err(format!("--dtype {dtype}: unknown element type (i8, f16, bf16, f32, f64, …)")),
    })
}

/// The linear layout of `text` (attribute, Gluon text or JSON) for `shape`.
pub fn layout_of(what: &str, text: &str, shape: &[u64]) -> Result<LinearLayout, String> {
    let text = match text.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{what}: cannot read {path}: {e}"))?,
        None => text.to_string(),
    };
    let trimmed = text.trim_start();
    let layout = if trimmed.starts_with('{') {
        LinearLayout::from_json(trimmed).map_err(|e| format!("{what}: {e}"))?
    } else {
        let enc = weft::layout::text::parse_any(trimmed).map_err(|e| format!("{what}: {e}"))?;
        enc.to_linear_layout(shape).map_err(|e| format!("{what}: {e}"))?
    };
    let sizes: Vec<u64> = layout.out_dims().map(|(_, s)| s).collect();
    if sizes != shape {
        return Err(format!("{what}: the layout covers {sizes:?}, not the shape {shape:?}"));
    }
    Ok(layout)
}

/// Runs `weft convert`; returns what to print, or the one-line error (exit status 2).
pub fn run(args: &ConvertArgs) -> Result<String, String> {
    let shape = parse_shape(&args.shape)?;
    let bits = dtype_bits(&args.dtype)?;
    let target = Target::parse(&args.target).map_err(|e| format!("--target: {e}"))?;
    let src = layout_of("SRC", &args.src, &shape)?;
    let dst = layout_of("DST", &args.dst, &shape)?;
    if let Some(w) = args.num_warps {
        for (what, l) in [("SRC", &src), ("DST", &dst)] {
            let have = l.in_dim_size("warp").unwrap_or(1);
            if have != w {
                return Err(format!("{what}: the layout uses {have} warps, --num-warps is {w}"));
            }
        }
    }
    let plan = plan_conversion(&src, &dst, bits, target).map_err(|e| e.to_string())?;
    Ok(if args.json {
        format!("{}\n", plan.to_json())
    } else {
        plan.to_string()
    })
}
