//! Row-wise softmax in one pass: each CTA holds `rows_per_cta` whole rows in registers.

use crate::layout::encoding::{Blocked, Slice};

use super::super::{
    CodegenError, Context, DType, Kernel, KernelBuilder, Operand, ReduceOp, Result, Target,
};
use super::row_config::RowConfig;
use super::row_tile;

/// The most f32 a thread may hold (the row tile over the CTA's threads): past this the tile
/// cannot stay in registers (255 per thread on NVIDIA). Near it ptxas may already spill: 128
/// f32 of one row take 254 registers on sm_90 without spilling; 128 over 4 rows spill.
pub const SOFTMAX_MAX_PER_THREAD: u64 = 128;

/// A configuration of [`softmax_kernel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SoftmaxConfig {
    /// Columns of the CTA's tile: a power of two `≥ n` (a row must fit in one tile).
    pub block_n: u32,
    /// Rows per CTA (a power of two).
    pub rows_per_cta: u32,
    /// Consecutive columns per thread and access (4 f32 = one 16-byte vector).
    pub per_thread: u32,
    /// Warps per CTA.
    pub num_warps: u32,
    /// What `n` is promised to be a multiple of (1, 2, 4, 8 or 16), recorded in the kernel's
    /// signature and checked at launch. Row `r` starts at `r * n`, so the accesses can only be
    /// as wide as this allows (with `x`, `y` 16-byte aligned): 4 or more gives 16-byte vectors
    /// (`ld.global.v4` for `per_thread ≥ 4`), 2 gives 8 bytes, 1 (any `n`) one access per
    /// element. [`SoftmaxConfig::for_n`] takes the largest that divides `n`; 16 is Triton's
    /// usual promise.
    pub n_divisibility: u32,
}

impl SoftmaxConfig {
    /// The configuration for rows of `n` columns: `block_n = n.next_power_of_two()` and
    /// `n_divisibility` the largest power of two ≤ 16 that divides `n`.
    pub fn for_n(n: u32, rows_per_cta: u32, per_thread: u32, num_warps: u32) -> SoftmaxConfig {
        let (block_n, n_divisibility) = row_tile::for_n(n);
        SoftmaxConfig {
            block_n,
            rows_per_cta,
            per_thread,
            num_warps,
            n_divisibility,
        }
    }

    /// The grid for `m` rows: `m.div_ceil(rows_per_cta)` CTAs.
    pub fn grid(&self, m: usize) -> u32 {
        row_tile::grid(m, self.rows_per_cta)
    }

    /// Whether the kernel built for this configuration computes the softmax of an `m × n`
    /// matrix: `n ≤ block_n`, `n` a multiple of `n_divisibility`, `m * n < 2^31` (offsets are
    /// i32), and at least one row and column. With a longer row the kernel would normalise only
    /// its first `block_n` columns and leave the rest unwritten.
    pub fn check_shape(&self, m: usize, n: usize) -> Result<()> {
        row_tile::check_shape("softmax", self.block_n, self.n_divisibility, m, n)
    }

    /// The `Blocked` layout of the `[rows_per_cta, block_n]` tile, as Triton's
    /// `BlockedEncodingAttr::get` picks it ([`blocked_for`](crate::layout::encoding::helpers::blocked_for)): `per_thread` consecutive columns
    /// per thread, lanes along the columns first, then warps along the columns until they cover
    /// the row, the rest of the warps (and lanes) along the rows.
    pub fn layout(&self, target: Target) -> Result<Blocked> {
        let op = "softmax_kernel";
        row_tile::check_params(
            op,
            self.block_n,
            self.rows_per_cta,
            self.per_thread,
            self.num_warps,
            self.n_divisibility,
        )?;
        let threads = target.warp_size() as u64 * self.num_warps as u64;
        let tile = self.rows_per_cta as u64 * self.block_n as u64;
        // Copies (threads beyond the tile) hold nothing of their own; each thread holds at
        // least `per_thread`.
        let per_thread_total = (tile / threads).max(self.per_thread as u64);
        if per_thread_total > SOFTMAX_MAX_PER_THREAD {
            return Err(CodegenError::arg(
                op,
                format!(
                    "{} × {} f32 over {threads} threads is {per_thread_total} per thread, more than \
                     {SOFTMAX_MAX_PER_THREAD} (the registers would spill): use more warps or fewer rows",
                    self.rows_per_cta, self.block_n
                ),
            ));
        }
        row_tile::layout(
            target,
            self.block_n,
            self.rows_per_cta,
            self.per_thread,
            self.num_warps,
        )
    }
}

