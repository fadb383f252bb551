//! Squeezing: removing dims of size 1, which carry no bits (Triton's `squeezeIns/Outs`, formerly
//! `unsqueezeIn/Out`).

#![forbid(unsafe_code)]

use super::error::{LayoutError, Result};
use super::LinearLayout;

impl LinearLayout {
    /// Removes in dim `dim`, which must have size 1.
    pub fn squeeze_ins(&self, dim: &str) -> Result<LinearLayout> {
        let i = self.in_index(dim)?;
        if self.ins[i].log2 != 0 {
            return Err(LayoutError::SizeMismatch(format!(
                "squeeze_ins: in dim `{dim}` has size {}, not 1",
                1u64 << self.ins[i].log2
            )));
        }
        let mut l = self.clone();
        l.ins.remove(i);
        Ok(l)
    }

    /// Removes out dim `dim`, which must have size 1.
    pub fn squeeze_outs(&self, dim: &str) -> Result<LinearLayout> {
        let j = self.out_index(dim)?;
        if self.outs[j].log2 != 0 {
            return Err(LayoutError::SizeMismatch(format!(
                "squeeze_outs: out dim `{dim}` has size {}, not 1",
                1u64 << self.outs[j].log2
            )));
        }
        let mut l = self.clone();
        l.outs.remove(j);
        Ok(l)
    }

    /// Removes every in dim of size 1.
    pub fn squeeze_all_ins(&self) -> LinearLayout {
        let mut l = self.clone();
        l.ins.retain(|d| d.log2 != 0);
        l
    }

    /// Removes every out dim of size 1.
    pub fn squeeze_all_outs(&self) -> LinearLayout {
        let mut l = self.clone();
        l.outs.retain(|d| d.log2 != 0);
        l
    }
}
