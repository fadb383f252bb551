//! Zero bases, i.e. broadcast: `remove_zero_bases_along_dim` and `zeros_like`.
//!
//! A zero basis means the input bit does not move the output: two hardware locations hold the same element.

use smallvec::SmallVec;

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
        let mut ins = self.ins.clone();
        ins[i].log2 = kept as u32;
        Ok(LinearLayout::from_parts(ins, self.outs.clone(), cols))
    }

    /// The layout with the same dims and sizes whose every basis is zero (Triton's `zerosLike`).
    pub fn zeros_like(&self) -> LinearLayout {
        LinearLayout::from_parts(
            self.ins.clone(),
            self.outs.clone(),
            smallvec::smallvec![0; self.cols.len()],
        )
    }
}
