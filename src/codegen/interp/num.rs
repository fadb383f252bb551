//! Element values and their arithmetic, rounded as the GPU rounds each element type.
//!
//! Integers are kept as `i64` wrapped to their width (signed; `i1` is 0 or 1), floats as `f64`
//! holding a value of the element type exactly. An f16, bf16 or f32 operation is computed in a
//! wider type and rounded once to its own: for `+ - * /` and `sqrt` the wider type has more than
//! twice the precision plus two bits, so the double rounding is exact (correctly rounded, as the
//! GPU's `.rn` instructions). Math functions use the host's `f64` functions rounded to the
//! element type: within an ulp of the exact result, where the GPU's `.approx` instructions
//! (`ex2.approx`, `lg2.approx`, `sin.approx`, …) may differ by a few ulp; tests compare floats
//! within stated tolerances.

use crate::codegen::builder::ops::elementwise::{BinaryOp, CmpOp, UnaryOp};
use crate::codegen::builder::ops::math::MathOp;
use crate::codegen::types::{DType, Type};

/// One element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer (or a pointer's byte address), wrapped to its type's width.
    I(i64),
    /// A float, exactly representable in its type.
    F(f64),
}

impl Num {
    /// The integer (floats truncate).
    pub fn i(self) -> i64 {
        match self {
            Num::I(i) => i,
            Num::F(x) => x as i64,
        }
    }

    /// The float (integers convert).
    pub fn f(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::F(x) => x,
        }
    }

    /// Whether the element is nonzero (a mask or condition).
    pub fn truthy(self) -> bool {
        match self {
            Num::I(i) => i != 0,
            Num::F(x) => x != 0.0,
        }
    }
}

/// `i` wrapped to the width of integer type `d` (sign-extended; i1 keeps the low bit).
pub fn wrap(i: i64, d: DType) -> i64 {
    match d {
        DType::I1 => i & 1,
        DType::I8 => i as i8 as i64,
        DType::I16 => i as i16 as i64,
        DType::I32 => i as i32 as i64,
        _ => i,
    }
}

/// `x` rounded to nearest even in float type `d`.
pub fn round(x: f64, d: DType) -> f64 {
    match d {
        DType::F16 => half::f16::from_f64(x).to_f64(),
        DType::BF16 => half::bf16::from_f64(x).to_f64(),
        DType::F32 => x as f32 as f64,
        DType::F8E4M3 => e4m3_decode(e4m3_encode(x)),
        DType::F8E5M2 => e5m2_decode(e5m2_encode(x)),
        _ => x,
    }
}

/// A value of type `t` from `x`, rounded or wrapped.
pub fn fit(x: Num, t: Type) -> Num {
    match t {
        Type::Scalar(d) if d.is_int() => Num::I(wrap(x.i(), d)),
        Type::Scalar(d) => Num::F(round(x.f(), d)),
        Type::Ptr(..) => Num::I(x.i()),
    }
}

/// The element type's scalar dtype (pointers: i64 addresses).
pub fn dtype_of(t: Type) -> DType {
    match t {
        Type::Scalar(d) => d,
        Type::Ptr(..) => DType::I64,
    }
}

