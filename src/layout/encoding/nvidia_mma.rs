//! `#ttg.nvidia_mma`: the accumulator of `mma.sync` (version 2, Ampere) and `wgmma` (version 3, Hopper).
//!
//! One instruction tile: along the inner (N) dim 2 registers then 4 lanes; along the outer (M) dim 8
//! lanes, then M/8 registers; then N/8 more registers along N. Warps tile instruction tiles, row major
//! on Ampere and column major (warpgroups along M) on Hopper.

use crate::layout::{Dim, LinearLayout, Result};

use super::cga::{
    combine_cta_cga_with_shape, identity_standard_nd, matrix_order, BitTile, CgaLayout,
};
use super::{check_pow2_list, check_rank, invalid};

/// Triton's `NvidiaMmaEncodingAttr` / Gluon's `NVMMADistributedLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NvidiaMma {
    /// `[major, minor]`: major 2 (mma.sync) or 3 (wgmma).
    pub version: [u32; 2],
    /// Warps per CTA along each dim.
    pub warps_per_cta: Vec<u32>,
    /// Instruction shape: `[16, 8]` (or `[1, 16, 8]` batched) for v2, `[16, N, K]` for v3.
    pub instr_shape: Vec<u32>,
    /// How CTAs split the tensor.
    pub cga_layout: CgaLayout,
}

/// Builds the register/lane tile of one MMA instruction (Triton's `nvidiaMmaTile`): `tile` is the tile
/// shape per dim, `order[0]` the inner dim, `rep_order` the order of the out dims (and of repetitions).
pub(crate) fn mma_tile(
    tile: &[u64],
    k_width: u64,
    order: &[usize],
    rep_order: &[usize],
) -> Result<LinearLayout> {
    let ones = vec![1u64; rep_order.len()];
    let base = identity_standard_nd(Dim::REGISTER, &ones, rep_order)?;
    let (inner, outer) = (order[0], order[1]);
    let m = tile[outer];
    let n = tile[inner];
    if !m.is_multiple_of(8) {
        return Err(invalid(
            "instr_shape",
            format!("the M extent {m} of the tile must be a multiple of 8"),
        ));
    }
    if !n.is_multiple_of(k_width * 4) {
        return Err(invalid(
            "instr_shape",
            format!(
                "the N extent {n} of the tile must be a multiple of {} (4 lanes x k_width)",
                k_width * 4
            ),
        ));
    }
    let parts = [
        LinearLayout::identity_1d(k_width, Dim::REGISTER, Dim::dim(inner))?,
        LinearLayout::identity_1d(4, Dim::LANE, Dim::dim(inner))?,
        LinearLayout::identity_1d(8, Dim::LANE, Dim::dim(outer))?,
        LinearLayout::identity_1d(m / 8, Dim::REGISTER, Dim::dim(outer))?,
        LinearLayout::identity_1d(n / (k_width * 4), Dim::REGISTER, Dim::dim(inner))?,
    ];
    let mut ll = base;
    for p in &parts {
        ll = ll.product(p)?;
    }
    Ok(ll)
}

/// [`mma_tile`] as single-bit bases.
pub(crate) fn mma_bit_tile(
    tile: &[u64],
    k_width: u64,
    order: &[usize],
    rep_order: &[usize],
) -> Result<BitTile> {
    let (inner, outer) = (order[0], order[1]);
    let (m, n) = (tile[outer], tile[inner]);
    if m % 8 != 0 || n % (k_width * 4) != 0 {
        // Let the generic path word the error.
        mma_tile(tile, k_width, order, rep_order)?;
    }
    let mut t = BitTile::new(rep_order);
    t.identity(Dim::REGISTER, inner, k_width)?;
    t.identity(Dim::LANE, inner, 4)?;
    t.identity(Dim::LANE, outer, 8)?;
    t.identity(Dim::REGISTER, outer, m / 8)?;
    t.identity(Dim::REGISTER, inner, n / (k_width * 4))?;
    Ok(t)
}

impl NvidiaMma {
    /// An Ampere (`mma.sync`) accumulator layout with instruction tile 16x8.
    pub fn ampere(warps_per_cta: &[u32]) -> NvidiaMma {
        let mut instr = vec![1u32; warps_per_cta.len().saturating_sub(2)];
        instr.extend([16, 8]);
        NvidiaMma {
            version: [2, 0],
            warps_per_cta: warps_per_cta.to_vec(),
            instr_shape: instr,
            cga_layout: CgaLayout::single(),
        }
    }

    /// A Hopper (`wgmma`) accumulator layout with instruction shape `[16, n, k]`.
    pub fn hopper(warps_per_cta: &[u32], n: u32, k: u32) -> NvidiaMma {
        NvidiaMma {
            version: [3, 0],
            warps_per_cta: warps_per_cta.to_vec(),
            instr_shape: vec![16, n, k],
            cga_layout: CgaLayout::single(),
        }
    }

    /// True for version 3 (wgmma).
    pub fn is_hopper(&self) -> bool {
        self.version[0] == 3
    }

