//! Casts among i1, i8, i16, i32, i64, f16, bf16, f32, f64, and fp8 e4m3 / e5m2 (sm_90).
//!
//! Integers are signed (i1 is unsigned: true is 1). Float to integer truncates toward zero; to
//! i1 tests `!= 0`. f16 ↔ bf16 goes through f32. fp8 conversions use the PTX `cvt` instructions
//! for e4m3x2/e5m2x2 pairs (round to nearest, saturating to the finite range), one element per
//! pair.

use inkwell::values::BasicValueEnum;
use inkwell::{FloatPredicate, IntPredicate};

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::emitter::set_nneg;
use crate::codegen::lower::values::Value;
use crate::codegen::target::Feature;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::{DType, Type};

impl<'ctx> KernelBuilder<'ctx> {
    /// `x` converted to `to` elementwise.
    #[track_caller]
    pub fn cast(&mut self, x: Value, to: DType) -> Result<Value> {
        self.record(OpKind::Cast(to), vec![x.into()], |kb| kb.cast_impl(x, to))
    }

    fn cast_impl(&mut self, x: Value, to: DType) -> Result<Value> {
        let d = self.get("cast", x)?;
        let Type::Scalar(from) = d.ty else {
            return Err(CodegenError::InvalidType {
                op: "cast",
                expected: "a number (pointers cannot be cast)".into(),
                value: d.describe(),
            });
        };
        if from.is_fp8() || to.is_fp8() {
            self.lx
                .target
                .require(Feature::Fp8, "cast to or from fp8")?;
        }
        let mut out = Vec::with_capacity(d.regs.len());
        if self.pairs_narrow(from, to) && d.regs.len() % 2 == 0 {
            for pair in d.regs.chunks(2) {
                out.extend(self.narrow_pair(pair[0], pair[1], to)?);
            }
        } else {
            for r in &d.regs {
                out.push(self.cast_one(*r, from, to)?);
            }
        }
        let info = if from.is_int() && to.is_int() && to.bits() >= from.bits() && from != DType::I1
        {
            d.info.clone()
        } else {
            AxisInfo::keep_constancy(&d.info)
        };
        Ok(self.new_value(
            Type::Scalar(to),
            d.shape.clone(),
            d.layout.clone(),
            out,
            info,
        ))
    }

    /// Whether f32 → `to` converts two registers per instruction: f16 and bf16 on NVIDIA sm_80+
    /// (`cvt.rn.f16x2.f32`), half the conversions and no packing afterwards when the pair goes
    /// on as one 32-bit register (a wgmma or mma operand, a vector store).
    fn pairs_narrow(&self, from: DType, to: DType) -> bool {
        from == DType::F32
            && matches!(to, DType::F16 | DType::BF16)
            && self.lx.target.lowering().narrows_f32_pairs(self.lx.target)
    }

    /// `a` and `b` (f32) rounded to `to` as one `<2 x to>` conversion.
    fn narrow_pair(
        &mut self,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
        to: DType,
    ) -> Result<[BasicValueEnum<'ctx>; 2]> {
        let ctx = self.lx.em.ctx;
        let i32t = ctx.i32_type();
        let bld = &self.lx.em.b;
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

    fn cast_one(
        &mut self,
        v: BasicValueEnum<'ctx>,
        from: DType,
        to: DType,
    ) -> Result<BasicValueEnum<'ctx>> {
        if from == to {
            return Ok(v);
        }
        let ctx = self.lx.em.ctx;
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
            from.is_int() && from != DType::I1 && self.lx.non_negative(v.into_int_value());
        let b = &self.lx.em.b;
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

    /// One fp8 byte to f16 through `cvt.rn.f16x2.e4m3x2` (the byte in the low half).
    fn fp8_to_f16(&mut self, v: BasicValueEnum<'ctx>, from: DType) -> Result<BasicValueEnum<'ctx>> {
        let name = if from == DType::F8E4M3 {
            "llvm.nvvm.e4m3x2.to.f16x2.rn"
        } else {
            "llvm.nvvm.e5m2x2.to.f16x2.rn"
        };
        let f = self.lx.em.intrinsic(name, &[])?;
        let pair =
            self.lx
                .em
                .b
                .build_int_z_extend(v.into_int_value(), self.lx.em.ctx.i16_type(), "")?;
        let h2 = self.lx.em.call1(f, &[pair.into()])?.into_vector_value();
        Ok(self
            .lx
            .em
            .b
            .build_extract_element(h2, self.lx.em.ctx.i32_type().const_zero(), "")?)
    }

    /// One f32 to an fp8 byte through `cvt.rn.satfinite.e4m3x2.f32` (the value in the low byte).
    fn f32_to_fp8(&mut self, v: BasicValueEnum<'ctx>, to: DType) -> Result<BasicValueEnum<'ctx>> {
        let name = if to == DType::F8E4M3 {
            "llvm.nvvm.ff.to.e4m3x2.rn"
        } else {
            "llvm.nvvm.ff.to.e5m2x2.rn"
        };
        let f = self.lx.em.intrinsic(name, &[])?;
        let zero = self.lx.em.ctx.f32_type().const_zero();
        // The first operand lands in the high byte.
        let pair = self
            .lx
            .em
            .call1(f, &[zero.into(), v.into()])?
            .into_int_value();
        Ok(self
            .lx
            .em
            .b
            .build_int_truncate(pair, self.lx.em.ctx.i8_type(), "")?
            .into())
    }
}
