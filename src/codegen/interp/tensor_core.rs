//! The tensor cores' sums, as the interpreter computes a `dot` or `wgmma` tile.
//!
//! 16-bit and tf32 products are summed into the f32 accumulator at f32 precision or better, so
//! the interpreter sums them exactly (in `f64`) and rounds once. NVIDIA's fp8 tensor cores do
//! not: each fp8 instruction (`k32` for wgmma and `mma.sync`) adds its products to the
//! accumulator in a narrower datapath and keeps about 14 significant bits of the sum (an
//! "e8m13" accumulator, DeepSeek-V3 §3.3.2 and the published H100 models), dropping the rest
//! towards zero. That is why block-scaled fp8 GEMMs promote every 128 of K into f32, and why an
//! fp8 result differs from an exact host sum by up to about `2^-11 · Σ |a·b|` per 128 of K, even
//! where the true result is near zero. The interpreter keeps 13 fraction bits after each 32
//! products of an fp8 dot on NVIDIA targets, so a check that would fail on the GPU for this
//! reason fails here too. The exact alignment of each product inside the instruction is not
//! modelled: the GPU can differ from this model in the last kept bit.

use crate::codegen::types::DType;

/// Products one fp8 tensor-core instruction adds before it rounds (its K).
pub(crate) const FP8_STEP: usize = 32;

/// Fraction bits the fp8 accumulator keeps.
pub(crate) const FP8_FRACTION_BITS: i32 = 13;

/// How an instruction's sum is kept: exactly (then rounded to the accumulator's type), or
/// truncated to `FP8_FRACTION_BITS` after every `FP8_STEP` products.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Accumulate {
    Exact,
    Fp8Truncated,
}

impl Accumulate {
    /// The model of operands of `a` × `b` on a target of NVIDIA (`nvidia`) or another vendor.
    pub(crate) fn of(a: DType, b: DType, nvidia: bool) -> Accumulate {
        let fp8 = |d: DType| matches!(d, DType::F8E4M3 | DType::F8E5M2);
        if nvidia && (fp8(a) || fp8(b)) {
            Accumulate::Fp8Truncated
        } else {
            Accumulate::Exact
        }
    }
}

/// `x` with its significand cut to `bits` fraction bits, towards zero (an f32's exponent range;
/// zero, infinities and NaN unchanged).
pub(crate) fn truncate_fraction(x: f64, bits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    // The value's binary exponent, floored at f32's smallest normal: below it the f32 grid is
    // uniform, and so is the accumulator's.
    let e = x.abs().log2().floor().max(-126.0) as i32;
    let ulp = 2f64.powi(e - bits);
    (x / ulp).trunc() * ulp
}

/// One output element: `acc` (when `use_acc`) plus `Σ_k a(k) · b(k)` over `k` in `0..k`, kept as
/// `mode` says (the caller rounds the result to the accumulator's type).
pub(crate) fn dot_element(
    mode: Accumulate,
    acc: Option<f64>,
    k: usize,
    a: impl Fn(usize) -> f64,
    b: impl Fn(usize) -> f64,
) -> f64 {
    let mut s = acc.unwrap_or(0.0);
    match mode {
        Accumulate::Exact => {
            for kk in 0..k {
                s += a(kk) * b(kk);
            }
        }
        Accumulate::Fp8Truncated => {
            let mut kk = 0;
            while kk < k {
                let end = (kk + FP8_STEP).min(k);
                for j in kk..end {
                    s += a(j) * b(j);
                }
                s = truncate_fraction(s, FP8_FRACTION_BITS);
                kk = end;
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_keeps_thirteen_fraction_bits_towards_zero() {
        // 444.5078125 = 444.5 + 2^-7: at exponent 8 the kept grid is 2^-5.
        assert_eq!(truncate_fraction(444.507_812_5, 13), 444.5);
        assert_eq!(truncate_fraction(-444.507_812_5, 13), -444.5);
        // On the grid: unchanged.
        assert_eq!(truncate_fraction(444.531_25, 13), 444.531_25);
        assert_eq!(truncate_fraction(0.0, 13), 0.0);
        assert!(truncate_fraction(f64::NAN, 13).is_nan());
    }

    #[test]
    fn fp8_sums_lose_low_bits_every_32_products_and_16_bit_sums_do_not() {
        // 31 products of 3.5 and one of 2^-9 in each of two steps of 32.
        let a = |k: usize| if k % 32 == 31 { 1.0 / 64.0 } else { 2.0 };
        let b = |k: usize| if k % 32 == 31 { 0.125 } else { 1.75 };
        let exact = dot_element(Accumulate::Exact, None, 64, a, b);
        assert_eq!(exact, 62.0 * 3.5 + 2.0 / 512.0);
        // Step one: 108.5 + 2^-9 on a grid of 2^-7 → 108.5; step two: 217 + 2^-9 on a grid of
        // 2^-6 → 217.
        let fp8 = dot_element(Accumulate::Fp8Truncated, None, 64, a, b);
        assert_eq!(fp8, 217.0);
        // The incoming accumulator passes through the same cut.
        let zero = |_: usize| 0.0;
        let acc = dot_element(
            Accumulate::Fp8Truncated,
            Some(444.507_812_5),
            32,
            zero,
            zero,
        );
        assert_eq!(acc, 444.5);
        assert_eq!(
            Accumulate::of(DType::F8E4M3, DType::F8E4M3, true),
            Accumulate::Fp8Truncated
        );
        assert_eq!(
            Accumulate::of(DType::BF16, DType::BF16, true),
            Accumulate::Exact
        );
        assert_eq!(
            Accumulate::of(DType::F8E4M3, DType::F8E4M3, false),
            Accumulate::Exact
        );
    }
}
