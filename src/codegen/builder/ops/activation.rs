//! The activation functions kernels fuse (Triton's `sigmoid`, PyTorch's `silu`, `gelu` and
//! `softplus`),
//! as compositions of elementwise ops and math: each is the few ops written out below, recorded
//! at the caller's line, so the tile IR, the interpreter and every target see plain arithmetic.
//! The exponentials use the default precision ([`MathPrecision::Approx`](crate::codegen::MathPrecision)).

use crate::codegen::builder::ops::math::{MathOp, MathPrecision};
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::Result;
use crate::codegen::lower::values::Value;

/// `√(2/π)`, the tanh approximation's scale.
const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;
/// The tanh approximation's cubic coefficient.
const GELU_CUBIC: f64 = 0.044_715;
/// Above this, `softplus(x)` is `x` (PyTorch's default `threshold`; `log1p(e^x) - x` is below
/// 2.1e-9 there, under half an ulp of f32).
const SOFTPLUS_THRESHOLD: f64 = 20.0;

impl<'ctx> KernelBuilder<'ctx> {
    /// `1 / x` (floats).
    #[track_caller]
    pub fn reciprocal(&mut self, x: Value) -> Result<Value> {
        self.div(1.0, x)
    }

    /// `1 / (1 + e^-x)`: 0 and 1 at the extremes, never NaN for a finite `x`.
    #[track_caller]
    pub fn sigmoid(&mut self, x: Value) -> Result<Value> {
        let n = self.neg(x)?;
        let e = self.exp(n)?;
        let d = self.add(e, 1.0)?;
        self.div(1.0, d)
    }

    /// `x · sigmoid(x)`, as `x / (1 + e^-x)` (one division).
    #[track_caller]
    pub fn silu(&mut self, x: Value) -> Result<Value> {
        let n = self.neg(x)?;
        let e = self.exp(n)?;
        let d = self.add(e, 1.0)?;
        self.div(x, d)
    }

    /// `x · Φ(x) = x/2 · (1 + erf(x / √2))`: PyTorch's `gelu` (`approximate='none'`).
    #[track_caller]
    pub fn gelu(&mut self, x: Value) -> Result<Value> {
        let s = self.mul(x, std::f64::consts::FRAC_1_SQRT_2)?;
        let e = self.erf(s)?;
        let e = self.add(e, 1.0)?;
        let h = self.mul(x, 0.5)?;
        self.mul(h, e)
    }

    /// `x/2 · (1 + tanh(√(2/π) · (x + 0.044715 x³)))`: PyTorch's `gelu(approximate='tanh')`,
    /// with `tanh(y) = 1 - 2 / (e^{2y} + 1)` (exact at both extremes: e^{2y} overflowing gives 1,
    /// underflowing −1).
    #[track_caller]
    pub fn gelu_tanh(&mut self, x: Value) -> Result<Value> {
        let x2 = self.mul(x, x)?;
        let inner = self.fma(x2, GELU_CUBIC, 1.0)?;
        let inner = self.mul(inner, x)?;
        let y2 = self.mul(inner, 2.0 * SQRT_2_OVER_PI)?;
        let e = self.exp(y2)?;
        let d = self.add(e, 1.0)?;
        let q = self.div(2.0, d)?;
        // 1 + tanh(y) = 2 - 2 / (e^{2y} + 1)
        let t1 = self.sub(2.0, q)?;
        let h = self.mul(x, 0.5)?;
        self.mul(h, t1)
    }

    /// `log(1 + e^x)`, and `x` itself where `x > 20`: PyTorch's `softplus` (`beta=1`,
    /// `threshold=20`; its `log1p(exp(x))` below the threshold). `log1p(u)` is Kahan's
    /// `log(w) · u / (w - 1)` with `w = 1 + u` (`u` itself where `w` rounds to 1), with the
    /// accurate `log`: `log(1 + u)` alone would lose every digit of a small `u` (`x` far below
    /// zero) to the rounding of `w`. Never NaN for a finite `x`, never negative.
    #[track_caller]
    pub fn softplus(&mut self, x: Value) -> Result<Value> {
        let u = self.exp(x)?;
        let w = self.add(u, 1.0)?;
        let l = self.math_with(MathOp::Log, w, MathPrecision::Accurate)?;
        let wm1 = self.sub(w, 1.0)?;
        let ratio = self.div(u, wm1)?;
        let l = self.mul(l, ratio)?;
        let tiny = self.eq(w, 1.0)?;
        let l = self.where_(tiny, u, l)?;
        let big = self.gt(x, SOFTPLUS_THRESHOLD)?;
        self.where_(big, x, l)
    }
}
