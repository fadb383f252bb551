//! `resize_in_dim` and `resize_out_dim`: changing one dim's size in place.

#![forbid(unsafe_code)]

use smallvec::SmallVec;

use super::error::Result;
use super::linear_layout::{bits_at, check_total, log2_exact, place, DimSpec};
use super::LinearLayout;

impl LinearLayout {
    /// Gives in dim `dim` the size `size` (a power of two). Shrinking drops its most significant bases;
    /// growing appends zero bases, so the new inputs are broadcast copies (Triton's newest `resizeInDim`).
    pub fn resize_in_dim(&self, dim: &str, size: u64) -> Result<LinearLayout> {
        let i = self.in_index(dim)?;
        let log2 = log2_exact(size, || format!("new size of in dim `{dim}`"))?;
        let mut ins: SmallVec<[DimSpec; 4]> = SmallVec::from_slice(&self.ins);
        ins[i].log2 = log2;
        check_total(&ins, &self.outs)?;
        let off = self.in_offset(i);
        let old = self.ins[i].log2 as usize;
        let mut cols: SmallVec<[u64; 16]> = SmallVec::with_capacity(self.cols.len());
        cols.extend_from_slice(&self.cols[..off + old.min(log2 as usize)]);
        cols.extend(std::iter::repeat_n(0, (log2 as usize).saturating_sub(old)));
        cols.extend_from_slice(&self.cols[off + old..]);
        Ok(LinearLayout::from_parts(
            ins,
            SmallVec::from_slice(&self.outs),
            cols,
        ))
    }

    /// Gives out dim `dim` the size `size` (a power of two). Shrinking sets to 0 every component of that dim
    /// that is `>= size` (the whole component, as Triton's `resizeOutDim`, not just its high bits); growing
    /// only enlarges the codomain (the layout stops being surjective).
    pub fn resize_out_dim(&self, dim: &str, size: u64) -> Result<LinearLayout> {
        let j = self.out_index(dim)?;
        let log2 = log2_exact(size, || format!("new size of out dim `{dim}`"))?;
        let mut outs: SmallVec<[DimSpec; 4]> = SmallVec::from_slice(&self.outs);
        outs[j].log2 = log2;
        check_total(&self.ins, &outs)?;
        let cols = self
            .cols
            .iter()
            .map(|&c| {
                let (mut out, mut src, mut dst) = (0u64, 0u32, 0u32);
                for (k, (o, n)) in self.outs.iter().zip(&outs).enumerate() {
                    let mut field = bits_at(c, src, o.log2);
                    if k == j && field >> n.log2 != 0 {
                        field = 0;
                    }
                    out |= place(field, dst);
                    src += o.log2;
                    dst += n.log2;
                }
                out
            })
            .collect();
        Ok(LinearLayout::from_parts(
            SmallVec::from_slice(&self.ins),
            outs,
            cols,
        ))
    }
}
