//! Lowering of `wgmma` from its record: the operands' descriptors (made once before the loop
//! that uses a buffer made outside it), A's fragments when it is in registers, one instruction
//! per (64-row block, k-step) and the commit.
//!
//! The builder checked the operands and planned the instruction (which accumulator register is
//! which wgmma register, the descriptors' fields, A's row offsets): the plan is kept for the
//! lowering by the result's value index.

use inkwell::values::BasicValueEnum;

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::Op;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::values::ValueData;
use crate::codegen::lower::wgmma::AOperand;
use crate::codegen::lower::wgmma_plan::AShared;
use crate::codegen::target::nvptx::wgmma::{self as ptx, AFragment};

const OP: &str = "wgmma";

impl<'ctx> LowerCtx<'ctx> {
    /// Lowers a recorded `wgmma` (operands `[a, b, acc, use_acc?]`) and returns the new
    /// accumulator's registers.
    pub(crate) fn lower_wgmma(
        &mut self,
        op: &Op,
        has_use_acc: bool,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let id = op
            .results
            .first()
            .ok_or_else(|| CodegenError::arg(OP, "a wgmma without a result"))?;
        let plan = self
            .wgmma_plans
            .get(&id.0)
            .cloned()
            .ok_or_else(|| CodegenError::arg(OP, "the instruction was not planned"))?;
        let da = self.op_operand(op, 0)?;
        let db = self.op_operand(op, 1)?;
        let dc = self.op_operand(op, 2)?;
        let use_acc = has_use_acc.then(|| self.int_arg(op, 3)).transpose()?;
        // The descriptors of a buffer made before the loop this wgmma is in are made once.
        let descs_b = self.hoisted(db.scope, |lx| {
            let base_b = lx.desc_start(&db)?;
            let addr_b = lx.smem_addr32(base_b)?;
            let desc_b = lx.desc_base(addr_b, &plan.b)?;
            lx.descs_at(desc_b, plan.b.k_starts.iter().copied())
        })?;
        let a_op = match &plan.a {
            None => self.a_fragments(OP, &da, plan.reps, plan.warps)?,
            Some(a) => self.hoisted(da.scope, |lx| lx.a_descriptors(&da, a))?,
        };
        self.em.tensor_cores = true;
        let nregs = (plan.shape.n / 2) as usize;
        let mut out_regs: Vec<BasicValueEnum<'ctx>> = dc.regs.clone();
        let acc: Vec<Vec<BasicValueEnum<'ctx>>> = plan
            .slot
            .chunks(nregs)
            .map(|regs| regs.iter().map(|&r| dc.regs[r]).collect())
            .collect();
        let a_frags: Vec<AFragment> = match &a_op {
            AOperand::Shared(descs) => descs.iter().map(|d| AFragment::Desc(*d)).collect(),
            AOperand::Regs(frags) => frags.iter().map(|f| AFragment::Regs(f)).collect(),
        };
        let ksteps = plan.b.k_starts.len();
        let b_descs = descs_b.get(..ksteps).ok_or_else(|| {
            CodegenError::arg(OP, format!("{} k-steps of B for {ksteps}", descs_b.len()))
        })?;
        let res = ptx::mma_async(&self.em, &plan.shape, &acc, &a_frags, b_descs, use_acc)?;
        for (j, v) in res.into_iter().enumerate() {
            out_regs[plan.slot[j]] = v;
        }
        ptx::commit_group(&self.em)?;
        Ok(out_regs)
    }

    /// A in shared memory: its descriptor at this warpgroup's rows (run time), each k-step's
    /// start and each 64-row block's offset.
    fn a_descriptors(&mut self, da: &ValueData<'ctx>, a: &AShared) -> Result<AOperand<'ctx>> {
        let base_a = self.desc_start(da)?;
        let addr_a = self.smem_addr32(base_a)?;
        let addr_a = self.warpgroup_rows_addr(addr_a, &a.group_offs)?;
        let desc = self.desc_base(addr_a, &a.desc)?;
        let offsets = a
            .rep_offs
            .iter()
            .flat_map(|r| a.desc.k_starts.iter().map(move |k| r + k));
        Ok(AOperand::Shared(self.descs_at(desc, offsets)?))
    }
}
