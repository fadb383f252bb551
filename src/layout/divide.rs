//! Division: `a.divide_left(b)` is the `C` with `a = b * C`, `a.divide_right(b)` the `C` with `a = C * b`.
//!
//! Division finds a hardware tile inside a layout (e.g. an `ldmatrix` tile, or `V` contiguous registers). As a
//! matrix, `a` must be block diagonal in every (in dim, out dim) pair: for `divide_left`, the first bases of each
//! in dim are `b`'s and the later ones only touch output bits above `b`'s size; `divide_right` is the mirror
//! image. `C` keeps all of `a`'s dims (dims that `b` uses up entirely stay, with size 1), as in Triton.
//!
//! Triton returns `std::optional`; weft returns [`LayoutError::NotDivisible`] naming the first obstacle, so
//! `.ok()` gives Triton's answer.

#![forbid(unsafe_code)]

use smallvec::SmallVec;

use super::error::{LayoutError, Result};
use super::linear_layout::{bits_at, low_mask, place, DimSpec};
use super::LinearLayout;

fn not_divisible(msg: String) -> LayoutError {
    LayoutError::NotDivisible(msg)
}

/// log2 sizes of `b`'s dims matched to `specs` (0 where `b` lacks the dim); errors if `b` has a dim `specs`
/// lacks, or a larger one.
fn matched_log2(specs: &[DimSpec], b: &[DimSpec], side: &str) -> Result<SmallVec<[u32; 4]>> {
    for d in b {
        if !specs.iter().any(|s| s.name == d.name) {
            return Err(not_divisible(format!(
                "{side} dim `{}` of the divisor is not in the layout",
                d.name
            )));
        }
    }
    specs
        .iter()
        .map(|s| {
            let bl = b.iter().find(|d| d.name == s.name).map_or(0, |d| d.log2);
            if bl > s.log2 {
                Err(not_divisible(format!(
                    "{side} dim `{}` has size {} in the divisor but {} in the layout",
                    s.name,
                    1u64 << bl,
                    1u64 << s.log2
                )))
            } else {
                Ok(bl)
            }
        })
        .collect()
}

/// Which part of the dividend the divisor is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// `self = b * C`: `b` holds the first bases and the low output bits.
    Inner,
    /// `self = C * b`: `b` holds the last bases and the high output bits.
    Outer,
}

impl LinearLayout {
    /// `C` with `self = b * C` (Triton's `divideLeft(self, b)`): `b` is the fast (inner) part of `self`.
    pub fn divide_left(&self, b: &LinearLayout) -> Result<LinearLayout> {
        self.divide(b, Part::Inner)
    }

    /// `C` with `self = C * b` (Triton's `divideRight(self, b)`): `b` is the slow (outer) part of `self`.
    pub fn divide_right(&self, b: &LinearLayout) -> Result<LinearLayout> {
        self.divide(b, Part::Outer)
    }

    /// Both divisions: cut `b`'s bases and output bits out of every dim to get the candidate `C`, then check
    /// that the product gives `self` back.
    fn divide(&self, b: &LinearLayout, part: Part) -> Result<LinearLayout> {
        let in_b = matched_log2(&self.ins, &b.ins, "in")?;
        let out_b = matched_log2(&self.outs, &b.outs, "out")?;
        let c_outs: SmallVec<[DimSpec; 4]> = self
            .outs
            .iter()
            .zip(&out_b)
            .map(|(o, &bl)| DimSpec {
                name: o.name,
                log2: o.log2 - bl,
            })
            .collect();
        let mut c_ins: SmallVec<[DimSpec; 4]> = SmallVec::new();
        let mut cols: SmallVec<[u64; 16]> = SmallVec::new();
        let mut off = 0usize;
        for (d, &bl) in self.ins.iter().zip(&in_b) {
            let keep = d.log2 - bl;
            c_ins.push(DimSpec {
                name: d.name,
                log2: keep,
            });
            // The inner divisor owns the first `bl` bases; the outer one the last `bl`.
            let kept = match part {
                Part::Inner => bl..d.log2,
                Part::Outer => 0..keep,
            };
            for k in kept {
                let col = self.cols[off + k as usize];
                let (mut c, mut src, mut dst) = (0u64, 0u32, 0u32);
                for ((o, &ob), co) in self.outs.iter().zip(&out_b).zip(&c_outs) {
                    let field = bits_at(col, src, o.log2);
                    let value = match part {
                        Part::Inner if field & low_mask(ob) != 0 => {
                            return Err(not_divisible(format!(
                                "basis {k} of in dim `{}` has {field} in out dim `{}`, not a multiple of the divisor's size {}",
                                d.name, o.name, 1u64 << ob
                            )));
                        }
                        Part::Inner => field >> ob,
                        Part::Outer if field >> co.log2 != 0 => {
                            return Err(not_divisible(format!(
                                "basis {k} of in dim `{}` has {field} in out dim `{}`, beyond the quotient's size {}",
                                d.name, o.name, 1u64 << co.log2
                            )));
                        }
                        Part::Outer => field,
                    };
                    c |= place(value, dst);
                    src += o.log2;
                    dst += co.log2;
                }
                cols.push(c);
            }
            off += d.log2 as usize;
        }
        let c = LinearLayout::from_parts(c_ins, c_outs, cols);
        let (product, which) = match part {
            Part::Inner => (b.product(&c), "first"),
            Part::Outer => (c.product(b), "last"),
        };
        match product {
            Ok(p) if p == *self => Ok(c),
            _ => Err(not_divisible(format!(
                "the {which} bases of the layout's in dims are not the divisor's (or its dims are ordered differently)"
            ))),
        }
    }
}
