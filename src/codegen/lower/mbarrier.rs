//! Lowering of mbarrier addressing: the 32-bit shared address of a barrier and the issuing
//! thread's predicate.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use inkwell::values::IntValue;

impl<'ctx> LowerCtx<'ctx> {
    /// `tid == 0`: the one thread that issues CTA-wide asynchronous work (TMA copies, barrier
    /// set-up).
    pub(crate) fn is_thread0(&mut self) -> Result<IntValue<'ctx>> {
        let tid = self.thread_index()?;
        let zero = self.em.ctx.i32_type().const_zero();
        Ok(self
            .em
            .b
            .build_int_compare(inkwell::IntPredicate::EQ, tid, zero, "")?)
    }

    /// The 32-bit shared-window address of byte `offset` of `weft_smem` (what `.shared` PTX
    /// instructions take).
    pub(crate) fn smem_addr32(&mut self, offset: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let p = self.smem_at(offset)?;
        let i32t = self.em.ctx.i32_type();
        Ok(self.em.b.build_ptr_to_int(p, i32t, "")?)
    }
}
