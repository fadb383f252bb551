//! Lowering of a math function on a tile's registers: f16 and bf16 widened to f32 and rounded
//! back, each value through the accurate lowering (`emit_accurate_math`) or the fast one (Triton's
//! default): NVIDIA `.approx` PTX instructions (`ex2`, `lg2`, `sin`, `cos`, `rsqrt`; what
//! `--use_fast_math` picks), LLVM's own intrinsics on AMD, and an f32 polynomial for erf.

use inkwell::values::{BasicValueEnum, FloatValue};

use crate::codegen::error::Result;
use crate::codegen::ir::attrs::{MathOp, MathPrecision};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::math::emit_accurate_math;
use crate::codegen::target::FastFn;
use crate::codegen::types::DType;

impl<'ctx> LowerCtx<'ctx> {
    /// `op` on each of `regs` (of float type `dt`) at `precision` (f64 always accurate).
    pub(crate) fn math_regs(
        &mut self,
        op: MathOp,
        precision: MathPrecision,
        dt: DType,
        regs: &[BasicValueEnum<'ctx>],
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let accurate = precision == MathPrecision::Accurate || dt == DType::F64;
        self.em.float_math = true;
        let f32t = self.em.ctx.f32_type();
        let mut out = Vec::with_capacity(regs.len());
        for r in regs {
            let v = r.into_float_value();
            let wide = dt == DType::F32 || dt == DType::F64;
            let arg = if wide {
                v
            } else {
                self.em.b.build_float_ext(v, f32t, "")?
            };
            let y = if accurate {
                emit_accurate_math(&self.em.b, &self.em.module, op, arg)?
            } else {
                self.math_fast(op, arg, precision == MathPrecision::ApproxFtz)?
            };
            let res: BasicValueEnum = if wide {
                y.into()
            } else {
                self.em.b.build_float_trunc(y, v.get_type(), "")?.into()
            };
            out.push(res);
        }
        Ok(out)
    }

    /// `a * b + c` rounded once, register by register (`llvm.fma` of float type `dt`).
    pub(crate) fn fma_regs(
        &mut self,
        dt: DType,
        [a, b, c]: [&[BasicValueEnum<'ctx>]; 3],
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let f = self.em.intrinsic("llvm.fma", &[dt.llvm(self.em.ctx)])?;
        let mut out = Vec::with_capacity(a.len());
        for i in 0..a.len() {
            out.push(self.em.call1(f, &[a[i].into(), b[i].into(), c[i].into()])?);
        }
        Ok(out)
    }
}

const LOG2_E: f64 = std::f64::consts::LOG2_E;
const LN_2: f64 = std::f64::consts::LN_2;

impl<'ctx> LowerCtx<'ctx> {
    /// `op` on one f32 value, fast (or f64 for sqrt, floor and ceil); with `ftz`, the target's
    /// forms that flush subnormal inputs and results to zero where it has them.
    fn math_fast(
        &mut self,
        op: MathOp,
        x: FloatValue<'ctx>,
        ftz: bool,
    ) -> Result<FloatValue<'ctx>> {
        let is64 = x.get_type() == self.em.ctx.f64_type();
        let ty = x.get_type();
        Ok(match op {
            MathOp::Sqrt => self.float_intrinsic("llvm.sqrt", x)?,
            MathOp::Floor => self.float_intrinsic("llvm.floor", x)?,
            MathOp::Ceil => self.float_intrinsic("llvm.ceil", x)?,
            MathOp::Rsqrt => match self.fast(FastFn::Rsqrt, x, is64, ftz)? {
                Some(y) => y,
                None => {
                    let s = self.float_intrinsic("llvm.sqrt", x)?;
                    self.em.b.build_float_div(ty.const_float(1.0), s, "")?
                }
            },
            MathOp::Exp2 => self.exp2_f(x, ftz)?,
            MathOp::Log2 => self.log2_f(x, ftz)?,
            MathOp::Exp => {
                let s = self.em.b.build_float_mul(x, ty.const_float(LOG2_E), "")?;
                self.exp2_f(s, ftz)?
            }
            MathOp::Log => {
                let l = self.log2_f(x, ftz)?;
                self.em.b.build_float_mul(l, ty.const_float(LN_2), "")?
            }
            MathOp::Sin => match self.fast(FastFn::Sin, x, is64, ftz)? {
                Some(y) => y,
                None => self.float_intrinsic("llvm.sin", x)?,
            },
            MathOp::Cos => match self.fast(FastFn::Cos, x, is64, ftz)? {
                Some(y) => y,
                None => self.float_intrinsic("llvm.cos", x)?,
            },
            MathOp::Erf => self.erf_f(x)?,
        })
    }
}
