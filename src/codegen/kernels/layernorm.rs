//! Row-wise layer normalisation in one pass: each CTA holds `rows_per_cta` whole rows in
//! registers, with the weight and bias loaded once and shared by its rows.

use crate::layout::encoding::{Blocked, Slice};

use super::super::{
    CodegenError, Context, DType, Kernel, KernelBuilder, MathOp, MathPrecision, Operand, ReduceOp,
    Result, Target,
};
use super::row_config::RowConfig;
use super::row_tile;

/// The most f32 a thread may hold of the row tile, the weight and the bias together: past this
/// they cannot stay in registers (255 per thread on NVIDIA). The softmax's bound
/// ([`super::SOFTMAX_MAX_PER_THREAD`]) counts its tile alone; here a thread also keeps its
/// columns of `w` and `b` (`2 × block_n / threads along the row`).
pub const LAYERNORM_MAX_PER_THREAD: u64 = 128;

/// A configuration of [`layernorm_kernel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LayernormConfig {
    /// Columns of the CTA's tile: a power of two `≥ n` (a row must fit in one tile).
    pub block_n: u32,
    /// Rows per CTA (a power of two); they share one load of `w` and `b`.
    pub rows_per_cta: u32,
    /// Consecutive columns per thread and access (4 f32 = one 16-byte vector).
    pub per_thread: u32,
    /// Warps per CTA.
    pub num_warps: u32,
    /// What `n` is promised to be a multiple of (1, 2, 4, 8 or 16), recorded in the kernel's
    /// signature and checked at launch. Row `r` of `x` and `y` starts at `r * n`, so the
    /// accesses can only be as wide as this allows (with `x`, `y`, `w`, `b` 16-byte aligned): 4
    /// or more gives 16-byte vectors for `per_thread ≥ 4`, 2 gives 8 bytes, 1 (any `n`) one
    /// access per element. [`LayernormConfig::for_n`] takes the largest that divides `n`.
    pub n_divisibility: u32,
    /// Load `w` and `b` beside `x`, before the statistics, so their latency overlaps the row's
    /// (more registers than loading them after the statistics, but the same one CTA of 512
    /// threads per SM at 16384 columns over 16 warps, and 7% faster on the H200).
    pub params_first: bool,
    /// A register limit (ptxas's `.maxnreg`, NVIDIA), e.g. 64 so that two 512-thread CTAs fit
    /// on an SM and one's row loads overlap the other's reductions (ptxas spills the rest).
    pub max_registers: Option<u32>,
}

impl LayernormConfig {
    /// The configuration for rows of `n` columns: `block_n = n.next_power_of_two()`,
    /// `n_divisibility` the largest power of two ≤ 16 that divides `n`, `w` and `b` loaded
    /// first when the CTA has at most 512 threads (128 registers a thread; with more, the
    /// extra registers would spill), no register limit.
    pub fn for_n(n: u32, rows_per_cta: u32, per_thread: u32, num_warps: u32) -> LayernormConfig {
        let (block_n, n_divisibility) = row_tile::for_n(n);
        LayernormConfig {
            block_n,
            rows_per_cta,
            per_thread,
            num_warps,
            n_divisibility,
            params_first: num_warps <= 16,
            max_registers: None,
        }
    }

    /// The grid for `m` rows: `m.div_ceil(rows_per_cta)` CTAs.
    pub fn grid(&self, m: usize) -> u32 {
        row_tile::grid(m, self.rows_per_cta)
    }

    /// Whether the kernel built for this configuration normalises an `m × n` matrix:
    /// `n ≤ block_n`, `n` a multiple of `n_divisibility`, `m * n < 2^31` (offsets are i32), and
    /// at least one row and column. With a longer row the kernel would take the mean and
    /// variance of its first `block_n` columns only and leave the rest unwritten.
    pub fn check_shape(&self, m: usize, n: usize) -> Result<()> {
        row_tile::check_shape("layernorm", self.block_n, self.n_divisibility, m, n)
    }

    /// The `Blocked` layout of the `[rows_per_cta, block_n]` tile, as Triton's
    /// `BlockedEncodingAttr::get` picks it ([`blocked_for`](crate::layout::encoding::helpers::blocked_for)): `per_thread` consecutive columns
    /// per thread, lanes along the columns first, then warps along the columns until they cover
    /// the row, the rest of the warps (and lanes) along the rows. `w` and `b` are laid out in
    /// its column slice (`Slice(0)`): each thread holds the columns it normalises.
    pub fn layout(&self, target: Target) -> Result<Blocked> {
        let op = "layernorm_kernel";
        let shape = [self.rows_per_cta as u64, self.block_n as u64];
        let l = row_tile::checked_layout(
            op,
            target,
            [
                self.block_n,
                self.rows_per_cta,
                self.per_thread,
                self.num_warps,
                self.n_divisibility,
            ],
        )?;
        let (rows, cols) = row_tile::held(&l, shape);
        let total = rows * cols + 2 * cols;
        if total > LAYERNORM_MAX_PER_THREAD {
            return Err(CodegenError::arg(
                op,
                format!(
                    "{} × {} f32 over {} threads is {} per thread, and {cols} each of w and b: \
                     {total}, more than {LAYERNORM_MAX_PER_THREAD} (the registers would spill): \
                     use more warps or fewer rows",
                    self.rows_per_cta,
                    self.block_n,
                    target.warp_size() * self.num_warps,
                    rows * cols,
                ),
            ));
        }
        Ok(l)
    }
}

