//! `#ttg.linear`: a distributed layout given directly by its bases (Gluon's `DistributedLinearLayout`).
//!
//! When, after dropping zero (broadcast) bases, it is a permutation matrix (every basis moves along one dim
//! by a power of two and no two bases coincide) Triton 3.9 prints it as `#ttg.linear`; other surjective
//! basis sets whose register, lane and block bases move along one dim each (warp bases may XOR dims) print
//! as `#ttg.generic_linear`, and Triton lays them out, computes their bank conflicts and converts them too.

use crate::layout::{Bases, Dim, LinearLayout, Result};

use super::cga::{ensure_not_larger, ensure_not_smaller};
use super::invalid;

/// Triton's `LinearEncodingAttr` / Gluon's `DistributedLinearLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DistributedLinear {
    /// Register bases.
    pub reg_bases: Bases,
    /// Lane bases.
    pub lane_bases: Bases,
    /// Warp bases.
    pub warp_bases: Bases,
    /// Block (CTA) bases.
    pub block_bases: Bases,
    /// The tensor shape the bases describe.
    pub shape: Vec<u64>,
}

impl DistributedLinear {
    /// The four named basis lists, in Triton's in-dim order.
    pub fn named_bases(&self) -> [(Dim, &Bases); 4] {
        [
            (Dim::REGISTER, &self.reg_bases),
            (Dim::LANE, &self.lane_bases),
            (Dim::WARP, &self.warp_bases),
            (Dim::BLOCK, &self.block_bases),
        ]
    }

    /// A layout from an existing linear layout with in dims `register, lane, warp, block` (any subset).
    pub fn from_linear_layout(ll: &LinearLayout) -> Result<DistributedLinear> {
        let get = |d: &str| -> Result<Bases> {
            if ll.has_in_dim(d) {
                ll.bases(d)
            } else {
                Ok(Vec::new())
            }
        };
        Ok(DistributedLinear {
            reg_bases: get("register")?,
            lane_bases: get("lane")?,
            warp_bases: get("warp")?,
            block_bases: get("block")?,
            shape: ll.out_dims().map(|(_, s)| s).collect(),
        })
    }

    /// The tensor rank.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// True when every non-zero basis is one power of two in one dim and none repeats: Triton prints
    /// such layouts as `#ttg.linear`, others as `#ttg.generic_linear`.
    pub fn is_permutation(&self) -> bool {
        let mut seen: Vec<&Vec<u64>> = Vec::new();
        for (_, bases) in self.named_bases() {
            for b in bases {
                let nz: Vec<u64> = b.iter().copied().filter(|&x| x != 0).collect();
                match nz.as_slice() {
                    [] => continue,
                    [x] if x.is_power_of_two() => {}
                    _ => return false,
                }
                if seen.contains(&b) {
                    return false;
                }
                seen.push(b);
            }
        }
        true
    }

    /// The bases as a layout with out dims of exactly `self.shape` (no fitting).
    pub fn base_layout(&self) -> Result<LinearLayout> {
        let rank = self.rank();
        for (d, bases) in self.named_bases() {
            if bases.iter().any(|b| b.len() != rank) {
                return Err(invalid(
                    "bases",
                    format!("every {d} basis needs {rank} components (the rank of `shape`)"),
                ));
            }
        }
        super::cga::check_shape(&self.shape)?;
        let outs: Vec<(Dim, u64)> = Dim::standard(rank)
            .into_iter()
            .zip(self.shape.clone())
            .collect();
        LinearLayout::from_bases(self.named_bases().map(|(d, b)| (d, b.clone())), outs, true)
            .map_err(|e| invalid("bases", e.to_string()))
    }

    /// Checks Triton's rules: bases of the rank, inside and onto `shape`; a permutation after dropping zeros
    /// (`#ttg.linear`), or else a generic linear layout (`#ttg.generic_linear`, Triton 3.9's
    /// `GenericLinearEncodingAttr::verify` in Dialect.cpp), whose register, lane and block bases each move
    /// along at most one dim while warp bases may mix dims (XOR swizzles).
    pub fn validate(&self) -> Result<()> {
        self.base_layout()?;
        if self.is_permutation() {
            return Ok(());
        }
        for (d, bases) in self.named_bases() {
            if d == Dim::WARP {
                continue;
            }
            if bases
                .iter()
                .any(|b| b.iter().filter(|&&x| x != 0).count() > 1)
            {
                return Err(invalid(
                    "bases",
                    format!(
                        "In a generic linear layout, register, lane, and block bases must move in at most \
                         one dimension. Swizzled bases found in '{d}'"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Triton's `orderPerDim(register)`: dims in the order register bases first move along them, then the
    /// rest from the most major.
    fn register_order(&self) -> Vec<usize> {
        let rank = self.rank();
        let mut order: Vec<usize> = Vec::with_capacity(rank);
        for b in &self.reg_bases {
            if let Some(i) = b.iter().position(|&x| x != 0) {
                if !order.contains(&i) {
                    order.push(i);
                }
            }
        }
        for i in (0..rank).rev() {
            if !order.contains(&i) {
                order.push(i);
            }
        }
        order
    }

    /// The linear layout of a tensor of `shape`: registers wrap around (in register order) when larger,
    /// register bases past the shape are dropped and other bases zeroed when smaller.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        // Triton 3.9 orders the registers with `orderPerDim` (Dialect.cpp), which stops the process on a
        // register basis that is not one power of two along one dim (a generic linear layout may have one).
        let swizzled = |b: &Vec<u64>| {
            let mut nz = b.iter().filter(|&&x| x != 0);
            match (nz.next(), nz.next()) {
                (None, _) => false,
                (Some(x), None) => !x.is_power_of_two(),
                _ => true,
            }
        };
        if self.reg_bases.iter().any(swizzled) {
            return Err(invalid(
                "reg_bases",
                "orderPerDim cannot determine dimension order for swizzled bases (a register basis that is \
                 not one power of two)",
            ));
        }
        super::check_rank("shape", shape.len(), self.rank())?;
        super::cga::check_shape(shape)?;
        let ll = self.base_layout()?;
        let rep: Vec<Dim> = self.register_order().into_iter().map(Dim::dim).collect();
        let ll = ll.transpose_outs(&rep)?;
        let ll = ensure_not_smaller(&ll, shape)?;
        let ll = ensure_not_larger(&ll, shape, false)?;
        ll.transpose_outs(&Dim::standard(self.rank()))
    }
}