/// `y[r, :] = softmax(x[r, :])` for each of the `m` rows of an `m × n` f32 matrix (row stride
/// `n`, both matrices contiguous), in one pass: each CTA loads `rows_per_cta` rows as a
/// `[rows_per_cta, block_n]` tile in [`SoftmaxConfig::layout`] (columns `≥ n` and rows `≥ m`
/// masked, read as `-inf`), takes each row's max (`reduce(Max, 1)`), computes
/// `e = exp2(x·log2(e) - max·log2(e))` (one `fma` per element and `ex2.approx`, as Triton's
/// `exp` lowers; a masked column gives `exp2(-inf) = 0`), the row sums (`reduce(Sum, 1)`), and
/// stores `e · (1 / sum)` where unmasked.
///
/// Parameters: `x, y: ptr<f32>` (16-byte aligned), `m: i32` (any), `n: i32`, a multiple of
/// `c.n_divisibility` (the signature records it and the launcher checks it): with 16 (or 4, 8)
/// the loads and stores are 16-byte vectors for `per_thread ≥ 4`; with 1 (any `n`, e.g. 17 or
/// 1001) each element is its own access. The kernel assumes what
/// [`SoftmaxConfig::check_shape`] checks: `n ≤ block_n` and `m · n < 2^31`. Grid:
/// [`SoftmaxConfig::grid`]`(m)` = `m.div_ceil(rows_per_cta)` CTAs.
///
/// Errors: any size that is not a power of two (or out of range), `per_thread > block_n`, or a
/// tile of more than [`SOFTMAX_MAX_PER_THREAD`] f32 per thread.
pub fn softmax_kernel(ctx: &Context, target: Target, c: SoftmaxConfig) -> Result<Kernel<'_>> {
    let layout = c.layout(target)?;
    let kb = KernelBuilder::new(ctx, target, "softmax", c.num_warps)?;
    softmax_body(
        kb,
        &layout,
        c.rows_per_cta,
        c.block_n,
        c.n_divisibility,
        DType::F32,
    )
}

/// [`softmax_kernel`] over rows of `c.dtype` (f32, f16 or bf16, computed in f32): the same
/// one-pass body, the tile laid out by [`RowConfig::layout`] (one tile a thread). Parameters
/// `x, y: ptr<T>, m: i32, n: i32`; grid [`RowConfig::grid`]`(m)`; assumes
/// [`RowConfig::check_shape`].
///
/// Errors: a configuration [`RowConfig::layout`] refuses, or another element type.
pub fn softmax_rows_kernel(ctx: &Context, target: Target, c: RowConfig) -> Result<Kernel<'_>> {
    let layout = c.layout("softmax_rows_kernel", target, 1, 0)?;
    let kb = KernelBuilder::new(ctx, target, "softmax_rows", c.num_warps)?;
    softmax_body(
        kb,
        &layout,
        c.rows_per_cta,
        c.block_n,
        c.n_divisibility,
        c.dtype,
    )
}

/// The one-pass softmax of both kernels over `dtype` rows (f32 arithmetic).
fn softmax_body<'c>(
    mut kb: KernelBuilder<'c>,
    layout: &Blocked,
    rows_per_cta: u32,
    block_n: u32,
    n_divisibility: u32,
    dtype: DType,
) -> Result<Kernel<'c>> {
    let x = kb.arg_ptr("x", dtype, 16)?;
    let y = kb.arg_ptr("y", dtype, 16)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", n_divisibility as u64)?;
    let pid = kb.program_id(0)?;
    let r0 = kb.mul(pid, rows_per_cta as i32)?;
    // rows[:, None] and cols[None, :], built in the slices of the tile's layout.
    let rows = kb.arange(0, rows_per_cta as i32, Slice::new(1, layout.clone().into()))?;
    let rows = kb.add(rows, r0)?;
    let row_ok = kb.lt(rows, m)?;
    let row_off = kb.mul(rows, n)?;
    let cols = kb.arange(0, block_n as i32, Slice::new(0, layout.clone().into()))?;
    let col_ok = kb.lt(cols, n)?;
    let row_ok = kb.expand_dims(row_ok, 1)?;
    let row_off = kb.expand_dims(row_off, 1)?;
    let col_ok = kb.expand_dims(col_ok, 0)?;
    let cols = kb.expand_dims(cols, 0)?;
    let mask = kb.and(row_ok, col_ok)?;
    let offs = kb.add(row_off, cols)?;
    let px = kb.add(x, offs)?;
    let v = kb.load(px, Some(mask), Some(Operand::Float(f64::NEG_INFINITY)))?;
    let v = row_tile::to_f32(&mut kb, v)?;
    let max = kb.reduce(v, 1, ReduceOp::Max)?;
    // exp(v - max) = exp2(v·log2(e) - max·log2(e)): the row's scaled max once, then one fma
    // per element.
    let log2e = std::f64::consts::LOG2_E;
    let neg_max = kb.mul(max, -log2e)?;
    let neg_max = kb.expand_dims(neg_max, 1)?;
    let t = kb.fma(v, log2e, neg_max)?;
    let e = kb.exp2(t)?;
    let sum = kb.reduce(e, 1, ReduceOp::Sum)?;
    let inv = kb.div(1.0f32, sum)?;
    let inv = kb.expand_dims(inv, 1)?;
    let out = kb.mul(e, inv)?;
    row_tile::store_as(&mut kb, y, offs, out, dtype, mask)?;
    kb.finish()
}

/// The host reference: the softmax of each `n`-element row of the row-major `x`, in f64 (what
/// the tests and examples check [`softmax_kernel`] against).
pub fn softmax_reference(x: &[f32], n: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(n.max(1)) {
        let max = row.iter().fold(f64::NEG_INFINITY, |a, &v| a.max(v as f64));
        let start = out.len();
        out.extend(row.iter().map(|&v| (v as f64 - max).exp()));
        let sum: f64 = out[start..].iter().sum();
        out[start..].iter_mut().for_each(|v| *v /= sum);
    }
    out
}
