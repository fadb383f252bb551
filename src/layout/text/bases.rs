//! Triton's bases dump (`LinearLayout::toString()`), printed by `Display` and parsed back.
//!
//! ```text
//!
//!  - register=1 -> (0, 1)
//!    register=2 -> (8, 0)
//!  - lane=1 -> (0, 2)
//!  - block is a size 1 dimension
//! where out dims are: [dim0 (size 16), dim1 (size 16)]
//! ```
//!
//! The text starts with a newline; a layout without in dims prints `(empty layout)` or
//! `(empty layout with out-dims [dim0 (size 4)])`. The format has no quoting, so it round-trips only names
//! without the separators it uses (`=`, ` -> `, `, `, ` (size `, ` is a size 1 dimension`, newlines); use JSON
//! for arbitrary names.

use std::fmt;

use crate::layout::error::{excerpt, LayoutError, Result};
use crate::layout::{Bases, Dim, LinearLayout};

impl fmt::Display for LinearLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let outs = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
            write!(f, "[")?;
            for (j, (name, size)) in self.out_dims().enumerate() {
                if j > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{name} (size {size})")?;
            }
            write!(f, "]")
        };
        if self.num_in_dims() == 0 {
            if self.num_out_dims() == 0 {
                return write!(f, "\n(empty layout)");
            }
            write!(f, "\n(empty layout with out-dims ")?;
            outs(f)?;
            return write!(f, ")");
        }
        writeln!(f)?;
        for (name, bases) in self.all_bases() {
            if bases.is_empty() {
                writeln!(f, " - {name} is a size 1 dimension")?;
                continue;
            }
            for (i, b) in bases.iter().enumerate() {
                let lead = if i == 0 { " - " } else { "   " };
                write!(f, "{lead}{name}={} -> (", 1u64 << i)?;
                for (c, v) in b.iter().enumerate() {
                    if c > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{v}")?;
                }
                writeln!(f, ")")?;
            }
        }
        write!(f, "where out dims are: ")?;
        outs(f)
    }
}

fn err(line: usize, column: usize, message: impl Into<String>) -> LayoutError {
    LayoutError::Parse {
        format: "bases",
        line,
        column,
        message: message.into(),
    }
}

/// Parses `[name (size N), …]` starting at `text` (column `col0` of line `line`).
fn parse_out_dims(text: &str, line: usize, col0: usize) -> Result<Vec<(Dim, u64)>> {
    let col = |rest: &str| col0 + text.len() - rest.len();
    let Some(mut rest) = text.strip_prefix('[') else {
        return Err(err(line, col0, "expected `[` before the out dims"));
    };
    let mut dims = Vec::new();
    if let Some(r) = rest.strip_prefix(']') {
        rest = r;
    } else {
        loop {
            let Some(at) = rest.find(" (size ") else {
                return Err(err(line, col(rest), "expected `NAME (size N)`"));
            };
            let name = &rest[..at];
            rest = &rest[at + 7..];
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let size: u64 = rest[..digits]
                .parse()
                .map_err(|_| err(line, col(rest), "expected the size of an out dim"))?;
            rest = &rest[digits..];
            rest = rest
                .strip_prefix(')')
                .ok_or_else(|| err(line, col(rest), "expected `)` after the size"))?;
            dims.push((Dim::new(name), size));
            if let Some(r) = rest.strip_prefix(", ") {
                rest = r;
            } else if let Some(r) = rest.strip_prefix(']') {
                rest = r;
                break;
            } else {
                return Err(err(line, col(rest), "expected `, ` or `]`"));
            }
        }
    }
    if !rest.trim().is_empty() {
        return Err(err(line, col(rest), "unexpected text after the out dims"));
    }
    Ok(dims)
}

/// Parses `(a, b, …)`.
fn parse_vector(text: &str, line: usize, col0: usize) -> Result<Vec<u64>> {
    let inner = text
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .ok_or_else(|| err(line, col0, "expected a basis `(a, b, …)`"))?;
    if inner.is_empty() {
        return Ok(Vec::new());
    }
    let mut col = col0 + 1;
    inner
        .split(", ")
        .map(|t| {
            let v = t.parse::<u64>().map_err(|_| {
                err(
                    line,
                    col,
                    format!("`{}` is not a non-negative integer", excerpt(t)),
                )
            });
            col += t.len() + 2;
            v
        })
        .collect()
}

impl LinearLayout {
    /// Triton's bases dump of the layout (the same text as `Display`).
    pub fn to_bases_string(&self) -> String {
        self.to_string()
    }

