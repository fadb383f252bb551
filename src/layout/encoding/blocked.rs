//! `#ttg.blocked`: each thread holds a `size_per_thread` block, lanes and warps tile those blocks, all
//! filling dims in `order` (most minor first).

use crate::layout::{Dim, LinearLayout, Result};

use super::cga::{combine_with, identity_standard_nd, BitTile, CgaLayout};
use super::{check_order, check_pow2_list, check_rank, invalid};

/// Triton's `BlockedEncodingAttr` / Gluon's `BlockedLayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Blocked {
    /// Elements per thread along each dim.
    pub size_per_thread: Vec<u32>,
    /// Lanes per warp along each dim (product 32, or 64 on CDNA).
    pub threads_per_warp: Vec<u32>,
    /// Warps per CTA along each dim.
    pub warps_per_cta: Vec<u32>,
    /// Dims from most minor to most major.
    pub order: Vec<u32>,
    /// How CTAs split the tensor.
    pub cga_layout: CgaLayout,
}

impl Blocked {
    /// A single-CTA blocked layout.
    pub fn new(spt: &[u32], tpw: &[u32], wpc: &[u32], order: &[u32]) -> Blocked {
        Blocked {
            size_per_thread: spt.to_vec(),
            threads_per_warp: tpw.to_vec(),
            warps_per_cta: wpc.to_vec(),
            order: order.to_vec(),
            cga_layout: CgaLayout::single(),
        }
    }

    /// The tensor rank.
    pub fn rank(&self) -> usize {
        self.order.len()
    }

    /// Checks Triton's rules: equal ranks, powers of two, `order` a permutation, CGA bases of the rank.
    pub fn validate(&self) -> Result<()> {
        let rank = self.size_per_thread.len();
        check_rank("threads_per_warp", self.threads_per_warp.len(), rank)?;
        check_rank("warps_per_cta", self.warps_per_cta.len(), rank)?;
        check_rank("order", self.order.len(), rank)?;
        if rank == 0 {
            return Err(invalid(
                "size_per_thread",
                "a blocked layout needs rank >= 1",
            ));
        }
        check_order("order", &self.order)?;
        check_pow2_list("size_per_thread", &self.size_per_thread)?;
        check_pow2_list("threads_per_warp", &self.threads_per_warp)?;
        check_pow2_list("warps_per_cta", &self.warps_per_cta)?;
        if !self.cga_layout.is_single() {
            self.cga_layout.to_linear_layout(rank)?;
        }
        Ok(())
    }

    /// The layout of one CTA before fitting it to a shape (register, lane, warp → dims in `order`).
    pub(crate) fn cta_layout(&self) -> Result<LinearLayout> {
        let order: Vec<usize> = self.order.iter().map(|&o| o as usize).collect();
        let as64 = |v: &[u32]| v.iter().map(|&x| u64::from(x)).collect::<Vec<_>>();
        let regs = identity_standard_nd(Dim::REGISTER, &as64(&self.size_per_thread), &order)?;
        let lanes = identity_standard_nd(Dim::LANE, &as64(&self.threads_per_warp), &order)?;
        let warps = identity_standard_nd(Dim::WARP, &as64(&self.warps_per_cta), &order)?;
        regs.product(&lanes)?.product(&warps)
    }

    /// The CTA layout as single-bit bases (the fast path for one CTA).
    fn bit_tile(&self) -> Result<BitTile> {
        let order: Vec<usize> = self.order.iter().map(|&o| o as usize).collect();
        let mut t = BitTile::new(&order);
        for (dim, sizes) in [
            (Dim::REGISTER, &self.size_per_thread),
            (Dim::LANE, &self.threads_per_warp),
            (Dim::WARP, &self.warps_per_cta),
        ] {
            for &d in &order {
                t.identity(dim, d, u64::from(sizes[d]))?;
            }
        }
        Ok(t)
    }

    /// The linear layout of a tensor of `shape` (validated first).
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        check_rank("shape", shape.len(), self.rank())?;
        if self.cga_layout.is_single() {
            return self.bit_tile()?.fit(shape, false);
        }
        combine_with(&self.cta_layout()?, &self.cga_layout, shape, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The single-CTA fast path equals Triton's generic construction, over every rank-2 blocked layout with
    /// small parameters and every shape from 1x1 to 128x128.
    #[test]
    fn fast_path_equals_generic_exhaustively() {
        let pows = [1u32, 2, 4, 8];
        let splits = [[1u32, 32], [2, 16], [4, 8], [8, 4], [32, 1]];
        let warps = [[1u32, 1], [2, 1], [1, 4], [2, 2], [8, 1]];
        let mut n = 0;
        for s0 in pows {
            for s1 in pows {
                for tpw in splits {
                    for wpc in warps {
                        for order in [[1u32, 0], [0, 1]] {
                            let b = Blocked::new(&[s0, s1], &tpw, &wpc, &order);
                            let cta = b.cta_layout().unwrap();
                            for l0 in 0..8 {
                                for l1 in [0u32, 3, 7] {
                                    let shape = [1u64 << l0, 1u64 << l1];
                                    let fast = b.to_linear_layout(&shape).unwrap();
                                    let slow =
                                        combine_with(&cta, &b.cga_layout, &shape, false).unwrap();
                                    assert_eq!(fast, slow, "{b:?} {shape:?}");
                                    n += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(n > 10000);
    }
}
