//! Lowering of `mma.sync` operands: a tile's registers packed into the instruction's 32-bit
//! words.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::types::DType;
use inkwell::values::BasicValueEnum;
use std::collections::HashMap;

/// One `mma.sync` shape and type: the PTX ISA's fragment layout.
#[derive(Debug)]
pub(crate) struct MmaInstr {
    /// The instruction's name.
    pub name: &'static str,
    /// Operand element type.
    pub elem: DType,
    /// K per instruction.
    pub k: u64,
    /// Elements per 32-bit operand register (2 for 16-bit types, 1 for tf32).
    pub per_reg: usize,
    /// Lane bits 0..5 → (m, k) of A.
    pub a_lane: [(u64, u64); 5],
    /// A's fragment positions (m, k), in register order.
    pub a_frag: &'static [(u64, u64)],
    /// Lane bits → (k, n) of B.
    pub b_lane: [(u64, u64); 5],
    /// B's fragment positions (k, n).
    pub b_frag: &'static [(u64, u64)],
}

impl<'ctx> LowerCtx<'ctx> {
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
