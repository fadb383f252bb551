//! The product `inner * outer` (Triton's `operator*`): a direct sum that puts `outer` "above" `inner`.
//!
//! In and out dims are merged keeping both orders (the *supremum* of the two name lists). On a shared input
//! dim, `outer`'s bases come after `inner`'s; on a shared output dim, `outer`'s coordinates are shifted past
//! `inner`'s size. The product is associative, not commutative, and [`LinearLayout::empty`] is its unit.

use std::ops::Mul;

use smallvec::SmallVec;

use super::error::{LayoutError, Result};
use super::linear_layout::{bits_at, check_total, place, DimSpec};
use super::{Dim, LinearLayout};

/// One entry of a merged dim list: the index of the dim in the first list and in the second.
type Merged = SmallVec<[(Option<u16>, Option<u16>); 8]>;

/// Merges two lists of distinct elements keeping the relative order of each, preferring `x`'s elements where
/// both orders allow either; `Err((i, j))` when `x[i]` and `y[j]` are ordered differently in the two lists.
/// Elements are compared once each (`O(|x|·|y|)`), then the merge works on indices.
fn merge<T>(
    x: &[T],
    y: &[T],
    eq: impl Fn(&T, &T) -> bool,
) -> std::result::Result<Merged, (usize, usize)> {
    let y_of: SmallVec<[Option<usize>; 8]> =
        x.iter().map(|a| y.iter().position(|b| eq(a, b))).collect();
    let x_of: SmallVec<[Option<usize>; 8]> =
        y.iter().map(|b| x.iter().position(|a| eq(a, b))).collect();
    let mut out = Merged::new();
    let mut x_done: SmallVec<[bool; 8]> = smallvec::smallvec![false; x.len()];
    let mut y_done: SmallVec<[bool; 8]> = smallvec::smallvec![false; y.len()];
    let (mut i, mut j) = (0, 0);
    loop {
        while i < x.len() && x_done[i] {
            i += 1;
        }
        while j < y.len() && y_done[j] {
            j += 1;
        }
        let (pick_x, pick_y) = if i < x.len() && y_of[i].is_none_or(|k| k < j) {
            (Some(i), y_of[i])
        } else if j < y.len() && x_of[j].is_none_or(|k| k < i) {
            (x_of[j], Some(j))
        } else if i < x.len() && j < y.len() && y_of[i] == Some(j) {
            (Some(i), Some(j))
        } else if i >= x.len() && j >= y.len() {
            return Ok(out);
        } else {
            return Err((
                i.min(x.len().saturating_sub(1)),
                j.min(y.len().saturating_sub(1)),
            ));
        };
        if let Some(k) = pick_x {
            x_done[k] = true;
        }
        if let Some(k) = pick_y {
            y_done[k] = true;
        }
        // Lists have at most u16::MAX elements (checked above).
        out.push((pick_x.map(|k| k as u16), pick_y.map(|k| k as u16)));
    }
}

/// Merges two name lists into one that keeps the relative order of each, preferring `x`'s names where both
/// orders allow either (Triton's `supremum`). Errors when the two orders conflict (`a` before `b` in one, after
/// it in the other), where Triton has `llvm_unreachable`.
pub fn supremum(x: &[Dim], y: &[Dim]) -> Result<Vec<Dim>> {
    // Repeated names count once, at their first place.
    let dedup = |v: &[Dim]| -> Vec<Dim> {
        let mut out: Vec<Dim> = Vec::with_capacity(v.len());
        for d in v {
            if !out.contains(d) {
                out.push(*d);
            }
        }
        out
    };
    let (x, y) = (&dedup(x)[..], &dedup(y)[..]);
    match merge(x, y, |a, b| a == b) {
        Ok(m) => Ok(m
            .iter()
            .map(|&(a, b)| match (a, b) {
                (Some(i), _) => x[usize::from(i)],
                (_, Some(j)) => y[usize::from(j)],
                _ => Dim::new(""),
            })
            .collect()),
        Err((i, j)) => Err(conflict(&x[i], &y[j])),
    }
}

fn conflict(a: &Dim, b: &Dim) -> LayoutError {
    LayoutError::DimMismatch(format!(
        "dim orders conflict: `{a}` comes before `{b}` in one layout and after it in the other"
    ))
}

