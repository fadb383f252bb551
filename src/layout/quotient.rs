//! `is_trivial_over` and `quotient`: removing dims on which a layout is the identity.
//!
//! A conversion layout `register, lane, warp, block → register, lane, warp, block` that is the identity on
//! `block` and `warp` and does not mix them with the other dims moves data only inside a warp: quotienting them
//! away shows what is left to do (Triton's `minimalCvtLayout`).

#![forbid(unsafe_code)]

use super::error::{LayoutError, Result};
use super::LinearLayout;

impl LinearLayout {
    /// Whether `self` is the identity on `dims` and does not mix them with the other dims: as a block matrix
    /// over (other dims, `dims`), the `dims → dims` block is the identity (equal in and out sizes, in dim order)
    /// and both off-diagonal blocks are zero. Every dim must be both an in and an out dim (else `false`).
    pub fn is_trivial_over<D: AsRef<str>>(&self, dims: &[D]) -> bool {
        let names: Vec<&str> = dims.iter().map(|d| d.as_ref()).collect();
        if !names
            .iter()
            .all(|n| self.has_in_dim(n) && self.has_out_dim(n))
        {
            return false;
        }
        for n in &names {
            if self.in_dim_size_log2(n).ok() != self.out_dim_size_log2(n).ok() {
                return false;
            }
        }
        let rest_in: Vec<&str> = self
            .in_dim_names()
            .map(|d| d.as_str())
            .filter(|d| !names.contains(d))
            .collect();
        let rest_out: Vec<&str> = self
            .out_dim_names()
            .map(|d| d.as_str())
            .filter(|d| !names.contains(d))
            .collect();
        let Ok(square) = self.sublayout(&names, &names) else {
            return false;
        };
        square.cols.iter().enumerate().all(|(k, &c)| c == 1u64 << k)
            && self.sublayout_is_zero(&rest_in, &names).unwrap_or(false)
            && self.sublayout_is_zero(&names, &rest_out).unwrap_or(false)
    }

    /// The layout on the other dims, when [`is_trivial_over`](Self::is_trivial_over)`(dims)` holds (Triton's
    /// `quotient`); otherwise [`LayoutError::NotTrivial`] (Triton's `nullopt`).
    pub fn quotient<D: AsRef<str>>(&self, dims: &[D]) -> Result<LinearLayout> {
        let names: Vec<&str> = dims.iter().map(|d| d.as_ref()).collect();
        if !self.is_trivial_over(&names) {
            return Err(LayoutError::NotTrivial(format!(
                "{}: each must be an in and an out dim on which the layout is the identity, unmixed with the others",
                crate::layout::error::cut_list(&names)
            )));
        }
        let rest_in: Vec<&str> = self
            .in_dim_names()
            .map(|d| d.as_str())
            .filter(|d| !names.contains(d))
            .collect();
        let rest_out: Vec<&str> = self
            .out_dim_names()
            .map(|d| d.as_str())
            .filter(|d| !names.contains(d))
            .collect();
        self.sublayout(&rest_in, &rest_out)
    }
}
