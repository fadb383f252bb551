//! The row kernels' suites (RMSNorm, the norms' backward passes, softmax backward, cross
//! entropy): one test body per kernel over the element type, random rows rounded to that type,
//! and the bound a result rounded once to it is held to.

use weft::codegen::kernels::RowConfig;
use weft::codegen::DType;
use weft::runtime::{bf16, f16, DeviceElem};

use super::check::{tol, Tol};

/// An element type the row kernels read and write: f32, f16, bf16.
pub trait RowElem: DeviceElem + Copy + std::fmt::Debug {
    const DTYPE: DType;
    fn from_f32(v: f32) -> Self;
    fn to_f32(self) -> f32;
    fn bits(self) -> u64;
}

impl RowElem for f32 {
    const DTYPE: DType = DType::F32;
    fn from_f32(v: f32) -> Self {
        v
    }
    fn to_f32(self) -> f32 {
        self
    }
    fn bits(self) -> u64 {
        self.to_bits() as u64
    }
}

impl RowElem for bf16 {
    const DTYPE: DType = DType::BF16;
    fn from_f32(v: f32) -> Self {
        bf16::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
    fn bits(self) -> u64 {
        self.to_bits() as u64
    }
}

impl RowElem for f16 {
    const DTYPE: DType = DType::F16;
    fn from_f32(v: f32) -> Self {
        f16::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
    fn bits(self) -> u64 {
        self.to_bits() as u64
    }
}

/// `v` rounded to `T`: the device copy and the values the reference sees.
pub fn rounded<T: RowElem>(v: &[f32]) -> (Vec<T>, Vec<f32>) {
    let t: Vec<T> = v.iter().map(|&x| T::from_f32(x)).collect();
    let back = t.iter().map(|&x| x.to_f32()).collect();
    (t, back)
}

/// `T` widened to f64.
pub fn wide<T: RowElem>(v: &[T]) -> Vec<f64> {
    v.iter().map(|&x| x.to_f32() as f64).collect()
}

/// The bound of one result computed in f32 and rounded once to `dtype` whose values cross zero
/// (norms, gradients): the type's relative bound, taken absolute below 1 (values of order 1),
/// times `slack` for results that sum a row first (gradients: `slack` ulps).
pub fn bound(dtype: DType, slack: f64) -> Tol {
    let t = tol(dtype);
    Tol {
        rel: t.rel * slack,
        abs: t.rel.max(t.abs) * slack,
    }
}

/// [`RowConfig::for_n`] for rows of `n` of `dtype`, cut into chunks of `block_n` columns (the
/// looped and split kernels), with its warps and rows per CTA.
pub fn chunked(dtype: DType, n: u32, block_n: u32, num_warps: u32, rows_per_cta: u32) -> RowConfig {
    let c = RowConfig::for_n(n, dtype);
    RowConfig {
        block_n,
        num_warps,
        rows_per_cta,
        per_thread: c.per_thread.min(block_n),
        ..c
    }
}
