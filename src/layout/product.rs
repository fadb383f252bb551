//! The product `inner * outer` (Triton's `operator*`): a direct sum that puts `outer` "above" `inner`.
//!
//! In and out dims are merged keeping both orders (the *supremum* of the two name lists). On a shared input
//! dim, `outer`'s bases come after `inner`'s; on a shared output dim, `outer`'s coordinates are shifted past
//! `inner`'s size. The product is associative, not commutative, and [`LinearLayout::empty`] is its unit.

use std::ops::Mul;

use smallvec::SmallVec;

use super::error::{LayoutError, Result};
use super::linear_layout::{check_total, low_mask, DimSpec, MAX_BITS, MAX_DIM_BITS};
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

impl LinearLayout {
    /// The product `self * outer` (also spelled `&a * &b`, which returns the same `Result`). Fails only when
    /// the two layouts order their common dims differently or the result exceeds 64 bits.
    pub fn product(&self, outer: &LinearLayout) -> Result<LinearLayout> {
        let inner = self;
        let ins_rel = relation(&inner.ins, &outer.ins);
        let outs_rel = relation(&inner.outs, &outer.outs);
        if ins_rel != Relation::Other && outs_rel != Relation::Other {
            return inner.product_aligned(outer, ins_rel, outs_rel);
        }
        let ins_m = merge_specs(&inner.ins, &outer.ins, ins_rel)?;
        let outs_m = merge_specs(&inner.outs, &outer.outs, outs_rel)?;
        let spec = |m: &(Option<u16>, Option<u16>), x: &[DimSpec], y: &[DimSpec]| -> DimSpec {
            let (a, b) = (
                m.0.map(|k| &x[usize::from(k)]),
                m.1.map(|k| &y[usize::from(k)]),
            );
            DimSpec {
                name: a.or(b).map_or(Dim::REGISTER, |d| d.name),
                log2: a.map_or(0, |d| d.log2) + b.map_or(0, |d| d.log2),
            }
        };
        let ins: SmallVec<[DimSpec; 4]> =
            collect_small(ins_m.len(), |i| spec(&ins_m[i], &inner.ins, &outer.ins));
        let outs: SmallVec<[DimSpec; 4]> =
            collect_small(outs_m.len(), |i| spec(&outs_m[i], &inner.outs, &outer.outs));
        check_sizes(inner, outer, &ins, &outs)?;

        // Each factor's packed output bits land, in order, on a set of the product's bits: `inner_to`, `outer_to`
        // (a parallel bit deposit). Per factor, one shift per out dim that moves.
        let (mut inner_to, mut outer_to) = (Moves::default(), Moves::default());
        let (mut shift, mut inner_src, mut outer_src) = (0u32, 0u32, 0u32);
        for &(a, b) in &outs_m {
            let la = a.map_or(0, |k| inner.outs[usize::from(k)].log2);
            let lb = b.map_or(0, |k| outer.outs[usize::from(k)].log2);
            if a.is_some() {
                inner_to.push(inner_src, la, shift);
                inner_src += la;
            }
            if b.is_some() {
                outer_to.push(outer_src, lb, shift + la);
                outer_src += lb;
            }
            shift += la + lb;
        }
        let mut cols = [0u64; 64];
        let mut n = 0usize;
        let (mut inner_off, mut outer_off) = (0usize, 0usize);
        for &(a, b) in &ins_m {
            if let Some(k) = a {
                let len = inner.ins[usize::from(k)].log2 as usize;
                let src = &inner.cols[inner_off..inner_off + len];
                inner_to.apply(src, &mut cols[n..n + len]);
                inner_off += len;
                n += len;
            }
            if let Some(k) = b {
                let len = outer.ins[usize::from(k)].log2 as usize;
                let src = &outer.cols[outer_off..outer_off + len];
                outer_to.apply(src, &mut cols[n..n + len]);
                outer_off += len;
                n += len;
            }
        }
        Ok(LinearLayout::from_parts(
            ins,
            outs,
            SmallVec::from_slice(&cols[..n]),
        ))
    }
}

/// The limits a product can break: names are distinct by construction (each factor's are, and the merge
/// joins equal ones), so only the sizes are checked, and the full check (with its error) runs only when
/// one is over.
fn check_sizes(
    inner: &LinearLayout,
    outer: &LinearLayout,
    ins: &[DimSpec],
    outs: &[DimSpec],
) -> Result<()> {
    if inner.total_in_bits() + outer.total_in_bits() > MAX_BITS
        || inner.total_out_bits() + outer.total_out_bits() > MAX_BITS
        || ins.iter().chain(outs).any(|d| d.log2 > MAX_DIM_BITS)
    {
        check_total(ins, outs)?;
    }
    Ok(())
}

/// How two dim lists relate: the same names in the same order, no common name, or anything else.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Relation {
    Identical,
    Disjoint,
    Other,
}

fn relation(x: &[DimSpec], y: &[DimSpec]) -> Relation {
    if x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a.name == b.name) {
        Relation::Identical
    } else if !x.iter().any(|a| y.iter().any(|b| a.name == b.name)) {
        Relation::Disjoint
    } else {
        Relation::Other
    }
}

/// The product's dims when the two lists are identical (sizes multiply) or disjoint (concatenated).
fn joined(x: &[DimSpec], y: &[DimSpec], rel: Relation) -> SmallVec<[DimSpec; 4]> {
    let mut out: SmallVec<[DimSpec; 4]> = SmallVec::from_slice(x);
    if rel == Relation::Identical {
        for (d, e) in out.iter_mut().zip(y) {
            d.log2 += e.log2;
        }
    } else {
        out.extend_from_slice(y);
    }
    out
}