/// `a op b` in type `t`. Pointer plus integer steps by elements of the pointee.
pub fn binary(op: BinaryOp, a: Num, b: Num, t: Type, b_is_ptr_offset: u64) -> Num {
    if let Type::Ptr(..) = t {
        let bytes = b_is_ptr_offset as i64;
        return match op {
            BinaryOp::Sub => Num::I(a.i().wrapping_sub(b.i().wrapping_mul(bytes))),
            _ => Num::I(a.i().wrapping_add(b.i().wrapping_mul(bytes))),
        };
    }
    let d = dtype_of(t);
    if d.is_int() {
        let (x, y) = (a.i(), b.i());
        let bits = d.bits();
        let r = match op {
            BinaryOp::Add => x.wrapping_add(y),
            BinaryOp::Sub => x.wrapping_sub(y),
            BinaryOp::Mul => x.wrapping_mul(y),
            BinaryOp::Div | BinaryOp::DivRn => {
                if y == 0 {
                    0
                } else {
                    x.wrapping_div(y)
                }
            }
            BinaryOp::Rem => {
                if y == 0 {
                    0
                } else {
                    x.wrapping_rem(y)
                }
            }
            BinaryOp::Min => x.min(y),
            BinaryOp::Max => x.max(y),
            BinaryOp::And => x & y,
            BinaryOp::Or => x | y,
            BinaryOp::Xor => x ^ y,
            BinaryOp::Shl => {
                if (y as u64) >= bits as u64 {
                    0
                } else {
                    x.wrapping_shl(y as u32)
                }
            }
            BinaryOp::Shr => {
                if (y as u64) >= bits as u64 {
                    if x < 0 {
                        -1
                    } else {
                        0
                    }
                } else {
                    x >> y
                }
            }
        };
        return Num::I(wrap(r, d));
    }
    let (x, y) = (a.f(), b.f());
    let r = match op {
        BinaryOp::Add => x + y,
        BinaryOp::Sub => x - y,
        BinaryOp::Mul => x * y,
        BinaryOp::Div if d != DType::F64 => div_full(x, y),
        BinaryOp::Div | BinaryOp::DivRn => x / y,
        BinaryOp::Rem => x % y,
        BinaryOp::Min => {
            if x.is_nan() {
                y
            } else if y.is_nan() {
                x
            } else {
                x.min(y)
            }
        }
        BinaryOp::Max => {
            if x.is_nan() {
                y
            } else if y.is_nan() {
                x
            } else {
                x.max(y)
            }
        }
        BinaryOp::And | BinaryOp::Or | BinaryOp::Xor | BinaryOp::Shl | BinaryOp::Shr => f64::NAN,
    };
    Num::F(round(r, d))
}

/// Triton's default f32 division as PTX's `div.full.f32` computes it, to within its documented
/// 2 ulp over the whole range: `x` times the reciprocal of `y` rounded to 24 bits (with an
/// exponent range wide enough that huge and subnormal divisors keep a finite, nonzero
/// reciprocal, as the instruction's operand scaling does), the product rounded once to f32.
/// The error stays below 1.5 ulp and, unlike `div.rn`, is often not zero; 0/0, ∞/∞ and
/// NaN give NaN, x/0 ±∞, x/∞ ±0. f16 and bf16 operands divide the same way in f32 (their
/// result is then rounded to their type by the caller).
pub fn div_full(x: f64, y: f64) -> f64 {
    let r = 1.0 / y;
    let r = if r.is_finite() && r != 0.0 {
        // Round the f64 mantissa to f32's 24 bits, to nearest even (the carry may step the
        // exponent, which the bit pattern handles).
        let b = r.to_bits();
        let low = 29;
        let half = (1u64 << (low - 1)) - 1 + ((b >> low) & 1);
        f64::from_bits((b + half) & !((1u64 << low) - 1))
    } else {
        r
    };
    (x * r) as f32 as f64
}

/// `a op b`: signed for integers, ordered for floats (`!=` is true on NaN).
pub fn compare(op: CmpOp, a: Num, b: Num, t: Type) -> Num {
    let r = if dtype_of(t).is_int() || matches!(t, Type::Ptr(..)) {
        let (x, y) = (a.i(), b.i());
        match op {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
        }
    } else {
        let (x, y) = (a.f(), b.f());
        match op {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
        }
    };
    Num::I(r as i64)
}

/// `op a` in type `t`.
pub fn unary(op: UnaryOp, a: Num, t: Type) -> Num {
    let d = dtype_of(t);
    if d.is_int() {
        let x = a.i();
        let r = match op {
            UnaryOp::Neg => x.wrapping_neg(),
            UnaryOp::Abs => x.wrapping_abs(),
            UnaryOp::Not => !x,
        };
        return Num::I(wrap(r, d));
    }
    let x = a.f();
    Num::F(match op {
        UnaryOp::Neg => -x,
        UnaryOp::Abs => x.abs(),
        UnaryOp::Not => f64::NAN,
    })
}

/// `op(x)` rounded to float type `d`.
pub fn math(op: MathOp, x: f64, d: DType) -> f64 {
    let r = match op {
        MathOp::Exp => x.exp(),
        MathOp::Exp2 => x.exp2(),
        MathOp::Log => x.ln(),
        MathOp::Log2 => x.log2(),
        MathOp::Sqrt => x.sqrt(),
        MathOp::Rsqrt => 1.0 / x.sqrt(),
        MathOp::Sin => x.sin(),
        MathOp::Cos => x.cos(),
        MathOp::Erf => erf(x),
        MathOp::Floor => x.floor(),
        MathOp::Ceil => x.ceil(),
    };
    round(r, d)
}

/// `x` with an f32-subnormal magnitude flushed to zero of its sign (`.ftz`).
pub fn flush(x: f64) -> f64 {
    if x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE) {
        0.0f64.copysign(x)
    } else {
        x
    }
}

