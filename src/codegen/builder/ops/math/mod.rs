//! Math functions: exp, exp2, log, log2, sqrt, rsqrt, sin, cos, erf, floor, ceil, and fma.
//!
//! There is no libdevice or ocml here, so there are two lowerings, chosen per call by
//! [`MathPrecision`]:
//!
//! - `Approx`, the default of [`KernelBuilder::math`] for f32, f16 and bf16 (what Triton's and
//!   Gluon's `exp` do): on NVIDIA the `.approx` PTX instructions (`ex2`, `lg2`, `sin`, `cos`,
//!   `rsqrt`; the ones `--use_fast_math` picks), on AMD LLVM's own intrinsics; `exp` and `log`
//!   scale `exp2` and `log2`; `erf` is an f32 polynomial (`lower/math/approx.rs`).
//! - `Accurate`, and always for f64: plain target-independent LLVM IR (fma, integer bit
//!   operations, compares, selects; no libcalls), one file per family in `lower/math/` on the
//!   shared vocabulary of `fp.rs`: `exp.rs` (exp, exp2), `log.rs` (log, log2), `trig.rs` (sin,
//!   cos, with Payne–Hanek for huge arguments), `erf.rs`, and `rsqrt` in its `mod.rs`. f16 and bf16 compute in f32.
//!
//! Measured max error of `Accurate` (`tests/codegen_math.rs`, the lowering compiled for the
//! host: 6M random inputs per function and type, uniformly random bits across the whole range
//! plus uniform samples where the function is not saturated, and all special values; for f32
//! also every 7th of all 2^32 bit patterns, 614M inputs, with `f32_sweep`). f32 against an f64
//! reference; f64 against double-double references (exp, exp2, log, log2, erf), an fma-exact
//! residual (rsqrt), or, for sin and cos, the host libm as the bit distance (so libm's own
//! error is included):
//!
//! | function | f32 (ulp) | f64 (ulp) |
//! |---|---|---|
//! | exp   | 1.05 | 0.98 |
//! | exp2  | 1.05 | 1.04 |
//! | log   | 0.86 | 0.81 |
//! | log2  | 0.81 | 0.75 |
//! | sin   | 0.83 | 1 from libm |
//! | cos   | 0.83 | 1 from libm |
//! | erf   | 0.81 | 0.94 |
//! | rsqrt | 0.50 | 0.50 |
//!
//! NaN in gives NaN; ±inf, ±0, subnormal inputs and results, overflow to ±inf and underflow to
//! 0 follow C99 Annex F (checked bit for bit, sign of zero included). sqrt (correctly rounded),
//! floor and ceil are exact in both precisions.
//!
//! `Approx` on NVIDIA, by the PTX ISA's bounds: `ex2.approx` is within about 2 ulp, but
//! `exp(x) = ex2(x log2 e)` loses `|x log2 e|` ulps in the product; `lg2`, `sin` and `cos`
//! have absolute error bounds (about 2^-22 and 2^-21 in their main range), so the relative
//! error is large near log's root 1 and sin/cos's roots, and sin/cos degrade with `|x|`.
//!
//! [`emit_accurate_math`] emits the accurate lowering into any function (the tests run it on
//! the host).

pub use crate::codegen::ir::attrs::{MathOp, MathPrecision};

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::values::Value;
use crate::codegen::types::Type;

pub use crate::codegen::lower::math::emit_accurate_math;

impl<'ctx> KernelBuilder<'ctx> {
    /// `op(x)` elementwise on a float tile or scalar, with Triton's default precision:
    /// [`MathPrecision::Approx`] (f64 is always accurate).
    #[track_caller]
    pub fn math(&mut self, op: MathOp, x: Value) -> Result<Value> {
        self.math_with(op, x, MathPrecision::Approx)
    }

