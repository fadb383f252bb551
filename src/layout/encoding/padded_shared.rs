//! `#ttg.padded_shared`: a shared-memory layout that inserts `padding` elements after every `interval`
//! elements (AMD LDS, TDM). The padding is not linear, so Triton 3.9 gives it no linear layout; its
//! *linear component* (`offset → dims` before padding) is [`PaddedShared::linear_component`].

use crate::layout::{Bases, Dim, LinearLayout, Result};

use super::cga::CgaLayout;
use super::invalid;

/// Triton's `PaddedSharedEncodingAttr` / Gluon's `PaddedSharedLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PaddedShared {
    /// `(interval, padding)` pairs, both powers of two; paddings at one position add up.
    pub interval_padding_pairs: Vec<(u32, u32)>,
    /// Offset bases of the linear component.
    pub offset_bases: Bases,
    /// Block bases (multi-CTA).
    pub cga_layout: CgaLayout,
    /// The logical buffer shape.
    pub shape: Vec<u64>,
}

impl PaddedShared {
    /// The identity linear component for `shape` filled in `order` (Gluon's `with_identity_for`).
    pub fn with_identity_for(pairs: &[(u32, u32)], shape: &[u64], order: &[u32]) -> PaddedShared {
        PaddedShared {
            interval_padding_pairs: pairs.to_vec(),
            offset_bases: identity_bases(shape, order),
            cga_layout: CgaLayout::single(),
            shape: shape.to_vec(),
        }
    }

    /// The order whose identity the offset bases are, if they are one (TTGIR then prints `order = …`).
    pub fn identity_order(&self) -> Option<Vec<u32>> {
        if !self.cga_layout.is_single() {
            return None;
        }
        let rank = self.shape.len();
        let mut order: Vec<u32> = Vec::new();
        let mut expect = vec![1u64; rank];
        for b in &self.offset_bases {
            let nz: Vec<usize> = (0..rank)
                .filter(|&i| b.get(i).copied().unwrap_or(0) != 0)
                .collect();
            let [d] = nz.as_slice() else { return None };
            if b[*d] != expect[*d] {
                return None;
            }
            expect[*d] *= 2;
            if order.last() != Some(&(*d as u32)) {
                if order.contains(&(*d as u32)) {
                    return None;
                }
                order.push(*d as u32);
            }
        }
        if expect != self.shape {
            return None;
        }
        for d in (0..rank as u32).rev() {
            if !order.contains(&d) {
                order.push(d);
            }
        }
        Some(order)
    }

    /// Checks Triton's rules.
    pub fn validate(&self) -> Result<()> {
        let pairs = &self.interval_padding_pairs;
        if pairs.is_empty() {
            return Err(invalid(
                "interval_padding_pairs",
                "PaddedSharedLayout interval_padding_pairs must have at least one interval-padding pair",
            ));
        }
        for (i, (iv, _)) in pairs.iter().enumerate() {
            if pairs[..i].iter().any(|(j, _)| j == iv) {
                return Err(invalid(
                    "interval_padding_pairs",
                    format!("interval {iv} is repeated"),
                ));
            }
        }
        if pairs.iter().any(|(i, _)| *i == 0 || !i.is_power_of_two()) {
            return Err(invalid(
                "interval_padding_pairs",
                "PaddedSharedLayout interval values must all be power of two",
            ));
        }
        if pairs.iter().any(|(_, p)| *p == 0 || !p.is_power_of_two()) {
            return Err(invalid(
                "interval_padding_pairs",
                "PaddedSharedLayout padding values must all be power of two",
            ));
        }
        if self.shape.is_empty() {
            return Err(invalid(
                "shape",
                "PaddedSharedLayout order must not be empty",
            ));
        }
        self.linear_component()?;
        // The offset bases alone must cover one CTA's share of the shape.
        let rank = self.shape.len();
        let offsets = LinearLayout::from_bases_inferred(
            [(Dim::OFFSET, self.offset_bases.clone())],
            Dim::standard(rank),
        )
        .map_err(|e| invalid("offset_bases", e.to_string()))?;
        let spc = self.cga_layout.shape_per_cta(&self.shape)?;
        for (d, ((_, got), want)) in offsets.out_dims().zip(&spc).enumerate() {
            if got != *want {
                return Err(invalid(
                    "offset_bases",
                    format!("Mismatch in expected shape for dimension {d}. Expected: {want}, got: {got}"),
                ));
            }
        }
        Ok(())
    }

    /// The linear part (`offset, block → dims`, before padding).
    pub fn linear_component(&self) -> Result<LinearLayout> {
        let rank = self.shape.len();
        if self.offset_bases.iter().any(|b| b.len() != rank) {
            return Err(invalid(
                "offset_bases",
                format!("every basis needs {rank} components"),
            ));
        }
        if self.cga_layout.bases.iter().any(|b| b.len() != rank) {
            return Err(invalid(
                "cga_layout",
                format!("every basis needs {rank} components"),
            ));
        }
        LinearLayout::from_bases_inferred(
            [
                (Dim::OFFSET, self.offset_bases.clone()),
                (Dim::BLOCK, self.cga_layout.bases.clone()),
            ],
            Dim::standard(rank),
        )
        .map_err(|e| invalid("offset_bases", e.to_string()))
    }

    /// Padding is not linear: like Triton 3.9, this is an error naming [`PaddedShared::linear_component`].
    pub fn to_linear_layout(&self, _shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        Err(invalid(
            "padded_shared",
            "padded shared encoding has no linear layout; use its linear component (paddedLinearLayout) instead",
        ))
    }
}

/// Identity offset bases for `shape`, filling `order[0]` first.
pub(crate) fn identity_bases(shape: &[u64], order: &[u32]) -> Bases {
    let rank = shape.len();
    let mut out = Vec::new();
    for &d in order {
        let d = d as usize;
        let mut s = 1;
        while s < shape.get(d).copied().unwrap_or(1) {
            let mut b = vec![0; rank];
            b[d] = s;
            out.push(b);
            s *= 2;
        }
    }
    out
}
