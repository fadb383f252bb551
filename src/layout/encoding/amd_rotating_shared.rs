//! `#ttg.amd_rotating_shared`: AMD's swizzled shared-memory layout whose phase also rotates from one block of
//! `per_phase * max_phase` rows to the next (gfx942 matmul and attention dumps use it for operands in LDS).
//!
//! Row `r` of the two most minor dims starts its `vec`-element groups at phase
//! `((r / per_phase) % max_phase) ^ ((r / max_phase / per_phase) % max_phase)`, as Triton 3.9's
//! `sharedToLinearLayoutAMDRotating` (LinearLayoutConversions.cpp) lays it out.

use crate::layout::{Dim, LinearLayout, Result};

use super::cga::{combine_cta_cga_with_shape, CgaLayout};
use super::{check_order, invalid};

/// Triton's `AMDRotatingSharedEncodingAttr` (no Gluon class).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AmdRotatingShared {
    /// Elements per swizzled group.
    pub vec: u32,
    /// Rows that share one phase.
    pub per_phase: u32,
    /// Number of distinct phases.
    pub max_phase: u32,
    /// Dims from most minor to most major.
    pub order: Vec<u32>,
    /// How CTAs split the tensor.
    pub cga_layout: CgaLayout,
}

impl AmdRotatingShared {
    /// The tensor rank.
    pub fn rank(&self) -> usize {
        self.order.len()
    }

    /// Checks Triton's rules: `order` a permutation, a CGA layout of the rank.
    pub fn validate(&self) -> Result<()> {
        if self.order.is_empty() {
            return Err(invalid("order", "a shared layout needs rank >= 1"));
        }
        check_order("order", &self.order)?;
        self.cga_layout.to_linear_layout(self.rank())?;
        Ok(())
    }

    /// The linear layout (`offset → dims`) of a buffer of `shape`. Like Triton, rank 1 is laid out per CTA
    /// and higher ranks from the whole shape before the CGA layout is applied.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        super::check_rank("shape", shape.len(), self.rank())?;
        super::cga::check_shape(shape)?;
        super::check_has_offsets("AMDRotatingSharedLayout", shape)?;
        if shape.len() == 1 {
            let spc = self.cga_layout.shape_per_cta(shape)?;
            let cta = LinearLayout::identity_1d(spc[0], Dim::OFFSET, Dim::dim(0))?;
            return combine_cta_cga_with_shape(&cta, &self.cga_layout, shape);
        }
        let (col, row) = (self.order[0] as usize, self.order[1] as usize);
        let (ncols, nrows) = (shape[col], shape[row]);
        let (vec, pp, mp) = (
            u64::from(self.vec),
            u64::from(self.per_phase),
            u64::from(self.max_phase),
        );
        if nrows > 1 && (pp == 0 || mp == 0) {
            return Err(invalid(
                if pp == 0 { "per_phase" } else { "max_phase" },
                "must be positive to swizzle more than one row",
            ));
        }
        let mut bases = Vec::new();
        let mut c = 1;
        while c < ncols {
            bases.push(vec![0, c]);
            c *= 2;
        }
        let mut r = 1;
        while r < nrows {
            let phase = (r / pp) % mp;
            let block = r / mp / pp % mp;
            bases.push(vec![r, (vec * (phase ^ block)) % ncols]);
            r *= 2;
        }
        let mut cta = LinearLayout::from_bases_inferred(
            [(Dim::OFFSET, bases)],
            [Dim::dim(row), Dim::dim(col)],
        )?;
        for &d in &self.order[2..] {
            let d = d as usize;
            cta = cta.product(&LinearLayout::identity_1d(shape[d], Dim::OFFSET, Dim::dim(d))?)?;
        }
        combine_cta_cga_with_shape(&cta, &self.cga_layout, shape)
    }
}
