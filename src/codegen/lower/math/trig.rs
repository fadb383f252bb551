//! Accurate `sin` and `cos` for f32 and f64, for every finite argument.
//!
//! Reduction `x = k π/2 + r`, `|r| <= π/4`, with `r` kept as an unevaluated pair `rh + rl`:
//!
//! - `|x| <=` [`limit`] (2^40 for f64, 2^17 for f32): Cody–Waite with π/2 split into four
//!   parts of the type's precision (about 212 bits for f64, 96 for f32). `x - k P1` is exact
//!   (fma; the result is below 1 and a multiple of ulp(P1)), `k P2` is an exact pair (fma)
//!   subtracted with TwoSum, and the small parts go into the tail. Up to the limit the tail's
//!   rounding stays far below an ulp of the smallest `r` that occurs.
//! - Larger finite `x`: Payne–Hanek, in a basic block that only such arguments enter (so the
//!   common path pays one compare and a branch). The integer mantissa times a 192-bit window
//!   of 2/π (a 1280-bit table, words picked by selects) in 256-bit integer arithmetic gives
//!   `k mod 4` and 128 bits of the fraction: enough for the hardest f64 argument known
//!   (`6381956970095103 * 2^797`, `|r|` about 2^-61).
//!
//! The kernels are fdlibm's `__kernel_sin`/`__kernel_cos` structure (they use the tail) with
//! Taylor coefficients (to x^17/x^18 for f64, x^9/x^10 for f32). `k mod 4` picks ±sin or ±cos.
//! ±inf and NaN give NaN; `sin(±0) = ±0` and tiny arguments return `x`.

use inkwell::values::{FloatValue, IntValue};
use inkwell::{FloatPredicate, IntPredicate};

use super::fp::Fp;
use crate::codegen::error::{CodegenError, Result};

/// π/2 as a sum of four f64 (each the rounded remainder of the ones before).
const PIO2_D: [f64; 4] = [
    std::f64::consts::FRAC_PI_2,
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

/// 2/π in 64-bit words, most significant first (2/π = 0.A2F9836E… in hex): 1280 bits, enough
/// for a 256-bit window after any f64 exponent.
const TWO_OVER_PI: [u64; 20] = [
    0xA2F9_836E_4E44_1529,
    0xFC27_57D1_F534_DDC0,
    0xDB62_9599_3C43_9041,
    0xFE51_63AB_DEBB_C561,
    0xB724_6E3A_424D_D2E0,
    0x0649_2EEA_09D1_921C,
    0xFE1D_EB1C_B129_A73E,
    0xE882_35F5_2EBB_4484,
    0xE99C_7026_B45F_7E41,
    0x3991_D639_8353_39F4,
    0x9C84_5F8B_BDF9_283B,
    0x1FF8_97FF_DE05_980F,
    0xEF2F_118B_5A0A_6D1F,
    0x6D36_7ECF_27CB_09B7,
    0x4F46_3F66_9E5F_EA2D,
    0x7527_BAC7_EBE5_F17B,
    0x3D07_39F7_8A52_92EA,
    0x6BFB_5FB1_1F8D_5D08,
    0x5603_3046_FC7B_6BAB,
    0xF0CF_BC20_9AF4_361D,
];

/// Which function.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Which {
    Sin,
    Cos,
}

/// The largest `|x|` reduced by Cody–Waite; larger arguments take Payne–Hanek.
pub(super) fn limit(wide: bool) -> f64 {
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
    let small = fp.cmp(FloatPredicate::OLE, ax, fp.c(lim))?;
    let finite = fp.cmp(FloatPredicate::OLT, ax, fp.c(f64::INFINITY))?;
    // NaN, ±inf and huge arguments run Cody–Waite on 0 (and are replaced below).
    let xs = fp.select(small, x, fp.c(0.0))?;
    let (rh, rl, n) = cody_waite(fp, xs)?;

    // Huge finite arguments: Payne–Hanek, in a block of its own that only they enter.
    let here = fp.b.get_insert_block().expect("builder is positioned");
    let ctx = fp.ty.get_context();
    let ph_bb = ctx.insert_basic_block_after(here, "trig.huge");
    let join = ctx.insert_basic_block_after(ph_bb, "trig.join");
    let huge = fp.b.build_and(finite, fp.b.build_not(small, "")?, "")?;
    fp.b.build_conditional_branch(huge, ph_bb, join)?;
    fp.b.position_at_end(ph_bb);
    let (ph_rh, ph_rl, ph_n) = payne_hanek(fp, x)?;
    let ph_end = fp.b.get_insert_block().expect("positioned");
    fp.b.build_unconditional_branch(join)?;
    fp.b.position_at_end(join);
    let phi_f = |a: FloatValue<'ctx>, b: FloatValue<'ctx>| -> Result<FloatValue<'ctx>> {
        let p = fp.b.build_phi(fp.ty, "")?;
        p.add_incoming(&[(&a, here), (&b, ph_end)]);
        Ok(p.as_basic_value().into_float_value())
    };
    let rh = phi_f(rh, ph_rh)?;
    let rl = phi_f(rl, ph_rl)?;
    let n = {
        let p = fp.b.build_phi(fp.ity, "")?;
        p.add_incoming(&[(&n, here), (&ph_n, ph_end)]);
        p.as_basic_value().into_int_value()
    };

    let sin_r = kernel_sin(fp, rh, rl)?;
    let cos_r = kernel_cos(fp, rh, rl)?;
    let n = if which == Which::Cos {
        fp.iadd(n, fp.ci(1))?
    } else {
        n
    };
    let odd = fp.icmp(IntPredicate::NE, fp.and(n, 1)?, fp.ci(0))?;
    let neg = fp.icmp(IntPredicate::NE, fp.and(n, 2)?, fp.ci(0))?;
    let v = fp.select(odd, cos_r, sin_r)?;
    let mut y = fp.select(neg, fp.neg(v)?, v)?;
    if which == Which::Sin {
        // Tiny arguments: sin x = x (keeps -0 and subnormals exact).
        let tiny = fp.cmp(
            FloatPredicate::OLT,
            ax,
            fp.c(fp.pick(2f64.powi(-27), 2f64.powi(-13))),
        )?;
        y = fp.select(tiny, x, y)?;
    }
    fp.select(finite, y, fp.c(f64::NAN))
}

