//! Lowering of the cast ops: what they emit, as methods of the lowering context.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::DType;
use inkwell::values::BasicValueEnum;

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
        let bld = &self.em.b;
        let v2 = ctx.f32_type().vec_type(2);
        let v = bld.build_insert_element(v2.get_poison(), a, i32t.const_zero(), "")?;
        let v = bld.build_insert_element(v, b, i32t.const_int(1, false), "")?;
        let narrow = to.llvm(ctx).into_float_type().vec_type(2);
        let t = bld.build_float_trunc(v, narrow, "")?;
        Ok([
            bld.build_extract_element(t, i32t.const_zero(), "")?,
            bld.build_extract_element(t, i32t.const_int(1, false), "")?,
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
}
