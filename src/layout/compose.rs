//! Composition: `a.compose(b)` is `b ∘ a` (apply `a`, then `b`), Triton's argument order.

#![forbid(unsafe_code)]

use smallvec::SmallVec;

use super::error::{cut_list, LayoutError, Result};
use super::gf2;
use super::linear_layout::position_of;
use super::LinearLayout;

impl LinearLayout {
    /// `outer ∘ self`: the layout mapping `self`'s inputs to `outer`'s outputs.
    ///
    /// `self`'s output dims must be `outer`'s input dims (in any order), each no larger than the matching
    /// input dim. The result has `outer`'s output dims and sizes.
    pub fn compose(&self, outer: &LinearLayout) -> Result<LinearLayout> {
        if self.outs.len() != outer.ins.len() {
            return Err(LayoutError::DimMismatch(format!(
                "compose: out dims {} of the inner layout are not the in dims {} of the outer one",
                cut_list(self.out_dim_names()),
                cut_list(outer.in_dim_names())
            )));
        }
        // `remap[k]`: outer's column for self's output bit k.
        let mut remap = [0u64; 64];
        let mut n = 0usize;
        for (j, o) in self.outs.iter().enumerate() {
            let i = position_of(&outer.ins, o.name, j).ok_or_else(|| {
                LayoutError::DimMismatch(format!(
                    "compose: out dim `{}` is not an in dim of the outer layout",
                    o.name
                ))
            })?;
            let inner_dim = &outer.ins[i];
            if o.log2 > inner_dim.log2 {
                return Err(LayoutError::SizeMismatch(format!(
                    "compose: out dim `{}` has size {} but the outer layout's in dim has size {}",
                    o.name,
                    1u64 << o.log2,
                    1u64 << inner_dim.log2
                )));
            }
            let off = outer.in_offset(i);
            let len = o.log2 as usize;
            remap[n..n + len].copy_from_slice(&outer.cols[off..off + len]);
            n += len;
        }
        // The result is assembled first and its columns written in place: columns written into a local and
        // then moved into the result would be copied by wide loads of narrow stores, which stall.
        let mut out = LinearLayout::from_parts(
            SmallVec::from_slice(&self.ins),
            SmallVec::from_slice(&outer.outs),
            gf2::zeros(self.cols.len()),
        );
        gf2::mul_many(&remap[..n], &self.cols, &mut out.cols);
        Ok(out)
    }
}
