//! Host references, inputs and ulp measurement for the accurate math lowering (shared by
//! `codegen_math.rs` and the GPU test). No libm crate: std's f64 functions (the platform libm)
//! are the reference for exp, exp2, log, log2, sin, cos; erf, which std lacks, is computed here
//! in double-double arithmetic (Taylor series) or from the erfc continued fraction.

use weft::codegen::MathOp;

/// The accurate functions with a host reference (sqrt/floor/ceil are exact and rsqrt is checked
/// separately).
pub const FUNCS: [MathOp; 8] = [
    MathOp::Exp,
    MathOp::Exp2,
    MathOp::Log,
    MathOp::Log2,
    MathOp::Sin,
    MathOp::Cos,
    MathOp::Erf,
    MathOp::Rsqrt,
];

/// The promised bound, in ulps.
pub const MAX_ULP: f64 = 2.0;

/// sin and cos switch from Cody–Waite to Payne–Hanek above these (see
/// `src/codegen/math/trig.rs`).
pub const TRIG_LIMIT_F64: f64 = 1099511627776.0; // 2^40
pub const TRIG_LIMIT_F32: f64 = 131072.0; // 2^17

/// [`TRIG_LIMIT_F64`] or [`TRIG_LIMIT_F32`].
pub fn trig_limit(wide: bool) -> f64 {
    if wide {
        TRIG_LIMIT_F64
    } else {
        TRIG_LIMIT_F32
    }
}

/// The reference in f64 (std's libm; erf from [`erf_ref`]).
pub fn reference(op: MathOp, x: f64) -> f64 {
    match op {
        MathOp::Exp => x.exp(),
        MathOp::Exp2 => x.exp2(),
        MathOp::Log => x.ln(),
        MathOp::Log2 => x.log2(),
        MathOp::Sin => x.sin(),
        MathOp::Cos => x.cos(),
        MathOp::Erf => erf_ref(x),
        MathOp::Rsqrt => 1.0 / x.sqrt(),
        MathOp::Sqrt => x.sqrt(),
        MathOp::Floor => x.floor(),
        MathOp::Ceil => x.ceil(),
    }
}

// ----- double-double, just enough for the erf series -------------------------------------------

#[derive(Clone, Copy)]
struct Dd(f64, f64);

fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    Dd(s, (a - (s - bb)) + (b - bb))
}
fn dd_add(a: Dd, b: Dd) -> Dd {
    let s = two_sum(a.0, b.0);
    let e = s.1 + a.1 + b.1;
    two_sum(s.0, e)
}
fn dd_mul(a: Dd, b: Dd) -> Dd {
    let p = a.0 * b.0;
    let e = a.0.mul_add(b.0, -p) + (a.0 * b.1 + a.1 * b.0);
    two_sum(p, e)
}
fn dd_div_f(a: Dd, d: f64) -> Dd {
    let q = a.0 / d;
    let r = dd_add(a, dd_mul(Dd(q, 0.0), Dd(-d, 0.0)));
    two_sum(q, r.0 / d)
}

fn dd_neg(a: Dd) -> Dd {
    Dd(-a.0, -a.1)
}

/// `v 2^n` in steps that stay in range (exact while the result is normal or the steps go up).
fn scale(mut v: f64, mut n: i32) -> f64 {
    while n != 0 {
        let s = n.clamp(-500, 500);
        v *= 2f64.powi(s);
        n -= s;
    }
    v
}

const LN2_DD: Dd = Dd(std::f64::consts::LN_2, 2.319_046_813_846_299_6e-17);
const LOG2E_DD: Dd = Dd(std::f64::consts::LOG2_E, 2.035_527_374_093_103_3e-17);

/// `e^(x.0 + x.1) = m 2^k` with `m` in double-double (Taylor series after `x = k ln2 + r`).
fn exp_dd(x: Dd) -> (Dd, i32) {
    let k = (x.0 / std::f64::consts::LN_2).round();
    let r = dd_add(x, dd_neg(dd_mul(Dd(k, 0.0), LN2_DD)));
    let mut sum = Dd(1.0, 0.0);
    let mut term = Dd(1.0, 0.0);
    for i in 1..40 {
        term = dd_div_f(dd_mul(term, r), i as f64);
        sum = dd_add(sum, term);
        if term.0.abs() < 1e-40 {
            break;
        }
    }
    (sum, k as i32)
}

/// ln x in double-double: one Newton step `y + x e^-y - 1` from std's `ln`.
fn ln_dd(x: f64) -> Dd {
    let y0 = x.ln();
    let (m, k) = exp_dd(Dd(-y0, 0.0));
    let t = dd_add(dd_mul(Dd(scale(x, k), 0.0), m), Dd(-1.0, 0.0));
    dd_add(Dd(y0, 0.0), t)
}

