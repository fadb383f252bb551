//! Pictures of a layout: a text table and an SVG grid (cells coloured by warp, labelled with lane and
//! register, like the layout figures of the Triton and CuTe docs). The `weft layout` command and the Python
//! package's notebook pictures (`_repr_svg_`) both draw with these.

use crate::layout::encoding::Encoding;
use crate::layout::{LayoutError, LinearLayout, Result};

/// What a picture needs to know beyond the layout: how to title it and what its cells are.
struct Style {
    title: String,
    cells: Cells,
}

/// What a cell shows, and what colours it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cells {
    /// Thread and register, coloured by warp.
    Threads,
    /// Shared-memory offset, coloured by bank (4-byte words of `elem_bits`-bit elements).
    Shared { elem_bits: u64 },
    /// Tensor-memory row and 32-bit column, coloured by the warp whose quarter of the rows holds it.
    TensorMemory,
}

impl Style {
    fn of_encoding(enc: &Encoding, shape: &[u64]) -> Style {
        Style {
            title: format!(
                "{} — shape {}",
                crate::layout::text::gluon::print_encoding(enc),
                shape_text(shape)
            ),
            cells: Cells::of_encoding(enc),
        }
    }

    /// A bare layout: shared when its first input dim is `offset` (16-bit elements for the bank colours),
    /// tensor memory when its first two are `row` and `col`, else threads.
    fn of_layout(ll: &LinearLayout) -> Style {
        let shape: Vec<u64> = ll.out_dims().map(|(_, s)| s).collect();
        let mut ins = ll.in_dim_names();
        let first = ins.next().map(|d| d.as_str());
        let second = ins.next().map(|d| d.as_str());
        Style {
            title: format!("LinearLayout — shape {}", shape_text(&shape)),
            cells: match (first, second) {
                (Some("offset"), _) => Cells::Shared { elem_bits: 16 },
                (Some("row"), Some("col")) => Cells::TensorMemory,
                _ => Cells::Threads,
            },
        }
    }
}

impl Cells {
    fn of_encoding(enc: &Encoding) -> Cells {
        if enc.is_shared() {
            Cells::Shared {
                elem_bits: elem_bits(enc),
            }
        } else if enc.is_tensor_memory() {
            Cells::TensorMemory
        } else {
            Cells::Threads
        }
    }
}

