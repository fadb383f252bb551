//! The product `inner * outer` (Triton's `operator*`): a direct sum that puts `outer` "above" `inner`.
//!
//! In and out dims are merged keeping both orders (the *supremum* of the two name lists). On a shared input
//! dim, `outer`'s bases come after `inner`'s; on a shared output dim, `outer`'s coordinates are shifted past
//! `inner`'s size. The product is associative, not commutative, and [`LinearLayout::empty`] is its unit.

use std::ops::Mul;

use smallvec::SmallVec;

use super::error::{LayoutError, Result};
use super::linear_layout::{check_total, low_mask, DimSpec, MAX_BITS, MAX_DIMS, MAX_DIM_BITS};
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
        check_sizes(&ins, &outs)?;

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
fn check_sizes(ins: &[DimSpec], outs: &[DimSpec]) -> Result<()> {
    let (mut in_bits, mut out_bits, mut widest) = (0u32, 0u32, 0u32);
    for d in ins {
        in_bits += d.log2;
        widest = widest.max(d.log2);
    }
    for d in outs {
        out_bits += d.log2;
        widest = widest.max(d.log2);
    }
    if in_bits > MAX_BITS
        || out_bits > MAX_BITS
        || widest > MAX_DIM_BITS
        || ins.len() > MAX_DIMS
        || outs.len() > MAX_DIMS
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

/// Appends the product's dims to `out` when the two lists are identical (sizes multiply) or disjoint
/// (concatenated).
fn join_into(x: &[DimSpec], y: &[DimSpec], rel: Relation, out: &mut SmallVec<[DimSpec; 4]>) {
    if rel == Relation::Identical {
        out.extend(x.iter().zip(y).map(|(a, b)| DimSpec {
            name: a.name,
            log2: a.log2 + b.log2,
        }));
    } else {
        out.extend_from_slice(x);
        out.extend_from_slice(y);
    }
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
        // The result is assembled first, its dims and columns written in place (parts built apart and moved
        // in would be copied by wide loads of freshly made narrow stores, which stall).
        let n = inner.cols.len() + outer.cols.len();
        let mut out = LinearLayout {
            ins: SmallVec::new(),
            outs: SmallVec::new(),
            cols: super::gf2::zeros(n),
        };
        join_into(&inner.ins, &outer.ins, ins_rel, &mut out.ins);
        join_into(&inner.outs, &outer.outs, outs_rel, &mut out.outs);
        check_sizes(&out.ins, &out.outs)?;
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
        let cols = &mut out.cols;
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
        out.debug_check_parts();
        Ok(out)
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
/// Up to four runs (out dims) live in fixed arrays, unused ones with mask 0, so applying them is a fixed,
/// unrolled, branch-free loop; more go to `more`.
#[derive(Default)]
struct Moves {
    masks: [u64; 4],
    ups: [u32; 4],
    len: usize,
    more: Vec<(u64, u32)>,
    /// Some run moves (the factor's bits are not the product's low bits, unmoved).
    moved: bool,
}

impl Moves {
    fn push(&mut self, src: u32, len: u32, dst: u32) {
        if len == 0 {
            return;
        }
        debug_assert!(dst >= src && dst + len <= 64);
        self.moved |= src != dst;
        let run = (low_mask(len) << src, dst - src);
        if self.len < 4 {
            (self.masks[self.len], self.ups[self.len]) = run;
            self.len += 1;
        } else {
            self.more.push(run);
        }
    }

    fn apply(&self, src: &[u64], dst: &mut [u64]) {
        if !self.moved {
            dst.copy_from_slice(src);
            return;
        }
        if self.more.is_empty() {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked just above, cached by std after the first call).
                return unsafe { move_runs_avx2(&self.masks, &self.ups, src, dst) };
            }
            return move_runs(&self.masks, &self.ups, src, dst);
        }
        let runs = || {
            self.masks
                .iter()
                .zip(&self.ups)
                .chain(self.more.iter().map(|(m, u)| (m, u)))
        };
        for (d, &c) in dst.iter_mut().zip(src) {
            *d = runs().fold(0, |acc, (&mask, &up)| acc | (c & mask) << up);
        }
    }
}

/// Moves every column's bits by up to four runs (mask, then shift up). Every run shifts all columns alike,
/// so the loop vectorises: four columns per instruction where AVX2 is there ([`move_runs_avx2`]).
#[inline(always)]
fn move_runs(masks: &[u64; 4], ups: &[u32; 4], src: &[u64], dst: &mut [u64]) {
    for (d, &c) in dst.iter_mut().zip(src) {
        let mut v = 0;
        for k in 0..4 {
            v |= (c & masks[k]) << ups[k];
        }
        *d = v;
    }
}

/// [`move_runs`] four columns per AVX2 instruction (the last one to three by masked load and store, so a 7-
/// or 9-column factor does not fall back to scalar code).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn move_runs_avx2(masks: &[u64; 4], ups: &[u32; 4], src: &[u64], dst: &mut [u64]) {
    use std::arch::x86_64::*;
    let m = masks.map(|x| _mm256_set1_epi64x(x as i64));
    let u = ups.map(|x| _mm_cvtsi32_si128(x as i32));
    let run = |v: __m256i| {
        let mut r = _mm256_sll_epi64(_mm256_and_si256(v, m[0]), u[0]);
        for k in 1..4 {
            r = _mm256_or_si256(r, _mm256_sll_epi64(_mm256_and_si256(v, m[k]), u[k]));
        }
        r
    };
    let n = src.len().min(dst.len());
    let whole = n - n % 4;
    for i in (0..whole).step_by(4) {
        // SAFETY: `i + 4 <= whole <= n`, inside both slices; unaligned loads and stores.
        let v = _mm256_loadu_si256(src.as_ptr().add(i).cast());
        _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), run(v));
    }
    if whole < n {
        // The last one to three columns by masked load and store (lanes past the end stay untouched).
        let lanes = super::gf2::lanes_below((n - whole) as i64);
        // SAFETY: the mask enables only lanes `whole..n`, inside both slices.
        let v = _mm256_maskload_epi64(src.as_ptr().add(whole).cast(), lanes);
        _mm256_maskstore_epi64(dst.as_mut_ptr().add(whole).cast(), lanes, run(v));
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
