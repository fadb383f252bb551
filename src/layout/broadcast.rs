//! Zero bases, i.e. broadcast: `remove_zero_bases_along_dim` and `zeros_like`.
//!
//! A zero basis means the input bit does not move the output: two hardware locations hold the same element.

#![forbid(unsafe_code)]

use smallvec::SmallVec;

use super::linear_layout::DimSpec;

use super::error::Result;
use super::LinearLayout;

impl LinearLayout {
    /// Drops the all-zero bases of in dim `dim` (e.g. broadcast registers after slicing), shrinking it.
    pub fn remove_zero_bases_along_dim(&self, dim: &str) -> Result<LinearLayout> {
        let i = self.in_index(dim)?;
        let off = self.in_offset(i);
        let n = self.ins[i].log2 as usize;
        let mut cols: SmallVec<[u64; 16]> = SmallVec::with_capacity(self.cols.len());
        cols.extend_from_slice(&self.cols[..off]);
        cols.extend(self.cols[off..off + n].iter().copied().filter(|&c| c != 0));
        let kept = cols.len() - off;
        cols.extend_from_slice(&self.cols[off + n..]);
        let mut ins: SmallVec<[DimSpec; 4]> = SmallVec::from_slice(&self.ins);
        ins[i].log2 = kept as u32;
        Ok(LinearLayout::from_parts(
            ins,
            SmallVec::from_slice(&self.outs),
            cols,
        ))
    }

    /// The layout with the same dims and sizes whose every basis is zero (Triton's `zerosLike`).
    pub fn zeros_like(&self) -> LinearLayout {
        LinearLayout::from_parts(
            SmallVec::from_slice(&self.ins),
            SmallVec::from_slice(&self.outs),
            smallvec::smallvec![0; self.cols.len()],
        )
    }
}