/// A shape as the pictures and the CLI write it: `32x64`.
pub fn shape_text(shape: &[u64]) -> String {
    shape
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

/// Largest hardware space enumerated to draw a layout.
const MAX_IN_BITS: u32 = 22;

/// For every tensor element (packed out index), the smallest packed input holding it and how many do.
struct Owners {
    first: Vec<u64>,
    count: Vec<u32>,
}

fn owners(ll: &LinearLayout) -> Result<Owners> {
    if ll.total_in_bits() > MAX_IN_BITS || ll.total_out_bits() > MAX_IN_BITS {
        return Err(LayoutError::Invalid(format!(
            "layout too large to draw ({} input bits, {} output bits; at most {MAX_IN_BITS})",
            ll.total_in_bits(),
            ll.total_out_bits()
        )));
    }
    let n = ll.total_out_size() as usize;
    let mut first = vec![u64::MAX; n];
    let mut count = vec![0u32; n];
    for x in 0..ll.total_in_size() {
        let y = ll.apply_packed(x) as usize;
        if first[y] == u64::MAX {
            first[y] = x;
        }
        count[y] += 1;
    }
    Ok(Owners { first, count })
}

/// The value of each input dim in a packed input.
fn unpack(ll: &LinearLayout, mut x: u64) -> Vec<(String, u64)> {
    ll.in_dims()
        .map(|(d, size)| {
            let v = x & (size - 1);
            x >>= size.trailing_zeros();
            (d.to_string(), v)
        })
        .collect()
}

fn get(v: &[(String, u64)], name: &str) -> u64 {
    v.iter().find(|(d, _)| d == name).map_or(0, |(_, x)| *x)
}

/// Rows × columns of the drawing: the last dim across, everything else down.
fn grid(ll: &LinearLayout) -> (Vec<u64>, u64, u64) {
    let sizes: Vec<u64> = ll.out_dims().map(|(_, s)| s).collect();
    let cols = *sizes.last().unwrap_or(&1);
    let rows = sizes.iter().product::<u64>() / cols.max(1);
    (sizes, rows, cols)
}

/// Packed out index of (row, col) where row enumerates all dims but the last, row-major.
fn packed_index(sizes: &[u64], row: u64, col: u64) -> u64 {
    // Out dim 0 is the least significant part of a packed out index.
    let rank = sizes.len();
    if rank == 0 {
        return 0;
    }
    let mut coords = vec![0u64; rank];
    coords[rank - 1] = col;
    let mut r = row;
    for d in (0..rank - 1).rev() {
        coords[d] = r % sizes[d];
        r /= sizes[d];
    }
    let mut packed = 0;
    let mut shift = 0;
    for (d, &c) in coords.iter().enumerate() {
        packed |= c << shift;
        shift += sizes[d].trailing_zeros();
    }
    packed
}

struct Cell {
    warp_key: u64,
    lines: [String; 2],
}

fn cell(style: &Style, ll: &LinearLayout, o: &Owners, idx: u64) -> Cell {
    let x = o.first[idx as usize];
    if x == u64::MAX {
        return Cell {
            warp_key: u64::MAX,
            lines: ["—".into(), String::new()],
        };
    }
    let v = unpack(ll, x);
    let rep = if o.count[idx as usize] > 1 {
        format!(" x{}", o.count[idx as usize])
    } else {
        String::new()
    };
    let block = get(&v, "block");
    let bprefix = if ll.has_in_dim("block") && ll.in_dim_size("block").unwrap_or(1) > 1 {
        format!("B{block} ")
    } else {
        String::new()
    };
    match style.cells {
        Cells::Shared { elem_bits } => {
            let off = get(&v, "offset");
            Cell {
                warp_key: BANK_KEY | ((off * elem_bits / 32) % 32),
                lines: [format!("{bprefix}{off}"), rep.trim().to_string()],
            }
        }
        Cells::TensorMemory => {
            // The TMEM row (a lane of the warpgroup that reaches it) and the 32-bit column.
            let (row, col) = (get(&v, "row"), get(&v, "col"));
            Cell {
                warp_key: row / 32 + 4 * block,
                lines: [format!("{bprefix}r{row}"), format!("c{col}{rep}")],
            }
        }
        Cells::Threads => {
            let warps = ll.in_dim_size("warp").unwrap_or(1);
            let (reg, lane, warp) = (get(&v, "register"), get(&v, "lane"), get(&v, "warp"));
            Cell {
                warp_key: warp + warps * block,
                lines: [format!("{bprefix}W{warp} L{lane}"), format!("R{reg}{rep}")],
            }
        }
    }
}

/// Where a hardware dim sits in a packed input: its shift and size (size 1 when the layout lacks it).
fn field(ll: &LinearLayout, name: &str) -> (u32, u64) {
    let mut shift = 0;
    for (d, size) in ll.in_dims() {
        if d == name {
            return (shift, size);
        }
        shift += size.trailing_zeros();
    }
    (0, 1)
}

fn value_of(x: u64, (shift, size): (u32, u64)) -> u64 {
    x.checked_shr(shift).unwrap_or(0) & (size - 1)
}

/// A text table: one row per tensor row, each cell `T<thread>:<register>` (shared: the offset; tensor memory:
/// `r<row>:c<column>`); `xN` marks an element N locations hold.
pub fn table(enc: &Encoding, ll: &LinearLayout) -> Result<String> {
    draw_table(Cells::of_encoding(enc), ll)
}

/// Cells are written into one buffer, without an allocation each (a `--from-ttgir` listing may hold millions).
fn draw_table(kind: Cells, ll: &LinearLayout) -> Result<String> {
    use std::fmt::Write;
    let o = owners(ll)?;
    let (sizes, rows, cols) = grid(ll);
    let [reg, lane, warp, block, offset, row, col] =
        ["register", "lane", "warp", "block", "offset", "row", "col"].map(|n| field(ll, n));
    // The packed out index of (row, col) is the row's part (every dim but the last) | col << its shift.
    let col_shift: u32 = sizes[..sizes.len().saturating_sub(1)]
        .iter()
        .map(|s| s.trailing_zeros())
        .sum();
    let mut text = String::new();
    let mut ends: Vec<usize> = Vec::with_capacity((rows * cols) as usize);
    for r in 0..rows {
        let row_part = packed_index(&sizes, r, 0);
        for c in 0..cols {
            let idx = (row_part | c.checked_shl(col_shift).unwrap_or(0)) as usize;
            let x = o.first[idx];
            if x == u64::MAX {
                text.push('-');
            } else {
                let b = value_of(x, block);
                // Memory cells name their CTA; a thread's number already counts it.
                if block.1 > 1 && kind != Cells::Threads {
                    let _ = write!(text, "B{b} ");
                }
                let _ = match kind {
                    Cells::Threads => {
                        let thread = value_of(x, lane) + lane.1 * (value_of(x, warp) + warp.1 * b);
                        write!(text, "T{thread}:{}", value_of(x, reg))
                    }
                    Cells::Shared { .. } => write!(text, "{}", value_of(x, offset)),
                    Cells::TensorMemory => {
                        write!(text, "r{}:c{}", value_of(x, row), value_of(x, col))
                    }
                };
                if o.count[idx] > 1 {
                    let _ = write!(text, " x{}", o.count[idx]);
                }
            }
            ends.push(text.len());
        }
    }
    // Cells are ASCII: widths are byte lengths.
    let mut start = 0;
    let cells: Vec<&str> = ends
        .iter()
        .map(|&e| {
            let c = &text[start..e];
            start = e;
            c
        })
        .collect();
    let w = cells.iter().map(|c| c.len()).max().unwrap_or(1);
    let mut out = String::with_capacity(cells.len() * (w + 1));
    for row in cells.chunks(cols.max(1) as usize) {
        let line = out.len();
        for (k, c) in row.iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            out.extend(std::iter::repeat_n(' ', w - c.len()));
            out += c;
        }
        out.truncate(line + out[line..].trim_end().len());
        out.push('\n');
    }
    Ok(out)
}