/// Cumulative starts of the dims' bits.
fn starts(specs: &[DimSpec]) -> SmallVec<[u32; 8]> {
    let mut acc = 0;
    specs
        .iter()
        .map(|d| {
            let s = acc;
            acc += d.log2;
            s
        })
        .collect()
}

impl LinearLayout {
    /// The product `self * outer` (also spelled `&a * &b`, which returns the same `Result`). Fails only when
    /// the two layouts order their common dims differently or the result exceeds 64 bits.
    pub fn product(&self, outer: &LinearLayout) -> Result<LinearLayout> {
        let inner = self;
        let ins_m = merge(&inner.ins, &outer.ins, |a, b| a.name == b.name)
            .map_err(|(i, j)| conflict(&inner.ins[i].name, &outer.ins[j].name))?;
        let outs_m = merge(&inner.outs, &outer.outs, |a, b| a.name == b.name)
            .map_err(|(i, j)| conflict(&inner.outs[i].name, &outer.outs[j].name))?;
        let spec = |m: &(Option<u16>, Option<u16>), x: &[DimSpec], y: &[DimSpec]| -> DimSpec {
            let (a, b) = (
                m.0.map(|k| &x[usize::from(k)]),
                m.1.map(|k| &y[usize::from(k)]),
            );
            DimSpec {
                name: a.or(b).map(|d| d.name).unwrap_or_else(|| Dim::new("")),
                log2: a.map_or(0, |d| d.log2) + b.map_or(0, |d| d.log2),
            }
        };
        let ins: SmallVec<[DimSpec; 4]> = ins_m
            .iter()
            .map(|m| spec(m, &inner.ins, &outer.ins))
            .collect();
        let outs: SmallVec<[DimSpec; 4]> = outs_m
            .iter()
            .map(|m| spec(m, &inner.outs, &outer.outs))
            .collect();
        check_total(&ins, &outs)?;

        // Where each factor's output dims land in the product's packed columns.
        let mut inner_dst: SmallVec<[u32; 8]> = smallvec::smallvec![0; inner.outs.len()];
        let mut outer_dst: SmallVec<[u32; 8]> = smallvec::smallvec![0; outer.outs.len()];
        let mut shift = 0;
        for &(a, b) in &outs_m {
            let (a, b) = (a.map(usize::from), b.map(usize::from));
            let la = a.map_or(0, |k| inner.outs[k].log2);
            if let Some(k) = a {
                inner_dst[k] = shift;
            }
            if let Some(k) = b {
                outer_dst[k] = shift + la;
            }
            shift += la + b.map_or(0, |k| outer.outs[k].log2);
        }
        let (inner_src, outer_src) = (starts(&inner.outs), starts(&outer.outs));
        let moved = |c: u64, specs: &[DimSpec], src: &[u32], dst: &[u32]| -> u64 {
            specs
                .iter()
                .zip(src.iter().zip(dst))
                .fold(0, |acc, (d, (&s, &t))| {
                    acc | place(bits_at(c, s, d.log2), t)
                })
        };
        let (inner_in, outer_in) = (starts(&inner.ins), starts(&outer.ins));
        let mut cols: SmallVec<[u64; 16]> =
            SmallVec::with_capacity(inner.cols.len() + outer.cols.len());
        for &(a, b) in &ins_m {
            let (a, b) = (a.map(usize::from), b.map(usize::from));
            if let Some(k) = a {
                let off = inner_in[k] as usize;
                for &c in &inner.cols[off..off + inner.ins[k].log2 as usize] {
                    cols.push(moved(c, &inner.outs, &inner_src, &inner_dst));
                }
            }
            if let Some(k) = b {
                let off = outer_in[k] as usize;
                for &c in &outer.cols[off..off + outer.ins[k].log2 as usize] {
                    cols.push(moved(c, &outer.outs, &outer_src, &outer_dst));
                }
            }
        }
        Ok(LinearLayout::from_parts(ins, outs, cols))
    }
}

impl Mul<&LinearLayout> for &LinearLayout {
    type Output = Result<LinearLayout>;
    fn mul(self, outer: &LinearLayout) -> Result<LinearLayout> {
        self.product(outer)
    }
}

impl Mul<LinearLayout> for LinearLayout {
    type Output = Result<LinearLayout>;
    fn mul(self, outer: LinearLayout) -> Result<LinearLayout> {
        self.product(&outer)
    }
}
