//! CTA / CGA layouts (Triton 3.9's `cga_layout`) and the shape rules every encoding shares.
//!
//! A *CGA layout* maps the `block` id (the CTA's rank in its cluster) to tensor coordinates through a list
//! of bases, one per bit of the block id; a zero basis means two CTAs hold the same piece (broadcast). An
//! empty list is the single-CTA layout.
//!
//! [`combine_cta_cga_with_shape`] turns the layout of one CTA (in dims `register, lane, warp` or `offset`)
//! into the layout of a whole tensor: it *wraps around* (adds register/offset bases, minor out dim first)
//! when the tensor is larger than the CTA tile and *broadcasts* (zeroes the largest bases) when it is
//! smaller, exactly as Triton's `combineCtaCgaWithShape`.

use smallvec::SmallVec;

use crate::layout::linear_layout::{low_mask, DimSpec};
use crate::layout::{Bases, Dim, LayoutError, LinearLayout, Result};

use super::invalid;

/// How the CTAs of a cluster split a tensor: `bases[i]` is the tensor offset of block id `2^i`, one
/// component per tensor dim.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CgaLayout {
    /// Block bases, each with one component per tensor dim.
    pub bases: Bases,
}

impl CgaLayout {
    /// The layout of a single CTA (no block bases).
    pub fn single() -> CgaLayout {
        CgaLayout { bases: Vec::new() }
    }

    /// A CGA layout from its block bases.
    pub fn new(bases: Bases) -> CgaLayout {
        CgaLayout { bases }
    }

    /// True when there is exactly one CTA.
    pub fn is_single(&self) -> bool {
        self.bases.is_empty()
    }

    /// Number of CTAs (`2^bases`).
    pub fn num_ctas(&self) -> u64 {
        1u64 << self.bases.len().min(63)
    }

    /// Checks the bases against the tensor rank and builds the `block → dim0..` layout (out sizes inferred,
    /// surjective as Triton requires).
    pub fn to_linear_layout(&self, rank: usize) -> Result<LinearLayout> {
        super::check_max_rank("rank", rank)?;
        for (i, b) in self.bases.iter().enumerate() {
            if b.len() != rank {
                return Err(invalid(
                    "cga_layout",
                    format!(
                        "basis {i} has {} components; every basis needs one per tensor dim ({rank})",
                        b.len()
                    ),
                ));
            }
        }
        // Triton 3.9's CGA layout verifier (Dialect.cpp): the non-zero bases form a permutation matrix, i.e.
        // each moves along one dim by a power of two and none repeats.
        let nonzero: Vec<&Vec<u64>> = self
            .bases
            .iter()
            .filter(|b| b.iter().any(|&x| x != 0))
            .collect();
        for (i, b) in nonzero.iter().enumerate() {
            let mut nz = b.iter().filter(|&&x| x != 0);
            let single = matches!((nz.next(), nz.next()), (Some(x), None) if x.is_power_of_two());
            if !single || nonzero[..i].contains(b) {
                return Err(invalid(
                    "cga_layout",
                    "After removing broadcast bases the CGA encoding must be a permutation matrix",
                ));
            }
        }
        LinearLayout::from_bases_inferred([(Dim::BLOCK, self.bases.clone())], Dim::standard(rank))
            .map_err(|e| invalid("cga_layout", format!("not a valid block layout: {e}")))
    }

    /// The number of pieces the tensor is split into along each dim (Triton's `CTASplitNum`).
    pub fn split_num(&self, rank: usize) -> Result<Vec<u64>> {
        let ll = self.to_linear_layout(rank)?;
        Ok(ll.out_dims().map(|(_, s)| s).collect())
    }

    /// The shape one CTA holds: `shape / split`, at least 1 per dim.
    pub fn shape_per_cta(&self, shape: &[u64]) -> Result<Vec<u64>> {
        let split = self.split_num(shape.len())?;
        Ok(shape
            .iter()
            .zip(&split)
            .map(|(&s, &k)| (s / k).max(1))
            .collect())
    }
}

/// Index of a standard out dim `dimK` among `rank` dims.
pub(crate) fn std_index(name: &Dim) -> Option<usize> {
    name.strip_prefix("dim").and_then(|s| s.parse().ok())
}

/// The identity from `in_dim` onto the standard dims with `sizes`, filling `order[0]` (most minor) first.
/// Out dims come in `order` (Triton's `identityStandardND`, which does not transpose back).
pub(crate) fn identity_standard_nd(
    in_dim: Dim,
    sizes: &[u64],
    order: &[usize],
) -> Result<LinearLayout> {
    let mut ret = LinearLayout::empty();
    for &d in order {
        let size = *sizes
            .get(d)
            .ok_or_else(|| LayoutError::Invalid(format!("order entry {d} outside the rank")))?;
        ret = ret.product(&LinearLayout::identity_1d(size, in_dim, Dim::dim(d))?)?;
    }
    Ok(ret)
}

