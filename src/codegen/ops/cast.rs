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
        if self.lx.pairs_narrow(from, to) && d.regs.len() % 2 == 0 {
            for pair in d.regs.chunks(2) {
                out.extend(self.lx.narrow_pair(pair[0], pair[1], to)?);
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
        Ok(self.lx.values.new_value(
            Type::Scalar(to),
            d.shape.clone(),
            d.layout.clone(),
            out,
            info,
        ))
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
            let h = self.lx.fp8_to_f16(v, from)?;
            return self.cast_one(h, DType::F16, to);
        }
        if to.is_fp8() {
            let f = self.cast_one(v, from, DType::F32)?;
            return self.lx.f32_to_fp8(f, to);
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
}
