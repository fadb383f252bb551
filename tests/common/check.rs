//! Checking a kernel's results against its host reference, the same on every backend: one
//! tolerance table per element type, bit-for-bit comparison for data movement and integers, and
//! the poison past the end of an output.

use weft::codegen::DType;

/// How far a floating-point result may lie from its f64 host reference: `|got - want| ≤ abs`
/// or `≤ rel · |want|`. Integer and data-movement kernels are compared bit for bit instead.
#[derive(Debug, Clone, Copy)]
pub struct Tol {
    pub rel: f64,
    pub abs: f64,
}

/// The tolerance for one result of element type `dtype` whose only rounding that matters is
/// the last (an f32 accumulator rounded to the output type, a softmax, a layer norm): an ulp of
/// the type (twice the half ulp of a correct rounding), and an absolute floor for results that
/// cancel to near zero. Sums over long rows state their own bound from `Σ|x|` on top; kernels
/// that only move data or compute in integers are compared bit for bit.
pub fn tol(dtype: DType) -> Tol {
    match dtype {
        // The GPU suites' bound for f32 softmax and layer norm (softmax, whose outputs are
        // positive, holds the relative part alone).
        DType::F32 => Tol {
            rel: 1e-5,
            abs: 1e-6,
        },
        DType::F64 => Tol {
            rel: 1e-12,
            abs: 1e-14,
        },
        // 2⁻¹⁰ and 2⁻⁷: the GPU GEMM suite's bound.
        DType::F16 => Tol {
            rel: 1.0 / 1024.0,
            abs: 1e-3,
        },
        DType::BF16 => Tol {
            rel: 1.0 / 128.0,
            abs: 1e-3,
        },
        other => panic!("{other} results are compared bit for bit"),
    }
}

/// The tolerance of attention's output O (values of order 1): P is rounded to the 16-bit input
/// type before P·V, as in FlashAttention, so a few ulps of that type, absolute.
pub fn tol_attention(dtype: DType) -> Tol {
    let abs = if dtype == DType::F16 { 4e-3 } else { 3e-2 };
    Tol { rel: 0.0, abs }
}

/// Checks `got` against `want` within `t`; prints the first few misses. Returns the largest
/// error relative to `max(|want|, abs / rel)` (the bound's own scale), for the suites to print.
pub fn close(got: &[f64], want: &[f64], t: Tol, what: &str) -> f64 {
    assert!(got.len() >= want.len(), "{what}: {} results", got.len());
    let mut bad = 0;
    let mut worst = 0.0f64;
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let err = (g - w).abs();
        if !(err <= t.abs || err <= t.rel * w.abs()) {
            if bad < 5 {
                eprintln!("{what}: element {i}: got {g}, want {w}");
            }
            bad += 1;
        } else if t.rel > 0.0 {
            worst = worst.max(err / w.abs().max(t.abs / t.rel));
        } else {
            worst = worst.max(err);
        }
    }
    assert_eq!(bad, 0, "{what}: {bad} of {} elements differ", want.len());
    worst
}

/// Checks `got[..want.len()]` equals `want` bit for bit (by `bits`).
pub fn exact<T: Copy + std::fmt::Debug>(got: &[T], want: &[T], bits: fn(T) -> u64, what: &str) {
    assert!(got.len() >= want.len(), "{what}: {} results", got.len());
    let bad: Vec<usize> = (0..want.len())
        .filter(|&i| bits(got[i]) != bits(want[i]))
        .collect();
    assert!(
        bad.is_empty(),
        "{what}: {} of {} differ, first at {}: got {:?}, want {:?}",
        bad.len(),
        want.len(),
        bad[0],
        got[bad[0]],
        want[bad[0]]
    );
}

/// Checks that every element of `out` from `len` on still holds the 0xFF-byte poison (`bits`
/// gives an element's bits, zero-extended).
pub fn poison_intact<T: Copy>(out: &[T], len: usize, bits: fn(T) -> u64, what: &str) {
    let size = std::mem::size_of::<T>() as u32;
    let poison = u64::MAX >> (64 - 8 * size);
    for (i, &g) in out[len..].iter().enumerate() {
        assert_eq!(
            bits(g),
            poison,
            "{what}: element {i} past the end was written"
        );
    }
}

/// f32 bits, for [`exact`] and [`poison_intact`].
pub fn f32_bits(v: f32) -> u64 {
    u64::from(v.to_bits())
}

/// As f64, for [`close`].
pub fn widen(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(x)).collect()
}

/// The bound on an f32 sum of `n` terms whose absolute values sum to `abs`: the rounding error
/// of any summation order stays below `n · 2⁻²⁴ · Σ|x|` (doubled, and a floor of 1e-6).
pub fn sum_bound(n: usize, abs: f64) -> f64 {
    2.0 * (n as f64) * f64::from(f32::EPSILON) * abs + 1e-6
}
