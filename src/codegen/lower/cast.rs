//! Lowering of casts: one conversion per register (fp8 through f16, f32 narrowed in pairs where
//! the target has `cvt.rn.f16x2.f32`).

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::emitter::{set_nneg, vec_of};
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::DType;
use inkwell::values::BasicValueEnum;
use inkwell::{FloatPredicate, IntPredicate};

impl<'ctx> LowerCtx<'ctx> {
    /// Whether f32 → `to` converts two registers per instruction: f16 and bf16 on NVIDIA sm_80+
    /// (`cvt.rn.f16x2.f32`), half the conversions and no packing afterwards when the pair goes
    /// on as one 32-bit register (a wgmma or mma operand, a vector store).
    pub(crate) fn pairs_narrow(&self, from: DType, to: DType) -> bool {
        from == DType::F32
            && matches!(to, DType::F16 | DType::BF16)
            && self.target.lowering().narrows_f32_pairs(self.target)
    }

    /// `a` and `b` (f32) rounded to `to` as one `<2 x to>` conversion.
    pub(crate) fn narrow_pair(
        &mut self,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
        to: DType,
    ) -> Result<[BasicValueEnum<'ctx>; 2]> {
        let ctx = self.em.ctx;
        let i32t = ctx.i32_type();
        let v = self
            .em
            .pack(&[a, b], ctx.f32_type().into())?
            .into_vector_value();
        let bld = &self.em.b;
        let narrow = to.llvm(ctx).into_float_type().vec_type(2);
        let t = bld.build_float_trunc(v, narrow, "")?;
        Ok([
            bld.build_extract_element(t, i32t.const_zero(), "")?,
            bld.build_extract_element(t, i32t.const_int(1, false), "")?,
        ])
    }

    /// Two bf16 values widened to f32 from their packed 32-bit word: the low half shifted up and
    /// the high half masked, which is exact (bf16 is f32's upper half). Two scalar `fpext`s of
    /// the halves of a pair that was just narrowed make LLVM split the pair's
    /// `cvt.rn.bf16x2.f32` into two single conversions (a round trip an attention backward
    /// makes with P); read through the packed word, the pair stays one conversion.
    pub(crate) fn widen_bf16_pair(
        &mut self,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<[BasicValueEnum<'ctx>; 2]> {
        let ctx = self.em.ctx;
        let (i32t, f32t) = (ctx.i32_type(), ctx.f32_type());
        let v = self.em.pack(&[a, b], ctx.bf16_type().into())?;
        let bld = &self.em.b;
        let word = bld.build_bit_cast(v, i32t, "")?.into_int_value();
        let lo = bld.build_left_shift(word, i32t.const_int(16, false), "")?;
        let hi = bld.build_and(word, i32t.const_int(0xffff_0000, false), "")?;
        Ok([
            bld.build_bit_cast(lo, f32t, "")?,
            bld.build_bit_cast(hi, f32t, "")?,
        ])
    }

    /// One fp8 byte to f16 through `cvt.rn.f16x2.e4m3x2` (the byte in the low half).
    pub(crate) fn fp8_to_f16(
        &mut self,
        v: BasicValueEnum<'ctx>,
        from: DType,
    ) -> Result<BasicValueEnum<'ctx>> {
        let name = if from == DType::F8E4M3 {
            "llvm.nvvm.e4m3x2.to.f16x2.rn"
        } else {
            "llvm.nvvm.e5m2x2.to.f16x2.rn"
        };
        let f = self.em.intrinsic(name, &[])?;
        let pair = self
            .em
            .b
            .build_int_z_extend(v.into_int_value(), self.em.ctx.i16_type(), "")?;
        let h2 = self.em.call1(f, &[pair.into()])?.into_vector_value();
        Ok(self
            .em
            .b
            .build_extract_element(h2, self.em.ctx.i32_type().const_zero(), "")?)
    }