/// `[dim order[0], dim order[1], …]`.
pub(crate) fn permuted_dims(order: &[usize]) -> Vec<Dim> {
    order.iter().map(|&d| Dim::dim(d)).collect()
}

/// Triton's `getMatrixOrder`: `[rank-1, …, 0]`, with the first two swapped when not row major.
pub(crate) fn matrix_order(rank: usize, row_major: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rank).rev().collect();
    if !row_major && rank >= 2 {
        order.swap(0, 1);
    }
    order
}

/// Rebuilds `ll` with each out dim sized by the smallest power of two above its largest component, and
/// checks surjectivity (Triton's constructor with inferred out dims).
fn reinfer_out_sizes(
    ins: SmallVec<[DimSpec; 4]>,
    outs: &[DimSpec],
    cols: &[u64],
    fit_log2: &[u32],
) -> Result<LinearLayout> {
    let mut new_outs: SmallVec<[DimSpec; 4]> = SmallVec::new();
    let mut shift = 0;
    let mut shifts: SmallVec<[(u32, u32); 4]> = SmallVec::new();
    for (o, &fit) in outs.iter().zip(fit_log2) {
        shifts.push((shift, o.log2));
        shift += o.log2;
        new_outs.push(DimSpec {
            name: o.name,
            log2: fit,
        });
    }
    let new_cols: SmallVec<[u64; 16]> = cols
        .iter()
        .map(|&c| {
            let mut out = 0u64;
            let mut nshift = 0;
            for (&(s, l), o) in shifts.iter().zip(&new_outs) {
                out |= ((c >> s) & low_mask(l)) << nshift;
                nshift += o.log2;
            }
            out
        })
        .collect();
    // Out dims of exactly the fitted sizes, holes allowed: with XOR (generic linear) bases, zeroing the
    // bases past the shape can leave elements no basis reaches; Triton's compiler takes that layout (Gluon's
    // `to_linear_layout` rejects it, see `Encoding::to_linear_layout`).
    Ok(LinearLayout::from_parts(ins, new_outs, new_cols))
}

/// Triton's `ensureLayoutNotLargerThan`: for each out dim larger than `shape` (given per standard dim),
/// zero the largest bases along it (broadcast) until it fits; with `broadcast_registers` false, register
/// bases that would be zeroed are dropped instead.
pub(crate) fn ensure_not_larger(
    ll: &LinearLayout,
    shape: &[u64],
    broadcast_registers: bool,
) -> Result<LinearLayout> {
    let mut cols: SmallVec<[u64; 16]> = SmallVec::from_slice(&ll.cols);
    let reg_range = ll
        .ins
        .iter()
        .position(|d| d.name == Dim::REGISTER)
        .map(|i| {
            let off = ll.in_offset(i);
            off..off + ll.ins[i].log2 as usize
        });
    let mut drop = 0u64;
    let mut changed = false;
    let mut shift = 0u32;
    let mut fit_log2: SmallVec<[u32; 4]> = SmallVec::new();
    for o in ll.outs.iter() {
        let idx = std_index(&o.name).ok_or_else(|| {
            LayoutError::Invalid(format!("out dim `{}` is not a standard dim", o.name))
        })?;
        let desired = *shape.get(idx).ok_or_else(|| {
            LayoutError::Invalid(format!("no shape given for out dim `{}`", o.name))
        })?;
        fit_log2.push(o.log2.min(desired.trailing_zeros()));
        if (1u64 << o.log2) > desired {
            let mask = low_mask(o.log2);
            let mut vals: SmallVec<[(u64, usize); 32]> = SmallVec::new();
            for (i, c) in cols.iter().enumerate() {
                let v = (c >> shift) & mask;
                if v != 0 {
                    vals.push((v, i));
                }
            }
            // Every basis reaching past the shape goes (Triton 3.9's `ensureLayoutNotLargerThan`,
            // LayoutUtils.cpp): with distinct bases that is the largest ones, one per halving; with a basis
            // repeated (a WMMA warp and register basis on the same element) all copies go.
            for &(v, i) in &vals {
                if v < desired {
                    continue;
                }
                let is_reg = reg_range.as_ref().is_some_and(|r| r.contains(&i));
                if !broadcast_registers && is_reg {
                    drop |= 1 << i;
                } else {
                    cols[i] &= !(mask << shift);
                }
                changed = true;
            }
        }
        shift += o.log2;
    }
    if !changed {
        return Ok(ll.clone());
    }
    let mut ins: SmallVec<[DimSpec; 4]> = SmallVec::from_slice(&ll.ins);
    if drop != 0 {
        let mut kept: SmallVec<[u64; 16]> = SmallVec::new();
        for (i, &c) in cols.iter().enumerate() {
            if drop & (1 << i) == 0 {
                kept.push(c);
            }
        }
        if let Some(r) = reg_range {
            let ri = ins
                .iter()
                .position(|d| d.name == Dim::REGISTER)
                .unwrap_or(0);
            let dropped = (drop >> r.start).count_ones();
            ins[ri].log2 -= dropped;
        }
        cols = kept;
    }
    reinfer_out_sizes(ins, &ll.outs, &cols, &fit_log2)
}

