//! Restricting and querying parts of a layout: `sublayout`, `sublayout_is_zero`, `free_variable_masks`,
//! `num_consecutive_in_out`.

#![forbid(unsafe_code)]

use smallvec::SmallVec;

use super::error::{DimSide, LayoutError, Result};
use super::gf2::ColumnEchelon;
use super::linear_layout::{bits_at, low_mask, named_fields, place, DimSpec};
use super::{Dim, LinearLayout};

fn check_names<D: AsRef<str>>(l: &LinearLayout, names: &[D], side: DimSide) -> Result<()> {
    for n in names {
        let n = n.as_ref();
        let known = match side {
            DimSide::In => l.has_in_dim(n),
            DimSide::Out => l.has_out_dim(n),
        };
        if !known {
            return Err(LayoutError::UnknownDim {
                side,
                name: Dim::new(n),
            });
        }
    }
    Ok(())
}

impl LinearLayout {
    /// The layout restricted to the input dims `ins` and output dims `outs` (other inputs read as 0, other
    /// outputs dropped). Dims keep the layout's order, not the arguments'; output sizes are unchanged, so the
    /// result may not be surjective.
    pub fn sublayout<D: AsRef<str>, E: AsRef<str>>(
        &self,
        ins: &[D],
        outs: &[E],
    ) -> Result<LinearLayout> {
        check_names(self, ins, DimSide::In)?;
        check_names(self, outs, DimSide::Out)?;
        let keep_out: SmallVec<[bool; 4]> = self
            .outs
            .iter()
            .map(|d| outs.iter().any(|n| d.name == *n.as_ref()))
            .collect();
        let new_outs: SmallVec<[DimSpec; 4]> = self
            .outs
            .iter()
            .zip(&keep_out)
            .filter(|(_, k)| **k)
            .map(|(d, _)| *d)
            .collect();
        let shifts: SmallVec<[u32; 4]> = (0..self.outs.len()).map(|j| self.out_shift(j)).collect();
        let project = |c: u64| -> u64 {
            let mut out = 0u64;
            let mut dst = 0;
            for (j, d) in self.outs.iter().enumerate() {
                if keep_out[j] {
                    out |= place(bits_at(c, shifts[j], d.log2), dst);
                    dst += d.log2;
                }
            }
            out
        };
        let mut new_ins: SmallVec<[DimSpec; 4]> = SmallVec::new();
        let mut cols: SmallVec<[u64; 16]> = SmallVec::new();
        let mut off = 0;
        for d in &self.ins {
            let n = d.log2 as usize;
            if ins.iter().any(|x| d.name == *x.as_ref()) {
                new_ins.push(*d);
                cols.extend(self.cols[off..off + n].iter().map(|&c| project(c)));
            }
            off += n;
        }
        Ok(LinearLayout::from_parts(new_ins, new_outs, cols))
    }

    /// Whether the inputs `ins` never move the outputs `outs` (their sub-layout is all zeros).
    pub fn sublayout_is_zero<D: AsRef<str>, E: AsRef<str>>(
        &self,
        ins: &[D],
        outs: &[E],
    ) -> Result<bool> {
        Ok(self.sublayout(ins, outs)?.cols.iter().all(|&c| c == 0))
    }

    /// For each input dim, the mask of its input bits that are *free*: changing them changes no output given
    /// the earlier bits (non-pivot columns of the bit matrix). All zero iff the layout is injective; set bits
    /// mark broadcast (duplicated) data.
    pub fn free_variable_masks(&self) -> Vec<(Dim, u64)> {
        let free = ColumnEchelon::new(&self.cols).free_mask();
        named_fields(&self.ins, free).collect()
    }

    /// The largest `V` such that `V` consecutive values of the first input dim map to `V` consecutive values
    /// (by `+`, not XOR) of the first output dim, at every position: the vector width along the fastest dim.
    pub fn num_consecutive_in_out(&self) -> u64 {
        let (Some(first_in), Some(first_out)) = (self.ins.first(), self.outs.first()) else {
            return 1;
        };
        let out_mask = low_mask(first_out.log2);
        let n = first_in.log2 as usize;
        let consec = (0..n.min(first_out.log2 as usize))
            .take_while(|&i| self.cols[i] == 1u64 << i)
            .count();
        let other: u64 = self
            .cols
            .iter()
            .enumerate()
            .filter(|(k, _)| *k >= consec)
            .fold(0, |acc, (_, &c)| acc | (c & out_mask));
        let tz = if other == 0 {
            63
        } else {
            other.trailing_zeros() as usize
        };
        1u64 << consec.min(tz)
    }
}