/// `x = k π/2 + rh + rl` for `|x| <=` [`limit`]: `(rh, rl, k)`.
fn cody_waite<'ctx>(
    fp: &Fp<'_, 'ctx>,
    x: FloatValue<'ctx>,
) -> Result<(FloatValue<'ctx>, FloatValue<'ctx>, IntValue<'ctx>)> {
    let p = fp.pick(PIO2_D, PIO2_F);
    let kf = fp.round_int(fp.mul(x, fp.c(std::f64::consts::FRAC_2_PI))?)?;
    let nk = fp.neg(kf)?;
    let r1 = fp.fma(nk, fp.c(p[0]), x)?; // exact
    let th = fp.mul(kf, fp.c(p[1]))?;
    let tl = fp.fma(kf, fp.c(p[1]), fp.neg(th)?)?;
    let (rh, e) = fp.two_sum(r1, fp.neg(th)?)?;
    let mut rl = fp.sub(e, tl)?;
    rl = fp.fma(nk, fp.c(p[2]), rl)?;
    rl = fp.fma(nk, fp.c(p[3]), rl)?;
    // Renormalise (|rl| is far below ulp(rh) unless both are tiny).
    let s = fp.add(rh, rl)?;
    let rl = fp.sub(rl, fp.sub(s, rh)?)?;
    Ok((s, rl, fp.to_int(kf)?))
}

