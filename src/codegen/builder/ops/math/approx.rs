//! The fast lowering (Triton's default): NVIDIA `.approx` PTX instructions (`ex2`, `lg2`,
//! `sin`, `cos`, `rsqrt`; what `--use_fast_math` picks), LLVM's own intrinsics on AMD, and an
//! f32 polynomial for erf. Used for f32 (and f16/bf16, computed in f32) unless the caller asks
//! for [`MathPrecision::Accurate`](super::MathPrecision::Accurate).

use inkwell::values::FloatValue;

use super::MathOp;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::Result;
use crate::codegen::target::FastFn;

const LOG2_E: f64 = std::f64::consts::LOG2_E;
const LN_2: f64 = std::f64::consts::LN_2;

impl<'ctx> KernelBuilder<'ctx> {
    /// `op` on one f32 value, fast (or f64 for sqrt, floor and ceil); with `ftz`, the target's
    /// forms that flush subnormal inputs and results to zero where it has them.
    pub(super) fn math_approx(
        &mut self,
        op: MathOp,
        x: FloatValue<'ctx>,
        ftz: bool,
    ) -> Result<FloatValue<'ctx>> {
        let is64 = x.get_type() == self.lx.em.ctx.f64_type();
        let ty = x.get_type();
        Ok(match op {
            MathOp::Sqrt => self.lx.float_intrinsic("llvm.sqrt", x)?,
            MathOp::Floor => self.lx.float_intrinsic("llvm.floor", x)?,
            MathOp::Ceil => self.lx.float_intrinsic("llvm.ceil", x)?,
            MathOp::Rsqrt => match self.lx.fast(FastFn::Rsqrt, x, is64, ftz)? {
                Some(y) => y,
                None => {
                    let s = self.lx.float_intrinsic("llvm.sqrt", x)?;
                    self.lx.em.b.build_float_div(ty.const_float(1.0), s, "")?
                }
            },
            MathOp::Exp2 => self.lx.exp2_f(x, ftz)?,
            MathOp::Log2 => self.lx.log2_f(x, ftz)?,
            MathOp::Exp => {
                let s = self
                    .lx
                    .em
                    .b
                    .build_float_mul(x, ty.const_float(LOG2_E), "")?;
                self.lx.exp2_f(s, ftz)?
            }
            MathOp::Log => {
                let l = self.lx.log2_f(x, ftz)?;
                self.lx.em.b.build_float_mul(l, ty.const_float(LN_2), "")?
            }
            MathOp::Sin => match self.lx.fast(FastFn::Sin, x, is64, ftz)? {
                Some(y) => y,
                None => self.lx.float_intrinsic("llvm.sin", x)?,
            },
            MathOp::Cos => match self.lx.fast(FastFn::Cos, x, is64, ftz)? {
                Some(y) => y,
                None => self.lx.float_intrinsic("llvm.cos", x)?,
            },
            MathOp::Erf => self.lx.erf_f(x)?,
        })
    }
}
