//! `#ttg.shared_linear`: a shared-memory layout given directly by its `offset` (and `block`) bases, as
//! produced by reshaping or permuting shared buffers.

use crate::layout::{Bases, Dim, LinearLayout, Result};

use super::invalid;

/// Triton's `SharedLinearEncodingAttr` / Gluon's `SharedLinearLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SharedLinear {
    /// Offset bases: tensor coordinates of element offset `2^i`.
    pub offset_bases: Bases,
    /// Block bases (multi-CTA).
    pub block_bases: Bases,
    /// Alignment of the buffer in bytes.
    pub alignment: u32,
}

impl SharedLinear {
    /// The tensor rank.
    pub fn rank(&self) -> usize {
        self.offset_bases.first().map_or(0, Vec::len)
    }

    /// The bases as a layout (`offset, block → dim0..`, out sizes inferred).
    pub fn base_layout(&self) -> Result<LinearLayout> {
        let rank = self.rank();
        if self.offset_bases.is_empty() || rank == 0 {
            return Err(invalid(
                "offset_bases",
                "SharedLinearLayout offset_bases must not be empty",
            ));
        }
        for (what, bases) in [
            ("offset_bases", &self.offset_bases),
            ("block_bases", &self.block_bases),
        ] {
            if bases.iter().any(|b| b.len() != rank) {
                return Err(invalid(
                    what,
                    format!("every basis needs {rank} components"),
                ));
            }
        }
        LinearLayout::from_bases_inferred(
            [
                (Dim::OFFSET, self.offset_bases.clone()),
                (Dim::BLOCK, self.block_bases.clone()),
            ],
            Dim::standard(rank),
        )
        .map_err(|e| invalid("offset_bases", e.to_string()))
    }

    /// The tensor shape the bases cover.
    pub fn shape(&self) -> Result<Vec<u64>> {
        Ok(self.base_layout()?.out_dims().map(|(_, s)| s).collect())
    }

    /// Checks Triton's rules: power-of-two alignment, bases of one rank, bijective once zero bases go.
    pub fn validate(&self) -> Result<()> {
        if self.alignment == 0 || !self.alignment.is_power_of_two() {
            return Err(invalid(
                "alignment",
                "SharedLinearLayout alignment must be a positive power of two",
            ));
        }
        let ll = self.base_layout()?;
        let nonzero = ll.columns().iter().filter(|&&c| c != 0).count() as u32;
        if ll.rank() != nonzero || !ll.is_surjective() {
            return Err(invalid(
                "offset_bases",
                "After removing the zero bases the layout must be bijective",
            ));
        }
        Ok(())
    }

    /// The linear layout of a buffer of `shape` (which must be the shape the bases cover).
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        let ll = self.base_layout()?;
        let own: Vec<u64> = ll.out_dims().map(|(_, s)| s).collect();
        if own != shape {
            return Err(invalid(
                "shape",
                format!(
                    "the bases cover {}, the buffer is {}",
                    crate::layout::error::cut_list(&own),
                    crate::layout::error::cut_list(shape)
                ),
            ));
        }
        Ok(ll)
    }
}