/// Triton's `ensureLayoutNotSmallerThan`: for each out dim (in the layout's order) smaller than `shape`,
/// multiply in identity bases on the first in dim (`register` or `offset`): the wrap-around rule.
pub(crate) fn ensure_not_smaller(ll: &LinearLayout, shape: &[u64]) -> Result<LinearLayout> {
    let Some(first) = ll.ins.first().map(|d| d.name) else {
        return Ok(ll.clone());
    };
    let mut ret = ll.clone();
    for o in ll.outs.iter() {
        let idx = std_index(&o.name).ok_or_else(|| {
            LayoutError::Invalid(format!("out dim `{}` is not a standard dim", o.name))
        })?;
        let desired = *shape.get(idx).ok_or_else(|| {
            LayoutError::Invalid(format!("no shape given for out dim `{}`", o.name))
        })?;
        let actual = 1u64 << o.log2;
        if desired > actual {
            ret = ret.product(&LinearLayout::identity_1d(desired / actual, first, o.name)?)?;
        }
    }
    Ok(ret)
}

/// Checks that every extent of `shape` is a power of two (Triton asserts it for every encoding).
pub(crate) fn check_shape(shape: &[u64]) -> Result<()> {
    if shape.is_empty() {
        return Err(invalid("shape", "a tensor needs at least one dim"));
    }
    super::check_max_rank("shape", shape.len())?;
    for (i, &s) in shape.iter().enumerate() {
        if s == 0 || !s.is_power_of_two() {
            return Err(invalid(
                "shape",
                format!("dim {i} has extent {s}; every extent must be a power of two"),
            ));
        }
    }
    let bits: u32 = shape.iter().map(|s| s.trailing_zeros()).sum();
    if bits > crate::layout::MAX_BITS {
        return Err(invalid(
            "shape",
            format!(
                "{bits} bits of elements; a layout holds at most {}",
                crate::layout::MAX_BITS
            ),
        ));
    }
    Ok(())
}

/// Triton's `combineCtaCgaWithShape`: the CTA layout `cta` (out dims `dim0..dim{rank-1}` in any order)
/// combined with the CGA layout and fitted to `shape` (wrap-around, then broadcast), out dims in standard
/// order.
pub fn combine_cta_cga_with_shape(
    cta: &LinearLayout,
    cga: &CgaLayout,
    shape: &[u64],
) -> Result<LinearLayout> {
    combine_with(cta, cga, shape, true)
}

/// [`combine_cta_cga_with_shape`], where register bases past the shape are dropped (`broadcast_registers`
/// false: Triton 3.9's blocked layouts) instead of zeroed.
pub(crate) fn combine_with(
    cta: &LinearLayout,
    cga: &CgaLayout,
    shape: &[u64],
    broadcast_registers: bool,
) -> Result<LinearLayout> {
    let rank = shape.len();
    check_shape(shape)?;
    if cta.num_out_dims() != rank {
        return Err(LayoutError::DimMismatch(format!(
            "CTA layout has {} out dims for a rank-{rank} shape",
            cta.num_out_dims()
        )));
    }
    let cta_order: Vec<Dim> = cta.out_dim_names().cloned().collect();
    let cga_ll =
        ensure_not_larger(&cga.to_linear_layout(rank)?, shape, true)?.transpose_outs(&cta_order)?;
    let mut cta_shape = vec![1u64; rank];
    for (name, size) in cga_ll.out_dims() {
        let d = std_index(name).unwrap_or(0);
        cta_shape[d] = (shape[d] / size).max(1);
    }
    let cta = ensure_not_smaller(cta, &cta_shape)?;
    let cta = ensure_not_larger(&cta, &cta_shape, broadcast_registers)?;
    let ret = cta.product(&cga_ll)?.transpose_outs(&Dim::standard(rank))?;
    for (i, (_, size)) in ret.out_dims().enumerate() {
        if size != shape[i] {
            return Err(LayoutError::SizeMismatch(format!(
                "layout covers {size} elements of dim {i}, the tensor has {}",
                shape[i]
            )));
        }
    }
    Ok(ret)
}

/// Bases of one in dim of a [`BitTile`]: `Some((dim, bit))` or `None` (zero).
type BitBases = SmallVec<[Option<(u8, u8)>; 16]>;

