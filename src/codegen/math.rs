//! Math functions: exp, exp2, log, log2, sqrt, rsqrt, sin, cos, erf, floor, ceil, and fma.
//!
//! There is no libdevice here, so each function is lowered to what the target has: on NVIDIA
//! the `.approx` PTX instructions (`ex2`, `lg2`, `sin`, `cos`, `rsqrt`; the same ones
//! `--use_fast_math` picks) and exact `sqrt.rn`, `cvt.rmi/rpi`; on AMD LLVM's own intrinsics.
//! `exp` and `log` scale `exp2` and `log2`; `erf` is a polynomial evaluated in f32. f16 and bf16
//! are computed in f32. f64 has sqrt, rsqrt, floor and ceil; its transcendental functions are
//! reported as unsupported (LLVM has no lowering for them on either target).

use inkwell::values::{BasicValueEnum, FloatValue};

use super::axis_info::AxisInfo;
use super::error::{CodegenError, Result};
use super::kernel::KernelBuilder;
use super::target::Vendor;
use super::tile::Value;
use super::types::{DType, Type};

/// A unary math function on floats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MathOp {
    /// `e^x`.
    Exp,
    /// `2^x`.
    Exp2,
    /// Natural logarithm.
    Log,
    /// Base-2 logarithm.
    Log2,
    /// Square root (correctly rounded).
    Sqrt,
    /// `1 / sqrt(x)` (approximate).
    Rsqrt,
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// The error function.
    Erf,
    /// Round down.
    Floor,
    /// Round up.
    Ceil,
}

impl MathOp {
    /// Every op, for exhaustive tests.
    pub const ALL: [MathOp; 11] = [
        MathOp::Exp,
        MathOp::Exp2,
        MathOp::Log,
        MathOp::Log2,
        MathOp::Sqrt,
        MathOp::Rsqrt,
        MathOp::Sin,
        MathOp::Cos,
        MathOp::Erf,
        MathOp::Floor,
        MathOp::Ceil,
    ];

    fn name(self) -> &'static str {
        match self {
            MathOp::Exp => "exp",
            MathOp::Exp2 => "exp2",
            MathOp::Log => "log",
            MathOp::Log2 => "log2",
            MathOp::Sqrt => "sqrt",
            MathOp::Rsqrt => "rsqrt",
            MathOp::Sin => "sin",
            MathOp::Cos => "cos",
            MathOp::Erf => "erf",
            MathOp::Floor => "floor",
            MathOp::Ceil => "ceil",
        }
    }

    fn exact_in_f64(self) -> bool {
        matches!(
            self,
            MathOp::Sqrt | MathOp::Rsqrt | MathOp::Floor | MathOp::Ceil
        )
    }
}

const LOG2_E: f64 = std::f64::consts::LOG2_E;
const LN_2: f64 = std::f64::consts::LN_2;

impl<'ctx> KernelBuilder<'ctx> {
    /// `op(x)` elementwise on a float tile or scalar.
    pub fn math(&mut self, op: MathOp, x: Value) -> Result<Value> {
        let d = self.get(op.name(), x)?;
        let dt = match d.ty {
            Type::Scalar(t) if t.is_float() => t,
            _ => {
                return Err(CodegenError::InvalidType {
                    op: op.name(),
                    expected: "a float type (f16, bf16, f32, f64)".into(),
                    value: d.describe(),
                })
            }
        };
        if dt == DType::F64 && !op.exact_in_f64() {
            return Err(CodegenError::Unsupported {
                op: op.name(),
                target: self.target.name().into(),
                reason: "f64 transcendental functions have no lowering without libdevice/ocml; compute in f32".into(),
            });
        }
        let f32t = self.ctx.f32_type();
        let mut out = Vec::with_capacity(d.regs.len());
        for r in &d.regs {
            let v = r.into_float_value();
            let res: BasicValueEnum = if dt == DType::F32 || dt == DType::F64 {
                self.math_native(op, v)?.into()
            } else {
                let wide = self.b.build_float_ext(v, f32t, "")?;
                let y = self.math_native(op, wide)?;
                self.b.build_float_trunc(y, v.get_type(), "")?.into()
            };
            out.push(res);
        }
        let info = AxisInfo::keep_constancy(&d.info);
        Ok(self.new_value(d.ty, d.shape.clone(), d.layout.clone(), out, info))
    }

