//! `#ttg.dot_op`: operand A (`op_idx` 0, `[M, K]`) or B (`op_idx` 1, `[K, N]`) of a dot, held in
//! registers. The layout depends on the parent: an NVIDIA MMA (the instruction's operand fragment, `k_width`
//! consecutive K elements per register group), an AMD MFMA/WMMA, or a blocked layout (FMA dot: each thread
//! holds the whole K extent). Warps that tile the other operand's dim hold copies (broadcast along K).

use std::sync::Arc;

use crate::layout::{Dim, LinearLayout, Result};

use super::cga::BitTile;
use super::cga::{
    combine_cta_cga_with_shape, identity_standard_nd, matrix_order, permuted_dims, CgaLayout,
};
use super::nvidia_mma::{mma_bit_tile, mma_tile};
use super::{invalid, Encoding};

/// Triton's `DotOperandEncodingAttr` / Gluon's `DotOperandLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DotOperand {
    /// 0 for A, 1 for B.
    pub op_idx: u32,
    /// The parent: the dot's accumulator layout (MMA, MFMA, WMMA) or a blocked layout (FMA).
    pub parent: Arc<Encoding>,
    /// Consecutive K elements per thread (0 for a blocked parent).
    pub k_width: u32,
}

/// Triton's `getOrderForDotOperand(opIdx, rank, kContig)`.
pub(crate) fn order_for_operand(op_idx: u32, rank: usize, k_contig: bool) -> Vec<usize> {
    let row_major = (op_idx == 1) != k_contig;
    matrix_order(rank, row_major)
}

/// Lane or warp layout for an operand: identity along every dim in `order`, zeros (broadcast) along `k_dim`
/// (Triton's `broadcastedDotOperandLayout`).
pub(crate) fn broadcasted_operand_layout(
    sizes: &[u64],
    order: &[usize],
    k_dim: usize,
    in_dim: Dim,
) -> Result<LinearLayout> {
    let mut ll = LinearLayout::empty();
    for &d in order {
        let part = if d == k_dim {
            LinearLayout::zeros_1d(sizes[d], in_dim, Dim::dim(d), 1)?
        } else {
            LinearLayout::identity_1d(sizes[d], in_dim, Dim::dim(d))?
        };
        ll = ll.product(&part)?;
    }
    Ok(ll)
}

impl DotOperand {
    /// Operand `op_idx` of a dot whose accumulator has layout `parent`.
    pub fn new(op_idx: u32, parent: Encoding, k_width: u32) -> DotOperand {
        DotOperand {
            op_idx,
            parent: Arc::new(parent),
            k_width,
        }
    }

    /// The tensor rank (the parent's).
    pub fn rank(&self) -> Result<usize> {
        self.parent.rank()
    }

    /// The CGA layout: the parent's with the K components zeroed.
    pub fn cga_layout(&self) -> Result<CgaLayout> {
        let rank = self.rank()?;
        let k = rank
            .checked_sub(if self.op_idx == 0 { 1 } else { 2 })
            .ok_or_else(|| {
                invalid(
                    "parent",
                    format!("a dot operand needs a parent of rank 2 or 3, got rank {rank}"),
                )
            })?;
        let mut c = self.parent.cga_layout().unwrap_or_default();
        for b in &mut c.bases {
            if let Some(x) = b.get_mut(k) {
                *x = 0;
            }
        }
        Ok(c)
    }

    /// Checks Triton's rules for the parent, `op_idx` and `k_width`.
    pub fn validate(&self) -> Result<()> {
        if self.op_idx > 1 {
            return Err(invalid(
                "operand_index",
                format!(
                    "ttg.dot_op opIdx parameter can be 0 or 1, got: {}",
                    self.op_idx
                ),
            ));
        }
        match &*self.parent {
            Encoding::NvidiaMma(m) => {
                m.validate()?;
                if self.k_width == 0 {
                    return Err(invalid(
                        "k_width",
                        "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent",
                    ));
                }
                if m.is_hopper() && self.op_idx != 0 {
                    return Err(invalid(
                        "operand_index",
                        "ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows first operand to be in registers",
                    ));
                }
                if !self.k_width.is_power_of_two() {
                    return Err(invalid("k_width", "must be a power of two"));
                }
                // Triton 3.9 asserts `m % 8 == 0` (`nvidiaMmaTile`, LinearLayoutConversions.cpp) on the
                // parent's instruction M when it lays out operand 0 (the fuzzer finds no such rule for
                // operand 1), although the operand's own tile does not use it.
                let m_dim = m.rank().checked_sub(2).and_then(|i| m.instr_shape.get(i));
                if self.op_idx == 0 && m_dim.is_some_and(|&x| x % 8 != 0) {
                    return Err(invalid(
                        "parent",
                        "the MMA parent's instruction M must be a multiple of 8 for operand 0 (Triton asserts \
                         m % 8 == 0)",
                    ));
                }
            }
            Encoding::Blocked(b) => {
                b.validate()?;
                if self.k_width != 0 {
                    return Err(invalid(
                        "k_width",
                        "ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout",
                    ));
                }
            }
            Encoding::AmdMfma(m) => {
                m.validate()?;
                if self.k_width == 0 || !self.k_width.is_power_of_two() {
                    return Err(invalid(
                        "k_width",
                        "ttg.dot_op kWidth parameter must be a power of two for an MFMA parent",
                    ));
                }
            }
            Encoding::AmdWmma(m) => {
                m.validate()?;
                // Triton's `DotOperandEncodingAttr::verify` (Dialect.cpp): v1 takes 8 or 16, v2 4, 8 or 16,
                // v3 any non-zero kWidth (the layout then asserts a power of two).
                let ok = match m.version {
                    1 => matches!(self.k_width, 8 | 16),
                    2 => matches!(self.k_width, 4 | 8 | 16),
                    _ => self.k_width != 0 && self.k_width.is_power_of_two(),
                };
                if !ok {
                    let rule = match m.version {
                        1 => "must be 8/16 for WMMA v1",
                        2 => "must be 4/8/16 for WMMA v2",
                        _ => "must be a non-zero power of two for WMMA v3",
                    };
                    return Err(invalid(
                        "k_width",
                        format!("ttg.dot_op kWidth parameter {rule} (including packed cases for `scaled_dot`)"),
                    ));
                }
            }
            other => {
                return Err(invalid(
                    "parent",
                    format!(
                        "ttg.dot_op unexpected parent layout: {}",
                        crate::layout::text::ttgir::print_encoding(other)
                    ),
                ))
            }
        }
        if self.rank()? < 2 {
            return Err(invalid("parent", "a dot operand needs rank >= 2"));
        }
        Ok(())
    }

