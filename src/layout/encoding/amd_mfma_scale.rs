//! The register layout of the block scales of a CDNA4 scaled MFMA (`v_mfma_scale_f32_{32x32x64,16x16x128}
//! _f8f6f4`): Gluon's `amd.cdna4.get_mfma_scale_layout`, Triton 3.9's `chooseScaledMfmaScaleLayout`.
//!
//! A scale tensor is `[M, K / 32]` for A and `[N, K / 32]` for B. Each lane of the MFMA reads 32 operand
//! elements along K and so needs one scale: the lanes of one K group hold the M (or N) rows of the
//! instruction, the next lane bits step along K; further K scales go to registers, then the instruction's
//! second tile along M/N when `tilesPerWarp` asks for it; warps tile M/N as the MFMA layout's warps do.

use crate::layout::{Bases, Dim, LinearLayout, Result};

use super::cga::{combine_cta_cga_with_shape, CgaLayout};
use super::{invalid, DistributedLinear};

/// The scale layout for operand `op_idx` (0 = A, 1 = B) of an MFMA with `m_dim`-row instructions (16 or
/// 32), `tiles_per_warp` and `warps_per_cta` of the MFMA layout, for a scale tensor of `shape`
/// (`[M or N, K / 32]`).
pub fn amd_mfma_scale_layout(
    op_idx: u32,
    shape: &[u64],
    m_dim: u32,
    tiles_per_warp: &[u32],
    warps_per_cta: &[u32],
) -> Result<DistributedLinear> {
    if op_idx > 1 {
        return Err(invalid(
            "op_idx",
            format!("operand index must be 0 or 1, got {op_idx}"),
        ));
    }
    if shape.len() != 2 || tiles_per_warp.len() != 2 || warps_per_cta.len() != 2 {
        return Err(invalid(
            "shape",
            "scaled MFMA scale layouts are rank 2 (shape, tiles_per_warp and warps_per_cta)",
        ));
    }
    super::cga::check_shape(shape)?;
    super::check_pow2_list("warps_per_cta", warps_per_cta)?;
    let mn_tiles = tiles_per_warp[op_idx as usize];
    if mn_tiles != 1 && mn_tiles != 2 {
        return Err(invalid(
            "tiles_per_warp",
            "TilesPerWarp > 2 is not supported",
        ));
    }
    // Bases below are written (K, M/N): out dims `dim1, dim0`.
    let (k_lanes, lanes): (u64, Bases) = match m_dim {
        32 => (
            2,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 4],
                vec![0, 8],
                vec![0, 16],
                vec![1, 0],
            ],
        ),
        16 => (
            4,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 4],
                vec![0, 8],
                vec![1, 0],
                vec![2, 0],
            ],
        ),
        other => {
            return Err(invalid(
                "m_dim",
                format!("the MFMA M dim must be 16 or 32, got {other}"),
            ))
        }
    };
    let k_size = shape[1];
    let mut regs: Bases = Vec::new();
    let mut k = k_lanes;
    while k < k_size {
        regs.push(vec![k, 0]);
        k *= 2;
    }
    let mut mn = u64::from(m_dim);
    while mn < u64::from(mn_tiles) * u64::from(m_dim) {
        regs.push(vec![0, mn]);
        mn *= 2;
    }
    let tile = LinearLayout::from_bases_inferred(
        [(Dim::REGISTER, regs), (Dim::LANE, lanes)],
        [Dim::dim(1), Dim::dim(0)],
    )?
    .transpose_outs(&Dim::standard(2))?;
    // Warps: for A along K (dim 1) first, then M; for B along N (dim 0) first, then K.
    let (w0, w1) = (u64::from(warps_per_cta[0]), u64::from(warps_per_cta[1]));
    let warps = if op_idx == 0 {
        [(Dim::dim(1), w1), (Dim::dim(0), w0)]
    } else {
        [(Dim::dim(0), w1), (Dim::dim(1), w0)]
    };
    let warp = (&LinearLayout::identity_1d(warps[0].1, Dim::WARP, warps[0].0)?
        * &LinearLayout::identity_1d(warps[1].1, Dim::WARP, warps[1].0)?)?
        .transpose_outs(&Dim::standard(2))?;
    let cta = (&tile * &warp)?;
    let ll = combine_cta_cga_with_shape(&cta, &CgaLayout::single(), shape)?;
    DistributedLinear::from_linear_layout(&ll)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scales_of_a_32_row_mfma_put_rows_on_lanes_and_k_groups_on_the_top_lane() {
        let l = amd_mfma_scale_layout(0, &[32, 2], 32, &[1, 1], &[1, 1]).unwrap();
        let rows: Bases = (0..5).map(|i| vec![1u64 << i, 0]).collect();
        assert_eq!(&l.lane_bases[..5], &rows[..]);
        assert_eq!(l.lane_bases[5], vec![0, 1]);
        assert!(l.reg_bases.is_empty());
    }

    #[test]
    fn bad_arguments_are_typed_errors() {
        assert!(amd_mfma_scale_layout(2, &[32, 2], 32, &[1, 1], &[1, 1]).is_err());
        assert!(amd_mfma_scale_layout(0, &[32, 2], 64, &[1, 1], &[1, 1]).is_err());
        assert!(amd_mfma_scale_layout(0, &[32, 2], 32, &[4, 1], &[1, 1]).is_err());
        assert!(amd_mfma_scale_layout(0, &[32, 3], 32, &[1, 1], &[1, 1]).is_err());
    }
}
