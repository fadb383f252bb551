//! `weft layout ATTR --shape 32x64 [--format table|bases|json|svg]` and `weft layout --from-ttgir FILE`.

use std::io::Write;

use clap::{Args as ClapArgs, ValueEnum};
use weft::layout::encoding::{Encoding, MAX_RANK};
use weft::layout::json::to_line;
use weft::layout::render;
use weft::layout::text::{self, ttgir};
use weft::layout::LinearLayout;

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
    let mut out = Vec::new();
    // Counted past the cap only, so a long `--shape` is refused without parsing it whole.
    for p in s.split(['x', 'X', ',']).map(str::trim).take(MAX_RANK + 1) {
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
    if out.is_empty() || out.len() > MAX_RANK {
        return Err(Failure(format!(
            "--shape `{}`: give 1 to {MAX_RANK} extents, like 32x64",
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

/// One entry of `--from-ttgir … --format json`: an alias with a shape and its linear layout (for a padded
/// shared layout, its linear component and `padding`), or the reason it could not be laid out.
#[derive(serde::Serialize)]
struct AliasJson<'a> {
    alias: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<&'a [u64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<LinearLayout>,
    /// `[interval, padding]` pairs of a padded shared layout.
    #[serde(skip_serializing_if = "Option::is_none")]
    padding: Option<&'a [(u32, u32)]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// A write error (a closed pipe, a full disk) as a failure.
fn io(e: std::io::Error) -> Failure {
    Failure(format!("cannot write the output: {e}"))
}

/// `weft layout --from-ttgir FILE`: every alias with each shape the file uses it with, written as it is
/// computed (a large file is never held twice in memory); an alias that cannot be laid out is reported at the
/// alias, and the rest of the file still listed.
fn from_ttgir(
    file: &str,
    shape: Option<&[u64]>,
    format: Format,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let text = read_file(file)?;
    let parsed =
        ttgir::parse_file(&text).map_err(|e| Failure(format!("{}: {e}", text::excerpt(file))))?;
    drop(text);
    let by_alias = parsed.shapes_by_alias();
    let json = format == Format::Json;
    if json {
        out.write_all(b"[").map_err(io)?;
    }
    let mut first = true;
    // What could not be laid out, each reported at its alias; the command fails once all is listed.
    let mut failures: Vec<String> = parsed
        .rejected
        .iter()
        .map(|(n, r)| format!("#{}: {r}", text::excerpt(n)))
        .collect();
    let mut json_item = |out: &mut dyn Write, item: &AliasJson| -> Result<(), Failure> {
        let sep = if std::mem::take(&mut first) { "" } else { ", " };
        write!(out, "{sep}{}", to_line(item)?).map_err(io)
    };
    for (name, enc) in &parsed.aliases {
        let shapes: Vec<Vec<u64>> = match shape {
            Some(s) => vec![s.to_vec()],
            None => by_alias.get(name.as_str()).cloned().unwrap_or_default(),
        };
        if !json {
            writeln!(out, "#{name} = {}", ttgir::print_encoding(enc)).map_err(io)?;
            if shapes.is_empty() {
                writeln!(out, "  (not used with a shape; pass --shape)").map_err(io)?;
            }
        }
        let padding = match enc {
            Encoding::PaddedShared(p) => Some(p.interval_padding_pairs.as_slice()),
            _ => None,
        };
        for s in shapes {
            // Per buffer for a multi-buffered shared allocation (see `ttgir::listed_layout`).
            let laid = ttgir::listed_layout(enc, &s);
            let per = laid.as_ref().map_or_else(|_| s.clone(), |(p, _)| p.clone());
            let note = if per.len() < s.len() {
                format!(" (each buffer of {})", render::shape_text(&s))
            } else {
                String::new()
            };
            let enc = ttgir::with_rank_of(enc.clone(), per.len());
            let laid = laid.map(|(_, l)| l).map_err(|e| e.to_string());
            if let Err(e) = &laid {
                failures.push(format!(
                    "#{} with shape {}: {e}",
                    text::excerpt(name),
                    render::shape_text(&per)
                ));
            }
            if json {
                let (layout, error) = match laid {
                    Ok(l) => (Some(l), None),
                    Err(e) => (None, Some(e)),
                };
                json_item(
                    out,
                    &AliasJson {
                        alias: name,
                        shape: Some(&per),
                        layout,
                        padding,
                        error,
                    },
                )?;
                continue;
            }
            writeln!(out, "shape {}{note}:", render::shape_text(&per)).map_err(io)?;
            match laid {
                Ok(ll) => {
                    if let Some(pairs) = padding {
                        writeln!(
                            out,
                            "  padding: {} (the linear component follows)",
                            padding_rule(pairs)
                        )
                        .map_err(io)?;
                    }
                    match emit(&enc, &ll, &per, format) {
                        Ok(t) => out.write_all(t.as_bytes()).map_err(io)?,
                        Err(Failure(e)) => writeln!(out, "  (cannot show it: {e})").map_err(io)?,
                    }
                }
                Err(e) => writeln!(
                    out,
                    "  (cannot lay it out: {})",
                    text::excerpt_with(&e, 300)
                )
                .map_err(io)?,
            }
        }
        if !json {
            out.write_all(b"\n").map_err(io)?;
        }
    }
    if json {
        let memory = "a tensor-memory layout: weft does not lay out tensor memory yet";
        let notes = (parsed
            .tensor_memory
            .iter()
            .map(|(n, _)| (n, memory.to_string())))
        .chain(
            parsed
                .rejected
                .iter()
                .chain(&parsed.skipped)
                .map(|(n, r)| (n, format!("skipped: {}", text::excerpt_with(r, 200)))),
        );
        for (alias, error) in notes {
            let item = AliasJson {
                alias,
                shape: None,
                layout: None,
                padding: None,
                error: Some(error),
            };
            json_item(out, &item)?;
        }
        out.write_all(b"]\n").map_err(io)?;
        return failed(file, &failures);
    }
    for (name, def) in &parsed.tensor_memory {
        writeln!(
            out,
            "#{} = {def}\n  (a tensor-memory layout: weft does not lay out tensor memory yet)\n",
            text::excerpt(name)
        )
        .map_err(io)?;
    }
    for (name, reason) in &parsed.rejected {
        writeln!(
            out,
            "#{} = (cannot read it: {})",
            text::excerpt(name),
            text::excerpt_with(reason, 200)
        )
        .map_err(io)?;
    }
    for (name, reason) in &parsed.skipped {
        writeln!(
            out,
            "#{} = (skipped: {})",
            text::excerpt(name),
            text::excerpt_with(reason, 200)
        )
        .map_err(io)?;
    }
    failed(file, &failures)
}

/// The command's failure once the whole file is listed: how many layouts could not be laid out, and the
/// first of them.
fn failed(file: &str, failures: &[String]) -> Result<(), Failure> {
    match failures {
        [] => Ok(()),
        [first, ..] => Err(Failure(format!(
            "{}: {} layout(s) could not be laid out (each is reported at its alias in the listing); the first: {first}",
            text::excerpt(file),
            failures.len()
        ))),
    }
}

/// A padded shared layout's padding as words: `+16 elements after every 512, +8 after every 64`.
fn padding_rule(pairs: &[(u32, u32)]) -> String {
    let items: Vec<String> = pairs
        .iter()
        .map(|(i, p)| format!("+{p} elements after every {i}"))
        .collect();
    items.join(", ")
}

/// `weft layout`: writes the listing to `out` as it is made.
pub(crate) fn run(args: Args, out: &mut dyn Write) -> Result<(), Failure> {
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
        return from_ttgir(file, shape.as_deref(), args.format, out);
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
    let enc = ttgir::with_rank_of(text::parse_any(text.trim())?, shape.len());
    let ll = enc.to_linear_layout(&shape)?;
    out.write_all(emit(&enc, &ll, &shape, args.format)?.as_bytes())
        .map_err(io)
}
