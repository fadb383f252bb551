//! `#ttg.amd_mfma`: the accumulator of AMD's MFMA instructions (CDNA 1–4, 64-lane wavefronts).
//!
//! Each lane holds `height` (4, or 1 for 64-bit elements) consecutive elements along M (along N when
//! transposed); lanes run N first, then the rest of the wavefront along M. Tiles are then laid out
//! N-contiguous across the whole tensor, as Triton's MFMA dot lowering expects.

use crate::layout::{Dim, LinearLayout, Result};

use super::cga::{combine_cta_cga_with_shape, identity_standard_nd, matrix_order, CgaLayout};
use super::dot_operand::order_for_operand;
use super::{check_pow2_list, check_rank, invalid};

const WAVE: u64 = 64;

/// Triton's `AMDMfmaEncodingAttr` / Gluon's `AMDMFMALayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AmdMfma {
    /// 1 (gfx908) … 4 (gfx950).
    pub version: u32,
    /// `[M, N, K]` of the instruction: M×N one of 32×32, 16×16, 64×4, 4×64. K is 0 for Triton 3.5's TTGIR,
    /// which printed `[M, N]` (no layout reads K).
    pub instr_shape: Vec<u32>,
    /// Lanes hold consecutive elements along N instead of M.
    pub transposed: bool,
    /// Warps per CTA along each dim.
    pub warps_per_cta: Vec<u32>,
    /// 32 or 64 (64-bit results hold one element per lane and tile row).
    pub element_bitwidth: u32,
    /// MFMA tiles per warp along each dim.
    pub tiles_per_warp: Vec<u32>,
    /// How CTAs split the tensor.
    pub cga_layout: CgaLayout,
}

impl AmdMfma {
    /// An MFMA layout with 32-bit elements, one tile per warp and one CTA.
    pub fn new(version: u32, instr_shape: &[u32], transposed: bool, warps: &[u32]) -> AmdMfma {
        AmdMfma {
            version,
            instr_shape: instr_shape.to_vec(),
            transposed,
            warps_per_cta: warps.to_vec(),
            element_bitwidth: 32,
            tiles_per_warp: vec![1; warps.len()],
            cga_layout: CgaLayout::single(),
        }
    }

    /// The tensor rank.
    pub fn rank(&self) -> usize {
        self.warps_per_cta.len()
    }

    /// Checks Triton's rules.
    pub fn validate(&self) -> Result<()> {
        if !(1..=4).contains(&self.version) {
            return Err(invalid("version", "version must be in the [1, 4] range"));
        }
        if self.instr_shape.len() != 3 {
            return Err(invalid(
                "instr_shape",
                "instr_shape must follow the (M, N, K) format",
            ));
        }
        let mn = (self.instr_shape[0], self.instr_shape[1]);
        if !matches!(mn, (32, 32) | (16, 16) | (64, 4) | (4, 64)) {
            return Err(invalid(
                "instr_shape",
                format!(
                    "invalid intrinsic shape {}: M x N must be 32x32, 16x16, 64x4 or 4x64",
                    crate::layout::error::cut_list(&self.instr_shape)
                ),
            ));
        }
        if !matches!(self.element_bitwidth, 32 | 64) {
            return Err(invalid(
                "element_bitwidth",
                "element bitwidth must be 32 or 64",
            ));
        }
        let rank = self.rank();
        if !(2..=3).contains(&rank) {
            return Err(invalid("warps_per_cta", "an MFMA layout has rank 2 or 3"));
        }
        check_rank("tiles_per_warp", self.tiles_per_warp.len(), rank)?;
        check_pow2_list("warps_per_cta", &self.warps_per_cta)?;

        self.cga_layout.to_linear_layout(rank)?;
        Ok(())
    }