/// `y[r, :] = (x[r, :] - mean) / sqrt(var + eps) * w + b` for each of the `m` rows of an
/// `m × n` f32 matrix (row stride `n`, `x` and `y` contiguous), with `mean` and the biased
/// `var` those of row `r` (PyTorch's `layer_norm` over the last dim), in one pass: each CTA
/// loads `rows_per_cta` rows as a `[rows_per_cta, block_n]` tile in
/// [`LayernormConfig::layout`] (columns `≥ n` and rows `≥ m` masked, read as 0), and `w[:n]`,
/// `b[:n]` once in the tile's column slice, beside `x` or after the statistics
/// ([`LayernormConfig::params_first`]). Per row: `mean = sum(x) / n`
/// (`reduce(Sum, 1)`), centred values `c = x - mean` set back to 0 outside the row, so that
/// `var = sum(c²) / n` (the centred form: no cancellation from `E[x²] - mean²`), then
/// `rstd = rsqrt(var + eps)` (accurate, once per row) and `y = fma(c · rstd, w, b)`, stored
/// where unmasked.
///
/// Parameters: `x, y, w, b: ptr<f32>` (16-byte aligned), `m: i32` (any), `n: i32`, a multiple
/// of `c.n_divisibility` (the signature records it and the launcher checks it), `eps: f32`.
/// With 16 (or 4, 8) the loads and stores are 16-byte vectors for `per_thread ≥ 4`; with 1 (any
/// `n`, e.g. 17 or 1001) each element is its own access. The kernel assumes what
/// [`LayernormConfig::check_shape`] checks: `n ≤ block_n` and `m · n < 2^31`. Grid:
/// [`LayernormConfig::grid`]`(m)` = `m.div_ceil(rows_per_cta)` CTAs.
///
/// Errors: any size that is not a power of two (or out of range), `per_thread > block_n`, or
/// more than [`LAYERNORM_MAX_PER_THREAD`] f32 per thread (tile, weight and bias). Within the
/// bound ptxas may still spill where the block size caps the registers (65536 per SM over the
/// CTA's threads: 64 at 1024 threads): two 16K rows over 32 warps spill 52 bytes on sm_90.
pub fn layernorm_kernel(ctx: &Context, target: Target, c: LayernormConfig) -> Result<Kernel<'_>> {
    let layout = c.layout(target)?;
    let mut kb = KernelBuilder::new(ctx, target, "layernorm", c.num_warps)?;
    if let Some(r) = c.max_registers {
        kb.limit_registers(r)?;
    }
    layernorm_body(kb, &layout, c, DType::F32)
}

/// [`layernorm_kernel`] over rows of `c.dtype` (f32, f16 or bf16; `x`, `y`, `w`, `b` all of it,
/// computed in f32): the same one-pass body, the tile laid out by [`RowConfig::layout`] (the
/// tile, `w` and `b` within 128 f32 a thread), `w` and `b` loaded after the statistics (so that
/// their registers are not held beside the row's while its loads are in flight: 64 registers
/// at 32 elements a thread, `examples/row_occupancy`).
/// Parameters `x, y, w, b: ptr<T>, m: i32, n: i32, eps: f32`; grid [`RowConfig::grid`]`(m)`;
/// assumes [`RowConfig::check_shape`].
///
/// Errors: a configuration [`RowConfig::layout`] refuses, or another element type.
pub fn layernorm_rows_kernel(ctx: &Context, target: Target, c: RowConfig) -> Result<Kernel<'_>> {
    let layout = c.layout("layernorm_rows_kernel", target, 1, 2)?;
    let kb = KernelBuilder::new(ctx, target, "layernorm_rows", c.num_warps)?;
    let lc = LayernormConfig {
        block_n: c.block_n,
        rows_per_cta: c.rows_per_cta,
        per_thread: c.per_thread,
        num_warps: c.num_warps,
        n_divisibility: c.n_divisibility,
        params_first: false,
        max_registers: None,
    };
    layernorm_body(kb, &layout, lc, c.dtype)
}

