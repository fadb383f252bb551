//! Lowering of mbarrier set-up and addressing: initialising an array of barriers, the 32-bit
//! shared address of a barrier and the issuing thread's predicate.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::target::nvptx::mbarrier as ptx;
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

    /// The 32-bit shared address of the single barrier `d` (a checked one-barrier array).
    pub(crate) fn mbarrier_addr(
        &mut self,
        d: &crate::codegen::lower::values::ValueData<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let base = d.regs.first().ok_or_else(|| {
            crate::codegen::error::CodegenError::arg("mbarrier", "a barrier without its offset")
        })?;
        self.smem_addr32(base.into_int_value())
    }

    /// The issuing thread's predicate: `tid == 0`, and `pred` when given.
    pub(crate) fn issuer(&mut self, pred: Option<IntValue<'ctx>>) -> Result<IntValue<'ctx>> {
        let t0 = self.is_thread0()?;
        match pred {
            None => Ok(t0),
            Some(p) => Ok(self.em.b.build_and(t0, p, "")?),
        }
    }

    /// Initialises `count` mbarriers at byte `offset` of shared memory (thread 0), each expecting
    /// `arrivals` arrivals per phase; returns the array's offset as the descriptor holds it.
    pub(crate) fn mbarriers_init(
        &mut self,
        offset: u64,
        arrivals: u32,
        count: u32,
    ) -> Result<IntValue<'ctx>> {
        let base = self.em.ctx.i32_type().const_int(offset, false);
        let t0 = self.is_thread0()?;
        let addr = self.smem_addr32(base)?;
        ptx::init(&self.em, t0, addr, arrivals, count)?;
        Ok(base)
    }
}
