//! Inverses and solves: `invert`, `pseudo_invert`, `invert_and_compose`.
//!
//! All three reduce to one solve over GF(2) ([`ColumnEchelon`]): express each column of one layout through the
//! columns of another. Where the answer is not unique, the solution uses pivot columns only and sets free
//! variables to zero, the choice Triton makes (the smallest offset, so broadcast elements all read from the
//! first copy).

use smallvec::SmallVec;

use super::error::{LayoutError, Result};
use super::gf2::ColumnEchelon;
use super::linear_layout::{low_mask, DimSpec};
use super::{Dim, LinearLayout};

impl LinearLayout {
    /// `C` such that `self(x) = outer(C(x))` for every `x`: maps `self`'s inputs to `outer`'s inputs.
    ///
    /// Both layouts must have the same output dims (any order), `outer`'s at least as large, and `outer` must
    /// reach everything `self` does (Triton asks for a surjective `outer`; weft only needs the image of `self`
    /// inside that of `outer`, and reports [`LayoutError::NotInImage`] otherwise).
    ///
    /// What is guaranteed, as in Triton: input dims on which both layouts have the same bases (same dim name,
    /// whatever the out-dim sizes) map to themselves by the identity, so broadcast warps map to themselves and
    /// not all to warp 0; every other basis is solved over the remaining columns of `outer` with free variables
    /// set to zero (the solution that uses only *pivot* columns, those not in the span of the columns before
    /// them). That is the solution Triton's RREF-based `lstsq` reads off, so results are equal bit for bit.
    /// The result's inputs are `self`'s in dims, its outputs `outer`'s in dims with their sizes.
    pub fn invert_and_compose(&self, outer: &LinearLayout) -> Result<LinearLayout> {
        let b = self;
        let out_names: Vec<Dim> = b.out_dim_names().cloned().collect();
        if out_names.len() != outer.outs.len() || !out_names.iter().all(|n| outer.has_out_dim(n)) {
            return Err(LayoutError::DimMismatch(format!(
                "invert_and_compose: out dims {:?} and {:?} differ",
                out_names,
                outer.out_dim_names().collect::<Vec<_>>()
            )));
        }
        let a = outer.transpose_outs(&out_names)?;
        for (x, y) in b.outs.iter().zip(&a.outs) {
            if y.log2 < x.log2 {
                return Err(LayoutError::SizeMismatch(format!(
                    "invert_and_compose: out dim `{}` has size {} but the outer layout's has only {}",
                    x.name,
                    1u64 << x.log2,
                    1u64 << y.log2
                )));
            }
        }
        // Columns of `b` re-packed into `a`'s output bit positions (same dim order, possibly larger sizes).
        let mut b_cols: SmallVec<[u64; 16]> = SmallVec::with_capacity(b.cols.len());
        for &c in &b.cols {
            let mut packed = 0u64;
            let mut src = 0;
            let mut dst = 0;
            for (x, y) in b.outs.iter().zip(&a.outs) {
                packed |= ((c >> src) & low_mask(x.log2)) << dst;
                src += x.log2;
                dst += y.log2;
            }
            b_cols.push(packed);
        }
        // Identity dims: the same in dim with the same bases on both sides (out-dim sizes may differ, as in
        // Triton's `equalIgnoringOutDimSizes` test).
        let identity: Vec<bool> = a
            .ins
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let Ok(k) = b.in_index(&d.name) else {
                    return false;
                };
                if b.ins[k].log2 != d.log2 {
                    return false;
                }
                let (oa, ob) = (a.in_offset(i), b.in_offset(k));
                let n = d.log2 as usize;
                a.cols[oa..oa + n] == b_cols[ob..ob + n]
            })
            .collect();
        // Solve over `a`'s non-identity columns.
        let mut a_cols: SmallVec<[u64; 16]> = SmallVec::new();
        let mut a_col_of: SmallVec<[u32; 16]> = SmallVec::new(); // reduced column -> column of `a`
        let mut off = 0;
        for (i, d) in a.ins.iter().enumerate() {
            for k in 0..d.log2 as usize {
                if !identity[i] {
                    a_cols.push(a.cols[off + k]);
                    a_col_of.push((off + k) as u32);
                }
            }
            off += d.log2 as usize;
        }
        let echelon = ColumnEchelon::new(&a_cols);
        let mut cols: SmallVec<[u64; 16]> = SmallVec::with_capacity(b.cols.len());
        let mut off = 0;
        for d in &b.ins {
            let id_dim = a.in_index(&d.name).ok().filter(|&i| identity[i]);
            for k in 0..d.log2 as usize {
                let col = match id_dim {
                    Some(i) => 1u64 << (a.in_offset(i) + k),
                    None => {
                        let x = echelon.solve(b_cols[off + k]).ok_or_else(|| LayoutError::NotInImage {
                            reason: format!(
                                "invert_and_compose: basis {k} of in dim `{}` is not reached by the outer layout",
                                d.name
                            ),
                        })?;
                        let mut m = x;
                        let mut col = 0u64;
                        while m != 0 {
                            col |= 1u64 << a_col_of[m.trailing_zeros() as usize];
                            m &= m - 1;
                        }
                        col
                    }
                };
                cols.push(col);
            }
            off += d.log2 as usize;
        }
        let outs: SmallVec<[DimSpec; 4]> = outer.ins.clone();
        // `a` keeps `outer`'s in-dim order, so columns are already packed in `outer`'s in-dim order.
        Ok(LinearLayout::from_parts(b.ins.clone(), outs, cols))
    }

    /// A right inverse: `P` with `self(P(y)) = y` for every output `y` (Triton's `pseudoinvert`). Requires
    /// `self` to be surjective; among the preimages of each output it picks the one with free variables zero.
    pub fn pseudo_invert(&self) -> Result<LinearLayout> {
        if !self.is_surjective() {
            return Err(LayoutError::NotInvertible {
                reason: format!(
                    "pseudo_invert needs a surjective layout; rank {} < {} output bits",
                    self.rank(),
                    self.total_out_bits()
                ),
            });
        }
        let identity = LinearLayout::from_parts(
            self.outs.clone(),
            self.outs.clone(),
            (0..self.total_out_bits()).map(|i| 1u64 << i).collect(),
        );
        identity.invert_and_compose(self)
    }

    /// The inverse of an invertible layout (outputs to inputs).
    pub fn invert(&self) -> Result<LinearLayout> {
        if !self.is_invertible() {
            return Err(LayoutError::NotInvertible {
                reason: format!(
                    "{} input bits, {} output bits, rank {}",
                    self.total_in_bits(),
                    self.total_out_bits(),
                    self.rank()
                ),
            });
        }
        self.pseudo_invert()
    }
}