/// The one-pass layer norm of both kernels over `dtype` rows (f32 arithmetic); `c` gives the
/// tile and the parameters' order of loading (its layout is `layout`).
fn layernorm_body<'c>(
    mut kb: KernelBuilder<'c>,
    layout: &Blocked,
    c: LayernormConfig,
    dtype: DType,
) -> Result<Kernel<'c>> {
    // As Triton compiles its layernorm: the sum of squares accumulates by FMAs.
    kb.allow_fp_contraction(true);
    let x = kb.arg_ptr("x", dtype, 16)?;
    let y = kb.arg_ptr("y", dtype, 16)?;
    let w = kb.arg_ptr("w", dtype, 16)?;
    let b = kb.arg_ptr("b", dtype, 16)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", c.n_divisibility as u64)?;
    let eps = kb.arg_f32("eps")?;
    let pid = kb.program_id(0)?;
    let r0 = kb.mul(pid, c.rows_per_cta as i32)?;
    // rows[:, None] and cols[None, :], built in the slices of the tile's layout.
    let rows = kb.arange(
        0,
        c.rows_per_cta as i32,
        Slice::new(1, layout.clone().into()),
    )?;
    let rows = kb.add(rows, r0)?;
    let row_ok = kb.lt(rows, m)?;
    let row_off = kb.mul(rows, n)?;
    let cols = kb.arange(0, c.block_n as i32, Slice::new(0, layout.clone().into()))?;
    let col_ok1 = kb.lt(cols, n)?;
    let cols1 = cols;
    let row_ok = kb.expand_dims(row_ok, 1)?;
    let row_off = kb.expand_dims(row_off, 1)?;
    let col_ok = kb.expand_dims(col_ok1, 0)?;
    let cols = kb.expand_dims(cols, 0)?;
    let mask = kb.and(row_ok, col_ok)?;
    let offs = kb.add(row_off, cols)?;
    let px = kb.add(x, offs)?;
    let v = kb.load(px, Some(mask), Some(Operand::Float(0.0)))?;
    let v = row_tile::to_f32(&mut kb, v)?;
    // w and b once per CTA, in the column slice: each thread loads the columns it holds.
    let load_params = |kb: &mut KernelBuilder<'_>| -> Result<(_, _)> {
        let pw = kb.add(w, cols1)?;
        let wv = kb.load(pw, Some(col_ok1), Some(Operand::Float(0.0)))?;
        let wv = row_tile::to_f32(kb, wv)?;
        let pb = kb.add(b, cols1)?;
        let bv = kb.load(pb, Some(col_ok1), Some(Operand::Float(0.0)))?;
        let bv = row_tile::to_f32(kb, bv)?;
        Ok((kb.expand_dims(wv, 0)?, kb.expand_dims(bv, 0)?))
    };
    let early = if c.params_first {
        Some(load_params(&mut kb)?)
    } else {
        None
    };
    // mean = sum / n (the masked zeros add nothing).
    let nf = kb.cast(n, DType::F32)?;
    let sum = kb.reduce(v, 1, ReduceOp::Sum)?;
    let mean = kb.div(sum, nf)?;
    let mean = kb.expand_dims(mean, 1)?;
    // Centred values, 0 again outside the row (where `0 - mean` would count in the variance).
    let centred = kb.sub(v, mean)?;
    let centred = kb.where_(col_ok, centred, 0.0f32)?;
    let sq = kb.mul(centred, centred)?;
    let ssq = kb.reduce(sq, 1, ReduceOp::Sum)?;
    let var = kb.div(ssq, nf)?;
    let var = kb.add(var, eps)?;
    let rstd = kb.math_with(MathOp::Rsqrt, var, MathPrecision::Accurate)?;
    let rstd = kb.expand_dims(rstd, 1)?;
    let (wv, bv) = match early {
        Some(p) => p,
        None => load_params(&mut kb)?,
    };
    let xhat = kb.mul(centred, rstd)?;
    let out = kb.fma(xhat, wv, bv)?;
    row_tile::store_as(&mut kb, y, offs, out, dtype, mask)?;
    kb.finish()
}

/// The host reference: the layer norm of each `n`-element row of the row-major `x` with weight
/// `w` and bias `b` (`n` each), in f64 (what the tests and examples check [`layernorm_kernel`]
/// against): `(x - mean) / sqrt(var + eps) * w + b` with the biased variance.
pub fn layernorm_reference(x: &[f32], w: &[f32], b: &[f32], n: usize, eps: f32) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(n.max(1)) {
        let len = row.len() as f64;
        let mean = row.iter().map(|&v| v as f64).sum::<f64>() / len;
        let var = row
            .iter()
            .map(|&v| (v as f64 - mean) * (v as f64 - mean))
            .sum::<f64>()
            / len;
        let rstd = 1.0 / (var + eps as f64).sqrt();
        out.extend(
            row.iter()
                .zip(w.iter().zip(b))
                .map(|(&v, (&wj, &bj))| (v as f64 - mean) * rstd * wj as f64 + bj as f64),
        );
    }
    out
}
