//! `Fp`: a small IR vocabulary for writing the accurate math lowerings once for f32 and f64.
//!
//! Every helper emits plain, target-independent LLVM IR (arithmetic, `llvm.fma`, integer bit
//! operations, compares and selects), so the same code runs on NVPTX, AMDGPU, and on the host in
//! the tests. No fast-math flags are set: the algorithms depend on IEEE rounding of each step.

use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::types::{FloatType, IntType};
use inkwell::values::{FloatValue, FunctionValue, IntValue};
use inkwell::{FloatPredicate, IntPredicate};

use crate::codegen::error::{CodegenError, Result};

/// The emitter for one float type (f32 or f64): constants are rounded to that type.
pub(super) struct Fp<'a, 'ctx> {
    pub(super) b: &'a Builder<'ctx>,
    pub(super) ty: FloatType<'ctx>,
    /// The integer type of the same width (bit manipulation).
    pub(super) ity: IntType<'ctx>,
    /// true for f64.
    pub(super) wide: bool,
    fma_fn: FunctionValue<'ctx>,
}

type F<'ctx> = FloatValue<'ctx>;
type I<'ctx> = IntValue<'ctx>;

impl<'a, 'ctx> Fp<'a, 'ctx> {
    /// An emitter for `ty` (must be f32 or f64) that declares `llvm.fma` in `module`.
    pub(super) fn new(
        b: &'a Builder<'ctx>,
        module: &Module<'ctx>,
        ty: FloatType<'ctx>,
    ) -> Result<Self> {
        let ctx = ty.get_context();
        let wide = if ty == ctx.f64_type() {
            true
        } else if ty == ctx.f32_type() {
            false
        } else {
            return Err(CodegenError::llvm(
                "math",
                "accurate lowering needs f32 or f64",
            ));
        };
        let fma_fn = inkwell::intrinsics::Intrinsic::find("llvm.fma")
            .and_then(|i| i.get_declaration(module, &[ty.into()]))
            .ok_or_else(|| CodegenError::llvm("intrinsic lookup", "llvm.fma"))?;
        let ity = if wide { ctx.i64_type() } else { ctx.i32_type() };
        Ok(Fp {
            b,
            ty,
            ity,
            wide,
            fma_fn,
        })
    }

    // ----- format facts -------------------------------------------------------------------------

    /// Stored mantissa bits (52 or 23).
    pub(super) fn mant_bits(&self) -> u32 {
        if self.wide {
            52
        } else {
            23
        }
    }
    /// Exponent bias (1023 or 127).
    pub(super) fn bias(&self) -> i64 {
        if self.wide {
            1023
        } else {
            127
        }
    }
    /// Picks the f64 or the f32 variant of a constant or table.
    pub(super) fn pick<T>(&self, f64v: T, f32v: T) -> T {
        if self.wide {
            f64v
        } else {
            f32v
        }
    }

    // ----- constants ----------------------------------------------------------------------------