    /// Parses Triton's bases dump (as printed by [`to_bases_string`](Self::to_bases_string) or Triton's
    /// `toString()`). The leading newline and surrounding blank space are optional. Out-dim sizes are explicit,
    /// so the layout need not be surjective. Errors carry the line and column.
    pub fn from_bases_string(text: &str) -> Result<LinearLayout> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end()))
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let Some(&(last_no, last)) = lines.last() else {
            return Err(err(1, 1, "empty text"));
        };
        let lead = last.len() - last.trim_start().len();
        let last_t = last.trim_start();
        if lines.len() == 1 {
            if last_t == "(empty layout)" {
                return Ok(LinearLayout::empty());
            }
            if let Some(rest) = last_t.strip_prefix("(empty layout with out-dims ") {
                let Some(dims) = rest.strip_suffix(')') else {
                    return Err(err(last_no, last.len(), "expected `)`"));
                };
                let outs = parse_out_dims(dims, last_no, lead + 29)?;
                return LinearLayout::from_bases(Vec::<(Dim, Bases)>::new(), outs, false);
            }
        }
        const WHERE: &str = "where out dims are: ";
        let Some(dims) = last_t.strip_prefix(WHERE) else {
            return Err(err(
                last_no,
                lead + 1,
                format!("expected `{WHERE}[…]` as the last line"),
            ));
        };
        let outs = parse_out_dims(dims, last_no, lead + WHERE.len() + 1)?;
        let mut ins: Vec<(Dim, Bases)> = Vec::new();
        for &(no, l) in &lines[..lines.len() - 1] {
            let (first, body, col) = if let Some(b) = l.strip_prefix(" - ") {
                (true, b, 4)
            } else if let Some(b) = l.strip_prefix("   ") {
                (false, b, 4)
            } else if let Some(b) = l.strip_prefix("- ") {
                (true, b, 3)
            } else {
                return Err(err(
                    no,
                    1,
                    "expected ` - NAME=…`, a continuation line, or `where out dims are:`",
                ));
            };
            if first {
                if let Some(name) = body.strip_suffix(" is a size 1 dimension") {
                    ins.push((Dim::new(name), Vec::new()));
                    continue;
                }
            }
            let Some(arrow) = body.find(" -> ") else {
                return Err(err(no, col, "expected `NAME=VALUE -> (…)`"));
            };
            let lhs = &body[..arrow];
            let Some(eq) = lhs.rfind('=') else {
                return Err(err(no, col, "expected `NAME=VALUE` before `->`"));
            };
            let name = &lhs[..eq];
            let value: u64 = lhs[eq + 1..].parse().map_err(|_| {
                err(
                    no,
                    col + eq + 1,
                    format!("`{}` is not an input value", excerpt(&lhs[eq + 1..])),
                )
            })?;
            let basis = parse_vector(&body[arrow + 4..], no, col + arrow + 4)?;
            if first {
                ins.push((Dim::new(name), Vec::new()));
            }
            let Some((dim, bases)) = ins.last_mut() else {
                return Err(err(no, 1, "continuation line before any in dim"));
            };
            if dim.as_str() != name {
                return Err(err(
                    no,
                    col,
                    format!(
                        "continuation line names `{}` inside in dim `{}`",
                        excerpt(name),
                        excerpt(dim.as_str())
                    ),
                ));
            }
            let k = bases.len();
            if k >= 63 || value != 1u64 << k {
                return Err(err(
                    no,
                    col + eq + 1,
                    format!("expected `{}={}`", excerpt(name), 1u128 << k),
                ));
            }
            bases.push(basis);
        }
        LinearLayout::from_bases(ins, outs, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mma_tile_prints_like_triton() {
        let l = LinearLayout::from_bases(
            [
                ("register", vec![vec![0, 1], vec![8, 0]]),
                ("lane", vec![vec![0, 2]]),
                ("block", vec![]),
            ],
            [("dim0", 16), ("dim1", 16)],
            false,
        )
        .unwrap();
        let want = "\n - register=1 -> (0, 1)\n   register=2 -> (8, 0)\n - lane=1 -> (0, 2)\n - block is a size 1 dimension\nwhere out dims are: [dim0 (size 16), dim1 (size 16)]";
        assert_eq!(l.to_string(), want);
        assert_eq!(LinearLayout::from_bases_string(want).unwrap(), l);
    }

    #[test]
    fn empty_forms() {
        assert_eq!(LinearLayout::empty().to_string(), "\n(empty layout)");
        let e = LinearLayout::from_bases(Vec::<(Dim, Bases)>::new(), [("dim0", 4)], false).unwrap();
        assert_eq!(
            e.to_string(),
            "\n(empty layout with out-dims [dim0 (size 4)])"
        );
        for l in [LinearLayout::empty(), e] {
            assert_eq!(LinearLayout::from_bases_string(&l.to_string()).unwrap(), l);
        }
    }

    #[test]
    fn errors_carry_positions() {
        let bad = "\n - register=1 -> (0, 1)\n   register=4 -> (8, 0)\nwhere out dims are: [dim0 (size 16), dim1 (size 16)]";
        match LinearLayout::from_bases_string(bad) {
            Err(LayoutError::Parse {
                line: 3, message, ..
            }) => assert!(message.contains("register=2"), "{message}"),
            other => panic!("{other:?}"),
        }
        let bad = " - r=1 -> (0, x)\nwhere out dims are: [dim0 (size 16), dim1 (size 16)]";
        match LinearLayout::from_bases_string(bad) {
            Err(LayoutError::Parse {
                line: 1,
                column: 15,
                ..
            }) => {}
            other => panic!("{other:?}"),
        }
        assert!(LinearLayout::from_bases_string(" - r=1 -> (0)\n").is_err());
        assert!(
            LinearLayout::from_bases_string(" - r=1 -> (5)\nwhere out dims are: [o (size 4)]")
                .is_err()
        );
    }
}
