//! Column sums of a `p × n` f32 matrix in a fixed order: the second, deterministic step of a
//! weight gradient whose rows are per-CTA partial sums (no float atomics, so the same inputs
//! give the same bits on every run).

use crate::layout::encoding::{helpers::blocked_for, Slice};

use super::super::{Context, DType, Kernel, KernelBuilder, Operand, ReduceOp, Result, Target};
use super::check_pow2;
use super::row_tile::store_as;

/// A configuration of [`col_sum_kernel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColSumConfig {
    /// Rows of `part` summed per step (a power of two).
    pub block_p: u32,
    /// Columns per CTA (a power of two).
    pub block_n: u32,
    /// Consecutive columns per thread.
    pub per_thread: u32,
    /// Warps per CTA.
    pub num_warps: u32,
    /// The output's element type (f32, f16 or bf16; the sum is f32 throughout).
    pub dtype: DType,
}

impl ColSumConfig {
    /// 32 rows × 256 columns a step over 4 warps, 4 columns a thread.
    pub fn new(dtype: DType) -> ColSumConfig {
        ColSumConfig {
            block_p: 32,
            block_n: 256,
            per_thread: 4,
            num_warps: 4,
            dtype,
        }
    }

    /// The grid for `n` columns: `n.div_ceil(block_n)` CTAs.
    pub fn grid(&self, n: usize) -> u32 {
        n.div_ceil(self.block_n.max(1) as usize) as u32
    }
}

/// `out[j] = Σ_{i < p} part[i · n + j]` for `j < n`, summed in f32 in the same order on every
/// run: each CTA takes `block_n` columns and walks the rows `block_p` at a time, adding each
/// step's tile into one accumulator tile, then sums the accumulator's rows.
///
/// Parameters: `part: ptr<f32>`, `out: ptr<T>` (`T = c.dtype`), `p: i32`, `n: i32`; `p · n`
/// below 2^31. Grid: [`ColSumConfig::grid`]`(n)`.
///
/// Errors: a size that is not a power of two in range, or an output type other than
/// f32/f16/bf16.
pub fn col_sum_kernel(ctx: &Context, target: Target, c: ColSumConfig) -> Result<Kernel<'_>> {
    let op = "col_sum_kernel";
    check_pow2(op, "block_p", c.block_p as u64, 1, 256)?;
    check_pow2(op, "block_n", c.block_n as u64, 1, 4096)?;
    check_pow2(op, "per_thread", c.per_thread as u64, 1, 8)?;
    check_pow2(op, "num_warps", c.num_warps as u64, 1, 32)?;
    if !matches!(c.dtype, DType::F32 | DType::F16 | DType::BF16) {
        return Err(super::super::CodegenError::arg(
            op,
            format!(
                "dtype {}: the sums are written as f32, f16 or bf16",
                c.dtype
            ),
        ));
    }
    let layout = blocked_for(
        &[c.block_p as u64, c.block_n as u64],
        &[1, c.per_thread.min(c.block_n)],
        c.num_warps,
        target.warp_size(),
    )?;
    let mut kb = KernelBuilder::new(ctx, target, "col_sum", c.num_warps)?;
    let part = kb.arg_ptr("part", DType::F32, 16)?;
    let out = kb.arg_ptr("out", c.dtype, 16)?;
    let p = kb.arg_i32("p", 1)?;
    let n = kb.arg_i32("n", 1)?;
    let pid = kb.program_id(0)?;
    let c0 = kb.mul(pid, c.block_n as i32)?;
    let cols = kb.arange(0, c.block_n as i32, Slice::new(0, layout.clone().into()))?;
    let cols = kb.add(cols, c0)?;
    let col_ok1 = kb.lt(cols, n)?;
    let col_ok = kb.expand_dims(col_ok1, 0)?;
    let cols2 = kb.expand_dims(cols, 0)?;
    let rows = kb.arange(0, c.block_p as i32, Slice::new(1, layout.clone().into()))?;
    let rows = kb.expand_dims(rows, 1)?;
    let shape = [c.block_p as u64, c.block_n as u64];
    let acc = kb.full((&layout, shape), DType::F32, 0.0f32)?;
    let acc = kb.for_range(0, p, c.block_p, &[acc], |kb, i0, carried| {
        let r = kb.add(rows, i0)?;
        let row_ok = kb.lt(r, p)?;
        let mask = kb.and(row_ok, col_ok)?;
        let off = kb.mul(r, n)?;
        let off = kb.add(off, cols2)?;
        let ptr = kb.add(part, off)?;
        let v = kb.load(ptr, Some(mask), Some(Operand::Float(0.0)))?;
        Ok(vec![kb.add(carried[0], v)?])
    })?[0];
    let sum = kb.reduce(acc, 0, ReduceOp::Sum)?;
    store_as(&mut kb, out, cols, sum, c.dtype, col_ok1)?;
    kb.finish()
}