    /// One f32 to an fp8 byte through `cvt.rn.satfinite.e4m3x2.f32` (the value in the low byte).
    pub(crate) fn f32_to_fp8(
        &mut self,
        v: BasicValueEnum<'ctx>,
        to: DType,
    ) -> Result<BasicValueEnum<'ctx>> {
        let name = if to == DType::F8E4M3 {
            "llvm.nvvm.ff.to.e4m3x2.rn"
        } else {
            "llvm.nvvm.ff.to.e5m2x2.rn"
        };
        let f = self.em.intrinsic(name, &[])?;
        let zero = self.em.ctx.f32_type().const_zero();
        // The first operand lands in the high byte.
        let pair = self.em.call1(f, &[zero.into(), v.into()])?.into_int_value();
        Ok(self
            .em
            .b
            .build_int_truncate(pair, self.em.ctx.i8_type(), "")?
            .into())
    }

    pub(crate) fn cast_one(
        &mut self,
        v: BasicValueEnum<'ctx>,
        from: DType,
        to: DType,
    ) -> Result<BasicValueEnum<'ctx>> {
        if from == to {
            return Ok(v);
        }
        let ctx = self.em.ctx;
        let f32t = ctx.f32_type();
        if from.is_fp8() {
            let h = self.fp8_to_f16(v, from)?;
            return self.cast_one(h, DType::F16, to);
        }
        if to.is_fp8() {
            let f = self.cast_one(v, from, DType::F32)?;
            return self.f32_to_fp8(f, to);
        }
        // A value known to be non-negative (an index) widens and converts as unsigned, flagged
        // `nneg`: what instcombine would make of it, and cheaper in PTX (`cvt.u64.u32`).
        let non_negative =
            from.is_int() && from != DType::I1 && self.non_negative(v.into_int_value());
        let b = &self.em.b;
        let target = to.llvm(ctx);
        let nneg = |v: BasicValueEnum<'ctx>| {
            // `v` is the zext or uitofp just built (or a constant LLVM folded it to).
            set_nneg(v);
            v
        };
        Ok(match (from.is_int(), to.is_int()) {
            (true, true) => {
                let iv = v.into_int_value();
                let tt = target.into_int_type();
                if to == DType::I1 {
                    b.build_int_compare(IntPredicate::NE, iv, iv.get_type().const_zero(), "")?
                        .into()
                } else if from == DType::I1 {
                    b.build_int_z_extend(iv, tt, "")?.into()
                } else if to.bits() > from.bits() && non_negative {
                    nneg(b.build_int_z_extend(iv, tt, "")?.into())
                } else if to.bits() > from.bits() {
                    b.build_int_s_extend(iv, tt, "")?.into()
                } else {
                    b.build_int_truncate(iv, tt, "")?.into()
                }
            }
            (true, false) => {
                let iv = v.into_int_value();
                let ft = target.into_float_type();
                if from == DType::I1 {
                    b.build_unsigned_int_to_float(iv, ft, "")?.into()
                } else if non_negative {
                    nneg(b.build_unsigned_int_to_float(iv, ft, "")?.into())
                } else {
                    b.build_signed_int_to_float(iv, ft, "")?.into()
                }
            }
            (false, true) => {
                let fv = v.into_float_value();
                if to == DType::I1 {
                    b.build_float_compare(FloatPredicate::UNE, fv, fv.get_type().const_zero(), "")?
                        .into()
                } else {
                    b.build_float_to_signed_int(fv, target.into_int_type(), "")?
                        .into()
                }
            }
            (false, false) => {
                let fv = v.into_float_value();
                let ft = target.into_float_type();
                let half_pair = matches!(
                    (from, to),
                    (DType::F16, DType::BF16) | (DType::BF16, DType::F16)
                );
                if half_pair {
                    let w = b.build_float_ext(fv, f32t, "")?;
                    b.build_float_trunc(w, ft, "")?.into()
                } else if to.bits() > from.bits() {
                    b.build_float_ext(fv, ft, "")?.into()
                } else {
                    b.build_float_trunc(fv, ft, "")?.into()
                }
            }
        })
    }

    /// Each register of `regs` converted from `from` to `to`, two at a time where the target
    /// narrows f32 in pairs.
    pub(crate) fn cast_regs(
        &mut self,
        regs: &[BasicValueEnum<'ctx>],
        from: DType,
        to: DType,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let mut out = Vec::with_capacity(regs.len());
        if self.pairs_narrow(from, to) && regs.len().is_multiple_of(2) {
            for pair in regs.chunks(2) {
                out.extend(self.narrow_pair(pair[0], pair[1], to)?);
            }
        } else if (from, to) == (DType::BF16, DType::F32) && regs.len().is_multiple_of(2) {
            for pair in regs.chunks(2) {
                out.extend(self.widen_bf16_pair(pair[0], pair[1])?);
            }
        } else {
            for r in regs {
                out.push(self.cast_one(*r, from, to)?);
            }
        }
        Ok(out)
    }

    /// [`KernelBuilder::bitcast`](crate::codegen::KernelBuilder::bitcast) on registers: one LLVM
    /// `bitcast` each for equal widths; to a narrower type, each register read as a vector of
    /// `r` and its elements in order; to a wider one, each run of `r` registers packed into a
    /// vector and read as one.
    pub(crate) fn bitcast_regs(
        &mut self,
        regs: &[BasicValueEnum<'ctx>],
        from: DType,
        to: DType,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let ctx = self.em.ctx;
        let (fb, tb) = (from.bits(), to.bits());
        let target = to.llvm(ctx);
        let mut out = Vec::with_capacity(regs.len());
        if fb == tb {
            for r in regs {
                out.push(self.em.b.build_bit_cast(*r, target, "")?);
            }
        } else if fb > tb {
            let r = fb / tb;
            let vt = vec_of(target, r);
            for v in regs {
                let vec = self.em.b.build_bit_cast(*v, vt, "")?.into_vector_value();
                for i in 0..r {
                    let at = ctx.i32_type().const_int(u64::from(i), false);
                    out.push(self.em.b.build_extract_element(vec, at, "")?);
                }
            }
        } else {
            let r = (tb / fb) as usize;
            for run in regs.chunks(r) {
                out.push(self.em.bits_as(run, from.llvm(ctx), target)?);
            }
        }
        Ok(out)
    }
}
