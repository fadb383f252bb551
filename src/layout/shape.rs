//! Fitting a layout to a tensor shape: the broadcast and wrap-around rules of Triton's encodings.
//!
//! A layout's tile (what its registers, lanes and warps cover) rarely equals the tensor's shape:
//! - **broadcast** ([`LinearLayout::ensure_layout_not_larger_than`]): the tensor is smaller than the tile, so
//!   the bases that reach past it are set to 0, and several threads hold the same element;
//! - **wrap-around** ([`LinearLayout::ensure_layout_not_smaller_than`]): the tensor is larger, so the tile
//!   repeats, each thread holding more registers.

#![forbid(unsafe_code)]

use super::error::{LayoutError, Result};
use super::linear_layout::{bits_at, log2_exact, place, DimSpec};
use super::{Dim, LinearLayout};

/// Looks up the desired log2 size of every out dim of `l` in `shape` (any order, one entry per out dim).
fn desired_log2<D: AsRef<str>>(l: &LinearLayout, shape: &[(D, u64)]) -> Result<Vec<u32>> {
    if shape.len() != l.num_out_dims() {
        return Err(LayoutError::DimMismatch(format!(
            "shape has {} dims, the layout {} out dims",
            shape.len(),
            l.num_out_dims()
        )));
    }
    l.out_dim_names()
        .map(|name| {
            let (_, size) = shape
                .iter()
                .find(|(n, _)| n.as_ref() == name.as_str())
                .ok_or_else(|| {
                    LayoutError::DimMismatch(format!("shape has no size for out dim `{name}`"))
                })?;
            log2_exact(*size, || format!("shape of `{name}`"))
        })
        .collect()
}

