//! Inverses and solves: `invert`, `pseudo_invert`, `invert_and_compose`.
//!
//! All three reduce to one solve over GF(2) ([`ColumnEchelon`]): express each column of one layout through the
//! columns of another. Where the answer is not unique, the solution uses pivot columns only and sets free
//! variables to zero, the choice Triton makes (the smallest offset, so broadcast elements all read from the
//! first copy).

#![forbid(unsafe_code)]

use smallvec::SmallVec;

use super::error::{cut_list, LayoutError, Result};
use super::gf2;
use super::linear_layout::{bits_at, low_mask, place, position_of};
use super::LinearLayout;

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
    /// Where a basis is reachable only through the columns of an identity dim (Triton asserts there, see its
    /// FIXME), weft solves that basis over all of `outer`'s columns instead, still with free variables zero.
    /// The result's inputs are `self`'s in dims, its outputs `outer`'s in dims with their sizes.
    pub fn invert_and_compose(&self, outer: &LinearLayout) -> Result<LinearLayout> {
        let b = self;
        if b.outs.len() != outer.outs.len() {
            return Err(dims_differ(b, outer));
        }
        // Where each of b's out dims sits in `outer` (`pos`), checked sizes.
        let mut pos = [0u8; 64];
        for (j, x) in b.outs.iter().enumerate() {
            let Some(k) = position_of(&outer.outs, x.name, j) else {
                return Err(dims_differ(b, outer));
            };
            if outer.outs[k].log2 < x.log2 {
                return Err(LayoutError::SizeMismatch(format!(
                    "invert_and_compose: out dim `{}` has size {} but the outer layout's has only {}",
                    x.name,
                    1u64 << x.log2,
                    1u64 << outer.outs[k].log2
                )));
            }
            pos[j] = k as u8;
        }
        let pos = &pos[..b.outs.len()];
        // Both layouts' columns packed alike: b's out-dim order, outer's sizes (usually already so: then the
        // columns are used as they are).
        let (na, nb) = (outer.cols.len(), b.cols.len());
        let same_order = pos.iter().enumerate().all(|(j, &k)| j == usize::from(k));
        let a_store: [u64; 64];
        let a_cols: &[u64] = if same_order {
            &outer.cols
        } else {
            let mut outer_shift = [0u32; 64];
            let mut acc = 0;
            for (s, y) in outer_shift.iter_mut().zip(&outer.outs) {
                *s = acc;
                acc += y.log2;
            }
            let mut cols = [0u64; 64];
            for (v, &c) in cols.iter_mut().zip(&outer.cols) {
                let mut dst = 0u32;
                for &k in pos {
                    let k = usize::from(k);
                    *v |= place(bits_at(c, outer_shift[k], outer.outs[k].log2), dst);
                    dst += outer.outs[k].log2;
                }
            }
            a_store = cols;
            &a_store[..na]
        };
        let same_packing = same_order
            && b.outs
                .iter()
                .zip(&outer.outs)
                .all(|(x, y)| x.log2 == y.log2);
        let b_store: [u64; 64];
        let b_cols: &[u64] = if same_packing {
            &b.cols
        } else {
            let mut cols = [0u64; 64];
            for (v, &c) in cols.iter_mut().zip(&b.cols) {
                let (mut src, mut dst) = (0u32, 0u32);
                for (x, &k) in b.outs.iter().zip(pos) {
                    *v |= place(bits_at(c, src, x.log2), dst);
                    src += x.log2;
                    dst += outer.outs[usize::from(k)].log2;
                }
            }
            b_store = cols;
            &b_store[..nb]
        };
        // Identity dims: the same in dim with the same bases on both sides. `id_of[i]`: for b's in dim i, the
        // first column of the matching in dim of `outer` (`NONE` when it is not an identity dim).
        const NONE: u32 = u32::MAX;
        let mut id_of: SmallVec<[u32; 8]> = SmallVec::with_capacity(b.ins.len());
        let mut outer_identity = 0u64; // columns of `outer` that belong to identity dims
        let mut b_off = 0usize;
        for d in &b.ins {
            let n = d.log2 as usize;
            let mut a_off = 0usize;
            let mut id = NONE;
            for e in &outer.ins {
                if e.name == d.name {
                    if e.log2 == d.log2 && a_cols[a_off..a_off + n] == b_cols[b_off..b_off + n] {
                        id = a_off as u32;
                        outer_identity |= low_mask(d.log2).checked_shl(a_off as u32).unwrap_or(0);
                    }
                    break;
                }
                a_off += e.log2 as usize;
            }
            id_of.push(id);
            b_off += n;
        }
        // Solve every other basis of b over the non-identity columns of `outer`.
        let (a_red_store, rhs_store): ([u64; 64], [u64; 64]);
        let mut a_col_of = [0u8; 64];
        let (a_red, rhs) = if outer_identity == 0 {
            (&a_cols[..na], &b_cols[..nb])
        } else {
            let (mut a_red, mut rhs) = ([0u64; 64], [0u64; 64]);
            let mut n_red = 0;
            for (k, &c) in a_cols[..na].iter().enumerate() {
                if outer_identity >> k & 1 == 0 {
                    a_red[n_red] = c;
                    a_col_of[n_red] = k as u8;
                    n_red += 1;
                }
            }
            let (mut n_rhs, mut b_off) = (0usize, 0usize);
            for (d, &id) in b.ins.iter().zip(&id_of) {
                let n = d.log2 as usize;
                if id == NONE {
                    rhs[n_rhs..n_rhs + n].copy_from_slice(&b_cols[b_off..b_off + n]);
                    n_rhs += n;
                }
                b_off += n;
            }
            (a_red_store, rhs_store) = (a_red, rhs);
            (&a_red_store[..n_red], &rhs_store[..n_rhs])
        };
        let n_rhs = rhs.len();
        // The result is assembled first and, when every basis is solved for, the solutions written straight
        // into its columns (as in `compose`).
        let mut out = LinearLayout::from_parts(
            SmallVec::from_slice(&b.ins),
            SmallVec::from_slice(&outer.ins),
            gf2::zeros(nb),
        );
        let mut sol_store: SmallVec<[u64; 16]> = SmallVec::new();
        let sol: &mut [u64] = if n_rhs == nb {
            &mut out.cols
        } else {
            sol_store = gf2::zeros(n_rhs);
            &mut sol_store
        };
        let bad = gf2::solve_columns(a_red, rhs, sol);
        if a_red.len() != na {
            // Back from reduced column indices to `outer`'s.
            for s in sol[..n_rhs].iter_mut() {
                let (mut m, mut col) = (*s, 0u64);
                while m != 0 {
                    col |= 1u64 << a_col_of[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                *s = col;
            }
        }
        if bad != 0 {
            // Only reachable through an identity dim's columns: where Triton asserts, solve over every column
            // of `outer` (still free variables zero).
            let idx: SmallVec<[usize; 16]> = (0..n_rhs).filter(|&j| bad >> j & 1 == 1).collect();
            let again: SmallVec<[u64; 16]> = idx.iter().map(|&j| rhs[j]).collect();
            let mut out: SmallVec<[u64; 16]> = smallvec::smallvec![0; again.len()];
            let still = gf2::solve_columns(&a_cols[..na], &again, &mut out);
            if still != 0 {
                let j = idx[still.trailing_zeros() as usize];
                // Name the basis: the j-th solved column of b.
                let (mut seen, mut name, mut bit) = (0usize, String::new(), 0usize);
                for (d, &id) in b.ins.iter().zip(&id_of) {
                    if id == NONE {
                        if j < seen + d.log2 as usize {
                            name = d.name.to_string();
                            bit = j - seen;
                            break;
                        }
                        seen += d.log2 as usize;
                    }
                }
                return Err(LayoutError::NotInImage {
                    reason: format!(
                        "invert_and_compose: basis {bit} of in dim `{name}` is not reached by the outer layout"
                    ),
                });
            }
            for (&j, &x) in idx.iter().zip(&out) {
                sol[j] = x;
            }
        }
        if n_rhs != nb {
            let sol = &sol_store;
            let (mut next, mut at) = (0usize, 0usize);
            for (d, &id) in b.ins.iter().zip(&id_of) {
                for k in 0..d.log2 as usize {
                    out.cols[at] = if id == NONE {
                        next += 1;
                        sol[next - 1]
                    } else {
                        1u64 << (id as usize + k)
                    };
                    at += 1;
                }
            }
        }
        Ok(out)
    }

    /// A right inverse: `P` with `self(P(y)) = y` for every output `y` (Triton's `pseudoinvert`). Requires
    /// `self` to be surjective; among the preimages of each output it picks the one with free variables zero.
    pub fn pseudo_invert(&self) -> Result<LinearLayout> {
        let identity = LinearLayout::from_parts(
            SmallVec::from_slice(&self.outs),
            SmallVec::from_slice(&self.outs),
            (0..self.total_out_bits()).map(|i| 1u64 << i).collect(),
        );
        // Surjectivity is checked by the solve itself: an unreachable output is the error.
        identity
            .invert_and_compose(self)
            .map_err(|_| LayoutError::NotInvertible {
                reason: format!(
                    "pseudo_invert needs a surjective layout; rank {} < {} output bits",
                    self.rank(),
                    self.total_out_bits()
                ),
            })
    }

    /// The inverse of an invertible layout (outputs to inputs).
    pub fn invert(&self) -> Result<LinearLayout> {
        let not_invertible = || LayoutError::NotInvertible {
            reason: format!(
                "{} input bits, {} output bits, rank {}",
                self.total_in_bits(),
                self.total_out_bits(),
                self.rank()
            ),
        };
        if self.total_in_bits() != self.total_out_bits() {
            return Err(not_invertible());
        }
        // As many inputs as outputs: surjective iff invertible, and then the inverse is unique, so it equals
        // `pseudo_invert` (whatever its heuristics) and can be solved for directly: column j of the inverse is
        // the preimage of the unit vector e_j.
        // The result is assembled first and its columns written in place (as in `compose`).
        let n = self.total_out_bits() as usize;
        let mut out = LinearLayout::from_parts(
            SmallVec::from_slice(&self.outs),
            SmallVec::from_slice(&self.ins),
            gf2::zeros(n),
        );
        let ok = if n <= 32 {
            gf2::invert_square(&self.cols, &mut out.cols)
        } else {
            let units: SmallVec<[u64; 64]> = (0..n).map(|j| 1u64 << j).collect();
            gf2::solve_columns(&self.cols, &units, &mut out.cols) == 0
        };
        if !ok {
            return Err(not_invertible());
        }
        Ok(out)
    }
}

fn dims_differ(b: &LinearLayout, outer: &LinearLayout) -> LayoutError {
    LayoutError::DimMismatch(format!(
        "invert_and_compose: out dims {} and {} differ",
        cut_list(b.out_dim_names()),
        cut_list(outer.out_dim_names())
    ))
}