    /// `v` rounded to the type.
    pub(super) fn c(&self, v: f64) -> F<'ctx> {
        self.ty.const_float(v)
    }
    /// An integer constant of the type's width.
    pub(super) fn ci(&self, v: i64) -> I<'ctx> {
        self.ity.const_int(v as u64, true)
    }

    // ----- arithmetic ---------------------------------------------------------------------------

    pub(super) fn add(&self, a: F<'ctx>, b: F<'ctx>) -> Result<F<'ctx>> {
        Ok(self.b.build_float_add(a, b, "")?)
    }
    pub(super) fn sub(&self, a: F<'ctx>, b: F<'ctx>) -> Result<F<'ctx>> {
        Ok(self.b.build_float_sub(a, b, "")?)
    }
    pub(super) fn mul(&self, a: F<'ctx>, b: F<'ctx>) -> Result<F<'ctx>> {
        Ok(self.b.build_float_mul(a, b, "")?)
    }
    pub(super) fn div(&self, a: F<'ctx>, b: F<'ctx>) -> Result<F<'ctx>> {
        Ok(self.b.build_float_div(a, b, "")?)
    }
    pub(super) fn neg(&self, a: F<'ctx>) -> Result<F<'ctx>> {
        Ok(self.b.build_float_neg(a, "")?)
    }
    /// `a * b + c` with one rounding.
    pub(super) fn fma(&self, a: F<'ctx>, b: F<'ctx>, c: F<'ctx>) -> Result<F<'ctx>> {
        Ok(self
            .b
            .build_call(self.fma_fn, &[a.into(), b.into(), c.into()], "")?
            .try_as_basic_value()
            .basic()
            .expect("llvm.fma returns a value")
            .into_float_value())
    }
    /// A one-argument LLVM intrinsic overloaded on the type (`llvm.sqrt.f64`).
    pub(super) fn intrinsic(
        &self,
        name: &str,
        module: &Module<'ctx>,
        x: F<'ctx>,
    ) -> Result<F<'ctx>> {
        let f = inkwell::intrinsics::Intrinsic::find(name)
            .and_then(|i| i.get_declaration(module, &[self.ty.into()]))
            .ok_or_else(|| CodegenError::llvm("intrinsic lookup", name))?;
        Ok(self
            .b
            .build_call(f, &[x.into()], "")?
            .try_as_basic_value()
            .basic()
            .expect("intrinsic returns a value")
            .into_float_value())
    }
    /// `sum c[i] x^i` by Horner's rule with fma; `c` lowest degree first.
    pub(super) fn horner(&self, x: F<'ctx>, c: &[f64]) -> Result<F<'ctx>> {
        let (last, rest) = c.split_last().expect("a polynomial has coefficients");
        let mut p = self.c(*last);
        for &k in rest.iter().rev() {
            p = self.fma(p, x, self.c(k))?;
        }
        Ok(p)
    }
    /// Like [`Fp::horner`], but each coefficient is chosen by `cond` between two tables of the
    /// same length (a branch-free piecewise polynomial).
    pub(super) fn horner_sel(
        &self,
        cond: I<'ctx>,
        x: F<'ctx>,
        on_true: &[f64],
        on_false: &[f64],
    ) -> Result<F<'ctx>> {
        debug_assert_eq!(on_true.len(), on_false.len());
        let n = on_true.len();
        let coef = |i: usize| self.select(cond, self.c(on_true[i]), self.c(on_false[i]));
        let mut p = coef(n - 1)?;
        for i in (0..n - 1).rev() {
            p = self.fma(p, x, coef(i)?)?;
        }
        Ok(p)
    }
    /// `(a + b)` as an unevaluated pair `(s, e)` with `s + e == a + b` exactly (Knuth's TwoSum).
    pub(super) fn two_sum(&self, a: F<'ctx>, b: F<'ctx>) -> Result<(F<'ctx>, F<'ctx>)> {
        let s = self.add(a, b)?;
        let bb = self.sub(s, a)?;
        let ab = self.sub(s, bb)?;
        let e = self.add(self.sub(a, ab)?, self.sub(b, bb)?)?;
        Ok((s, e))
    }

    // ----- bits ---------------------------------------------------------------------------------

    pub(super) fn bits(&self, x: F<'ctx>) -> Result<I<'ctx>> {
        Ok(self.b.build_bit_cast(x, self.ity, "")?.into_int_value())
    }
    pub(super) fn float_from_bits(&self, i: I<'ctx>) -> Result<F<'ctx>> {
        Ok(self.b.build_bit_cast(i, self.ty, "")?.into_float_value())
    }
    pub(super) fn and(&self, a: I<'ctx>, mask: u64) -> Result<I<'ctx>> {
        Ok(self.b.build_and(a, self.ity.const_int(mask, false), "")?)
    }
    pub(super) fn iadd(&self, a: I<'ctx>, b: I<'ctx>) -> Result<I<'ctx>> {
        Ok(self.b.build_int_add(a, b, "")?)
    }
    pub(super) fn isub(&self, a: I<'ctx>, b: I<'ctx>) -> Result<I<'ctx>> {
        Ok(self.b.build_int_sub(a, b, "")?)
    }
    pub(super) fn shl(&self, a: I<'ctx>, n: u32) -> Result<I<'ctx>> {
        Ok(self
            .b
            .build_left_shift(a, self.ity.const_int(n as u64, false), "")?)
    }
    /// Arithmetic shift right.
    pub(super) fn ashr(&self, a: I<'ctx>, n: u32) -> Result<I<'ctx>> {
        Ok(self
            .b
            .build_right_shift(a, self.ity.const_int(n as u64, false), true, "")?)
    }
    /// `|x|` by clearing the sign bit.
    pub(super) fn abs(&self, x: F<'ctx>) -> Result<F<'ctx>> {
        let m = if self.wide {
            u64::MAX >> 1
        } else {
            u32::MAX as u64 >> 1
        };
        self.float_from_bits(self.and(self.bits(x)?, m)?)
    }
    /// `x` with its low `n` mantissa bits cleared (an exactly squarable head of `x`).
    pub(super) fn trunc_low(&self, x: F<'ctx>, n: u32) -> Result<F<'ctx>> {
        let m = if self.wide {
            u64::MAX << n
        } else {
            (u32::MAX << n) as u64
        };
        self.float_from_bits(self.and(self.bits(x)?, m)?)
    }
    /// `|x|` with the sign of `s` (copysign).
    pub(super) fn copysign(&self, x: F<'ctx>, s: F<'ctx>) -> Result<F<'ctx>> {
        let sign = 1u64 << (if self.wide { 63 } else { 31 });
        let mag = self.bits(self.abs(x)?)?;
        let sgn = self.and(self.bits(s)?, sign)?;
        self.float_from_bits(self.b.build_or(mag, sgn, "")?)
    }
    /// `2^k` for an integer `k` in the normal range `[1 - bias, bias]`.
    pub(super) fn pow2(&self, k: I<'ctx>) -> Result<F<'ctx>> {
        let e = self.iadd(k, self.ci(self.bias()))?;
        self.float_from_bits(self.shl(e, self.mant_bits())?)
    }
    /// `p * 2^k` for `|k| <= 2 * bias`, in two exact-or-once-rounded steps, so results that
    /// overflow become ±inf, and subnormal results are rounded once from the exact product.
    pub(super) fn ldexp(&self, p: F<'ctx>, k: I<'ctx>) -> Result<F<'ctx>> {
        let k1 = self.ashr(k, 1)?;
        let k2 = self.isub(k, k1)?;
        let y = self.mul(p, self.pow2(k1)?)?;
        self.mul(y, self.pow2(k2)?)
    }

    // ----- integers and rounding ----------------------------------------------------------------

    /// `x` rounded to the nearest integer (ties to even), valid for `|x| < 2^(mant_bits - 1)`:
    /// adding and subtracting 1.5 * 2^mant_bits leaves only the integer part.
    pub(super) fn round_int(&self, x: F<'ctx>) -> Result<F<'ctx>> {
        let magic = self.c(1.5 * 2f64.powi(self.mant_bits() as i32));
        self.sub(self.add(x, magic)?, magic)
    }
    /// An integral float to the integer type (the value must be in range, never NaN).
    pub(super) fn to_int(&self, x: F<'ctx>) -> Result<I<'ctx>> {
        Ok(self.b.build_float_to_signed_int(x, self.ity, "")?)
    }
    pub(super) fn to_float(&self, i: I<'ctx>) -> Result<F<'ctx>> {
        Ok(self.b.build_signed_int_to_float(i, self.ty, "")?)
    }

    // ----- compares and selects -----------------------------------------------------------------

    pub(super) fn cmp(&self, p: FloatPredicate, a: F<'ctx>, b: F<'ctx>) -> Result<I<'ctx>> {
        Ok(self.b.build_float_compare(p, a, b, "")?)
    }
    pub(super) fn icmp(&self, p: IntPredicate, a: I<'ctx>, b: I<'ctx>) -> Result<I<'ctx>> {
        Ok(self.b.build_int_compare(p, a, b, "")?)
    }
    pub(super) fn is_nan(&self, x: F<'ctx>) -> Result<I<'ctx>> {
        self.cmp(FloatPredicate::UNO, x, x)
    }
    pub(super) fn select(&self, c: I<'ctx>, a: F<'ctx>, b: F<'ctx>) -> Result<F<'ctx>> {
        Ok(self.b.build_select(c, a, b, "")?.into_float_value())
    }
    pub(super) fn iselect(&self, c: I<'ctx>, a: I<'ctx>, b: I<'ctx>) -> Result<I<'ctx>> {
        Ok(self.b.build_select(c, a, b, "")?.into_int_value())
    }
}

/// The base of an exponential or logarithm: `e` or 2 (the other bases are these scaled).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Base {
    E,
    Two,
}
