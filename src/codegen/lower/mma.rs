//! Lowering of `dot` on `mma.sync`: the instructions its checks planned, each operand's
//! registers packed into the instruction's 32-bit words.

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::Op;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::mma_plan::{DotPlan, MmaInstr};
use crate::codegen::target::nvptx::mma as ptx;
use inkwell::values::BasicValueEnum;
use std::collections::HashMap;

impl<'ctx> LowerCtx<'ctx> {
    /// The registers of the result of `op`, a recorded `dot(a, b, acc)`.
    pub(crate) fn lower_dot(&mut self, op: &Op) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let DotPlan { instr, sched } = self.staged.dots.take("dot", op)?;
        let (da, db, dc) = (
            self.op_operand(op, 0)?,
            self.op_operand(op, 1)?,
            self.op_operand(op, 2)?,
        );
        // Tensor-core kernels compile without the SLP vectoriser and DSE (`target::set_pass_gate`).
        self.em.tensor_cores = true;
        let a_words = self.operand_words(&da.regs, &instr)?;
        let b_words = self.operand_words(&db.regs, &instr)?;
        let mut cur: Vec<BasicValueEnum> = dc.regs.clone();
        let word = |words: &HashMap<usize, BasicValueEnum<'ctx>>, r: usize| {
            words.get(&r).copied().ok_or_else(|| {
                CodegenError::arg("dot", format!("internal: no operand word at register {r}"))
            })
        };
        for step in &sched.steps {
            let ai = step
                .a
                .iter()
                .step_by(instr.per_reg)
                .map(|&r| word(&a_words, r))
                .collect::<Result<Vec<_>>>()?;
            let bi = step
                .b
                .iter()
                .step_by(instr.per_reg)
                .map(|&r| word(&b_words, r))
                .collect::<Result<Vec<_>>>()?;
            let ci: Vec<_> = step.c.iter().map(|&r| cur[r]).collect();
            let out = ptx::mma_sync(&self.em, instr.name, &ai, &bi, &ci)?;
            for (&r, v) in step.c.iter().zip(out) {
                cur[r] = v;
            }
        }
        Ok(sched.acc_source.iter().map(|&s| cur[s]).collect())
    }

    /// The operand's registers packed into 32-bit words, keyed by the first register of each
    /// word (pairs `r, r + 1` of 16-bit elements, as the fragment tables pair them).
    pub(crate) fn operand_words(
        &mut self,
        regs: &[BasicValueEnum<'ctx>],
        instr: &MmaInstr,
    ) -> Result<HashMap<usize, BasicValueEnum<'ctx>>> {
        let i32t = self.em.ctx.i32_type();
        let mut out = HashMap::new();
        if instr.per_reg == 1 {
            for (r, v) in regs.iter().enumerate() {
                out.insert(r, self.em.b.build_bit_cast(*v, i32t, "")?);
            }
            return Ok(out);
        }
        let elem = instr.elem.llvm(self.em.ctx);
        for r in (0..regs.len()).step_by(2) {
            let v = self.em.pack(&regs[r..r + 2], elem)?;
            out.insert(r, self.em.b.build_bit_cast(v, i32t, "")?);
        }
        Ok(out)
    }
}