    /// `op(x)` elementwise on a float tile or scalar, with the given precision.
    /// f16 and bf16 are computed in f32 and rounded back.
    #[track_caller]
    pub fn math_with(&mut self, op: MathOp, x: Value, precision: MathPrecision) -> Result<Value> {
        self.record_checked(OpKind::Math(op, precision), vec![x.into()], |kb| {
            kb.math_with_impl(op, x)
        })
    }

    fn math_with_impl(&mut self, op: MathOp, x: Value) -> Result<Value> {
        let d = self.get(op.name(), x)?;
        if !matches!(d.ty, Type::Scalar(t) if t.is_float()) {
            return Err(CodegenError::InvalidType {
                op: op.name(),
                expected: "a float type (f16, bf16, f32, f64)".into(),
                value: d.describe(),
            });
        }
        let info = AxisInfo::keep_constancy(&d.info);
        Ok(self
            .lx
            .values
            .new_value(d.ty, d.shape.clone(), d.layout.clone(), vec![], info))
    }

    /// `a * b + c` with one rounding (floats).
    #[track_caller]
    pub fn fma(
        &mut self,
        a: Value,
        b: impl crate::codegen::IntoOperand,
        c: impl crate::codegen::IntoOperand,
    ) -> Result<Value> {
        let (b, c) = (b.into_operand(), c.into_operand());
        self.record_checked(OpKind::Fma, vec![a.into(), b.into(), c.into()], |kb| {
            kb.fma_impl(a, b, c)
        })
    }

    fn fma_impl(
        &mut self,
        a: Value,
        b: impl crate::codegen::IntoOperand,
        c: impl crate::codegen::IntoOperand,
    ) -> Result<Value> {
        let x = self.get("fma", a)?;
        let Type::Scalar(dt) = x.ty else {
            return Err(CodegenError::InvalidType {
                op: "fma",
                expected: "a float type".into(),
                value: x.describe(),
            });
        };
        if !dt.is_float() {
            return Err(CodegenError::InvalidType {
                op: "fma",
                expected: "a float type".into(),
                value: x.describe(),
            });
        }
        let y = self.operand("fma", b.into_operand(), Some(x.ty))?;
        let z = self.operand("fma", c.into_operand(), Some(x.ty))?;
        for o in [&y, &z] {
            if o.ty != x.ty {
                return Err(CodegenError::TypeMismatch {
                    op: "fma",
                    lhs: x.describe(),
                    rhs: o.describe(),
                });
            }
        }
        let u = self.unify_plan("fma", &[&x, &y, &z])?;
        let info = AxisInfo::meet_constancy(
            &u.infos[0],
            &AxisInfo::meet_constancy(&u.infos[1], &u.infos[2]),
        );
        Ok(self
            .lx
            .values
            .new_value(x.ty, u.shape, u.layout, vec![], info))
    }

    /// `exp(x)`.
    #[track_caller]
    pub fn exp(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Exp, x)
    }
    /// `exp2(x)`.
    #[track_caller]
    pub fn exp2(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Exp2, x)
    }
    /// `ln(x)`.
    #[track_caller]
    pub fn log(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Log, x)
    }
    /// `log2(x)`.
    #[track_caller]
    pub fn log2(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Log2, x)
    }
    /// `sqrt(x)`.
    #[track_caller]
    pub fn sqrt(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Sqrt, x)
    }
    /// `1/sqrt(x)`.
    #[track_caller]
    pub fn rsqrt(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Rsqrt, x)
    }
    /// `sin(x)`.
    #[track_caller]
    pub fn sin(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Sin, x)
    }
    /// `cos(x)`.
    #[track_caller]
    pub fn cos(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Cos, x)
    }
    /// `erf(x)`.
    #[track_caller]
    pub fn erf(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Erf, x)
    }
    /// `floor(x)`.
    #[track_caller]
    pub fn floor(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Floor, x)
    }
    /// `ceil(x)`.
    #[track_caller]
    pub fn ceil(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Ceil, x)
    }
}