/// `|x| = k π/2 + r` for any finite `x` by Payne–Hanek: the integer mantissa `m` (`|x| = m 2^E`)
/// times a 192-bit window of the bits of 2/π that start where `m 2^E` times them stops being a
/// multiple of 4, in 256-bit integer arithmetic; the product's integer bits give `k mod 4`, its
/// next 128 bits the fraction (rounded to the nearest quadrant), converted to a float pair and
/// multiplied by π/2. Then negated for negative `x`. `(rh, rl, k)`.
fn payne_hanek<'ctx>(
    fp: &Fp<'_, 'ctx>,
    x: FloatValue<'ctx>,
) -> Result<(FloatValue<'ctx>, FloatValue<'ctx>, IntValue<'ctx>)> {
    let b = fp.b;
    let ctx = fp.ty.get_context();
    let i64t = ctx.i64_type();
    let i128t = ctx.i128_type();
    let i256t = ctx
        .custom_width_int_type(std::num::NonZeroU32::new(256).expect("256 is not zero"))
        .map_err(|e| CodegenError::llvm("math", e))?;
    let c64 = |v: u64| i64t.const_int(v, false);
    let c256 = |v: u64| i256t.const_int(v, false);
    let mb = fp.mant_bits();
    let bits = fp.bits(fp.abs(x)?)?;
    let e_field = b.build_right_shift(bits, fp.ci(mb as i64), false, "")?;
    let mant = b.build_or(fp.and(bits, (1u64 << mb) - 1)?, fp.ci(1i64 << mb), "")?;
    let (m64, e64) = if fp.wide {
        (mant, e_field)
    } else {
        (
            b.build_int_z_extend(mant, i64t, "")?,
            b.build_int_z_extend(e_field, i64t, "")?,
        )
    };
    // |x| = m 2^E; window start s = max(0, E - 2) bits into 2/π.
    let e = b.build_int_sub(e64, c64((fp.bias() + mb as i64) as u64), "")?;
    let e_minus_2 = b.build_int_sub(e, c64(2), "")?;
    let pos = b.build_int_compare(IntPredicate::SGT, e_minus_2, c64(0), "")?;
    let s = b.build_select(pos, e_minus_2, c64(0), "")?.into_int_value();
    let w = b.build_right_shift(s, c64(6), false, "")?;
    let sh_bits = b.build_and(s, c64(63), "")?;
    // Words W[w..w + 4] by select chains (w <= max_w).
    let max_e = 2 * fp.bias() - (fp.bias() + mb as i64); // largest finite E
    let max_w = ((max_e - 2) >> 6) as usize;
    let mut a = Vec::with_capacity(4);
    for k in 0..4 {
        let mut cur = c64(TWO_OVER_PI[k]);
        for i in 1..=max_w {
            let is_i = b.build_int_compare(IntPredicate::EQ, w, c64(i as u64), "")?;
            cur = b
                .build_select(is_i, c64(TWO_OVER_PI[i + k]), cur, "")?
                .into_int_value();
        }
        a.push(cur);
    }
    // The 192-bit window V = bits s+1 .. s+192 of 2/π (a[k] << sh | a[k+1] >> (64 - sh)).
    let inv_sh = b.build_int_sub(c64(63), sh_bits, "")?;
    let mut v = c256(0);
    for k in 0..3 {
        let hi = b.build_left_shift(a[k], sh_bits, "")?;
        let lo = b.build_right_shift(
            b.build_right_shift(a[k + 1], c64(1), false, "")?,
            inv_sh,
            false,
            "",
        )?;
        let word = b.build_or(hi, lo, "")?;
        let word = b.build_int_z_extend(word, i256t, "")?;
        v = b.build_or(b.build_left_shift(v, c256(64), "")?, word, "")?;
    }
    let p = b.build_int_mul(b.build_int_z_extend(m64, i256t, "")?, v, "")?;
    // x 2/π = P 2^-(192 - (E - s)) mod 4: the binary point sits `point` bits up.
    let point = b.build_int_sub(c64(192), b.build_int_sub(e, s, "")?, "")?;
    let point = b.build_int_z_extend(point, i256t, "")?;
    let q = b.build_int_truncate(b.build_right_shift(p, point, false, "")?, i64t, "")?;
    let frac = b.build_left_shift(p, b.build_int_sub(c256(256), point, "")?, "")?;
    // The fraction's top 128 bits as a signed number: in [-1/2, 1/2) once read as signed,
    // which rounds to the nearest quadrant (k + 1 when negative).
    let t = b.build_int_truncate(b.build_right_shift(frac, c256(128), false, "")?, i128t, "")?;
    let negf = b.build_int_compare(IntPredicate::SLT, t, i128t.const_zero(), "")?;
    let k = b.build_int_add(q, b.build_int_z_extend(negf, i64t, "")?, "")?;
    // t 2^-128 as a float pair: the top 62 bits, their rounding error, the next 64 bits.
    let hi = b.build_int_truncate(
        b.build_right_shift(t, i128t.const_int(66, false), true, "")?,
        i64t,
        "",
    )?;
    let fh = b.build_signed_int_to_float(hi, fp.ty, "")?;
    let d = b.build_int_sub(hi, b.build_float_to_signed_int(fh, i64t, "")?, "")?;
    let low = b.build_int_truncate(
        b.build_right_shift(t, i128t.const_int(2, false), false, "")?,
        i64t,
        "",
    )?;
    let fd = b.build_signed_int_to_float(d, fp.ty, "")?;
    let fl = b.build_unsigned_int_to_float(low, fp.ty, "")?;
    let fh = fp.mul(fh, fp.c(2f64.powi(-62)))?;
    let fl = fp.fma(fd, fp.c(2f64.powi(-62)), fp.mul(fl, fp.c(2f64.powi(-126)))?)?;
    let (fh, fl) = fp.two_sum(fh, fl)?;
    // times π/2, as a pair.
    let pio2 = fp.pick(PIO2_D, PIO2_F);
    let rh = fp.mul(fh, fp.c(pio2[0]))?;
    let rl = fp.fma(fh, fp.c(pio2[0]), fp.neg(rh)?)?;
    let rl = fp.fma(fh, fp.c(pio2[1]), rl)?;
    let rl = fp.fma(fl, fp.c(pio2[0]), rl)?;
    // Negative x: negate r and k.
    let sign = fp.cmp(FloatPredicate::OLT, x, fp.c(0.0))?;
    let rh = fp.select(sign, fp.neg(rh)?, rh)?;
    let rl = fp.select(sign, fp.neg(rl)?, rl)?;
    let k = b
        .build_select(sign, b.build_int_neg(k, "")?, k, "")?
        .into_int_value();
    let k = if fp.wide {
        k
    } else {
        b.build_int_truncate(k, fp.ity, "")?
    };
    Ok((rh, rl, k))
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
