//! Accurate `sin` and `cos` for f32 and f64.
//!
//! Cody–Waite reduction `x = k π/2 + r`, `|r| <= π/4`, with π/2 split into four parts of the
//! type's precision (about 212 bits for f64, 96 for f32). `x - k P1` is exact (fma; the result
//! is below 1 and a multiple of ulp(P1)), `k P2` is taken as an exact pair (fma) and subtracted
//! with TwoSum, and the small parts are folded into the tail, so `r` is an unevaluated pair
//! `rh + rl`. The kernels are fdlibm's `__kernel_sin`/`__kernel_cos` structure (which use the
//! tail) with Taylor coefficients (to x^17/x^18 for f64, x^9/x^10 for f32). The quadrant
//! `k mod 4` picks ±sin or ±cos.
//!
//! Range: `k` must be an exactly representable integer and the tail's rounding must stay far
//! below an ulp of the smallest `r` in range; within [`limit`] (2^40 for f64, 2^17 for f32;
//! measured within 2 ulp by `tests/codegen_math.rs`) that holds. Larger finite arguments
//! have no Payne–Hanek reduction yet: they return NaN rather than a wrong number. ±inf and
//! NaN give NaN, `sin(±0) = ±0`.

use inkwell::values::FloatValue;
use inkwell::FloatPredicate;

use super::super::error::Result;
use super::fp::Fp;

/// π/2 as a sum of four f64 (each the rounded remainder of the ones before).
const PIO2_D: [f64; 4] = [
    1.570_796_326_794_896_6,
    6.123_233_995_736_766e-17,
    -1.497_384_904_859_169_8e-33,
    5.562_271_104_316_826e-50,
];
/// π/2 as a sum of four f32.
const PIO2_F: [f64; 4] = [
    1.570_796_370_506_286_6,
    -4.371_138_828_673_793e-8,
    -1.715_124_510_005_881_9e-15,
    1.056_299_898_220_315e-23,
];

/// Which function.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Which {
    Sin,
    Cos,
}

/// The largest `|x|` the reduction handles within the bound (a power of two).
pub fn limit(wide: bool) -> f64 {
    if wide {
        2f64.powi(40)
    } else {
        2f64.powi(17)
    }
}

/// `(-1)^j / n!` for `n = first, first + 2, …` (`count` terms).
fn alternating_factorials(first: u32, count: u32, negate_first: bool) -> Vec<f64> {
    let fact = |n: u32| (1..=n).map(|i| i as f64).product::<f64>();
    (0..count)
        .map(|j| {
            let v = 1.0 / fact(first + 2 * j);
            if (j % 2 == 0) == negate_first {
                -v
            } else {
                v
            }
        })
        .collect()
}

/// `sin x` or `cos x`.
pub(super) fn sin_cos<'ctx>(
    fp: &Fp<'_, 'ctx>,
    x: FloatValue<'ctx>,
    which: Which,
) -> Result<FloatValue<'ctx>> {
    let lim = limit(fp.wide);
    let ax = fp.abs(x)?;
    // NaN, ±inf and beyond the limit: computed on 0, replaced by NaN at the end.
    let ok = fp.cmp(FloatPredicate::OLE, ax, fp.c(lim))?;
    let xs = fp.select(ok, x, fp.c(0.0))?;

    let p = fp.pick(PIO2_D, PIO2_F);
    let kf = fp.round_int(fp.mul(xs, fp.c(std::f64::consts::FRAC_2_PI))?)?;
    let nk = fp.neg(kf)?;
    let r1 = fp.fma(nk, fp.c(p[0]), xs)?; // exact
    let th = fp.mul(kf, fp.c(p[1]))?;
    let tl = fp.fma(kf, fp.c(p[1]), fp.neg(th)?)?;
    let (rh, e) = fp.two_sum(r1, fp.neg(th)?)?;
    let mut rl = fp.sub(e, tl)?;
    rl = fp.fma(nk, fp.c(p[2]), rl)?;
    rl = fp.fma(nk, fp.c(p[3]), rl)?;
    // Renormalise (|rl| is far below ulp(rh) unless both are tiny).
    let s = fp.add(rh, rl)?;
    let rl = fp.sub(rl, fp.sub(s, rh)?)?;
    let rh = s;

    let sin_r = kernel_sin(fp, rh, rl)?;
    let cos_r = kernel_cos(fp, rh, rl)?;
    let mut n = fp.to_int(kf)?;
    if which == Which::Cos {
        n = fp.iadd(n, fp.ci(1))?;
    }
    let odd = fp.icmp(inkwell::IntPredicate::NE, fp.and(n, 1)?, fp.ci(0))?;
    let neg = fp.icmp(inkwell::IntPredicate::NE, fp.and(n, 2)?, fp.ci(0))?;
    let v = fp.select(odd, cos_r, sin_r)?;
    let mut y = fp.select(neg, fp.neg(v)?, v)?;
    if which == Which::Sin {
        // Tiny arguments: sin x = x (keeps -0 and subnormals exact).
        let tiny = fp.cmp(FloatPredicate::OLT, ax, fp.c(fp.pick(2f64.powi(-27), 2f64.powi(-13))))?;
        y = fp.select(tiny, x, y)?;
    }
    fp.select(ok, y, fp.c(f64::NAN))
}

/// `sin(x + y)` for `|x| <= π/4`, `|y|` below an ulp of `x` (fdlibm's `__kernel_sin`).
fn kernel_sin<'ctx>(
    fp: &Fp<'_, 'ctx>,
    x: FloatValue<'ctx>,
    y: FloatValue<'ctx>,
) -> Result<FloatValue<'ctx>> {
    let c = alternating_factorials(3, fp.pick(8, 4), true); // S1 = -1/3!, S2 = 1/5!, …
    let z = fp.mul(x, x)?;
    let v = fp.mul(z, x)?;
    let r = fp.horner(z, &c[1..])?;
    // x - ((z (y/2 - v r) - y) - v S1)
    let t = fp.fma(fp.neg(v)?, r, fp.mul(fp.c(0.5), y)?)?;
    let t = fp.sub(fp.mul(z, t)?, y)?;
    let t = fp.fma(fp.neg(v)?, fp.c(c[0]), t)?;
    fp.sub(x, t)
}

/// `cos(x + y)` for `|x| <= π/4` (fdlibm's `__kernel_cos`).
fn kernel_cos<'ctx>(
    fp: &Fp<'_, 'ctx>,
    x: FloatValue<'ctx>,
    y: FloatValue<'ctx>,
) -> Result<FloatValue<'ctx>> {
    let c = alternating_factorials(4, fp.pick(8, 4), false); // C1 = 1/4!, C2 = -1/6!, …
    let z = fp.mul(x, x)?;
    let r = fp.mul(z, fp.horner(z, &c)?)?;
    let hz = fp.mul(fp.c(0.5), z)?;
    let w = fp.sub(fp.c(1.0), hz)?;
    // w + (((1 - w) - hz) + (z r - x y))
    let t = fp.fma(z, r, fp.neg(fp.mul(x, y)?)?)?;
    let t = fp.add(fp.sub(fp.sub(fp.c(1.0), w)?, hz)?, t)?;
    fp.add(w, t)
}