    /// `op` on one f32 (or f64, for the exact ops) value.
    fn math_native(&mut self, op: MathOp, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let nv = self.target.vendor() == Vendor::Nvidia;
        let is64 = x.get_type() == self.ctx.f64_type();
        let ty = x.get_type();
        Ok(match op {
            MathOp::Sqrt => self.float_intrinsic("llvm.sqrt", x)?,
            MathOp::Floor => self.float_intrinsic("llvm.floor", x)?,
            MathOp::Ceil => self.float_intrinsic("llvm.ceil", x)?,
            MathOp::Rsqrt if nv => {
                let name = if is64 {
                    "llvm.nvvm.rsqrt.approx.d"
                } else {
                    "llvm.nvvm.rsqrt.approx.f"
                };
                self.named_intrinsic(name, x)?
            }
            MathOp::Rsqrt => {
                let s = self.float_intrinsic("llvm.sqrt", x)?;
                self.b.build_float_div(ty.const_float(1.0), s, "")?
            }
            MathOp::Exp2 => self.exp2_f(x)?,
            MathOp::Log2 => self.log2_f(x)?,
            MathOp::Exp => {
                let s = self.b.build_float_mul(x, ty.const_float(LOG2_E), "")?;
                self.exp2_f(s)?
            }
            MathOp::Log => {
                let l = self.log2_f(x)?;
                self.b.build_float_mul(l, ty.const_float(LN_2), "")?
            }
            MathOp::Sin if nv => self.named_intrinsic("llvm.nvvm.sin.approx.f", x)?,
            MathOp::Cos if nv => self.named_intrinsic("llvm.nvvm.cos.approx.f", x)?,
            MathOp::Sin => self.float_intrinsic("llvm.sin", x)?,
            MathOp::Cos => self.float_intrinsic("llvm.cos", x)?,
            MathOp::Erf => self.erf_f(x)?,
        })
    }

    fn exp2_f(&mut self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        if self.target.vendor() == Vendor::Nvidia {
            self.float_intrinsic("llvm.nvvm.ex2.approx", x)
        } else {
            self.float_intrinsic("llvm.exp2", x)
        }
    }

    fn log2_f(&mut self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        if self.target.vendor() == Vendor::Nvidia {
            self.named_intrinsic("llvm.nvvm.lg2.approx.f", x)
        } else {
            self.float_intrinsic("llvm.log2", x)
        }
    }

    /// A generic intrinsic overloaded on the float type (`llvm.sqrt.f32`).
    fn float_intrinsic(&mut self, name: &str, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let f = self.intrinsic(name, &[x.get_type().into()])?;
        Ok(self.call1(f, &[x.into()])?.into_float_value())
    }

    /// A target intrinsic with a fixed type (`llvm.nvvm.ex2.approx.f`).
    fn named_intrinsic(&mut self, name: &str, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let f = self.intrinsic(name, &[])?;
        Ok(self.call1(f, &[x.into()])?.into_float_value())
    }

    /// erf in f32: an odd Taylor polynomial below |x| = 0.5 (relative error < 1e-6), and
    /// Abramowitz–Stegun 7.1.26 above (absolute error < 1.5e-7).
    fn erf_f(&mut self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let t = x.get_type();
        let c = |v: f64| t.const_float(v);
        let b = &self.b;
        let ax = {
            let f = self.intrinsic("llvm.fabs", &[t.into()])?;
            self.call1(f, &[x.into()])?.into_float_value()
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
        let scaled = b.build_float_mul(negx2, c(LOG2_E), "")?;
        let e = self.exp2_f(scaled)?;
        let b = &self.b;
        let y = b.build_float_sub(c(1.0), b.build_float_mul(q, e, "")?, "")?;
        let sign = {
            let f = self.intrinsic("llvm.copysign", &[t.into()])?;
            self.call1(f, &[y.into(), x.into()])?.into_float_value()
        };
        let is_small = self
            .b
            .build_float_compare(inkwell::FloatPredicate::OLT, ax, c(0.5), "")?;
        Ok(self
            .b
            .build_select(is_small, small, sign, "")?
            .into_float_value())
    }

    /// `a * b + c` with one rounding (floats).
    pub fn fma(
        &mut self,
        a: Value,
        b: impl super::IntoOperand,
        c: impl super::IntoOperand,
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
        let u = self.unify("fma", &[&x, &y, &z])?;
        let f = self.intrinsic("llvm.fma", &[dt.llvm(self.ctx)])?;
        let mut out = Vec::with_capacity(u.regs[0].len());
        for i in 0..u.regs[0].len() {
            out.push(self.call1(
                f,
                &[
                    u.regs[0][i].into(),
                    u.regs[1][i].into(),
                    u.regs[2][i].into(),
                ],
            )?);
        }
        let info = AxisInfo::meet_constancy(
            &u.infos[0],
            &AxisInfo::meet_constancy(&u.infos[1], &u.infos[2]),
        );
        Ok(self.new_value(x.ty, u.shape, u.layout, out, info))
    }

    /// `exp(x)`.
    pub fn exp(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Exp, x)
    }
    /// `exp2(x)`.
    pub fn exp2(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Exp2, x)
    }
    /// `ln(x)`.
    pub fn log(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Log, x)
    }
    /// `log2(x)`.
    pub fn log2(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Log2, x)
    }
    /// `sqrt(x)`.
    pub fn sqrt(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Sqrt, x)
    }
    /// `1/sqrt(x)`.
    pub fn rsqrt(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Rsqrt, x)
    }
    /// `sin(x)`.
    pub fn sin(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Sin, x)
    }
    /// `cos(x)`.
    pub fn cos(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Cos, x)
    }
    /// `erf(x)`.
    pub fn erf(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Erf, x)
    }
    /// `floor(x)`.
    pub fn floor(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Floor, x)
    }
    /// `ceil(x)`.
    pub fn ceil(&mut self, x: Value) -> Result<Value> {
        self.math(MathOp::Ceil, x)
    }
}