impl LinearLayout {
    /// The product when in dims and out dims are each identical or disjoint between the factors (tiles of
    /// tiles, the common case): no general merge, and each factor's columns move by one mask and shift per
    /// out dim.
    fn product_aligned(
        &self,
        outer: &LinearLayout,
        ins_rel: Relation,
        outs_rel: Relation,
    ) -> Result<LinearLayout> {
        let inner = self;
        let ins = joined(&inner.ins, &outer.ins, ins_rel);
        let outs = joined(&inner.outs, &outer.outs, outs_rel);
        check_sizes(inner, outer, &ins, &outs)?;
        // Out-bit moves: disjoint outs put outer's bits above all of inner's; identical outs interleave dim by
        // dim (inner's bits of dim j, then outer's, then dim j + 1).
        let (mut inner_to, mut outer_to) = (Moves::default(), Moves::default());
        if outs_rel == Relation::Disjoint {
            outer_to.push(0, outer.total_out_bits(), inner.total_out_bits());
        } else {
            let (mut a_src, mut b_src, mut dst) = (0u32, 0u32, 0u32);
            for (a, b) in inner.outs.iter().zip(&outer.outs) {
                inner_to.push(a_src, a.log2, dst);
                outer_to.push(b_src, b.log2, dst + a.log2);
                a_src += a.log2;
                b_src += b.log2;
                dst += a.log2 + b.log2;
            }
        }
        let n = inner.cols.len() + outer.cols.len();
        let mut cols: SmallVec<[u64; 16]> = super::gf2::zeros(n);
        if ins_rel == Relation::Disjoint {
            let m = inner.cols.len();
            inner_to.apply(&inner.cols, &mut cols[..m]);
            outer_to.apply(&outer.cols, &mut cols[m..]);
        } else {
            let (mut a_off, mut b_off, mut at) = (0usize, 0usize, 0usize);
            for (a, b) in inner.ins.iter().zip(&outer.ins) {
                let (la, lb) = (a.log2 as usize, b.log2 as usize);
                inner_to.apply(&inner.cols[a_off..a_off + la], &mut cols[at..at + la]);
                outer_to.apply(
                    &outer.cols[b_off..b_off + lb],
                    &mut cols[at + la..at + la + lb],
                );
                a_off += la;
                b_off += lb;
                at += la + lb;
            }
        }
        Ok(LinearLayout::from_parts(ins, outs, cols))
    }
}

/// The merged dim list of a product: for each dim, its index in the inner and in the outer factor. Names
/// identical in both lists, or disjoint, are the common cases and skip the general merge.
fn merge_specs(x: &[DimSpec], y: &[DimSpec], rel: Relation) -> Result<Merged> {
    match rel {
        Relation::Identical => Ok(collect_small(x.len(), |k| (Some(k as u16), Some(k as u16)))),
        Relation::Disjoint => {
            let n = x.len();
            Ok(collect_small(n + y.len(), |k| {
                if k < n {
                    (Some(k as u16), None)
                } else {
                    (None, Some((k - n) as u16))
                }
            }))
        }
        Relation::Other => {
            merge(x, y, |a, b| a.name == b.name).map_err(|(i, j)| conflict(&x[i].name, &y[j].name))
        }
    }
}

/// `[f(0), …, f(n - 1)]` built in place when it fits inline (no per-element capacity checks).
fn collect_small<T: Copy + Default, const N: usize>(
    n: usize,
    f: impl Fn(usize) -> T,
) -> SmallVec<[T; N]> {
    if n > N {
        return (0..n).map(f).collect();
    }
    let mut buf = [T::default(); N];
    for (i, b) in buf[..n].iter_mut().enumerate() {
        *b = f(i);
    }
    SmallVec::from_buf_and_len(buf, n)
}

/// Where a factor's packed output bits go in the product: runs of bits (a mask in the factor's packing) moved
/// up by a shift. The product only ever moves a factor's bits up (its dims start no lower in the product).
struct Moves {
    runs: SmallVec<[(u64, u32); 4]>,
    /// All runs stay in place (the factor's bits are the product's low bits, unmoved), or there are none.
    in_place: bool,
}

impl Default for Moves {
    fn default() -> Moves {
        Moves {
            runs: SmallVec::new(),
            in_place: true,
        }
    }
}

impl Moves {
    fn push(&mut self, src: u32, len: u32, dst: u32) {
        if len == 0 {
            return;
        }
        debug_assert!(dst >= src && dst + len <= 64);
        self.in_place &= src == dst;
        self.runs.push((low_mask(len) << src, dst - src));
    }

    fn apply(&self, src: &[u64], dst: &mut [u64]) {
        if self.in_place {
            dst.copy_from_slice(src);
            return;
        }
        if self.runs.len() <= 4 {
            // Up to four runs (out dims): a fixed, unrolled, branch-free loop; unused runs have mask 0.
            let (mut masks, mut ups) = ([0u64; 4], [0u32; 4]);
            for (k, &(mask, up)) in self.runs.iter().enumerate() {
                masks[k] = mask;
                ups[k] = up;
            }
            for (d, &c) in dst.iter_mut().zip(src) {
                let mut v = 0;
                for k in 0..4 {
                    v |= (c & masks[k]) << ups[k];
                }
                *d = v;
            }
            return;
        }
        for (d, &c) in dst.iter_mut().zip(src) {
            *d = self
                .runs
                .iter()
                .fold(0, |acc, &(mask, up)| acc | (c & mask) << up);
        }
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
