//! `concat_ins` and `concat_outs`: placing two layouts side by side.

#![forbid(unsafe_code)]

use smallvec::SmallVec;

use super::error::{cut_list, DimSide, LayoutError, Result};
use super::linear_layout::check_total;
use super::LinearLayout;

impl LinearLayout {
    /// The layout with `self`'s in dims followed by `other`'s: `L(x, y) = self(x) ⊕ other(y)`. Both must have
    /// the same out dims (names in order, sizes) and no in dim in common.
    pub fn concat_ins(&self, other: &LinearLayout) -> Result<LinearLayout> {
        if self.outs != other.outs {
            return Err(LayoutError::DimMismatch(format!(
                "concat_ins: out dims {} and {} differ",
                cut_list(self.out_dims()),
                cut_list(other.out_dims())
            )));
        }
        if let Some(d) = other.ins.iter().find(|d| self.has_in_dim(&d.name)) {
            return Err(LayoutError::DuplicateDim {
                side: DimSide::In,
                name: d.name,
            });
        }
        let ins: SmallVec<_> = self.ins.iter().chain(&other.ins).cloned().collect();
        check_total(&ins, &self.outs)?;
        let cols = self.cols.iter().chain(&other.cols).copied().collect();
        Ok(LinearLayout::from_parts(
            ins,
            SmallVec::from_slice(&self.outs),
            cols,
        ))
    }

    /// The layout with `self`'s out dims followed by `other`'s: `L(x) = (self(x), other(x))`. Both must have the
    /// same in dims (names in order, sizes) and no out dim in common.
    pub fn concat_outs(&self, other: &LinearLayout) -> Result<LinearLayout> {
        if self.ins != other.ins {
            return Err(LayoutError::DimMismatch(format!(
                "concat_outs: in dims {} and {} differ",
                cut_list(self.in_dims()),
                cut_list(other.in_dims())
            )));
        }
        if let Some(d) = other.outs.iter().find(|d| self.has_out_dim(&d.name)) {
            return Err(LayoutError::DuplicateDim {
                side: DimSide::Out,
                name: d.name,
            });
        }
        let outs: SmallVec<_> = self.outs.iter().chain(&other.outs).cloned().collect();
        check_total(&self.ins, &outs)?;
        let shift = self.total_out_bits();
        let cols = self
            .cols
            .iter()
            .zip(&other.cols)
            .map(|(&a, &b)| a | b.checked_shl(shift).unwrap_or(0))
            .collect();
        Ok(LinearLayout::from_parts(
            SmallVec::from_slice(&self.ins),
            outs,
            cols,
        ))
    }
}
