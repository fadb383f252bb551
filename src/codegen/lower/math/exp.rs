//! Accurate `exp` and `exp2` for f32 and f64.
//!
//! Range reduction: `x = k ln2 + r` (or `x = k + r/ln2` for exp2) with `|r| <= ln2/2`, `k` an
//! integer. `r` is kept as an unevaluated pair `rh + rl`, so the reduction loses nothing:
//! `x - k ln2_hi` is exact (fma, |result| < 1), the rest uses split constants and TwoSum.
//! `e^r - 1` is a Taylor polynomial (degree 13 for f64, 7 for f32; truncation < 0.1 ulp on
//! `|r| <= 0.347`), and `2^k` is applied in two steps so overflow gives ±inf and subnormal
//! results are rounded once. Arguments are clamped before the reduction (keeping `k` small
//! enough for that) and NaN is passed through.

use inkwell::values::FloatValue;
use inkwell::FloatPredicate;

use super::fp::{Base, Fp};
use crate::codegen::error::Result;

/// ln 2 split so that `k * LN2_HI` is exact for `|k| < 2^11` (f64: fdlibm's constants).
pub(super) const LN2_HI_D: f64 = 6.931_471_803_691_238e-1;
pub(super) const LN2_LO_D: f64 = 1.908_214_929_270_587_7e-10;
/// The f32 split (fdlibm's `expf`/`logf`): 17 bits in the head.
pub(super) const LN2_HI_F: f64 = 6.931_381_225_6e-1;
pub(super) const LN2_LO_F: f64 = 9.058_000_614_5e-6;
/// ln 2 rounded to each type, and what is left (for `exp2`'s `r * ln2` as a pair).
const LN2_D: f64 = std::f64::consts::LN_2;
const LN2_TAIL_D: f64 = 2.319_046_813_846_299_6e-17;
const LN2_F: f64 = 0.693_147_182_464_599_6;
const LN2_TAIL_F: f64 = -1.904_654_299_957_768e-9;

/// `1 / j!` for `j = 2, 3, …, last`.
fn inv_factorials(last: u32) -> Vec<f64> {
    let mut out = Vec::new();
    let mut f = 1.0f64;
    for j in 1..=last {
        f *= j as f64;
        if j >= 2 {
            out.push(1.0 / f);
        }
    }
    out
}

/// `e^x` or `2^x`.
pub(super) fn exp<'ctx>(
    fp: &Fp<'_, 'ctx>,
    x: FloatValue<'ctx>,
    base: Base,
) -> Result<FloatValue<'ctx>> {
    // Beyond ±lim the result is 0 or inf either way; clamping keeps |k| <= 2 * bias.
    let lim = match base {
        Base::E => fp.pick(800.0, 110.0),
        Base::Two => fp.pick(1100.0, 160.0),
    };
    let nan = fp.is_nan(x)?;
    let hi = fp.cmp(FloatPredicate::OGT, x, fp.c(lim))?;
    let mut xc = fp.select(hi, fp.c(lim), x)?;
    let lo = fp.cmp(FloatPredicate::OLT, xc, fp.c(-lim))?;
    xc = fp.select(lo, fp.c(-lim), xc)?;
    xc = fp.select(nan, fp.c(0.0), xc)?;

    let (kf, rh, rl) = match base {
        Base::E => {
            let kf = fp.round_int(fp.mul(xc, fp.c(std::f64::consts::LOG2_E))?)?;
            let nk = fp.neg(kf)?;
            let (ln2_hi, ln2_lo) = fp.pick((LN2_HI_D, LN2_LO_D), (LN2_HI_F, LN2_LO_F));
            // Exact: both terms are multiples of ulp(ln2_hi) and the result is below 1.
            let r0 = fp.fma(nk, fp.c(ln2_hi), xc)?;
            // k * ln2_lo as a pair, then r0 - that as a pair.
            let th = fp.mul(kf, fp.c(ln2_lo))?;
            let tl = fp.fma(kf, fp.c(ln2_lo), fp.neg(th)?)?;
            let (rh, e) = fp.two_sum(r0, fp.neg(th)?)?;
            (kf, rh, fp.sub(e, tl)?)
        }
        Base::Two => {
            let kf = fp.round_int(xc)?;
            let t = fp.sub(xc, kf)?; // exact
            let (ln2, tail) = fp.pick((LN2_D, LN2_TAIL_D), (LN2_F, LN2_TAIL_F));
            let rh = fp.mul(t, fp.c(ln2))?;
            let rl = fp.fma(t, fp.c(ln2), fp.neg(rh)?)?;
            (kf, rh, fp.fma(t, fp.c(tail), rl)?)
        }
    };
    let p = exp_pair(fp, rh, rl)?;
    let y = fp.ldexp(p, fp.to_int(kf)?)?;
    fp.select(nan, x, y)
}

/// `e^(rh + rl)` for `|rh| <= ~0.35` and `|rl|` a few ulps of `rh`.
fn exp_pair<'ctx>(
    fp: &Fp<'_, 'ctx>,
    rh: FloatValue<'ctx>,
    rl: FloatValue<'ctx>,
) -> Result<FloatValue<'ctx>> {
    let coef = inv_factorials(fp.pick(13, 7));
    let q = fp.horner(rh, &coef)?;
    let r2 = fp.mul(rh, rh)?;
    let em1 = fp.fma(r2, q, rh)?; // e^rh - 1
    let corr = fp.fma(em1, rl, rl)?; // e^rh * rl, less the 1 added last
    fp.add(fp.c(1.0), fp.add(em1, corr)?)
}
