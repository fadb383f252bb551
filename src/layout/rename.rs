//! `rename_in_dim` and `rename_out_dim`: new names, same bits, same order.

#![forbid(unsafe_code)]

use super::error::{DimSide, LayoutError, Result};
use super::{Dim, LinearLayout};

impl LinearLayout {
    /// Renames in dim `old` to `new`, keeping its place. `new` must not name another in dim.
    pub fn rename_in_dim(&self, old: &str, new: impl Into<Dim>) -> Result<LinearLayout> {
        let new = new.into();
        let i = self.in_index(old)?;
        if new != *old && self.has_in_dim(&new) {
            return Err(LayoutError::DuplicateDim {
                side: DimSide::In,
                name: new,
            });
        }
        let mut l = self.clone();
        l.ins[i].name = new;
        Ok(l)
    }

    /// Renames out dim `old` to `new`, keeping its place. `new` must not name another out dim.
    pub fn rename_out_dim(&self, old: &str, new: impl Into<Dim>) -> Result<LinearLayout> {
        let new = new.into();
        let j = self.out_index(old)?;
        if new != *old && self.has_out_dim(&new) {
            return Err(LayoutError::DuplicateDim {
                side: DimSide::Out,
                name: new,
            });
        }
        let mut l = self.clone();
        l.outs[j].name = new;
        Ok(l)
    }
}
