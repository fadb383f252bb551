//! `#ttg.amd_wmma`: the accumulator of AMD's WMMA instructions (RDNA3 = version 1, RDNA4 = 2, gfx1250 =
//! 3; 32-lane waves). The instruction tile is fixed per version; how warps (and extra register tiles) are
//! placed is an explicit linear layout (`ctaLayout = {register = …, warp = …}` in TTGIR).

use crate::layout::{Bases, Dim, LinearLayout, Result};

use super::cga::{combine_cta_cga_with_shape, matrix_order, CgaLayout};
use super::dot_operand::order_for_operand;
use super::{check_rank, invalid};

/// Triton's `AMDWmmaEncodingAttr` / Gluon's `AMDWMMALayout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AmdWmma {
    /// 1 (RDNA3), 2 (RDNA4), 3 (gfx1250).
    pub version: u32,
    /// Lanes hold consecutive elements along N instead of M.
    pub transposed: bool,
    /// Warp bases of the CTA layout (tensor offsets of warp `2^i`).
    pub warp_bases: Bases,
    /// Register (repetition) bases of the CTA layout.
    pub reg_bases: Bases,
    /// `[M, N, K]` of the instruction.
    pub instr_shape: Vec<u32>,
    /// How CTAs split the tensor.
    pub cga_layout: CgaLayout,
    /// Tensor rank.
    pub rank: usize,
}

impl AmdWmma {
    /// True when `instr_shape` is an instruction of this version.
    fn legal_instr(&self) -> bool {
        let s = &self.instr_shape;
        match self.version {
            1 => s == &[16, 16, 16],
            2 => s == &[16, 16, 16] || s == &[16, 16, 32],
            _ => matches!(s.as_slice(), [16, 16, 4 | 32 | 64 | 128] | [32, 16, 128]),
        }
    }

    /// Checks Triton's rules.
    pub fn validate(&self) -> Result<()> {
        if !(1..=3).contains(&self.version) {
            return Err(invalid("version", "version must be in the [1, 3] range"));
        }
        if !(2..=3).contains(&self.rank) {
            return Err(invalid("rank", "a WMMA layout has rank 2 or 3"));
        }
        for (what, bases) in [
            ("warp_bases", &self.warp_bases),
            ("reg_bases", &self.reg_bases),
        ] {
            if bases.iter().any(|b| b.len() != self.rank) {
                return Err(invalid(what, format!("{what} basis rank mismatch")));
            }
        }
        if self.instr_shape.len() != 3 || !self.legal_instr() {
            return Err(invalid(
                "instr_shape",
                format!(
                    "invalid WMMA v{} instruction shape {}",
                    self.version,
                    crate::layout::error::cut_list(&self.instr_shape)
                ),
            ));
        }
        self.cga_layout.to_linear_layout(self.rank)?;
        self.cta_bases()?;
        Ok(())
    }

    /// The explicit CTA layout (register and warp bases) as a linear layout onto `dim0..`.
    fn cta_bases(&self) -> Result<LinearLayout> {
        LinearLayout::from_bases_inferred(
            [
                (Dim::REGISTER, self.reg_bases.clone()),
                (Dim::WARP, self.warp_bases.clone()),
            ],
            Dim::standard(self.rank),
        )
        .map_err(|e| invalid("warp_bases", format!("not a valid CTA layout: {e}")))
    }

    /// Warps per CTA along each dim, read off the warp bases.
    pub fn warps_per_cta(&self) -> Vec<u64> {
        let mut w = vec![1u64; self.rank];
        for b in &self.warp_bases {
            for (d, &x) in b.iter().enumerate() {
                if x != 0 {
                    w[d] *= 2;
                }
            }
        }
        w
    }

    fn tile(&self) -> Result<LinearLayout> {
        let rank = self.rank;
        let order = matrix_order(rank, !self.transposed);
        let names = [Dim::dim(order[0]), Dim::dim(order[1])];
        let m = self.instr_shape[0];
        let (regs, lanes): (Bases, Bases) = if self.version == 1 {
            (
                vec![vec![0, 2], vec![0, 4], vec![0, 8]],
                vec![vec![1, 0], vec![2, 0], vec![4, 0], vec![8, 0], vec![0, 1]],
            )
        } else {
            let mut r = vec![vec![0, 1], vec![0, 2], vec![0, 4]];
            if m == 32 {
                r.push(vec![0, 16]);
            }
            (
                r,
                vec![vec![1, 0], vec![2, 0], vec![4, 0], vec![8, 0], vec![0, 8]],
            )
        };
        let mut t =
            LinearLayout::from_bases_inferred([(Dim::REGISTER, regs), (Dim::LANE, lanes)], names)?;
        if rank == 3 {
            t = t.product(&LinearLayout::identity_1d(1, Dim::REGISTER, Dim::dim(0))?)?;
            t = t.product(&LinearLayout::identity_1d(1, Dim::LANE, Dim::dim(0))?)?;
        }
        Ok(t)
    }

