//! `convert_layout`: moves a tile to another distributed layout by executing the plan of
//! [`plan_conversion`]:
//!
//! - no-op or register permutation: the registers are re-indexed, no instruction is emitted;
//! - warp shuffle: one round per destination register word; in round `k` each lane sends the
//!   register `c_k ⊕ P·lane` (a select among the few candidates) and reads lane
//!   `D·k ⊕ M·lane` (`shfl.sync.idx`, `ds_bpermute`), then each destination word picks among
//!   the rounds by `G·lane` (the plan's diagonal); sub-32-bit elements travel packed, 64-bit ones
//!   as two words;
//! - shared memory: a round trip through the plan's swizzled scratch layout (store, barrier,
//!   load), once per repetition of the plan with a barrier before the scratch is reused, and a
//!   barrier first when the conversion sits in a loop body. Each half uses the instruction the
//!   plan picked: vectorised `st.shared`/`ld.shared` (`ds_write`/`ds_read`), or `stmatrix`
//!   (sm_90+) and `ldmatrix` (sm_75+), `.trans` included, where the plan's tile puts 16
//!   contiguous bytes in the registers and lanes of one 8×8 matrix row (see
//!   [`ldmatrix`](super::ldmatrix) for the algebra): the lanes then supply the row addresses of
//!   the scratch, up to four matrices per instruction, so the PTX holds exactly the plan's
//!   `stores`/`loads` (the repetitions times the instructions of one; an instruction never spans
//!   two repetitions). The planner names AMD's `ds_read_b64_tr_b16` only for gfx950, which this
//!   module runs with plain `ds_read`s (same data, more instructions).
//!
//! A shuffle plan this module cannot execute exactly (never seen, but checked on the host before
//! any IR is emitted) falls back to the shared-memory round trip, which is always correct.

use std::collections::HashMap;

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::ops::layout_arg::IntoLayout;
use crate::codegen::builder::ops::ldmatrix::fill_copies;
use crate::codegen::builder::ops::shared::scalar_dtype;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::convert::ScratchSide;
use crate::codegen::lower::values::{Value, ValueKind};
use crate::codegen::report::ConversionFigures;
use crate::codegen::target::Feature;
use crate::codegen::types::{DType, Type};
use crate::layout::convert::{
    plan_conversion, plan_shared, ConversionKind, Instruction, SharedPlan,
};
use crate::layout::Dim;

const OP: &str = "convert_layout";

impl<'ctx> KernelBuilder<'ctx> {
    /// The tile `tile` in the distributed layout `layout` (a `LinearLayout` or an encoding, see
    /// [`IntoLayout`]) of the same shape: same elements, moved between registers, lanes and
    /// warps as `layout::convert::plan_conversion` plans (see the [module docs](self)). A
    /// conversion through shared memory allocates its scratch and needs every thread of the
    /// CTA to reach it.
    #[track_caller]
    pub fn convert_layout(&mut self, tile: Value, layout: impl IntoLayout) -> Result<Value> {
        self.record(OpKind::ConvertLayout, vec![tile.into()], |kb| {
            kb.convert_layout_impl(tile, layout)
        })
    }

    fn convert_layout_impl(&mut self, tile: Value, layout: impl IntoLayout) -> Result<Value> {
        let at = self.rec.caller();
        self.reported(OP, at, Some(tile), |kb| {
            kb.convert_layout_inner(tile, layout)
        })
    }