/// The error function, to a few f64 ulps: the Maclaurin series below 1 (its alternating terms
/// stay below 1 there, so little cancels), and `1 - erfc` from erfc's continued fraction above,
/// with `exp(-a²)` taken of `a²` split exactly in two (a rounded `a²` alone costs up to `a²`
/// ulps). Summing the series up to 2.5, as before, lost 40 ulps to cancellation near 2.5.
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 1.0 {
        // 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut sum = 0.0;
        let mut term = a;
        let mut n = 0.0f64;
        loop {
            let t = term / (2.0 * n + 1.0);
            sum += t;
            if t.abs() < 1e-17 * sum.abs() {
                break;
            }
            n += 1.0;
            term *= -a * a / n;
            if n > 200.0 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else if a > 6.0 {
        1.0
    } else {
        // erfc(a) = exp(-a^2)/sqrt(pi) * 1/(a + 1/2/(a + 1/(a + 3/2/(a + ...)))).
        let mut f = a;
        for k in (1..400).rev() {
            f = a + (k as f64 / 2.0) / f;
        }
        let sq_h = a * a;
        let sq_l = a.mul_add(a, -sq_h);
        1.0 - (-sq_h).exp() * (1.0 - sq_l) / std::f64::consts::PI.sqrt() / f
    };
    r.copysign(x)
}

/// `a * b + c` rounded once to `d` (through `f64`: exact for f16/bf16, one extra rounding of
/// the sum for f32 in rare halfway cases).
pub fn fma(a: f64, b: f64, c: f64, d: DType) -> f64 {
    round(a.mul_add(b, c), d)
}

/// `x` converted from type `from` to `to` as the cast op does: integers signed (i1 unsigned),
/// float to integer truncating toward zero (saturating), to i1 testing `!= 0`, to fp8 rounding
/// to nearest and saturating to the finite range.
pub fn cast(x: Num, from: DType, to: DType) -> Num {
    if to == DType::I1 {
        return Num::I(x.truthy() as i64);
    }
    match (from.is_int(), to.is_int()) {
        (true, true) => Num::I(wrap(x.i(), to)),
        (true, false) => Num::F(round_sat(x.i() as f64, to)),
        (false, true) => {
            let v = x.f();
            let i = if v.is_nan() {
                0
            } else {
                let (lo, hi) = match to {
                    DType::I8 => (i8::MIN as f64, i8::MAX as f64),
                    DType::I16 => (i16::MIN as f64, i16::MAX as f64),
                    DType::I32 => (i32::MIN as f64, i32::MAX as f64),
                    _ => (i64::MIN as f64, i64::MAX as f64),
                };
                v.trunc().clamp(lo, hi) as i64
            };
            Num::I(i)
        }
        (false, false) => Num::F(round_sat(x.f(), to)),
    }
}

/// Rounding to `to`, saturating for fp8 (PTX's `.satfinite`).
fn round_sat(x: f64, to: DType) -> f64 {
    match to {
        DType::F8E4M3 if x.is_finite() => round(x.clamp(-448.0, 448.0), to),
        DType::F8E5M2 if x.is_finite() => round(x.clamp(-57344.0, 57344.0), to),
        _ => round(x, to),
    }
}

/// Mantissa bits of f16, bf16 and f32 (whose NaNs keep their payload through the f64 an
/// element is held in, as a GPU's loads, stores and bitcasts keep it).
fn mantissa_bits(d: DType) -> Option<u32> {
    match d {
        DType::F16 => Some(10),
        DType::BF16 => Some(7),
        DType::F32 => Some(23),
        _ => None,
    }
}

/// Bytes of an element of type `d` as stored in memory.
pub fn to_bits(x: Num, d: DType) -> u64 {
    if let (Num::F(v), Some(m)) = (x, mantissa_bits(d)) {
        if v.is_nan() {
            // The payload's top bits, as f64 holds them (a payload below them reads as quiet).
            let b = v.to_bits();
            let width = d.bits();
            let payload = match (b >> (52 - m)) & ((1 << m) - 1) {
                0 => 1 << (m - 1),
                p => p,
            };
            let exp = ((1u64 << (width - 1 - m)) - 1) << m;
            return (b >> 63) << (width - 1) | exp | payload;
        }
    }
    match d {
        DType::F16 => half::f16::from_f64(x.f()).to_bits() as u64,
        DType::BF16 => half::bf16::from_f64(x.f()).to_bits() as u64,
        DType::F32 => (x.f() as f32).to_bits() as u64,
        DType::F64 => x.f().to_bits(),
        DType::F8E4M3 => e4m3_encode(x.f()) as u64,
        DType::F8E5M2 => e5m2_encode(x.f()) as u64,
        _ => x.i() as u64,
    }
}

/// The element of type `d` stored as `bits` (the low `mem_bytes` bytes).
pub fn from_bits(bits: u64, d: DType) -> Num {
    if let Some(m) = mantissa_bits(d) {
        let width = d.bits();
        let exp_mask = ((1u64 << (width - 1 - m)) - 1) << m;
        let payload = bits & ((1 << m) - 1);
        if bits & exp_mask == exp_mask && payload != 0 {
            let sign = (bits >> (width - 1)) & 1;
            return Num::F(f64::from_bits(
                sign << 63 | 0x7ff << 52 | payload << (52 - m),
            ));
        }
    }
    match d {
        DType::F16 => Num::F(half::f16::from_bits(bits as u16).to_f64()),
        DType::BF16 => Num::F(half::bf16::from_bits(bits as u16).to_f64()),
        DType::F32 => Num::F(f32::from_bits(bits as u32) as f64),
        DType::F64 => Num::F(f64::from_bits(bits)),
        DType::F8E4M3 => Num::F(e4m3_decode(bits as u8)),
        DType::F8E5M2 => Num::F(e5m2_decode(bits as u8)),
        DType::I1 => Num::I((bits & 1) as i64),
        DType::I8 => Num::I(bits as u8 as i8 as i64),
        DType::I16 => Num::I(bits as u16 as i16 as i64),
        DType::I32 => Num::I(bits as u32 as i32 as i64),
        DType::I64 => Num::I(bits as i64),
    }
}

/// fp8 with `e` exponent bits, `m` mantissa bits and bias `bias`: the byte nearest to `x` (ties
/// to even), with `max` the largest finite value; `ieee` formats have infinities.
fn fp8_encode(x: f64, m: u32, bias: i32, max: f64, ieee: bool) -> u8 {
    let sign = if x.is_sign_negative() { 0x80u8 } else { 0 };
    if x.is_nan() {
        return if ieee { 0x7e } else { 0x7f };
    }
    let a = x.abs();
    if a > max {
        // Beyond the largest finite value: rounds to max unless past the halfway point.
        let step = max / (2.0 - 2f64.powi(-(m as i32))) * 2f64.powi(-(m as i32));
        if a >= max + step / 2.0 {
            return sign | if ieee { 0x7c } else { 0x7f };
        }
    }
    // Enumerate: the nearest of all finite codes (256 at most).
    let mut best = 0u8;
    let mut best_err = f64::INFINITY;
    for code in 0u8..=0x7f {
        let v = fp8_decode(code, m, bias, ieee);
        if !v.is_finite() {
            continue;
        }
        let err = (v - a).abs();
        if err < best_err || (err == best_err && code & 1 == 0) {
            best = code;
            best_err = err;
        }
    }
    sign | best
}

fn fp8_decode(b: u8, m: u32, bias: i32, ieee: bool) -> f64 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let e_bits = 7 - m;
    let e = ((b >> m) & ((1 << e_bits) - 1)) as i32;
    let f = (b & ((1 << m) - 1)) as f64;
    let e_max = (1 << e_bits) - 1;
    if ieee && e == e_max {
        return if f == 0.0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        };
    }
    if !ieee && e == e_max && f as u32 == (1 << m) - 1 {
        return f64::NAN;
    }
    let v = if e == 0 {
        f / (1u32 << m) as f64 * 2f64.powi(1 - bias)
    } else {
        (1.0 + f / (1u32 << m) as f64) * 2f64.powi(e - bias)
    };
    sign * v
}

