//! Float division as Triton lowers `a / b`: PTX's approximate `div.full.f32` (within 2 ulp over
//! the whole range, no rounding mode) for f32, f16 and bf16 widened to f32 and rounded back (PTX
//! has no narrower division), and IEEE division for f64. Where the target has no such
//! instruction (AMDGPU) it is LLVM's fast `fdiv` (`afn arcp`: a reciprocal and a multiply).
//! `div_rn` keeps the IEEE division (`fdiv`, PTX's `div.rn.f32`).

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::DType;
use inkwell::values::FloatValue;

impl<'ctx> LowerCtx<'ctx> {
    /// `l / r` of `dt` as Triton's default division.
    pub(crate) fn fast_div(
        &mut self,
        dt: DType,
        l: FloatValue<'ctx>,
        r: FloatValue<'ctx>,
    ) -> Result<FloatValue<'ctx>> {
        let b = &self.em.b;
        if dt == DType::F64 {
            return Ok(b.build_float_div(l, r, "")?);
        }
        let f32t = self.em.ctx.f32_type();
        let narrow = dt != DType::F32;
        let (x, y) = if narrow {
            (
                b.build_float_ext(l, f32t, "")?,
                b.build_float_ext(r, f32t, "")?,
            )
        } else {
            (l, r)
        };
        let q = match self.target.lowering().fast_div_f32() {
            Some(name) => {
                let f = self.em.intrinsic(name, &[])?;
                self.em.call1(f, &[x.into(), y.into()])?.into_float_value()
            }
            None => {
                let q = self.em.b.build_float_div(x, y, "")?;
                if let Some(i) = q.as_instruction() {
                    use inkwell::values::FastMathFlags as F;
                    // Constants fold to no instruction; a flag on a real one cannot fail.
                    let _ = i.set_fast_math_flags(F::ApproxFunc | F::AllowReciprocal);
                }
                q
            }
        };
        if narrow {
            return Ok(self.em.b.build_float_trunc(q, l.get_type(), "")?);
        }
        Ok(q)
    }
}