    /// The linear layout of a tensor of `shape`.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        let rank = self.rank()?;
        super::check_rank_of("shape", shape.len(), rank)?;
        super::cga::check_shape(shape)?;
        let cga = self.cga_layout()?;
        if let (Encoding::NvidiaMma(m), true) = (&*self.parent, cga.is_single()) {
            return self.nvidia_bit_tile(m, rank)?.fit(shape, true);
        }
        let cta = match &*self.parent {
            Encoding::NvidiaMma(m) => self.nvidia_cta(m, rank)?,
            Encoding::Blocked(b) => self.fma_cta(b, rank, shape)?,
            Encoding::AmdMfma(m) => {
                // Triton combines AMD operand layouts with the parent's CGA layout as it is.
                let cta = m.dot_cta(self.op_idx, self.k_width, shape)?;
                return combine_cta_cga_with_shape(&cta, &m.cga_layout, shape);
            }
            Encoding::AmdWmma(m) => {
                return m.dot_to_linear_layout(self.op_idx, self.k_width, &cga, shape);
            }
            _ => return Err(invalid("parent", "unsupported parent")),
        };
        combine_cta_cga_with_shape(&cta, &cga, shape)
    }

    fn nvidia_bit_tile(&self, m: &super::NvidiaMma, rank: usize) -> Result<BitTile> {
        let kw = u64::from(self.k_width);
        let mut tile = vec![1u64; rank];
        if self.op_idx == 0 {
            tile[rank - 2] = 16;
            tile[rank - 1] = kw * 8;
        } else {
            tile[rank - 2] = kw * 8;
            tile[rank - 1] = 8;
        }
        let order = order_for_operand(self.op_idx, rank, true);
        let mut t = mma_bit_tile(&tile, kw, &order, &order)?;
        let k_dim = if self.op_idx == 0 { rank - 1 } else { rank - 2 };
        for d in matrix_order(rank, !m.is_hopper()) {
            let w = u64::from(m.warps_per_cta[d]);
            if d == k_dim {
                t.zeros(Dim::WARP, w)?;
            } else {
                t.identity(Dim::WARP, d, w)?;
            }
        }
        Ok(t)
    }

    fn nvidia_cta(&self, m: &super::NvidiaMma, rank: usize) -> Result<LinearLayout> {
        let kw = u64::from(self.k_width);
        let mut tile = vec![1u64; rank];
        if self.op_idx == 0 {
            tile[rank - 2] = 16;
            tile[rank - 1] = kw * 8;
        } else {
            tile[rank - 2] = kw * 8;
            tile[rank - 1] = 8;
        }
        let order = order_for_operand(self.op_idx, rank, true);
        let cta = mma_tile(&tile, kw, &order, &order)?;
        let k_dim = if self.op_idx == 0 { rank - 1 } else { rank - 2 };
        let warp_order = matrix_order(rank, !m.is_hopper());
        let wpc: Vec<u64> = m.warps_per_cta.iter().map(|&x| u64::from(x)).collect();
        let names: Vec<Dim> = cta.out_dim_names().cloned().collect();
        let warps = broadcasted_operand_layout(&wpc, &warp_order, k_dim, Dim::WARP)?
            .transpose_outs(&names)?;
        cta.product(&warps)
    }

    fn fma_cta(&self, b: &super::Blocked, rank: usize, shape: &[u64]) -> Result<LinearLayout> {
        let order: Vec<usize> = b.order.iter().map(|&o| o as usize).collect();
        let k_dim = if self.op_idx == 0 { rank - 1 } else { rank - 2 };
        let mut spt: Vec<u64> = b.size_per_thread.iter().map(|&x| u64::from(x)).collect();
        spt[k_dim] = shape[k_dim];
        let tpw: Vec<u64> = b.threads_per_warp.iter().map(|&x| u64::from(x)).collect();
        let wpc: Vec<u64> = b.warps_per_cta.iter().map(|&x| u64::from(x)).collect();
        let rep = permuted_dims(&order);
        let regs = identity_standard_nd(Dim::REGISTER, &spt, &order)?.transpose_outs(&rep)?;
        let lanes =
            broadcasted_operand_layout(&tpw, &order, k_dim, Dim::LANE)?.transpose_outs(&rep)?;
        let warps =
            broadcasted_operand_layout(&wpc, &order, k_dim, Dim::WARP)?.transpose_outs(&rep)?;
        regs.product(&lanes)?.product(&warps)
    }
}