/// A single-CTA layout under construction whose every basis is zero or one bit of one tensor dim (blocked,
/// MMA and their dot operands). Fitting it to a shape is integer bookkeeping, with exactly the result of
/// [`combine_cta_cga_with_shape`] (wrap-around along the out dims in `out_order`, then the bits past the
/// shape zeroed, or dropped for registers), and no intermediate layouts.
pub(crate) struct BitTile {
    /// Standard dims in the order the CTA layout lists them (wrap-around goes in this order).
    out_order: SmallVec<[usize; 4]>,
    /// Bits each dim covers so far.
    bits: SmallVec<[u32; 4]>,
    /// In dims in order; each basis is `Some((dim, bit))` or `None` (zero).
    ins: SmallVec<[(Dim, BitBases); 4]>,
}

impl BitTile {
    /// An empty tile over `rank` dims listed in `out_order`.
    pub(crate) fn new(out_order: &[usize]) -> BitTile {
        BitTile {
            out_order: out_order.iter().copied().collect(),
            bits: smallvec::smallvec![0; out_order.len()],
            ins: SmallVec::new(),
        }
    }

    fn in_dim(&mut self, d: Dim) -> &mut BitBases {
        let i = match self.ins.iter().position(|(n, _)| *n == d) {
            Some(i) => i,
            None => {
                self.ins.push((d, SmallVec::new()));
                self.ins.len() - 1
            }
        };
        &mut self.ins[i].1
    }

    /// `* identity_1d(size, in_dim, dim d)`.
    pub(crate) fn identity(&mut self, in_dim: Dim, d: usize, size: u64) -> Result<()> {
        let n = crate::layout::linear_layout::log2_exact(size, || format!("extent along dim {d}"))?;
        let start = self.bits[d];
        if start + n > 63 {
            return Err(LayoutError::TooManyBits {
                what: format!("dim {d}"),
                bits: start + n,
                limit: 63,
            });
        }
        self.bits[d] += n;
        let v = self.in_dim(in_dim);
        for k in 0..n {
            v.push(Some((d as u8, (start + k) as u8)));
        }
        Ok(())
    }

    /// `* zeros_1d(size, in_dim, …)`.
    pub(crate) fn zeros(&mut self, in_dim: Dim, size: u64) -> Result<()> {
        let n = crate::layout::linear_layout::log2_exact(size, || "broadcast extent".into())?;
        let v = self.in_dim(in_dim);
        for _ in 0..n {
            v.push(None);
        }
        Ok(())
    }

    /// The single-CTA layout of `shape` (out dims standard, a `block` dim of size 1).
    pub(crate) fn fit(mut self, shape: &[u64], broadcast_registers: bool) -> Result<LinearLayout> {
        check_shape(shape)?;
        if shape.len() != self.bits.len() {
            return Err(LayoutError::DimMismatch(format!(
                "layout of rank {} for a rank-{} shape",
                self.bits.len(),
                shape.len()
            )));
        }
        let want: SmallVec<[u32; 4]> = shape.iter().map(|s| s.trailing_zeros()).collect();
        for i in 0..self.out_order.len() {
            let d = self.out_order[i];
            if want[d] > self.bits[d] {
                let extra = 1u64 << (want[d] - self.bits[d]);
                self.identity(Dim::REGISTER, d, extra)?;
            }
        }
        if !self.ins.iter().any(|(n, _)| *n == Dim::BLOCK) {
            self.ins.push((Dim::BLOCK, SmallVec::new()));
        }
        let mut shift: SmallVec<[u32; 4]> = SmallVec::new();
        let mut acc = 0;
        for &w in &want {
            shift.push(acc);
            acc += w;
        }
        let mut ins: SmallVec<[DimSpec; 4]> = SmallVec::new();
        let mut cols: SmallVec<[u64; 16]> = SmallVec::new();
        for (name, bases) in &self.ins {
            let is_reg = *name == Dim::REGISTER;
            let mut log2 = 0;
            for b in bases {
                let col = match *b {
                    Some((d, bit)) if u32::from(bit) < want[d as usize] => {
                        1u64 << (shift[d as usize] + u32::from(bit))
                    }
                    Some(_) if is_reg && !broadcast_registers => continue,
                    _ => 0,
                };
                cols.push(col);
                log2 += 1;
            }
            ins.push(DimSpec { name: *name, log2 });
        }
        let outs: SmallVec<[DimSpec; 4]> = want
            .iter()
            .enumerate()
            .map(|(d, &w)| DimSpec {
                name: Dim::dim(d),
                log2: w,
            })
            .collect();
        crate::layout::linear_layout::check_total(&ins, &outs)?;
        Ok(LinearLayout::from_parts(ins, outs, cols))
    }
}