    fn convert_layout_inner(&mut self, tile: Value, layout: impl IntoLayout) -> Result<Value> {
        let t = self.get_kind(OP, tile, &[ValueKind::Tile], "a register tile")?;
        if let Ok(r) = layout.resolve(OP, None) {
            let own: Vec<u64> = r.linear.out_dims().map(|(_, s)| s).collect();
            if own != t.shape {
                return Err(CodegenError::ShapeMismatch {
                    op: OP,
                    lhs: t.describe(),
                    rhs: format!("a layout of shape {own:?} ({:?})", r.linear),
                });
            }
        }
        if let Type::Ptr(..) = t.ty {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "a tile of numbers (convert the offsets, not the pointers)".into(),
                value: t.describe(),
            });
        }
        let dst = self.tile_layout(OP, &layout, Some(&t.shape))?;
        let src = t.layout.clone().expect("a tile has a layout");
        let elem = scalar_dtype(t.ty);
        let regs = if *src == *dst {
            self.lx.report.conversion(ConversionFigures {
                kind: ConversionKind::Noop,
                executed: ConversionKind::Noop,
                shuffles: 0,
                scratch_bytes: 0,
                read_conflicts: 0,
                write_conflicts: 0,
                repetitions: 0,
            });
            t.regs.clone()
        } else {
            let bits = (elem.mem_bytes() * 8) as u32;
            let plan = plan_conversion(&src.ll, &dst.ll, bits, self.lx.target)?;
            let direct = match plan.kind {
                ConversionKind::Noop | ConversionKind::RegisterPermute => {
                    permute_regs(&src, &dst, &t.regs)
                }
                ConversionKind::WarpShuffle => match &plan.shuffle {
                    Some(sp) => self.lx.shuffle_regs(sp, &src, &dst, &t.regs, elem)?,
                    None => None,
                },
                ConversionKind::SharedMemory => None,
                ConversionKind::CrossCta => {
                    return Err(CodegenError::Unsupported {
                        op: OP,
                        target: self.lx.target.to_string(),
                        reason: format!("data crosses CTAs ({} to {dst})", t.describe()),
                    })
                }
            };
            let (read_conflicts, write_conflicts) = plan.bank_conflicts();
            let mut figures = ConversionFigures {
                kind: plan.kind,
                executed: plan.kind,
                shuffles: plan.shuffles(),
                scratch_bytes: plan.scratch_bytes(),
                read_conflicts,
                write_conflicts,
                repetitions: plan.shared.as_ref().map_or(0, |s| s.repetitions()),
            };
            let regs = match direct {
                Some(r) => r,
                None => {
                    let sp = match (&plan.shared, plan.kind) {
                        (Some(sp), ConversionKind::SharedMemory) => sp.clone(),
                        _ => plan_shared(&src.ll, &dst.ll, bits, self.lx.target)?,
                    };
                    figures.executed = ConversionKind::SharedMemory;
                    figures.scratch_bytes = sp.scratch_bytes;
                    figures.read_conflicts = sp.read_conflicts;
                    figures.write_conflicts = sp.write_conflicts;
                    figures.repetitions = sp.repetitions();
                    self.shared_convert(&sp, &src, &dst, &t.regs, elem)?
                }
            };
            if figures.executed != ConversionKind::SharedMemory {
                figures.repetitions = 0;
            }
            self.lx.report.conversion(figures);
            regs
        };
        let info = t.info.clone();
        Ok(self
            .lx
            .values
            .new_value(t.ty, t.shape.clone(), Some(dst), regs, info))
    }

    /// The shared-memory round trip through the plan's scratch layout, each half with the
    /// instruction the plan picked (see the [module docs](self)).
    fn shared_convert(
        &mut self,
        sp: &SharedPlan,
        src: &TileLayout,
        dst: &TileLayout,
        regs: &[BasicValueEnum<'ctx>],
        elem: DType,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let flat = sp
            .layout
            .flatten_ins()?
            .rename_in_dim("vector", Dim::OFFSET)?;
        let addr_bits = sp.vector.len() + sp.bank.len() + sp.segment.len();
        let reps = sp.repetitions();
        let (tpw, nw) = (self.lx.threads_per_warp(), self.lx.num_warps);
        let store = ScratchSide::new(src, &flat, addr_bits, reps, tpw, nw)?;
        let load = ScratchSide::new(dst, &flat, addr_bits, reps, tpw, nw)?;
        let a = self.scratch_alloc(OP, sp.scratch_bytes, 16)?;
        self.lx.report.scratch(sp.scratch_bytes);
        let bits = (elem.mem_bytes() * 8) as u32;
        let store_plan = match sp.store_instruction {
            Instruction::StMatrix | Instruction::StMatrixTrans
                if self.lx.target.supports(Feature::StMatrix) =>
            {
                store.matrix_plan(bits, sp.store_instruction == Instruction::StMatrixTrans)
            }
            _ => None,
        };
        let load_plan = match sp.load_instruction {
            Instruction::LdMatrix | Instruction::LdMatrixTrans
                if self.lx.target.supports(Feature::LdMatrix) =>
            {
                load.matrix_plan(bits, sp.load_instruction == Instruction::LdMatrixTrans)
            }
            _ => None,
        };
        let acc_s = match &store_plan {
            Some((p, _)) => {
                let l = self.lx.matrix_addresses(OP, p)?;
                self.shared_access_at(l, &[], a.offset, elem)?
            }
            None => self.shared_access_at(store.vector_first()?, &[], a.offset, elem)?,
        };
        let acc_d = match &load_plan {
            Some((p, _)) => {
                let l = self.lx.matrix_addresses(OP, p)?;
                self.shared_access_at(l, &[], a.offset, elem)?
            }
            None => self.shared_access_at(load.vector_first()?, &[], a.offset, elem)?,
        };
        let (reg_free, _, _) = src.free_masks();
        // Inside a loop body the previous iteration may still read the scratch; reused scratch
        // may still be read by its previous op.
        let fence_first = a.fence || self.lx.values.scope() != 0;
        let mut out: Vec<Option<BasicValueEnum>> = vec![None; dst.num_regs()];
        for rep in 0..reps {
            if rep > 0 || fence_first {
                self.barrier()?;
            }
            self.lx.scratch_store(
                &store,
                store_plan.as_ref(),
                &acc_s,
                rep,
                elem,
                regs,
                reg_free,
            )?;
            self.barrier()?;
            self.lx
                .scratch_load(&load, load_plan.as_ref(), &acc_d, rep, elem, &mut out)?;
        }
        self.scratch_free(OP, a)?;
        fill_copies(OP, &load.full, out)
    }
}

