//! Lowering of the fast math functions: LLVM intrinsics, the target's approximate forms, and the
//! `exp2`/`log2`/`erf` built from them.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::target::{FastFn, FastIntrinsic, LlvmTarget};
use inkwell::values::FloatValue;

impl<'ctx> LowerCtx<'ctx> {
    /// A generic intrinsic overloaded on the float type (`llvm.sqrt.f32`).
    pub(crate) fn float_intrinsic(
        &mut self,
        name: &str,
        x: FloatValue<'ctx>,
    ) -> Result<FloatValue<'ctx>> {
        let f = self.em.intrinsic(name, &[x.get_type().into()])?;
        Ok(self.em.call1(f, &[x.into()])?.into_float_value())
    }

    /// A target intrinsic with a fixed type (`llvm.nvvm.ex2.approx.f`).
    pub(crate) fn named_intrinsic(
        &mut self,
        name: &str,
        x: FloatValue<'ctx>,
    ) -> Result<FloatValue<'ctx>> {
        let f = self.em.intrinsic(name, &[])?;
        Ok(self.em.call1(f, &[x.into()])?.into_float_value())
    }

    /// `f(x)` through the target's fast intrinsic, if it has one.
    pub(crate) fn fast(
        &mut self,
        f: FastFn,
        x: FloatValue<'ctx>,
        is64: bool,
        ftz: bool,
    ) -> Result<Option<FloatValue<'ctx>>> {
        match self.target.lowering().fast_math(f, is64, ftz) {
            Some(FastIntrinsic::Fixed(name)) => self.named_intrinsic(name, x).map(Some),
            Some(FastIntrinsic::Overloaded(name)) => self.float_intrinsic(name, x).map(Some),
            None => Ok(None),
        }
    }

    pub(crate) fn exp2_f(&mut self, x: FloatValue<'ctx>, ftz: bool) -> Result<FloatValue<'ctx>> {
        match self.fast(FastFn::Exp2, x, false, ftz)? {
            Some(y) => Ok(y),
            None => self.float_intrinsic("llvm.exp2", x),
        }
    }

    pub(crate) fn log2_f(&mut self, x: FloatValue<'ctx>, ftz: bool) -> Result<FloatValue<'ctx>> {
        match self.fast(FastFn::Log2, x, false, ftz)? {
            Some(y) => Ok(y),
            None => self.float_intrinsic("llvm.log2", x),
        }
    }

    /// erf in f32: an odd Taylor polynomial below |x| = 0.5 (relative error < 1e-6), and
    /// Abramowitz–Stegun 7.1.26 above (absolute error < 1.5e-7).
    pub(crate) fn erf_f(&mut self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let t = x.get_type();
        let c = |v: f64| t.const_float(v);
        let b = &self.em.b;
        let ax = {
            let f = self.em.intrinsic("llvm.fabs", &[t.into()])?;
            self.em.call1(f, &[x.into()])?.into_float_value()
        };
        // Small |x|: 2/sqrt(pi) * (x - x^3/3 + x^5/10 - x^7/42 + x^9/216).
        let x2 = b.build_float_mul(x, x, "")?;
        let mut p = c(1.0 / 216.0);
        for k in [-1.0 / 42.0, 1.0 / 10.0, -1.0 / 3.0, 1.0] {
            p = b.build_float_mul(p, x2, "")?;
            p = b.build_float_add(p, c(k), "")?;
        }
        let small = b.build_float_mul(
            b.build_float_mul(p, x, "")?,
            c(std::f64::consts::FRAC_2_SQRT_PI),
            "",
        )?;
        // Large |x|: 1 - poly(t) * exp(-x^2), t = 1 / (1 + 0.3275911 |x|).
        let den = b.build_float_add(c(1.0), b.build_float_mul(ax, c(0.3275911), "")?, "")?;
        let tt = b.build_float_div(c(1.0), den, "")?;
        let mut q = c(1.061405429);
        for k in [-1.453152027, 1.421413741, -0.284496736, 0.254829592] {
            q = b.build_float_mul(q, tt, "")?;
            q = b.build_float_add(q, c(k), "")?;
        }
        q = b.build_float_mul(q, tt, "")?;
        let negx2 = b.build_float_neg(x2, "")?;
        let scaled = b.build_float_mul(negx2, c(std::f64::consts::LOG2_E), "")?;
        let e = self.exp2_f(scaled, false)?;
        let b = &self.em.b;
        let y = b.build_float_sub(c(1.0), b.build_float_mul(q, e, "")?, "")?;
        let sign = {
            let f = self.em.intrinsic("llvm.copysign", &[t.into()])?;
            self.em.call1(f, &[y.into(), x.into()])?.into_float_value()
        };
        let is_small =
            self.em
                .b
                .build_float_compare(inkwell::FloatPredicate::OLT, ax, c(0.5), "")?;
        Ok(self
            .em
            .b
            .build_select(is_small, small, sign, "")?
            .into_float_value())
    }
}