    /// The linear layout of a tensor of `shape`.
    pub fn to_linear_layout(&self, shape: &[u64]) -> Result<LinearLayout> {
        self.validate()?;
        super::check_rank("shape", shape.len(), self.rank)?;
        super::cga::check_shape(shape)?;
        let tile = self.tile()?;
        let rep = matrix_order(self.rank, true);
        let rep_names: Vec<Dim> = rep.iter().map(|&d| Dim::dim(d)).collect();
        let cta = tile
            .transpose_outs(&rep_names)?
            .product(&self.cta_bases()?.transpose_outs(&rep_names)?)?;
        combine_cta_cga_with_shape(&cta, &self.cga_layout, shape)
    }

    /// The layout of operand `op_idx` of a WMMA dot (Triton's `wmmaDotOperandToLinearLayout` in
    /// LinearLayoutConversions.cpp): a tile of `k_width` registers and 16 lanes along the non-K dim, two
    /// lane groups along K (version 1 duplicates them), register repeats up to the instruction's K (none
    /// when `k_width` already covers it) and, for 32-row instructions, along the non-K dim; then the
    /// parent's own CTA layout (register and warp bases, in their order) with the K component of every
    /// basis projected away and the registers that became zero dropped.
    pub(crate) fn dot_to_linear_layout(
        &self,
        op_idx: u32,
        k_width: u32,
        cga: &CgaLayout,
        shape: &[u64],
    ) -> Result<LinearLayout> {
        let rank = shape.len();
        check_rank("shape", rank, self.rank)?;
        let order = order_for_operand(op_idx, rank, true);
        let dim_k = Dim::dim(order[0]);
        let dim_nk = Dim::dim(order[1]);
        let k = u64::from(self.instr_shape[2]);
        let non_k = u64::from(if op_idx == 0 {
            self.instr_shape[0]
        } else {
            self.instr_shape[1]
        });
        if !k_width.is_power_of_two() {
            return Err(invalid(
                "k_width",
                format!("k_width {k_width} must be a power of two (Triton asserts it)"),
            ));
        }
        const TILE: u64 = 16;
        let depth = 32 / TILE;
        let kw = u64::from(k_width);
        let id = |size: u64, i: Dim, o: &Dim| LinearLayout::identity_1d(size, i, *o);
        let mut tile = id(kw, Dim::REGISTER, &dim_k)?.product(&id(TILE, Dim::LANE, &dim_nk)?)?;
        tile = tile.product(&if self.version == 1 {
            LinearLayout::zeros_1d(depth, Dim::LANE, dim_k, 1)?
        } else {
            id(depth, Dim::LANE, &dim_k)?
        })?;
        let reps = k / (depth * kw);
        if reps > 1 {
            tile = tile.product(&id(reps, Dim::REGISTER, &dim_k)?)?;
        }
        if non_k > TILE {
            tile = tile.product(&id(non_k / TILE, Dim::REGISTER, &dim_nk)?)?;
        }
        if rank == 3 {
            let b = Dim::dim(order[2]);
            tile = tile.product(&id(1, Dim::REGISTER, &b)?)?;
            tile = tile.product(&id(1, Dim::LANE, &b)?)?;
        }
        let k_idx = if op_idx == 0 { rank - 1 } else { rank - 2 };
        let project = |bases: &Bases| -> Bases {
            bases
                .iter()
                .map(|b| {
                    let mut b = b.clone();
                    b[k_idx] = 0;
                    b
                })
                .collect()
        };
        let regs: Bases = project(&self.reg_bases)
            .into_iter()
            .filter(|b| b.iter().any(|&x| x != 0))
            .collect();
        let cta = LinearLayout::from_bases_inferred(
            [
                (Dim::REGISTER, regs),
                (Dim::WARP, project(&self.warp_bases)),
            ],
            Dim::standard(rank),
        )?;
        let rep_names: Vec<Dim> = order.iter().map(|&d| Dim::dim(d)).collect();
        let dot = tile
            .transpose_outs(&rep_names)?
            .product(&cta.transpose_outs(&rep_names)?)?;
        // With the operand's CGA layout (the parent's, broadcast along K), as Triton does.
        combine_cta_cga_with_shape(&dot, cga, shape)
    }
}