/// Re-indexes registers when both layouts give every thread the same thread part: destination
/// register `r` takes the source register at the same coordinate. `None` if one is missing.
fn permute_regs<'ctx>(
    src: &TileLayout,
    dst: &TileLayout,
    regs: &[BasicValueEnum<'ctx>],
) -> Option<Vec<BasicValueEnum<'ctx>>> {
    if src.lane != dst.lane || src.warp != dst.warp {
        return None;
    }
    let mut at: HashMap<Vec<u64>, usize> = HashMap::new();
    for r in (0..src.num_regs()).rev() {
        at.insert(src.reg_coord(r), r);
    }
    (0..dst.num_regs())
        .map(|r| at.get(&dst.reg_coord(r)).map(|&i| regs[i]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::builder::ops::ldmatrix::check_matrix_plan;
    use crate::layout::convert::Target;
    use crate::layout::encoding::{Blocked, DotOperand, Encoding, NvidiaMma};
    use crate::layout::LinearLayout;

    /// Distributed layouts of a `shape` tile over 4 warps of 32 lanes: MMA v2 and v3
    /// accumulators, dot operands, blocked layouts.
    fn layouts(shape: [u64; 2]) -> Vec<(String, LinearLayout)> {
        let mut out = Vec::new();
        let mut push = |name: String, e: Encoding| {
            if let Ok(l) = e.to_linear_layout(&shape) {
                out.push((name, l));
            }
        };
        for w in [[4u32, 1u32], [2, 2], [1, 4]] {
            push(format!("mma{w:?}"), NvidiaMma::ampere(&w).into());
            push(format!("wgmma{w:?}"), NvidiaMma::hopper(&w, 32, 16).into());
            for op in [0, 1] {
                for k in [2, 4, 8] {
                    let parent = NvidiaMma::ampere(&w).into();
                    push(
                        format!("dot{op} k{k} mma{w:?}"),
                        DotOperand::new(op, parent, k).into(),
                    );
                }
            }
            for spt in [[1u32, 8u32], [8, 1], [1, 4], [2, 2], [4, 4]] {
                for (tpw, order) in [([4u32, 8u32], [1u32, 0u32]), ([8, 4], [0, 1])] {
                    let b = Blocked::new(&spt, &tpw, &w, &order);
                    push(format!("blocked{spt:?}{tpw:?}{w:?}{order:?}"), b.into());
                }
            }
        }
        out
    }

    /// Every conversion the planner runs with `stmatrix`/`ldmatrix` is executed with them (no
    /// fallback), and the instructions' addresses, registers and repetitions move exactly the
    /// elements the plan's scratch layout says (checked by simulating the instructions).
    #[test]
    fn every_planned_matrix_access_moves_the_planned_elements() {
        let mut checked = [0usize; 2];
        for (shape, widths) in [([64u64, 64u64], &[8u32, 16, 32][..]), ([32, 32], &[16][..])] {
            let all = layouts(shape);
            for &bits in widths {
                for (na, a) in &all {
                    for (nb, b) in &all {
                        if na == nb {
                            continue;
                        }
                        let sp = plan_shared(a, b, bits, Target::SM90).unwrap();
                        let flat = sp
                            .layout
                            .flatten_ins()
                            .unwrap()
                            .rename_in_dim("vector", Dim::OFFSET)
                            .unwrap();
                        let addr_bits = sp.vector.len() + sp.bank.len() + sp.segment.len();
                        let reps = sp.repetitions();
                        for (side, l, instr) in
                            [(0, a, sp.store_instruction), (1, b, sp.load_instruction)]
                        {
                            let trans = match instr {
                                Instruction::LdSt | Instruction::DsReadTr => continue,
                                Instruction::StMatrix | Instruction::LdMatrix => false,
                                Instruction::StMatrixTrans | Instruction::LdMatrixTrans => true,
                            };
                            let what = format!("{na} → {nb} {shape:?} b{bits} side {side}");
                            let t = TileLayout::new(OP, l, 32, 4).unwrap();
                            let s = ScratchSide::new(&t, &flat, addr_bits, reps, 32, 4).unwrap();
                            let (plan, bases) = s
                                .matrix_plan(bits, trans)
                                .unwrap_or_else(|| panic!("{what}: {instr:?} planned, not run"));
                            let count = if side == 0 { sp.stores } else { sp.loads };
                            assert_eq!(
                                plan.instructions() as u64 * reps,
                                count,
                                "{what}: instruction count"
                            );
                            check_matrix_plan(&s.full, &plan, &bases, addr_bits)
                                .unwrap_or_else(|e| panic!("{what}: {e}"));
                            checked[trans as usize] += 1;
                        }
                    }
                }
            }
        }
        eprintln!("checked (plain, .trans): {checked:?}");
        assert!(checked[0] > 100 && checked[1] > 100, "{checked:?}");
    }
}