/// The error of `y` against the double-double reference `m 2^k`, in ulps of the reference
/// (subnormal ulps where it is subnormal), with fractions.
fn ulp_dd(y: f64, m: Dd, k: i32) -> f64 {
    let r = scale(m.0, k);
    if r.is_infinite() || y.is_infinite() || r == 0.0 {
        return ulp_f64(y, r);
    }
    let e = (r.abs().log2().floor() as i32).max(-1022) - 52;
    let a = scale(y, -e);
    let b = Dd(scale(m.0, k - e), scale(m.1, k - e));
    dd_add(Dd(a, 0.0), dd_neg(b)).0.abs()
}

/// The error of an f64 result of `op` at `x`, in ulps with fractions, against a double-double
/// reference (exp, exp2, log, log2, erf; rsqrt from its residual) or the host libm (sin, cos:
/// bit distance, so libm's own error is included).
pub fn error_f64(op: MathOp, x: f64, y: f64) -> f64 {
    // Beyond ±1100 exp and exp2 are 0 or inf for certain: std's result is exact there.
    let finite = x.is_finite() && x.abs() < 1100.0;
    match op {
        MathOp::Rsqrt => rsqrt_ulp_f64(x, y),
        MathOp::Exp if finite => {
            let (m, k) = exp_dd(Dd(x, 0.0));
            ulp_dd(y, m, k)
        }
        MathOp::Exp2 if finite => {
            let (m, k) = exp_dd(dd_mul(Dd(x, 0.0), LN2_DD));
            ulp_dd(y, m, k)
        }
        MathOp::Log | MathOp::Log2 if x.is_finite() && x > 0.0 => {
            let l = ln_dd(x);
            let l = if op == MathOp::Log2 {
                dd_mul(l, LOG2E_DD)
            } else {
                l
            };
            if l.0 == 0.0 {
                return ulp_f64(y, 0.0);
            }
            ulp_dd(y, l, 0)
        }
        MathOp::Erf if x.is_finite() && x != 0.0 => ulp_dd(y, erf_dd(x), 0),
        _ => ulp_f64(y, reference(op, x)),
    }
}

/// erf(x) rounded to f64 (see [`erf_dd`]).
pub fn erf_ref(x: f64) -> f64 {
    let r = erf_dd(x);
    r.0 + r.1
}

/// erf(x) in double-double: to about 2^-100 relative for |x| < 3 (alternating Taylor series;
/// the largest term is below 2^9, so 90+ bits survive), and `1 - erfc` from erfc's continued
/// fraction above (erfc < 2.3e-5 there, so its f64 error is far below an ulp of erf).
fn erf_dd(x: f64) -> Dd {
    if x.is_nan() {
        return Dd(x, 0.0);
    }
    let a = x.abs();
    let y = if a < 3.0 {
        let x2 = dd_mul(Dd(a, 0.0), Dd(a, 0.0));
        let mut term = Dd(a, 0.0); // a^(2n+1) / n!
        let mut sum = Dd(0.0, 0.0);
        for n in 0..400 {
            let t = dd_div_f(term, (2 * n + 1) as f64);
            let t = if n % 2 == 0 { t } else { dd_neg(t) };
            sum = dd_add(sum, t);
            term = dd_div_f(dd_mul(term, x2), (n + 1) as f64);
            if term.0.abs() < 1e-40 * sum.0.abs().max(1e-300) {
                break;
            }
        }
        let two_over_sqrt_pi = Dd(std::f64::consts::FRAC_2_SQRT_PI, 1.533_545_961_316_588e-17);
        dd_mul(sum, two_over_sqrt_pi)
    } else if a < 30.0 {
        // erfc(a) = exp(-a^2) / sqrt(pi) / (a + 1/2 / (a + 1 / (a + 3/2 / (a + ...)))).
        let mut f = a;
        for k in (1..2000).rev() {
            f = a + (k as f64 / 2.0) / f;
        }
        let sq_h = a * a;
        let sq_l = a.mul_add(a, -sq_h);
        let erfc = (-sq_h).exp() * (1.0 - sq_l) / std::f64::consts::PI.sqrt() / f;
        two_sum(1.0, -erfc)
    } else {
        Dd(1.0, 0.0)
    };
    if x.is_sign_negative() {
        dd_neg(y)
    } else {
        y
    }
}

// ----- ulps ---------------------------------------------------------------------------------