fn e4m3_encode(x: f64) -> u8 {
    fp8_encode(x, 3, 7, 448.0, false)
}
fn e4m3_decode(b: u8) -> f64 {
    fp8_decode(b, 3, 7, false)
}
fn e5m2_encode(x: f64) -> u8 {
    fp8_encode(x, 2, 15, 57344.0, true)
}
fn e5m2_decode(b: u8) -> f64 {
    fp8_decode(b, 2, 15, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp8_round_trips_every_code_and_rounds_to_nearest_even() {
        for b in 0u8..=255 {
            for (enc, dec) in [
                (e4m3_encode as fn(f64) -> u8, e4m3_decode as fn(u8) -> f64),
                (e5m2_encode, e5m2_decode),
            ] {
                let v = dec(b);
                if v.is_finite() {
                    assert_eq!(dec(enc(v)), v, "code {b:#x}");
                }
            }
        }
        assert_eq!(e4m3_decode(0x7e), 448.0);
        assert_eq!(e5m2_decode(0x7b), 57344.0);
        // 1 + 1/16 is halfway between 1 and 1.125 in e4m3: ties to even (1).
        assert_eq!(e4m3_decode(e4m3_encode(1.0625)), 1.0);
        assert_eq!(e4m3_decode(e4m3_encode(1.1875)), 1.25);
        assert_eq!(round_sat(1e6, DType::F8E4M3), 448.0);
    }

    #[test]
    fn erf_matches_known_values() {
        for (x, e) in [
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (3.0, 0.9999779095030014),
            (-2.0, -0.9953222650189527),
        ] {
            assert!((erf(x) - e).abs() < 1e-15, "erf({x}) = {} vs {e}", erf(x));
        }
    }

    #[test]
    fn div_full_is_within_two_ulp_and_not_ieee() {
        let t = Type::Scalar(DType::F32);
        let mut differs = 0;
        let mut s = 0x9E37_79B9u64;
        for _ in 0..20_000 {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (x, y) = (f32::from_bits((s >> 32) as u32), f32::from_bits(s as u32));
            if !x.is_finite() || !y.is_finite() || y == 0.0 {
                continue;
            }
            let got = binary(BinaryOp::Div, Num::F(x.into()), Num::F(y.into()), t, 0).f() as f32;
            let exact = f64::from(x) / f64::from(y);
            let ieee = x / y;
            if ieee.is_infinite() || ieee == 0.0 {
                assert_eq!(got, ieee, "{x} / {y}");
                continue;
            }
            let w = exact as f32;
            let ulp = if w.abs() < f32::MIN_POSITIVE {
                f64::from(f32::from_bits(1))
            } else {
                f64::from(f32::from_bits(w.abs().to_bits() + 1)) - f64::from(w.abs())
            };
            assert!(
                (f64::from(got) - exact).abs() <= 2.0 * ulp,
                "{x} / {y}: {got}"
            );
            differs += usize::from(got != ieee);
        }
        assert!(differs > 100, "only {differs} quotients differ from IEEE");
        let rn = |x: f64, y: f64| binary(BinaryOp::DivRn, Num::F(x), Num::F(y), t, 0).f();
        assert_eq!(rn(1.0, 3.0), f64::from(1.0f32 / 3.0));
        assert!(div_full(0.0, 0.0).is_nan() && div_full(f64::INFINITY, f64::INFINITY).is_nan());
        assert_eq!(div_full(-1.0, 0.0), f64::NEG_INFINITY);
        assert_eq!(div_full(5.0, f64::INFINITY), 0.0);
        // A divisor in [2^126, 2^128): the full-range division keeps the quotient.
        assert_eq!(div_full(2f64.powi(127), 2f64.powi(127)), 1.0);
        // f16 divides in f32 and rounds once more.
        let h = Type::Scalar(DType::F16);
        let q = binary(BinaryOp::Div, Num::F(1.0), Num::F(3.0), h, 0).f();
        assert_eq!(q, half::f16::from_f32(1.0 / 3.0).to_f64());
    }

    #[test]
    fn integer_ops_wrap_and_divide_toward_zero() {
        let t = Type::Scalar(DType::I32);
        assert_eq!(
            binary(BinaryOp::Add, Num::I(i32::MAX as i64), Num::I(1), t, 0),
            Num::I(i32::MIN as i64)
        );
        assert_eq!(
            binary(BinaryOp::Div, Num::I(-7), Num::I(2), t, 0),
            Num::I(-3)
        );
        assert_eq!(
            binary(BinaryOp::Rem, Num::I(-7), Num::I(2), t, 0),
            Num::I(-1)
        );
        assert_eq!(
            binary(BinaryOp::Shr, Num::I(-8), Num::I(1), t, 0),
            Num::I(-4)
        );
        let h = Type::Scalar(DType::F16);
        assert_eq!(
            binary(BinaryOp::Add, Num::F(2048.0), Num::F(1.0), h, 0),
            Num::F(2048.0)
        );
        assert_eq!(cast(Num::F(-3.7), DType::F32, DType::I32), Num::I(-3));
        assert_eq!(cast(Num::F(1e10), DType::F32, DType::I8), Num::I(127));
    }
}