    fn cta_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        let rank = self.rank();
        let batch = rank == 3;
        let (mi, ni) = (usize::from(batch), 1 + usize::from(batch));
        let order = matrix_order(rank, true);
        let dim_m = Dim::dim(order[1]);
        let dim_n = Dim::dim(order[0]);
        let m = u64::from(self.instr_shape[0]);
        let n = u64::from(self.instr_shape[1]);
        let height: u64 = if self.element_bitwidth == 64 { 1 } else { 4 };
        let tiles = (m * n) / (WAVE * height);
        let id = |size: u64, i: Dim, o: &Dim| LinearLayout::identity_1d(size, i, *o);
        let mut tile = if !self.transposed {
            let regs = id(height, Dim::REGISTER, &dim_m)?;
            let lanes = id(n, Dim::LANE, &dim_n)?.product(&id(WAVE / n, Dim::LANE, &dim_m)?)?;
            let mut t = regs.product(&lanes)?;
            if tiles > 0 {
                t = t.product(&id(tiles, Dim::REGISTER, &dim_m)?)?;
            }
            t
        } else {
            let regs = id(height, Dim::REGISTER, &dim_n)?;
            let lanes = id(m, Dim::LANE, &dim_m)?.product(&id(WAVE / m, Dim::LANE, &dim_n)?)?;
            let mut t = regs.product(&lanes)?;
            if tiles > 0 {
                t = t.product(&id(tiles, Dim::REGISTER, &dim_n)?)?;
            }
            t
        };
        tile = tile.transpose_outs(&[dim_n, dim_m])?;
        let tpw_m = u64::from(self.tiles_per_warp[mi]);
        let tpw_n = u64::from(self.tiles_per_warp[ni]);
        let wpc_m = u64::from(self.warps_per_cta[mi]);
        let wpc_n = u64::from(self.warps_per_cta[ni]);
        tile = tile.product(&id(tpw_n, Dim::REGISTER, &dim_n)?)?;
        tile = tile.product(&id(wpc_n, Dim::WARP, &dim_n)?)?;
        let rest_n = shape[ni] / (n * wpc_n * tpw_n);
        tile = tile.product(&id(rest_n, Dim::REGISTER, &dim_n)?)?;
        tile = tile.product(&id(tpw_m, Dim::REGISTER, &dim_m)?)?;
        tile = tile.product(&id(wpc_m, Dim::WARP, &dim_m)?)?;
        if batch {
            let b = Dim::dim(order[2]);
            tile = tile.product(&id(1, Dim::REGISTER, &b)?)?;
            tile = tile.product(&id(1, Dim::LANE, &b)?)?;
            tile = tile.product(&id(u64::from(self.warps_per_cta[0]), Dim::WARP, &b)?)?;
        }
        Ok(tile)
    }

    /// The linear layout of a tensor of `shape`.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        // Not a rule of the attribute: Triton's `AMDMfmaEncodingAttr::toLinearLayout`
        // (LinearLayoutConversions.cpp) asserts it, so a dot operand of such a parent is still laid out.
        if (self.instr_shape[0], self.instr_shape[1]) == (64, 4) && !self.transposed {
            return Err(invalid("transposed", "64x4 mfma must be transposed"));
        }
        // Triton reads `tilesPerWarp` along M and N only (`AMDMfmaEncodingAttr::toLinearLayout`; a dot
        // operand reads its non-K entry alone), so only those must be powers of two.
        let rank = self.rank();
        check_pow2_list("tiles_per_warp", &self.tiles_per_warp[rank - 2..])?;
        check_rank("shape", shape.len(), self.rank())?;
        super::cga::check_shape(shape)?;
        combine_cta_cga_with_shape(&self.cta_layout(shape)?, &self.cga_layout, shape)
    }

    /// The CTA layout of operand `op_idx` of an MFMA dot (Triton's `mfmaDotToLinearLayout`), out dims in
    /// `[k, non-k, batch]` order.
    pub(crate) fn dot_cta(&self, op_idx: u32, k_width: u32, shape: &[u64]) -> Result<LinearLayout> {
        let rank = shape.len();
        let batch = rank == 3;
        let non_k_idx = if op_idx == 0 { rank - 2 } else { rank - 1 };
        let k_idx = if op_idx == 0 { rank - 1 } else { rank - 2 };
        let m = u64::from(self.instr_shape[0]);
        let n = u64::from(self.instr_shape[1]);
        let non_k = if op_idx == 0 { m } else { n };
        let order = order_for_operand(op_idx, rank, true);
        let dim_k = Dim::dim(order[0]);
        let dim_nk = Dim::dim(order[1]);
        let id = |size: u64, i: Dim, o: &Dim| LinearLayout::identity_1d(size, i, *o);
        let kw = u64::from(k_width);
        let regs = id(kw, Dim::REGISTER, &dim_k)?;
        let lanes =
            id(non_k, Dim::LANE, &dim_nk)?.product(&id(WAVE / non_k, Dim::LANE, &dim_k)?)?;
        let mut tile = regs.product(&lanes)?;
        let mut k_tile = WAVE / non_k * kw;
        if (m == 64 && n == 4 && op_idx == 0) || (m == 4 && n == 64 && op_idx == 1) {
            tile = tile.product(&id(16, Dim::REGISTER, &dim_k)?)?;
            k_tile *= 16;
        }
        let k_size = shape[k_idx];
        if k_size > k_tile {
            tile = tile.product(&id(k_size / k_tile, Dim::REGISTER, &dim_k)?)?;
        }
        check_pow2_list(
            "tiles_per_warp",
            &self.tiles_per_warp[non_k_idx..=non_k_idx],
        )?;
        tile = tile.product(&id(
            u64::from(self.tiles_per_warp[non_k_idx]),
            Dim::REGISTER,
            &dim_nk,
        )?)?;
        tile = tile.transpose_outs(&[dim_k, dim_nk])?;
        if batch {
            let b = Dim::dim(order[2]);
            tile = tile.product(&id(1, Dim::REGISTER, &b)?)?;
            tile = tile.product(&id(1, Dim::LANE, &b)?)?;
        }
        let wpc: Vec<u64> = self.warps_per_cta.iter().map(|&x| u64::from(x)).collect();
        let warps = identity_standard_nd(Dim::WARP, &wpc, &matrix_order(rank, true))?;
        // Triton's `mfmaDotToLinearLayout` (LinearLayoutConversions.cpp) puts the tile's and the warps' out
        // dims both in the operand's order (k, non-k, batch) before multiplying (the warps come in the MFMA's
        // warp order, which differs for operand 1); `combine_cta_cga_with_shape` then repeats registers over
        // the tensor in that order.
        let rep_names: Vec<Dim> = order.iter().map(|&d| Dim::dim(d)).collect();
        tile.transpose_outs(&rep_names)?
            .product(&warps.transpose_outs(&rep_names)?)
    }
}
