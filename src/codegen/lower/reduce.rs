//! Lowering of reductions' pieces: the butterfly step (a value of any element type from lane
//! `lane ^ mask`), and the 64-bit keys through which `argmax` and `argmin` reduce a value and its
//! index in one `max` or `min`.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::types::DType;
use inkwell::values::{BasicValueEnum, IntValue};

impl<'ctx> LowerCtx<'ctx> {
    /// `v` of lane `lane ^ mask`, any element type (moved as one or two 32-bit words).
    pub(crate) fn shuffle_xor_value(
        &mut self,
        v: BasicValueEnum<'ctx>,
        elem: DType,
        mask: u32,
        lane: IntValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        self.shuffle_value(v, elem, lane, |(em, lowering), lane, word| {
            lowering.shuffle_xor(em, word, mask, lane)
        })
    }

    /// One `i64` key per register: the value's bits in an order that compares as the value does
    /// (floats widened to f32, their magnitude bits flipped when negative; integers
    /// sign-extended) above, the element's index below (inverted for `max`, so that of equal
    /// values the lowest index wins either way).
    pub(crate) fn arg_reduce_keys(
        &mut self,
        regs: &[BasicValueEnum<'ctx>],
        index: &[IntValue<'ctx>],
        elem: DType,
        max: bool,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let ctx = self.em.ctx;
        let (i32t, i64t) = (ctx.i32_type(), ctx.i64_type());
        let mut keys: Vec<BasicValueEnum<'ctx>> = Vec::with_capacity(regs.len());
        for (r, idx) in regs.iter().zip(index) {
            let b = &self.em.b;
            let hi = if elem.is_float() {
                let f = if elem == DType::F32 {
                    r.into_float_value()
                } else {
                    b.build_float_ext(r.into_float_value(), ctx.f32_type(), "")?
                };
                let bits = b.build_bit_cast(f, i32t, "")?.into_int_value();
                let neg =
                    b.build_int_compare(inkwell::IntPredicate::SLT, bits, i32t.const_zero(), "")?;
                let flipped = b.build_xor(bits, i32t.const_int(0x7FFF_FFFF, false), "")?;
                b.build_select(neg, flipped, bits, "")?.into_int_value()
            } else if elem == DType::I32 {
                r.into_int_value()
            } else {
                b.build_int_s_extend(r.into_int_value(), i32t, "")?
            };
            let low = if max { b.build_not(*idx, "")? } else { *idx };
            let hi = b.build_int_s_extend(hi, i64t, "")?;
            let hi = b.build_left_shift(hi, i64t.const_int(32, false), "")?;
            let low = b.build_int_z_extend(low, i64t, "")?;
            keys.push(b.build_or(hi, low, "")?.into());
        }
        Ok(keys)
    }

    /// The index held in each reduced key of [`arg_reduce_keys`](Self::arg_reduce_keys).
    pub(crate) fn arg_reduce_indices(
        &mut self,
        keys: &[BasicValueEnum<'ctx>],
        max: bool,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let i32t = self.em.ctx.i32_type();
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            let low = self.em.b.build_int_truncate(k.into_int_value(), i32t, "")?;
            let idx = if max {
                self.em.b.build_not(low, "")?
            } else {
                low
            };
            out.push(idx.into());
        }
        Ok(out)
    }
}
