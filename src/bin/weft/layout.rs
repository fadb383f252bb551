//! `weft layout ATTR --shape 32x64 [--format table|bases|json|svg]` and `weft layout --from-ttgir FILE`.

use clap::{Args as ClapArgs, ValueEnum};
use weft::layout::encoding::Encoding;
use weft::layout::json::to_line;
use weft::layout::text::{self, ttgir};
use weft::layout::LinearLayout;

use weft::layout::render;

use crate::{read_arg, read_file, Failure};

/// Arguments of `weft layout`.
#[derive(ClapArgs, Debug)]
pub(crate) struct Args {
    /// The layout: TTGIR attribute text (`#ttg.blocked<{…}>`) or Gluon text (`BlockedLayout(…)`), or @file.
    attr: Option<String>,
    /// Tensor shape, e.g. `32x64` (with --from-ttgir: overrides the shapes the file uses).
    #[arg(long)]
    shape: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// List every layout alias of a TTGIR dump with its linear layout (for each shape the file uses it with).
    #[arg(long, value_name = "FILE")]
    from_ttgir: Option<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// Each element with the thread and register (or shared offset) holding it.
    Table,
    /// Triton's bases dump.
    Bases,
    /// The JSON of design.md.
    Json,
    /// An SVG picture: cells coloured by warp, labelled with lane and register.
    Svg,
}

/// Parses `32x64` (also `32,64` or `32`).
pub(crate) fn parse_shape(s: &str) -> Result<Vec<u64>, Failure> {
    let parts: Vec<&str> = s.split(['x', 'X', ',']).map(str::trim).collect();
    let mut out = Vec::new();
    for p in &parts {
        let v: u64 = p.parse().map_err(|_| {
            Failure(format!(
                "--shape `{}`: `{}` is not a positive integer",
                text::excerpt(s),
                text::excerpt(p)
            ))
        })?;
        if v == 0 {
            return Err(Failure(format!(
                "--shape `{}`: extents must be positive",
                text::excerpt(s)
            )));
        }
        out.push(v);
    }
    if out.is_empty() || out.len() > 8 {
        return Err(Failure(format!(
            "--shape `{}`: give 1 to 8 extents, like 32x64",
            text::excerpt(s)
        )));
    }
    Ok(out)
}

fn emit(
    enc: &Encoding,
    ll: &LinearLayout,
    shape: &[u64],
    format: Format,
) -> Result<String, Failure> {
    Ok(match format {
        Format::Table => render::table(enc, ll)?,
        Format::Bases => ll.to_bases_string() + "\n",
        Format::Json => ll.to_json() + "\n",
        Format::Svg => render::svg(enc, ll, shape)?,
    })
}

/// One layout alias of a TTGIR file, as `--from-ttgir … --format json` lists it.
#[derive(serde::Serialize)]
struct AliasJson {
    alias: String,
    shape: Vec<u64>,
    layout: LinearLayout,
}

pub(crate) fn run(args: Args) -> Result<String, Failure> {
    let shape = args.shape.as_deref().map(parse_shape).transpose()?;
    if let Some(file) = &args.from_ttgir {
        if args.attr.is_some() {
            return Err(Failure("give either ATTR or --from-ttgir, not both".into()));
        }
        if args.format == Format::Svg {
            return Err(Failure(
                "--format svg draws one layout; give ATTR instead of --from-ttgir".into(),
            ));
        }
        let text = read_file(file)?;
        let parsed = ttgir::parse_file(&text)
            .map_err(|e| Failure(format!("{}: {e}", text::excerpt(file))))?;
        let mut out = String::new();
        let mut json_items = Vec::new();
        for (name, enc) in &parsed.aliases {
            let shapes = match &shape {
                Some(s) => vec![s.clone()],
                None => parsed.shapes_of(name),
            };
            if args.format != Format::Json {
                out += &format!("#{name} = {}\n", ttgir::print_encoding(enc));
                if shapes.is_empty() {
                    out += "  (not used with a shape; pass --shape)\n";
                }
            }
            for s in shapes {
                // A multi-buffered shared allocation (`2x64x32` for a rank-2 encoding) holds one buffer per
                // leading index: Triton applies the encoding to the trailing dims.
                let rank = enc.rank().unwrap_or(s.len());
                let (s, note) = if enc.is_shared() && s.len() > rank {
                    let per = s[s.len() - rank..].to_vec();
                    let note = format!(" (each buffer of {})", render::shape_text(&s));
                    (per, note)
                } else {
                    (s, String::new())
                };
                let ll = enc.to_linear_layout(&s).map_err(|e| {
                    Failure(format!(
                        "#{} with shape {}: {e}",
                        text::excerpt(name),
                        render::shape_text(&s)
                    ))
                })?;
                if args.format == Format::Json {
                    json_items.push(AliasJson {
                        alias: name.clone(),
                        shape: s.clone(),
                        layout: ll,
                    });
                } else {
                    out += &format!("shape {}{note}:\n", render::shape_text(&s));
                    out += &emit(enc, &ll, &s, args.format)?;
                }
            }
            if args.format != Format::Json {
                out.push('\n');
            }
        }
        if args.format == Format::Json {
            out = to_line(&json_items)? + "\n";
        } else {
            for (name, reason) in &parsed.skipped {
                out += &format!(
                    "#{} = (not a layout weft knows, skipped: {})\n",
                    text::excerpt(name),
                    text::excerpt_with(reason, 200)
                );
            }
        }
        return Ok(out);
    }
    let Some(attr) = &args.attr else {
        return Err(Failure(
            "give a layout (TTGIR or Gluon text) or --from-ttgir FILE".into(),
        ));
    };
    let Some(shape) = shape else {
        return Err(Failure("--shape is required, e.g. --shape 32x64".into()));
    };
    let text = read_arg(attr)?;
    let enc = text::parse_any(text.trim())?;
    let ll = enc.to_linear_layout(&shape)?;
    emit(&enc, &ll, &shape, args.format)
}