/// Marks a colour key as a bank number (evenly spread hues) rather than a warp.
const BANK_KEY: u64 = 1 << 62;

/// Element width assumed for bank colours: the encoding's own, else 16 bits.
fn elem_bits(enc: &Encoding) -> u64 {
    match enc {
        Encoding::NvmmaShared(s) => u64::from(s.element_bitwidth),
        _ => 16,
    }
}

fn colour(key: u64) -> String {
    if key == u64::MAX {
        return "#ffffff".into();
    }
    if key & BANK_KEY != 0 {
        let hue = (key & 31) as f64 * 360.0 / 32.0;
        return format!("hsl({hue:.0}, 65%, 80%)");
    }
    // Golden-angle hues: neighbouring warps get clearly different colours.
    let hue = (key as f64 * 137.508) % 360.0;
    format!("hsl({hue:.0}, 70%, 78%)")
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// An SVG grid of the tensor (rows: all dims but the last; columns: the last dim), titled with the encoding.
pub fn svg(enc: &Encoding, ll: &LinearLayout, shape: &[u64]) -> Result<String> {
    draw_svg(&Style::of_encoding(enc, shape), ll)
}

/// [`svg`] for a bare layout: threads coloured by warp, shared-memory offsets (first in dim `offset`) by
/// bank, tensor-memory rows and columns (first in dims `row`, `col`) by the warp that reaches the row.
pub fn svg_of_layout(ll: &LinearLayout) -> Result<String> {
    draw_svg(&Style::of_layout(ll), ll)
}

fn draw_svg(style: &Style, ll: &LinearLayout) -> Result<String> {
    let o = owners(ll)?;
    let (sizes, rows, cols) = grid(ll);
    if rows * cols > 1 << 16 {
        return Err(LayoutError::Invalid(format!(
            "{rows}x{cols} cells are too many to draw; use a smaller shape"
        )));
    }
    let (cw, ch) = (58u64, 34u64);
    let (left, top) = (44u64, 56u64);
    let title = &style.title;
    // Monospace 12 px text is about 7.3 px per character: widen the picture so the title fits.
    let width = (left + cols * cw + 16).max(title.chars().count() as u64 * 15 / 2 + 16);
    let height = top + rows * ch + 40;
    let mut s = String::new();
    s += &format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans Mono, monospace\">\n"
    );
    s += &format!("<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n");
    s += &format!(
        "<text x=\"8\" y=\"18\" font-size=\"12\">{}</text>\n",
        esc(title)
    );
    let legend = match style.cells {
        Cells::Shared { elem_bits } => format!(
            "cell: shared-memory offset; colour: bank (4-byte words, {elem_bits}-bit elements)"
        ),
        Cells::TensorMemory => {
            "cell: r TMEM row / c 32-bit column; colour: the warp whose quarter of the rows holds it"
                .to_string()
        }
        Cells::Threads => {
            "cell: W warp, L lane / R register; colour: warp; xN: held by N threads".to_string()
        }
    };
    s += &format!("<text x=\"8\" y=\"36\" font-size=\"11\" fill=\"#444\">{legend}</text>\n");
    for c in 0..cols {
        s += &format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"#666\">{c}</text>\n",
            left + c * cw + cw / 2,
            top - 4
        );
    }
    for r in 0..rows {
        s += &format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\" fill=\"#666\">{r}</text>\n",
            left - 6,
            top + r * ch + ch / 2 + 4
        );
        for c in 0..cols {
            let cl = cell(style, ll, &o, packed_index(&sizes, r, c));
            let (x, y) = (left + c * cw, top + r * ch);
            s += &format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cw}\" height=\"{ch}\" fill=\"{}\" stroke=\"#555\" stroke-width=\"0.5\"/>\n",
                colour(cl.warp_key)
            );
            s += &format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{}</text>\n",
                x + cw / 2,
                y + 14,
                esc(&cl.lines[0])
            );
            if !cl.lines[1].is_empty() {
                s += &format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{}</text>\n",
                    x + cw / 2,
                    y + 27,
                    esc(&cl.lines[1])
                );
            }
        }
    }
    s += "</svg>\n";
    Ok(s)
}
