//! Lowering of scans' lane step: a value of any element type moved between lanes as 32-bit
//! words.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::DType;
use inkwell::values::{BasicValueEnum, IntValue};

impl<'ctx> LowerCtx<'ctx> {
    /// `v` moved between lanes by `shuffle(lowering, lane, word)` on `i32` words, any element
    /// type (one or two words). `reduce`'s butterflies use it too.
    pub(crate) fn shuffle_value(
        &mut self,
        v: BasicValueEnum<'ctx>,
        elem: DType,
        lane: IntValue<'ctx>,
        shuffle: impl Fn(
            (
                &crate::codegen::lower::emitter::Emitter<'ctx>,
                &dyn crate::codegen::target::Lowering,
            ),
            IntValue<'ctx>,
            IntValue<'ctx>,
        ) -> Result<IntValue<'ctx>>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let bits = (elem.mem_bytes() * 8) as u32;
        let i32t = self.em.ctx.i32_type();
        let w = self.to_bits(v, elem, bits)?;
        let lowering = self.target.lowering();
        if bits == 64 {
            let i64t = self.em.ctx.i64_type();
            let lo = self.em.b.build_int_truncate(w, i32t, "")?;
            let hi = self
                .em
                .b
                .build_right_shift(w, i64t.const_int(32, false), false, "")?;
            let hi = self.em.b.build_int_truncate(hi, i32t, "")?;
            self.report.shuffles(2);
            let lo = shuffle((&self.em, lowering), lane, lo)?;
            let hi = shuffle((&self.em, lowering), lane, hi)?;
            let lo = self.em.b.build_int_z_extend(lo, i64t, "")?;
            let hi = self.em.b.build_int_z_extend(hi, i64t, "")?;
            let hi = self
                .em
                .b
                .build_left_shift(hi, i64t.const_int(32, false), "")?;
            let i = self.em.b.build_or(lo, hi, "")?;
            return self.from_bits(i, elem);
        }
        let x = if bits == 32 {
            w
        } else {
            self.em.b.build_int_z_extend(w, i32t, "")?
        };
        self.report.shuffles(1);
        let got = shuffle((&self.em, lowering), lane, x)?;
        let got = if bits == 32 {
            got
        } else {
            self.em.b.build_int_truncate(got, self.int_type(bits), "")?
        };
        self.from_bits(got, elem)
    }
}
