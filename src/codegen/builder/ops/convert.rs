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

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::ops::layout_arg::IntoLayout;
use crate::codegen::builder::ops::shared::scalar_dtype;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{OpKind, ValueId};
use crate::codegen::lower::convert_plan::{permute_map, ConvertPlan, ConvertRoute, SharedRoute};
use crate::codegen::lower::scratch_side::ScratchSide;
use crate::codegen::lower::shuffle_exec::ShuffleExec;
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
        self.record_checked(OpKind::ConvertLayout, vec![tile.into()], |kb| {
            kb.convert_layout_checked(tile, layout)
        })
    }

    /// Checks the conversion, chooses its route (placing a round trip's scratch) and makes its
    /// result; `lower::convert_layout` executes the route.
    fn convert_layout_checked(&mut self, tile: Value, layout: impl IntoLayout) -> Result<Value> {
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
        let src = t.layout.clone().ok_or_else(|| CodegenError::InvalidType {
            op: OP,
            expected: "a register tile with a layout".into(),
            value: t.describe(),
        })?;
        let plan = self.convert_plan(&t.describe(), &src, &dst, scalar_dtype(t.ty))?;
        let v = self
            .lx
            .values
            .new_value(t.ty, t.shape.clone(), Some(dst), vec![], t.info.clone());
        self.lx.staged.converts.put(ValueId(v.index), plan);
        Ok(v)
    }

    /// The route of converting `what` from `src` to `dst` and the figures the report shows: the
    /// plan of [`plan_conversion`] where this lowering runs it exactly, else the round trip
    /// through shared memory (whose scratch is placed here).
    fn convert_plan(
        &mut self,
        what: &str,
        src: &TileLayout,
        dst: &TileLayout,
        elem: DType,
    ) -> Result<ConvertPlan> {
        if *src == *dst {
            return Ok(ConvertPlan {
                route: ConvertRoute::Permute((0..src.num_regs()).collect()),
                figures: ConversionFigures {
                    kind: ConversionKind::Noop,
                    executed: ConversionKind::Noop,
                    shuffles: 0,
                    scratch_bytes: 0,
                    read_conflicts: 0,
                    write_conflicts: 0,
                    repetitions: 0,
                },
            });
        }
        let bits = (elem.mem_bytes() * 8) as u32;
        let plan = plan_conversion(&src.ll, &dst.ll, bits, self.lx.target)?;
        let tpw = self.lx.threads_per_warp();
        let direct = match plan.kind {
            ConversionKind::Noop | ConversionKind::RegisterPermute => {
                permute_map(src, dst).map(ConvertRoute::Permute)
            }
            ConversionKind::WarpShuffle => plan.shuffle.as_ref().and_then(|sp| {
                ShuffleExec::new(sp, src, dst, tpw)
                    .map(|ex| ConvertRoute::Shuffle(Box::new((sp.clone(), ex))))
            }),
            ConversionKind::SharedMemory => None,
            ConversionKind::CrossCta => {
                return Err(CodegenError::Unsupported {
                    op: OP,
                    target: self.lx.target.to_string(),
                    reason: format!("data crosses CTAs ({what} to {dst})"),
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
        let route = match direct {
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
                ConvertRoute::Shared(Box::new(self.shared_route(&sp, src, dst, bits)?))
            }
        };
        if figures.executed != ConversionKind::SharedMemory {
            figures.repetitions = 0;
        }
        Ok(ConvertPlan { route, figures })
    }

    /// The round trip through the plan's scratch layout: each side's offsets, the matrix
    /// instructions the target runs (see the [module docs](self)), and the scratch.
    fn shared_route(
        &mut self,
        sp: &SharedPlan,
        src: &TileLayout,
        dst: &TileLayout,
        bits: u32,
    ) -> Result<SharedRoute> {
        let flat = sp
            .layout
            .flatten_ins()?
            .rename_in_dim("vector", Dim::OFFSET)?;
        let addr_bits = sp.vector.len() + sp.bank.len() + sp.segment.len();
        let reps = sp.repetitions();
        let (tpw, nw) = (self.lx.threads_per_warp(), self.lx.num_warps);
        let store = ScratchSide::new(src, &flat, addr_bits, reps, tpw, nw)?;
        let load = ScratchSide::new(dst, &flat, addr_bits, reps, tpw, nw)?;
        let scratch = self.place_scratch(OP, sp.scratch_bytes, 16, true)?;
        let target = self.lx.target;
        let store_plan = match sp.store_instruction {
            Instruction::StMatrix | Instruction::StMatrixTrans
                if target.supports(Feature::StMatrix) =>
            {
                store.matrix_plan(bits, sp.store_instruction == Instruction::StMatrixTrans)
            }
            _ => None,
        };
        let load_plan = match sp.load_instruction {
            Instruction::LdMatrix | Instruction::LdMatrixTrans
                if target.supports(Feature::LdMatrix) =>
            {
                load.matrix_plan(bits, sp.load_instruction == Instruction::LdMatrixTrans)
            }
            _ => None,
        };
        Ok(SharedRoute {
            store,
            load,
            store_plan,
            load_plan,
            scratch,
        })
    }
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