    /// The tensor rank.
    pub fn rank(&self) -> usize {
        self.warps_per_cta.len()
    }

    /// Checks Triton's rules: version 2 or 3, instruction shape, powers of two.
    pub fn validate(&self) -> Result<()> {
        match self.version[0] {
            1 => {
                return Err(invalid(
                    "version",
                    "Volta (versionMajor = 1) is deprecated and no longer supported",
                ))
            }
            2 | 3 => {}
            v => {
                return Err(invalid(
                    "version",
                    format!("versionMajor must be 2 (Ampere) or 3 (Hopper), got {v}"),
                ))
            }
        }
        let rank = self.rank();
        if rank < 2 {
            return Err(invalid("warps_per_cta", "an MMA layout needs rank >= 2"));
        }
        check_pow2_list("warps_per_cta", &self.warps_per_cta)?;
        if self.is_hopper() && rank != 2 {
            return Err(invalid("warps_per_cta", "wgmma layouts are rank 2"));
        }
        if !self.cga_layout.is_single() {
            self.cga_layout.to_linear_layout(rank)?;
        }
        Ok(())
    }

    /// The instruction shape has the entries the layout reads: `[M, N, …]` for wgmma (Triton reads the first
    /// two), one per dim for mma.sync. Triton's attribute verifier does not check it (a dot operand, whose
    /// layout never reads it, takes any), so this is checked where the MMA layout itself is built.
    pub fn check_instr_shape(&self) -> Result<()> {
        if self.is_hopper() {
            if self.instr_shape.len() < 2 {
                return Err(invalid(
                    "instr_shape",
                    format!(
                        "has {} entries; wgmma needs [M, N, K]",
                        self.instr_shape.len()
                    ),
                ));
            }
            Ok(())
        } else {
            check_rank("instr_shape", self.instr_shape.len(), self.rank())
        }
    }

    /// The layout of one CTA.
    pub(crate) fn cta_layout(&self) -> Result<LinearLayout> {
        let rank = self.rank();
        let tile: Vec<u64> = if self.is_hopper() {
            self.instr_shape[..2]
                .iter()
                .map(|&x| u64::from(x))
                .collect()
        } else {
            self.instr_shape.iter().map(|&x| u64::from(x)).collect()
        };
        for (i, &t) in tile.iter().enumerate() {
            if !t.is_power_of_two() {
                return Err(invalid(
                    "instr_shape",
                    format!("entry {i} ({t}) must be a power of two to form a linear layout"),
                ));
            }
        }
        let order = matrix_order(rank, true);
        let cta = mma_tile(&tile, 2, &order, &order)?;
        let warp_order = matrix_order(rank, !self.is_hopper());
        let wpc: Vec<u64> = self.warps_per_cta.iter().map(|&x| u64::from(x)).collect();
        let names: Vec<Dim> = cta.out_dim_names().cloned().collect();
        let warps = identity_standard_nd(Dim::WARP, &wpc, &warp_order)?.transpose_outs(&names)?;
        cta.product(&warps)
    }

    /// The CTA layout as single-bit bases (the fast path for one CTA).
    fn bit_tile(&self) -> Result<BitTile> {
        let rank = self.rank();
        let tile: Vec<u64> = self.instr_shape[..if self.is_hopper() { 2 } else { rank }]
            .iter()
            .map(|&x| u64::from(x))
            .collect();
        let order = matrix_order(rank, true);
        let mut t = mma_bit_tile(&tile, 2, &order, &order)?;
        for d in matrix_order(rank, !self.is_hopper()) {
            t.identity(Dim::WARP, d, u64::from(self.warps_per_cta[d]))?;
        }
        Ok(t)
    }

    /// The linear layout of a tensor of `shape`.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        self.check_instr_shape()?;
        check_rank("shape", shape.len(), self.rank())?;
        if self.cga_layout.is_single() {
            return self.bit_tile()?.fit(shape, true);
        }
        combine_cta_cga_with_shape(&self.cta_layout()?, &self.cga_layout, shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The single-CTA fast path equals the generic construction for every v2/v3 tile and warp split.
    #[test]
    fn fast_path_equals_generic() {
        let warps = [[1u32, 1], [2, 1], [1, 4], [2, 2], [8, 1], [4, 2]];
        let mut layouts: Vec<NvidiaMma> = warps.iter().map(|w| NvidiaMma::ampere(w)).collect();
        for n in [8u32, 16, 32, 64, 128, 256] {
            layouts.push(NvidiaMma::hopper(&[4, 1], n, 16));
            layouts.push(NvidiaMma::hopper(&[4, 2], n, 16));
        }
        for m in layouts {
            let cta = m.cta_layout().unwrap();
            for l0 in 0..9 {
                for l1 in 0..9 {
                    let shape = [1u64 << l0, 1u64 << l1];
                    let slow = combine_cta_cga_with_shape(&cta, &m.cga_layout, &shape).unwrap();
                    assert_eq!(m.to_linear_layout(&shape).unwrap(), slow, "{m:?} {shape:?}");
                }
            }
        }
    }
}