/// The error of an f64 result `y` against the reference `r`, in ulps of `r`, counted as the
/// distance between their bit patterns (exact; ±0 are one point). Both infinite and equal: 0.
pub fn ulp_f64(y: f64, r: f64) -> f64 {
    if r.is_nan() || y.is_nan() {
        return if r.is_nan() && y.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let ord = |v: f64| {
        let b = v.to_bits() as i64;
        if b < 0 {
            i64::MIN - b
        } else {
            b
        }
    };
    (ord(y) as i128 - ord(r) as i128).unsigned_abs() as f64
}

/// The error of an f32 result `y` against an f64 reference `r`, in ulps of f32 at `r` (with
/// fractions: the reference is 29 bits more precise). Infinity counts as 2^128.
pub fn ulp_f32(y: f32, r: f64) -> f64 {
    if r.is_nan() || y.is_nan() {
        return if r.is_nan() && y.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if (r as f32).is_infinite() {
        // Beyond f32's range (after rounding): only the infinity is right.
        return if y == r as f32 { 0.0 } else { f64::INFINITY };
    }
    let yv = if y.is_infinite() {
        2f64.powi(128).copysign(y as f64)
    } else {
        y as f64
    };
    let e = if r == 0.0 {
        -149
    } else {
        (r.abs().log2().floor() as i32).max(-126) - 23
    };
    (yv - r).abs() / 2f64.powi(e)
}

/// How far `y = op(x)` (f64) is off: the reference, the error in ulp, and whether an exact reference (0,
/// ±inf) is matched bit for bit, sign of zero included.
pub fn judge_f64(op: MathOp, x: f64, y: f64) -> (f64, f64, bool) {
    let r = reference(op, x);
    let e = error_f64(op, x, y);
    let exact_ok = !(r == 0.0 || r.is_infinite()) || y.to_bits() == r.to_bits();
    (r, e, exact_ok)
}

/// [`judge_f64`] for an f32 result, against the reference rounded to f32 for the exact cases.
pub fn judge_f32(op: MathOp, x: f32, y: f32) -> (f64, f64, bool) {
    let r = reference(op, x as f64);
    let e = ulp_f32(y, r);
    let rr = r as f32;
    let exact_ok = !(r == 0.0 || rr.is_infinite()) || y.to_bits() == rr.to_bits();
    (r, e, exact_ok)
}

/// The error of an f64 `y = rsqrt(x)` in ulps of `y`, with fractions, from the residual
/// `t = x y² - 1` computed exactly enough with fma (`y - 1/sqrt(x) ≈ y t / 2`): a reference
/// independent of the `1 / sqrt(x)` it checks.
pub fn rsqrt_ulp_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() || !y.is_finite() {
        return ulp_f64(y, 1.0 / x.sqrt());
    }
    // Scale into a range where y² and x y² cannot overflow (exact powers of four).
    let (x, y) = if x < 2f64.powi(-600) {
        (x * 2f64.powi(600), y * 2f64.powi(-300))
    } else if x > 2f64.powi(600) {
        (x * 2f64.powi(-600), y * 2f64.powi(300))
    } else {
        (x, y)
    };
    let p = y * y;
    let pl = y.mul_add(y, -p);
    let q = x * p;
    let ql = x.mul_add(p, -q);
    let t = (q - 1.0) + (ql + x * pl);
    let ulp = 2f64.powi(y.abs().log2().floor() as i32 - 52);
    (y * t / 2.0).abs() / ulp
}

// ----- inputs -------------------------------------------------------------------------------

use super::rng::Rng;

/// Special values every function is checked on.
pub fn specials_f64() -> Vec<f64> {
    let base = [
        0.0,
        f64::INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        f64::MIN_POSITIVE / 2.0,
        f64::from_bits(1),
        f64::from_bits(0x000F_FFFF_FFFF_FFFF),
        f64::MAX,
        1.0,
        0.5,
        2.0,
        f64::EPSILON,
        1e-300,
        1e300,
        709.782712893384,
        709.79,
        -745.1332191019411,
        -745.14,
        -708.4,
        1024.0,
        1023.9999,
        -1074.0,
        -1075.0,
        -1022.5,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
        std::f64::consts::FRAC_PI_4,
        0.84375,
        1.25,
        2.857142857142857,
        6.0,
        28.0,
    ];
    base.iter().flat_map(|&v| [v, -v]).collect()
}

pub fn specials_f32() -> Vec<f32> {
    let base = [
        0.0f32,
        f32::INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        f32::MIN_POSITIVE / 2.0,
        f32::from_bits(1),
        f32::from_bits(0x007F_FFFF),
        f32::MAX,
        1.0,
        0.5,
        2.0,
        f32::EPSILON,
        88.72283,
        88.72284,
        -87.33654,
        -103.97208,
        -103.98,
        128.0,
        127.99999,
        -149.0,
        -150.0,
        std::f32::consts::PI,
        std::f32::consts::FRAC_PI_2,
        std::f32::consts::FRAC_PI_4,
        0.84375,
        1.25,
        2.857_142_8,
        6.0,
        1e30,
        1e-30,
    ];
    base.iter().flat_map(|&v| [v, -v]).collect()
}

/// Inputs for `op`: random bits over the whole range, plus uniform samples where the function
/// does something other than overflow or saturate.
pub fn inputs_f64(op: MathOp, n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng(seed);
    let (lo, hi) = interesting(op, true);
    let mut v = specials_f64();
    for i in 0..n {
        let x = match i % 3 {
            0 => rng.any_f64(),
            1 => rng.uniform(lo, hi),
            _ => rng.uniform(lo, hi) * 2f64.powi(-((rng.next_u64() % 60) as i32)),
        };
        v.push(x);
    }
    v
}

pub fn inputs_f32(op: MathOp, n: usize, seed: u64) -> Vec<f32> {
    let mut rng = Rng(seed);
    let (lo, hi) = interesting(op, false);
    let mut v = specials_f32();
    for i in 0..n {
        let x = match i % 3 {
            0 => rng.any_f32(),
            1 => rng.uniform(lo, hi) as f32,
            _ => (rng.uniform(lo, hi) * 2f64.powi(-((rng.next_u64() % 30) as i32))) as f32,
        };
        v.push(x);
    }
    v
}

fn interesting(op: MathOp, wide: bool) -> (f64, f64) {
    match (op, wide) {
        (MathOp::Exp, true) => (-750.0, 712.0),
        (MathOp::Exp, false) => (-106.0, 90.0),
        (MathOp::Exp2, true) => (-1080.0, 1026.0),
        (MathOp::Exp2, false) => (-152.0, 130.0),
        (MathOp::Log | MathOp::Log2 | MathOp::Rsqrt, _) => (0.0, 4.0),
        (MathOp::Sin | MathOp::Cos, _) => (-40.0, 40.0),
        (MathOp::Erf, _) => (-7.0, 7.0),
        _ => (-10.0, 10.0),
    }
}

// ----- kernels ------------------------------------------------------------------------------

use weft::codegen::{
    kernels::blocked_1d, Context, DType, Kernel, KernelBuilder, MathPrecision, Target,
};

/// Elements per program of [`math_kernel`].
pub const BLOCK: u32 = 512;

/// `y[i] = op(x[i])` for `i < n`, over `dt` with the given precision: arguments `(x, y, n)`.
pub fn math_kernel<'c>(
    ctx: &'c Context,
    target: Target,
    op: MathOp,
    dt: DType,
    precision: MathPrecision,
) -> weft::codegen::Result<Kernel<'c>> {
    let layout = blocked_1d(target, 4, 4, BLOCK)?;
    let mut kb = KernelBuilder::new(ctx, target, "math", 4)?;
    let x = kb.arg_ptr("x", dt, 16)?;
    let y = kb.arg_ptr("y", dt, 16)?;
    let n = kb.arg_i32("n", 1)?;
    let pid = kb.program_id(0)?;
    let start = kb.mul(pid, BLOCK as i32)?;
    let offs = kb.arange(0, BLOCK as i32, &layout)?;
    let offs = kb.add(offs, start)?;
    let mask = kb.lt(offs, n)?;
    let px = kb.add(x, offs)?;
    let v = kb.load(px, Some(mask), None)?;
    let r = kb.math_with(op, v, precision)?;
    let py = kb.add(y, offs)?;
    kb.store(py, r, Some(mask))?;
    kb.finish()
}

/// The arguments of the flush-to-zero check: `n` from -140 (exp2 results below 2^-126,
/// subnormal) to 10.
pub fn ftz_inputs(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| -140.0 + 150.0 * i as f32 / n as f32)
        .collect()
}

/// Checks `exp2` over `x` with `.ftz` (`ftz`) against without (`fast`): equal where the result
/// is normal, zero where it is subnormal. Returns how many were flushed (at least one).
pub fn check_ftz(x: &[f32], ftz: &[f32], fast: &[f32]) -> usize {
    let mut flushed = 0;
    for ((&xi, &a), &b) in x.iter().zip(ftz).zip(fast) {
        if b.is_normal() {
            assert_eq!(a, b, "exp2({xi:e}): ftz {a:e}, approx {b:e}");
        } else {
            assert_eq!(a, 0.0, "exp2({xi:e}): ftz {a:e} should flush {b:e}");
            flushed += 1;
        }
    }
    assert!(flushed > 0, "some results were subnormal");
    flushed
}
