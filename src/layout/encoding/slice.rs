//! `#ttg.slice`: the parent layout with one tensor dim removed (what a reduction along that dim leaves).
//! Lanes and warps that ran along the removed dim now hold copies (broadcast); registers that did are
//! dropped.

use smallvec::SmallVec;

use std::sync::Arc;

use crate::layout::linear_layout::{low_mask, DimSpec};
use crate::layout::{Dim, LinearLayout, Result};

use super::{invalid, Encoding};

/// Triton's `SliceEncodingAttr` / Gluon's `SliceLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Slice {
    /// The parent dim that is removed.
    pub dim: u32,
    /// The parent (any distributed encoding).
    pub parent: Arc<Encoding>,
}

impl Slice {
    /// The slice of `parent` along `dim`.
    pub fn new(dim: u32, parent: Encoding) -> Slice {
        Slice {
            dim,
            parent: Arc::new(parent),
        }
    }

    /// The tensor rank (the parent's minus one).
    pub fn rank(&self) -> Result<usize> {
        Ok(self.parent.rank()?.saturating_sub(1))
    }

    /// Checks Triton's rules: a distributed parent of rank >= 2 and `dim` inside it.
    pub fn validate(&self) -> Result<()> {
        if !self.parent.is_distributed() {
            return Err(invalid(
                "parent",
                "a slice needs a distributed parent layout",
            ));
        }
        self.parent.validate()?;
        let prank = self.parent.rank()?;
        if (self.dim as usize) >= prank {
            return Err(invalid(
                "dim",
                format!(
                    "slice dim={} must be less than the parent rank={prank}",
                    self.dim
                ),
            ));
        }
        if prank < 2 {
            return Err(invalid(
                "parent",
                "parent layout must have at least rank >= 2",
            ));
        }
        Ok(())
    }

    /// The linear layout of a tensor of `shape`: the parent's on `shape` with a 1 inserted at `dim`, that
    /// out dim removed and all-zero register bases dropped.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        super::check_rank_of("shape", shape.len(), self.rank()?)?;
        let d = self.dim as usize;
        let mut pshape = shape.to_vec();
        pshape.insert(d, 1);
        let parent = self.parent.tensor_layout(&pshape)?;
        remove_standard_dim(&parent, d)
    }
}

/// Removes standard out dim `d` (renumbering the later ones) and then the all-zero register bases.
pub(crate) fn remove_standard_dim(ll: &LinearLayout, d: usize) -> Result<LinearLayout> {
    let rank = ll.num_out_dims();
    let mut outs: SmallVec<[DimSpec; 4]> = SmallVec::new();
    let mut keep_mask = 0u64;
    let mut shift = 0;
    // Out dims are in standard order here (every encoding returns them so).
    for (j, o) in ll.outs.iter().enumerate() {
        if j != d {
            keep_mask |= low_mask(o.log2) << shift;
            outs.push(DimSpec {
                name: Dim::dim(outs.len()),
                log2: o.log2,
            });
        }
        shift += o.log2;
    }
    debug_assert_eq!(outs.len() + 1, rank);
    let compress = |c: u64| -> u64 {
        let mut out = 0u64;
        let mut nshift = 0;
        let mut s = 0;
        for (j, o) in ll.outs.iter().enumerate() {
            if j != d {
                out |= ((c >> s) & low_mask(o.log2)) << nshift;
                nshift += o.log2;
            }
            s += o.log2;
        }
        out
    };
    let _ = keep_mask;
    let mut ins: SmallVec<[DimSpec; 4]> = SmallVec::new();
    let mut cols: SmallVec<[u64; 16]> = SmallVec::new();
    let mut off = 0;
    for spec in ll.ins.iter() {
        let mut log2 = 0;
        for i in 0..spec.log2 as usize {
            let c = compress(ll.cols[off + i]);
            if spec.name == Dim::REGISTER && c == 0 {
                continue;
            }
            cols.push(c);
            log2 += 1;
        }
        off += spec.log2 as usize;
        ins.push(DimSpec {
            name: spec.name,
            log2,
        });
    }
    Ok(LinearLayout::from_parts(ins, outs, cols))
}
