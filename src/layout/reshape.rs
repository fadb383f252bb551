//! Reordering and reshaping dims: `transpose_*`, `reshape_*`, `flatten_*`.
//!
//! Dim order is minor to major. Reshaping flattens all dims of one side (the first dim least significant)
//! and splits the result into the new dims, so it only relabels bits: the packed columns already store
//! inputs and outputs in exactly that flattened order.

#![forbid(unsafe_code)]

use smallvec::SmallVec;

use super::error::{DimSide, LayoutError, Result};
use super::linear_layout::{bits_at, check_total, log2_exact, place, DimSpec};
use super::{Dim, LinearLayout};

fn permutation<D: AsRef<str>>(specs: &[DimSpec], order: &[D], side: DimSide) -> Result<Vec<usize>> {
    if order.len() != specs.len() {
        return Err(LayoutError::DimMismatch(format!(
            "transpose: {} names given for {} {side} dims",
            order.len(),
            specs.len()
        )));
    }
    let mut perm = Vec::with_capacity(order.len());
    for name in order {
        let name = name.as_ref();
        let i =
            specs
                .iter()
                .position(|d| d.name == *name)
                .ok_or_else(|| LayoutError::UnknownDim {
                    side,
                    name: Dim::new(name),
                })?;
        if perm.contains(&i) {
            return Err(LayoutError::DuplicateDim {
                side,
                name: Dim::new(name),
            });
        }
        perm.push(i);
    }
    Ok(perm)
}

fn new_specs<D: Into<Dim> + Clone>(dims: &[(D, u64)]) -> Result<SmallVec<[DimSpec; 4]>> {
    dims.iter()
        .map(|(n, s)| {
            let name: Dim = n.clone().into();
            let log2 = log2_exact(*s, || format!("dim `{name}`"))?;
            Ok(DimSpec { name, log2 })
        })
        .collect()
}

impl LinearLayout {
    /// Reorders the input dims to `order` (a permutation of the input dim names).
    pub fn transpose_ins<D: AsRef<str>>(&self, order: &[D]) -> Result<LinearLayout> {
        let perm = permutation(&self.ins, order, DimSide::In)?;
        let mut cols = SmallVec::with_capacity(self.cols.len());
        let mut ins = SmallVec::new();
        for &i in &perm {
            let off = self.in_offset(i);
            cols.extend_from_slice(&self.cols[off..off + self.ins[i].log2 as usize]);
            ins.push(self.ins[i]);
        }
        Ok(LinearLayout::from_parts(
            ins,
            SmallVec::from_slice(&self.outs),
            cols,
        ))
    }

    /// Reorders the output dims to `order` (a permutation of the output dim names).
    pub fn transpose_outs<D: AsRef<str>>(&self, order: &[D]) -> Result<LinearLayout> {
        let perm = permutation(&self.outs, order, DimSide::Out)?;
        if perm.iter().enumerate().all(|(k, &i)| k == i) {
            return Ok(self.clone());
        }
        let shifts: Vec<u32> = (0..self.outs.len()).map(|j| self.out_shift(j)).collect();
        let cols = self
            .cols
            .iter()
            .map(|&c| {
                let mut out = 0u64;
                let mut dst = 0;
                for &j in &perm {
                    out |= place(bits_at(c, shifts[j], self.outs[j].log2), dst);
                    dst += self.outs[j].log2;
                }
                out
            })
            .collect();
        let outs = perm.iter().map(|&j| self.outs[j]).collect();
        Ok(LinearLayout::from_parts(
            SmallVec::from_slice(&self.ins),
            outs,
            cols,
        ))
    }

    /// Replaces the input dims by `dims` (name, size) with the same total size, splitting the flattened
    /// input (first dim least significant).
    pub fn reshape_ins<D: Into<Dim> + Clone>(&self, dims: &[(D, u64)]) -> Result<LinearLayout> {
        let ins = new_specs(dims)?;
        let bits: u32 = ins.iter().map(|d| d.log2).sum();
        if bits != self.total_in_bits() {
            return Err(LayoutError::SizeMismatch(format!(
                "reshape_ins: new dims have 2^{bits} elements, the layout's input 2^{}",
                self.total_in_bits()
            )));
        }
        check_total(&ins, &self.outs)?;
        Ok(LinearLayout::from_parts(
            ins,
            SmallVec::from_slice(&self.outs),
            SmallVec::from_slice(&self.cols),
        ))
    }

    /// Replaces the output dims by `dims` (name, size) with the same total size, splitting the flattened
    /// output (first dim least significant).
    pub fn reshape_outs<D: Into<Dim> + Clone>(&self, dims: &[(D, u64)]) -> Result<LinearLayout> {
        let outs = new_specs(dims)?;
        let bits: u32 = outs.iter().map(|d| d.log2).sum();
        if bits != self.total_out_bits() {
            return Err(LayoutError::SizeMismatch(format!(
                "reshape_outs: new dims have 2^{bits} elements, the layout's output 2^{}",
                self.total_out_bits()
            )));
        }
        check_total(&self.ins, &outs)?;
        Ok(LinearLayout::from_parts(
            SmallVec::from_slice(&self.ins),
            outs,
            SmallVec::from_slice(&self.cols),
        ))
    }

    /// All input dims merged into one, named after the first (unchanged if there are none).
    pub fn flatten_ins(&self) -> Result<LinearLayout> {
        match self.ins.first() {
            None => Ok(self.clone()),
            Some(d) => self
                .reshape_ins(&[(d.name, self.total_in_size())])
                .map_err(|_| LayoutError::TooManyBits {
                    what: "flattened input dim".into(),
                    bits: self.total_in_bits(),
                    limit: super::linear_layout::MAX_DIM_BITS,
                }),
        }
    }

    /// All output dims merged into one, named after the first (unchanged if there are none).
    pub fn flatten_outs(&self) -> Result<LinearLayout> {
        match self.outs.first() {
            None => Ok(self.clone()),
            Some(d) => {
                if self.total_out_bits() > super::linear_layout::MAX_DIM_BITS {
                    return Err(LayoutError::TooManyBits {
                        what: "flattened output dim".into(),
                        bits: self.total_out_bits(),
                        limit: super::linear_layout::MAX_DIM_BITS,
                    });
                }
                self.reshape_outs(&[(d.name, self.total_out_size())])
            }
        }
    }
}
