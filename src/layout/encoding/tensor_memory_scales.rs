//! `#ttng.tensor_memory_scales_encoding`: the block scales of `tcgen05.mma.block_scale` in tensor memory.
//!
//! PTX's scale-factor layout (`tcgen05-mma-scale-factor-a-layout-1x`), as Triton 3.9's
//! `tensorMemoryScalesToLinearLayout` builds it: rows 0–31 hold 32 rows of the scale tensor and are
//! repeated in each warp's quarter of the rows (the two top row bits broadcast); four columns hold four
//! scales of a row, the next column bit the 32 rows after; further column bits repeat that 64 × 4 tile, rows
//! first. A scale tensor smaller than the tile leaves the bases past it unused (zero).

use crate::layout::{Bases, Dim, LinearLayout, Result};

use super::cga::CgaLayout;
use super::invalid;
use super::tensor_memory::{scaled_block_bases, shape_per_cta};

/// Triton's `TensorMemoryScalesEncodingAttr` / Gluon's `TensorMemoryScalesLayout`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TensorMemoryScales {
    /// How CTAs split the scale tensor.
    pub cga_layout: CgaLayout,
}

/// Rows and columns of the 64 × 4 scale tile.
const TILE: [u64; 2] = [64, 4];

impl TensorMemoryScales {
    /// Checks the CGA layout (rank 2, a permutation once broadcast bases go).
    pub fn validate(&self) -> Result<()> {
        self.cga_layout.to_linear_layout(2).map(|_| ())
    }

    /// Checks what the `!ttg.memdesc` verifier asks of a scales descriptor: one buffer of 8-bit elements.
    pub fn check_type(&self, shape: &[u64], elem_bits: u32) -> Result<()> {
        self.validate()?;
        if shape.len() != 2 {
            return Err(invalid(
                "shape",
                "Scales don't currently support multibuffering",
            ));
        }
        if elem_bits != 8 {
            return Err(invalid("element type", "bitwidth must be 8"));
        }
        Ok(())
    }

    /// The linear layout (`row, col, block → dim0, dim1`) of a scale tensor of `shape`.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        let spc = shape_per_cta(&self.cga_layout, shape)?;
        let (rows, cols) = Self::cta_bases(&spc, &spc);
        LinearLayout::from_bases(
            [
                (Dim::new("row"), rows),
                (Dim::new("col"), cols),
                (
                    Dim::BLOCK,
                    scaled_block_bases(&self.cga_layout, &spc, shape),
                ),
            ],
            [(Dim::dim(0), shape[0]), (Dim::dim(1), shape[1])],
            true,
        )
        .map_err(|e| invalid("cga_layout", e.to_string()))
    }

    /// The `row` and `col` bases of one CTA's share `spc` (powers of two) of a scale tensor viewed inside an
    /// allocation whose CTA share is `alloc_spc` (the view's columns are the allocation's first ones).
    pub(crate) fn cta_bases(spc: &[u64], alloc_spc: &[u64]) -> (Bases, Bases) {
        let unit = |d: usize, v: u64| -> Vec<u64> {
            let mut b = vec![0, 0];
            b[d] = v;
            b
        };
        let mut rows: Bases = (0..5).map(|i| unit(0, 1 << i)).collect();
        rows.extend([vec![0, 0], vec![0, 0]]);
        let mut cols: Bases = vec![unit(1, 1), unit(1, 2), unit(0, 32)];
        for d in 0..2 {
            let reps = alloc_spc[d].div_ceil(TILE[d]);
            cols.extend((0..reps.trailing_zeros()).map(|i| unit(d, TILE[d] << i)));
        }
        let outside = |b: &Vec<u64>| b.iter().zip(spc).any(|(&x, &s)| x >= s);
        while cols
            .last()
            .is_some_and(|b| outside(b) && b.iter().zip(alloc_spc).all(|(&x, &a)| x < a))
        {
            cols.pop();
        }
        // Bases that reach past the CTA's share hold nothing (Triton's `ensureLayoutNotLargerThan`).
        for b in rows.iter_mut().chain(cols.iter_mut()) {
            for d in 0..2 {
                if b[d] >= spc[d] {
                    b[d] = 0;
                }
            }
        }
        (rows, cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_warp_quarter_repeats_the_first_32_rows() {
        let ll = TensorMemoryScales::default()
            .to_linear_layout(&[128, 4])
            .unwrap();
        let at = |row: u64, col: u64| -> Vec<u64> {
            ll.apply(&[("row", row), ("col", col), ("block", 0)])
                .unwrap()
                .iter()
                .map(|p| p.1)
                .collect()
        };
        assert_eq!(at(3, 2), at(3 + 32, 2));
        assert_eq!(at(3, 2), at(3 + 96, 2));
        // Column bit 2 moves 32 rows, bit 3 the next 64-row tile.
        assert_eq!(at(3, 4 + 1), vec![35, 1]);
        assert_eq!(at(3, 8), vec![67, 0]);
    }

    #[test]
    fn a_bad_cga_layout_or_rank_is_a_typed_error() {
        let s = TensorMemoryScales {
            cga_layout: CgaLayout::new(vec![vec![3, 0]]),
        };
        assert!(s.to_linear_layout(&[256, 4]).is_err());
        assert!(TensorMemoryScales::default()
            .to_linear_layout(&[2, 128, 4])
            .is_err());
        assert!(TensorMemoryScales::default()
            .check_type(&[128, 4], 32)
            .is_err());
    }
}
