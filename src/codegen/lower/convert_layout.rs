//! Lowering of a recorded `convert_layout`: the route its checks chose (re-indexed registers,
//! warp shuffles, or a round trip through its scratch) executed, and its report row.

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::Result;
use crate::codegen::ir::Op;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::convert_plan::{ConvertRoute, SharedRoute};
use crate::codegen::lower::ldmatrix::fill_copies;
use crate::codegen::types::{DType, Type};

const OP: &str = "convert_layout";

impl<'ctx> LowerCtx<'ctx> {
    /// The registers of the result of `op`, a recorded `convert_layout`.
    pub(crate) fn lower_convert_layout(&mut self, op: &Op) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let t = self.op_operand(op, 0)?;
        let r = self.op_result(op)?;
        let plan = self.staged.converts.take(OP, op)?;
        let elem = match t.ty {
            Type::Scalar(d) => d,
            Type::Ptr(..) => DType::I64,
        };
        self.report_row(OP, op.loc, Some(&t), |lx| {
            let regs = match plan.route {
                ConvertRoute::Permute(map) => map.iter().map(|&i| t.regs[i]).collect(),
                ConvertRoute::Shuffle(s) => {
                    let dst = r
                        .layout
                        .as_deref()
                        .ok_or_else(|| not_a_tile(&r.describe()))?;
                    lx.shuffle_regs(&s.0, &s.1, dst, &t.regs, elem)?
                }
                ConvertRoute::Shared(s) => {
                    let src = t
                        .layout
                        .as_deref()
                        .ok_or_else(|| not_a_tile(&t.describe()))?;
                    lx.shared_convert(&s, src, &t.regs, elem)?
                }
            };
            lx.report.conversion(plan.figures);
            Ok(regs)
        })
    }

    /// The shared-memory round trip of `s` (as the builder's `ops/convert.rs` describes it).
    fn shared_convert(
        &mut self,
        s: &SharedRoute,
        src: &TileLayout,
        regs: &[BasicValueEnum<'ctx>],
        elem: DType,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let sc = s.scratch;
        self.report.scratch(sc.bytes);
        let acc_s = match &s.store_plan {
            Some((p, _)) => self.matrix_addresses(OP, p)?,
            None => s.store.vector_first()?,
        };
        let acc_s = self.shared_access_at(
            acc_s,
            &[],
            sc.offset,
            elem,
            self.replica_at(sc.replica_stride),
        )?;
        let acc_d = match &s.load_plan {
            Some((p, _)) => self.matrix_addresses(OP, p)?,
            None => s.load.vector_first()?,
        };
        let acc_d = self.shared_access_at(
            acc_d,
            &[],
            sc.offset,
            elem,
            self.replica_at(sc.replica_stride),
        )?;
        let (reg_free, _, _) = src.free_masks();
        let mut out: Vec<Option<BasicValueEnum>> = vec![None; s.load.full.num_regs()];
        for rep in 0..s.store.repetitions {
            if rep > 0 || sc.fence_first {
                self.scratch_barrier()?;
            }
            self.scratch_store(
                &s.store,
                s.store_plan.as_ref(),
                &acc_s,
                rep,
                elem,
                regs,
                reg_free,
            )?;
            self.scratch_barrier()?;
            self.scratch_load(&s.load, s.load_plan.as_ref(), &acc_d, rep, elem, &mut out)?;
        }
        fill_copies(OP, &s.load.full, out)
    }
}

fn not_a_tile(what: &str) -> crate::codegen::error::CodegenError {
    crate::codegen::error::CodegenError::arg(OP, format!("{what} is not a register tile"))
}
