//! `#ttg.amd_rotating_shared`: AMD's swizzled shared-memory layout whose phase also rotates from one block of
//! `per_phase * max_phase` rows to the next (gfx942 matmul and attention dumps use it for operands in LDS).
//!
//! Row `r` of the two most minor dims starts its `vec`-element groups at phase
//! `((r / per_phase) % max_phase) ^ ((r / max_phase / per_phase) % max_phase)`, as Triton 3.9's
//! `sharedToLinearLayoutAMDRotating` (LinearLayoutConversions.cpp) lays it out.

use crate::layout::{Dim, LinearLayout, Result};

use super::cga::combine_cta_cga_with_shape;
use super::SwizzledShared;

/// Triton's `AMDRotatingSharedEncodingAttr` (no Gluon class): the parameters of a swizzled shared layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AmdRotatingShared(pub SwizzledShared);

impl AmdRotatingShared {
    /// The tensor rank.
    pub fn rank(&self) -> usize {
        self.0.rank()
    }

    /// Checks Triton's rules (those of the swizzled layout).
    pub fn validate(&self) -> Result<()> {
        self.0.validate()
    }

    /// The linear layout (`offset → dims`) of a buffer of `shape`. Like Triton, rank 1 is laid out per CTA
    /// and higher ranks from the whole shape before the CGA layout is applied.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        let s = &self.0;
        s.validate()?;
        super::check_rank("shape", shape.len(), s.rank())?;
        super::cga::check_shape(shape)?;
        s.check_phases(shape)?;
        let cta = if shape.len() == 1 {
            let spc = s.cga_layout.shape_per_cta(shape)?;
            LinearLayout::identity_1d(spc[0], Dim::OFFSET, Dim::dim(0))?
        } else {
            s.cta_layout(shape, true)?
        };
        combine_cta_cga_with_shape(&cta, &s.cga_layout, shape)
    }
}