impl LinearLayout {
    /// Clamps every out dim to at most `shape[dim]` by *broadcasting* (Triton's `ensureLayoutNotLargerThan`).
    ///
    /// For each out dim larger than wanted, its non-zero components are visited from the largest down (ties in
    /// in-dim order, then basis order) and set to 0 one at a time, halving the dim's size each time, until it
    /// fits. With `broadcast_registers == false`, a `register` basis chosen this way is removed instead of
    /// zeroed (fewer registers rather than duplicated ones). Components must be powers of two (distributed
    /// layouts); out sizes become the desired size, or more if a duplicated component survives (as Triton,
    /// which re-infers the sizes).
    pub fn ensure_layout_not_larger_than<D: AsRef<str>>(
        &self,
        shape: &[(D, u64)],
        broadcast_registers: bool,
    ) -> Result<LinearLayout> {
        let want = desired_log2(self, shape)?;
        let mut cols = self.cols.clone();
        let reg = self.in_index("register").ok();
        let reg_range = reg.map(|i| {
            let off = self.in_offset(i);
            off..off + self.ins[i].log2 as usize
        });
        let mut drop_cols = 0u64; // register columns to remove
        for (j, o) in self.outs.iter().enumerate() {
            if o.log2 <= want[j] {
                continue;
            }
            let shift = self.out_shift(j);
            // (component, column) of every non-zero component, largest first; stable in column order.
            let mut comps: Vec<(u64, usize)> = Vec::new();
            for (k, &c) in cols.iter().enumerate() {
                let v = bits_at(c, shift, o.log2);
                if v != 0 {
                    if !v.is_power_of_two() {
                        return Err(LayoutError::Invalid(format!(
                            "ensure_layout_not_larger_than: component {v} of out dim `{}` is not a power of two",
                            o.name
                        )));
                    }
                    comps.push((v, k));
                }
            }
            comps.sort_by_key(|c| std::cmp::Reverse(c.0));
            let mut actual = o.log2;
            for (v, k) in comps {
                if actual <= want[j] {
                    break;
                }
                let is_reg = reg_range.as_ref().is_some_and(|r| r.contains(&k));
                if !broadcast_registers && is_reg {
                    drop_cols |= 1 << (k - reg_range.as_ref().map_or(0, |r| r.start));
                } else {
                    cols[k] &= !place(v, shift);
                }
                actual -= 1;
            }
        }
        let mut ins = self.ins.clone();
        if let (Some(i), Some(r)) = (reg, reg_range) {
            if drop_cols != 0 {
                let kept: Vec<u64> = cols[r.clone()]
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| drop_cols & (1 << k) == 0)
                    .map(|(_, &c)| c)
                    .collect();
                ins[i].log2 = kept.len() as u32;
                let tail: Vec<u64> = cols[r.end..].to_vec();
                cols.truncate(r.start);
                cols.extend(kept);
                cols.extend(tail);
            }
        }
        // New out sizes: the desired size, or the smallest that holds every surviving component.
        let mut max = vec![0u64; self.outs.len()];
        for &c in &cols {
            for (m, v) in max.iter_mut().zip(self.unpack(c)) {
                *m = (*m).max(v);
            }
        }
        let outs: smallvec::SmallVec<[DimSpec; 4]> = self
            .outs
            .iter()
            .enumerate()
            .map(|(j, o)| DimSpec {
                name: o.name,
                log2: o.log2.min(want[j].max(64 - max[j].leading_zeros())),
            })
            .collect();
        let cols = cols
            .iter()
            .map(|&c| {
                let (mut out, mut dst) = (0u64, 0u32);
                for (v, o) in self.unpack(c).into_iter().zip(&outs) {
                    out |= place(v, dst);
                    dst += o.log2;
                }
                out
            })
            .collect();
        Ok(LinearLayout::from_parts(ins, outs, cols))
    }

    /// Grows every out dim to at least `shape[dim]` by *wrap-around* (Triton's `ensureLayoutNotSmallerThan`):
    /// for each out dim in order, multiplies in an identity from the first in dim (`register` for distributed
    /// layouts, `offset` for shared ones), so the tile repeats along that dim.
    pub fn ensure_layout_not_smaller_than<D: AsRef<str>>(
        &self,
        shape: &[(D, u64)],
    ) -> Result<LinearLayout> {
        let want = desired_log2(self, shape)?;
        if want.is_empty() {
            return Ok(self.clone());
        }
        let Some(first) = self.ins.first().map(|d| d.name) else {
            return Err(LayoutError::Invalid(
                "ensure_layout_not_smaller_than: the layout has no in dim to repeat along".into(),
            ));
        };
        let mut l = self.clone();
        for (o, &w) in self.outs.iter().zip(&want) {
            if w > o.log2 {
                let grow = LinearLayout::identity_1d(1u64 << (w - o.log2), first, o.name)?;
                l = l.product(&grow)?;
            }
        }
        Ok(l)
    }

    /// The identity from one in dim onto `dim0..dim{rank-1}` of sizes `shape`, filling `order[0]` (the most
    /// minor dim) first (Triton's `identityStandardND`). Out dims come in the order `order` lists them.
    pub fn identity_standard_nd(
        in_dim: impl Into<Dim>,
        shape: &[u64],
        order: &[usize],
    ) -> Result<LinearLayout> {
        let in_dim = in_dim.into();
        if order.len() != shape.len() {
            return Err(LayoutError::DimMismatch(format!(
                "identity_standard_nd: order has {} entries for a shape of rank {}",
                order.len(),
                shape.len()
            )));
        }
        let mut seen = vec![false; shape.len()];
        for &d in order {
            if d >= shape.len() || std::mem::replace(&mut seen[d], true) {
                return Err(LayoutError::Invalid(format!(
                    "identity_standard_nd: order {} is not a permutation of 0..{}",
                    crate::layout::error::cut_list(order),
                    shape.len()
                )));
            }
        }
        let mut l = LinearLayout::empty();
        for &d in order {
            log2_exact(shape[d], || format!("shape[{d}]"))?;
            l = l.product(&LinearLayout::identity_1d(shape[d], in_dim, Dim::dim(d))?)?;
        }
        Ok(l)
    }
}
