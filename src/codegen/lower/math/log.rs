//! Accurate `log` and `log2` for f32 and f64 (fdlibm's method, Taylor coefficients).
//!
//! `x = 2^k m` with `m` in `[sqrt(1/2), sqrt(2))` (subnormal `x` are scaled up first), `f = m - 1`,
//! `s = f / (2 + f)`, and `log(1 + f) = 2 atanh(s) = f - f²/2 + s (f²/2 + R(s²))` where `R` is the
//! atanh series `Σ 2 z^j / (2j + 1)` (10 terms for f64, 4 for f32: truncation below 2^-60
//! and 2^-28 relative). `log` adds `k ln2` with a split `ln2` (exact head products); `log2`
//! splits `f - f²/2` into an exactly multipliable head and a tail and multiplies by a split
//! `1/ln2` (fdlibm's `log2`). NaN and negative arguments give NaN, ±0 gives -inf, +inf gives
//! +inf.

use inkwell::values::FloatValue;
use inkwell::FloatPredicate;

use super::exp::{LN2_HI_D, LN2_HI_F, LN2_LO_D, LN2_LO_F};
use super::fp::{Base, Fp};
use crate::codegen::error::Result;

/// 1/ln2 split so that a head with 21 (f64) or 12 (f32) bits times `IVLN2_HI` is exact.
const IVLN2_HI_D: f64 = 1.442_695_040_721_446_3;
const IVLN2_LO_D: f64 = 1.675_171_316_488_651_2e-10;
const IVLN2_HI_F: f64 = 1.442_871_093_8;
const IVLN2_LO_F: f64 = -1.760_528_539_3e-4;

/// `ln x` or `log2 x`.
pub(super) fn log<'ctx>(
    fp: &Fp<'_, 'ctx>,
    x: FloatValue<'ctx>,
    base: Base,
) -> Result<FloatValue<'ctx>> {
    let mb = fp.mant_bits();
    // Subnormals: scale by 2^(mb + 2) so the exponent field holds the whole exponent.
    let scale = mb as i32 + 2;
    let min_normal = fp.pick(f64::MIN_POSITIVE, f32::MIN_POSITIVE as f64);
    let sub = fp.cmp(FloatPredicate::OLT, x, fp.c(min_normal))?;
    let xs = fp.select(sub, fp.mul(x, fp.c(2f64.powi(scale)))?, x)?;
    let kadj = fp.iselect(sub, fp.ci(-(scale as i64)), fp.ci(0))?;

    // Shift the exponent boundary to sqrt(1/2): m in [sqrt(1/2), sqrt(2)).
    let (one, sqrt_half) = fp.pick(
        (1f64.to_bits(), std::f64::consts::FRAC_1_SQRT_2.to_bits()),
        (
            1f32.to_bits() as u64,
            std::f32::consts::FRAC_1_SQRT_2.to_bits() as u64,
        ),
    );
    let ix = fp.iadd(fp.bits(xs)?, fp.ci((one - sqrt_half) as i64))?;
    let k = fp.isub(fp.ashr(ix, mb)?, fp.ci(fp.bias()))?;
    let k = fp.iadd(k, kadj)?;
    let mbits = fp.iadd(fp.and(ix, (1u64 << mb) - 1)?, fp.ci(sqrt_half as i64))?;
    let m = fp.float_from_bits(mbits)?;

    let f = fp.sub(m, fp.c(1.0))?; // exact (Sterbenz)
    let hfsq = fp.mul(fp.mul(fp.c(0.5), f)?, f)?;
    let s = fp.div(f, fp.add(fp.c(2.0), f)?)?;
    let z = fp.mul(s, s)?;
    let terms: u32 = fp.pick(10, 4);
    let coef: Vec<f64> = (1..=terms).map(|j| 2.0 / (2 * j + 1) as f64).collect();
    let r = fp.mul(z, fp.horner(z, &coef)?)?;
    let tail = fp.mul(s, fp.add(hfsq, r)?)?; // s (f²/2 + R)
    let dk = fp.to_float(k)?;

    let y = match base {
        Base::E => {
            let (hi, lo) = fp.pick((LN2_HI_D, LN2_LO_D), (LN2_HI_F, LN2_LO_F));
            // ((s (hfsq + R) + k ln2_lo) - hfsq + f) + k ln2_hi, small terms first.
            let t = fp.fma(dk, fp.c(lo), tail)?;
            let t = fp.add(fp.sub(t, hfsq)?, f)?;
            fp.fma(dk, fp.c(hi), t)?
        }
        Base::Two => {
            let (ivhi, ivlo) = fp.pick((IVLN2_HI_D, IVLN2_LO_D), (IVLN2_HI_F, IVLN2_LO_F));
            let hi = fp.trunc_low(fp.sub(f, hfsq)?, fp.pick(32, 12))?;
            let lo = fp.add(fp.sub(fp.sub(f, hi)?, hfsq)?, tail)?;
            let val_hi = fp.mul(hi, fp.c(ivhi))?; // exact
            let val_lo = fp.fma(lo, fp.c(ivhi), fp.mul(fp.add(lo, hi)?, fp.c(ivlo))?)?;
            let w = fp.add(dk, val_hi)?;
            let val_lo = fp.add(val_lo, fp.add(fp.sub(dk, w)?, val_hi)?)?;
            fp.add(val_lo, w)?
        }
    };

    let inf = fp.c(f64::INFINITY);
    let is_inf = fp.cmp(FloatPredicate::OEQ, x, inf)?;
    let y = fp.select(is_inf, inf, y)?;
    let is_zero = fp.cmp(FloatPredicate::OEQ, x, fp.c(0.0))?;
    let y = fp.select(is_zero, fp.c(f64::NEG_INFINITY), y)?;
    let neg = fp.cmp(FloatPredicate::OLT, x, fp.c(0.0))?;
    let y = fp.select(neg, fp.c(f64::NAN), y)?;
    fp.select(fp.is_nan(x)?, x, y)
}
