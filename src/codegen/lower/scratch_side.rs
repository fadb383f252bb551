//! One side of a conversion's shared-memory round trip: where a tile's registers go in the
//! plan's scratch, split into the address and the repetition, and its matrix-instruction plan.

use crate::codegen::analysis::matrix_plan::{plan_matrix, MatrixPlan};
use crate::codegen::analysis::shared_offsets::offset_layout;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::layout::LinearLayout;

/// The op whose round trips these are, as errors name it.
const OP: &str = "convert_layout";

/// One side of a shared-memory round trip: where its registers go in the scratch.
#[derive(Debug)]
pub(crate) struct ScratchSide {
    /// (register, lane, warp) → scratch offset, repetition bits included.
    pub(crate) full: TileLayout,
    /// The same without the repetition bits: the address inside the scratch.
    pub(crate) masked: TileLayout,
    /// The repetition of each register.
    pub(crate) reps: Vec<u64>,
    /// The plan's repetitions.
    pub(crate) repetitions: u64,
    /// The register bits of `masked` in the order a plain access takes them: those stepping
    /// the scratch offset by 1, 2, 4, … first (`order[k]` becomes bit `k`), so the access moves
    /// the contiguous elements the plan counted on in one vector whichever registers hold them.
    pub(crate) order: Vec<usize>,
}

/// The register index, in the tile's own order, of register `g` of a side reordered by `order`.
pub(crate) fn ordered(g: usize, order: &[usize]) -> usize {
    order
        .iter()
        .enumerate()
        .fold(0, |a, (k, &j)| a | (g >> k & 1) << j)
}

impl ScratchSide {
    /// Splits the offsets of `l` in the scratch `flat` (offset → element) into the low
    /// `addr_bits` (the address) and the repetition above them, which must come from registers
    /// only: every thread takes part in every repetition.
    pub(crate) fn new(
        l: &TileLayout,
        flat: &LinearLayout,
        addr_bits: usize,
        reps: u64,
        tpw: u32,
        nw: u32,
    ) -> Result<ScratchSide> {
        let mask = (1u64 << addr_bits) - 1;
        let full = offset_layout(OP, l, flat, tpw, nw)?;
        if full.thread_bits()[0] >> addr_bits != 0 {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "internal: the scratch repetitions of the plan depend on the thread ({l})"
                ),
            });
        }
        let reps_of: Vec<u64> = (0..l.num_regs())
            .map(|r| full.reg_coord(r)[0] >> addr_bits)
            .collect();
        if reps_of.iter().any(|&r| r >= reps) {
            return Err(CodegenError::BadLayout {
                op: OP,
                reason: format!(
                    "internal: a register of {l} lies past the plan's {reps} repetitions"
                ),
            });
        }
        let masked = TileLayout::from_bases(
            OP,
            &[1u64 << addr_bits],
            full.reg.iter().map(|b| vec![b[0] & mask]).collect(),
            full.lane.clone(),
            full.warp.clone(),
        )?;
        let n = masked.reg.len();
        let mut order: Vec<usize> = Vec::with_capacity(n);
        while let Some(j) =
            (0..n).find(|&j| !order.contains(&j) && masked.reg[j][0] == 1 << order.len())
        {
            order.push(j);
        }
        let rest: Vec<usize> = (0..n).filter(|j| !order.contains(j)).collect();
        order.extend(rest);
        Ok(ScratchSide {
            full,
            masked,
            reps: reps_of,
            repetitions: reps,
            order,
        })
    }

    /// `masked` with its register bits in `order`, for plain accesses.
    pub(crate) fn vector_first(&self) -> Result<TileLayout> {
        TileLayout::from_bases(
            OP,
            &self.masked.shape,
            self.order
                .iter()
                .map(|&j| self.masked.reg[j].clone())
                .collect(),
            self.masked.lane.clone(),
            self.masked.warp.clone(),
        )
    }

    /// The `ldmatrix`/`stmatrix` plan of this side and, for each repetition, the register its
    /// instructions start from (the repetition's register bits); `None` where the tile does not
    /// contain the instruction's tile or a register bit mixes address and repetition (the planner
    /// never produces either: its matrix tiles are checked against both layouts, its repetitions
    /// are register bases of both), which then takes plain `ld/st.shared`.
    pub(crate) fn matrix_plan(&self, bits: u32, trans: bool) -> Option<(MatrixPlan, Vec<usize>)> {
        let reg = |j: usize| self.full.reg[j][0];
        let addr = |j: usize| self.masked.reg[j][0];
        let n = self.full.reg.len();
        if (0..n).any(|j| addr(j) != 0 && reg(j) != addr(j)) {
            return None;
        }
        let plan = plan_matrix(&self.masked, bits, trans, &[])?;
        // Registers that only choose the repetition: the smallest one of each.
        let rep_bits: usize = (0..n).filter(|&j| addr(j) == 0).map(|j| 1 << j).sum();
        let mut bases: Vec<Option<usize>> = vec![None; self.repetitions as usize];
        for g in (0..1usize << n).filter(|g| g & !rep_bits == 0) {
            bases[self.reps[g] as usize].get_or_insert(g);
        }
        let bases: Option<Vec<usize>> = bases.into_iter().collect();
        Some((plan, bases?))
    }
}
