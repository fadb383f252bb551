//! Cross entropy over a large vocabulary: the forward pass walks each row in column chunks
//! with an online max and sum (one read of the logits, any row length), saving the
//! log-sum-exp; the backward pass turns that into `dlogits` in one read and one write.

use std::f64::consts::{LN_2, LOG2_E};

use crate::layout::encoding::Slice;

use super::super::{
    CodegenError, Context, DType, Kernel, KernelBuilder, Operand, Result, Target, Value,
};
use super::row_config::RowConfig;
use super::row_tile::{load_f32, store_as, tile_cols, tile_rows_with, TileRows};

/// The rows of a cross-entropy tile with 64-bit row starts (`m · n` may pass 2^31: 16K rows of
/// 128K classes do), their targets, and which targets count.
fn rows_and_targets(
    kb: &mut KernelBuilder<'_>,
    layout: &crate::layout::encoding::Blocked,
    c: &RowConfig,
    pid: Value,
    [m, n, target, ignore]: [Value; 4],
) -> Result<(TileRows, Value, Value)> {
    let rows = tile_rows_with(kb, layout, c.rows_per_cta, pid, m, n, true)?;
    let pt = kb.add(target, rows.rows)?;
    let t = kb.load(pt, Some(rows.ok1), Some(Operand::Int(0)))?;
    let counted = kb.ne(t, ignore)?;
    Ok((rows, t, counted))
}

/// Checks a cross-entropy configuration and returns its tile layout: one tile of f32 a thread.
fn layout_for(
    op: &'static str,
    target: Target,
    c: &RowConfig,
) -> Result<crate::layout::encoding::Blocked> {
    c.layout(op, target, 1, 0)
}

/// Whether the cross-entropy kernels of `c` cover `m` rows of `n` classes: neither empty,
/// `m < 2^31` and `n + 2 · block_n < 2^31` (the row starts are 64-bit, so `m · n` may pass
/// 2^31; the column indices of the forward pass's prefetch, a chunk past the last, stay i32;
/// any `n ≥ 1`, chunked by `block_n`), `n` a multiple of `c.n_divisibility`.
pub fn cross_entropy_check_shape(c: &RowConfig, m: usize, n: usize) -> Result<()> {
    let op = "cross_entropy";
    let cols_end = n as u64 + 2 * c.block_n as u64;
    if m == 0 || n == 0 || m > i32::MAX as usize || cols_end > i32::MAX as u64 {
        return Err(CodegenError::arg(
            op,
            format!(
                "{m} rows × {n} classes: rows must be in 1..2^31 and classes in 1..2^31 - 2 · \
                 block_n ({})",
                c.block_n
            ),
        ));
    }
    if !n.is_multiple_of(c.n_divisibility.max(1) as usize) {
        return Err(CodegenError::arg(
            op,
            format!(
                "n = {n} is not a multiple of n_divisibility = {}",
                c.n_divisibility
            ),
        ));
    }
    Ok(())
}

/// The grid of [`cross_entropy_bwd_kernel`]: `(m.div_ceil(rows_per_cta), n.div_ceil(block_n), 1)`.
pub fn cross_entropy_bwd_grid(c: &RowConfig, m: usize, n: usize) -> (u32, u32, u32) {
    (c.grid(m), n.div_ceil(c.block_n.max(1) as usize) as u32, 1)
}

/// Cross entropy forward for `m` rows of `n` logits of `c.dtype`: `lse[r] = log Σ_j exp(x[r, j])`
/// and `loss[r] = lse[r] - x[r, target[r]]`, 0 where `target[r] == ignore_index` (its `lse` is
/// still written); a target outside `0..n` that is not ignored gives a NaN loss. Each CTA takes
/// `rows_per_cta` rows and walks them `block_n` columns at a time keeping a running max `M`
/// and sum `S = Σ exp(x - M)` (rescaled by `exp(M_old - M_new)` when the max grows), all in the
/// log2 domain (`exp2(x·log2 e - M·log2 e)`), so the row is read once whatever its length.
/// The loop is software-pipelined: the next chunk's loads are issued before the current one is
/// reduced (two chunks of registers a thread).
///
/// Parameters: `logits: ptr<T>`, `target: ptr<i32>`, `loss, lse: ptr<f32>`, `m: i32`,
/// `n: i32` (a multiple of `c.n_divisibility`), `ignore_index: i32`. Grid:
/// [`RowConfig::grid`]`(m)`. Assumes [`cross_entropy_check_shape`].
///
/// Errors: a configuration [`RowConfig::layout`] refuses, an element type other than
/// f32/f16/bf16.
pub fn cross_entropy_fwd_kernel(ctx: &Context, target: Target, c: RowConfig) -> Result<Kernel<'_>> {
    // Two chunks a thread: the one reduced and the next, in flight.
    let layout = c.layout("cross_entropy_fwd_kernel", target, 2, 0)?;
    let mut kb = KernelBuilder::new(ctx, target, "cross_entropy_fwd", c.num_warps)?;
    let x = kb.arg_ptr("logits", c.dtype, 16)?;
    let tgt = kb.arg_ptr("target", DType::I32, 16)?;
    let loss = kb.arg_ptr("loss", DType::F32, 16)?;
    let lse_out = kb.arg_ptr("lse", DType::F32, 16)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", c.n_divisibility as u64)?;
    let ignore = kb.arg_i32("ignore_index", 1)?;
    let pid = kb.program_id(0)?;
    let (rows, t, counted) = rows_and_targets(&mut kb, &layout, &c, pid, [m, n, tgt, ignore])?;
    let row_slice = Slice::new(1, layout.clone().into());
    let per_row = (&row_slice, [c.rows_per_cta as u64]);
    // M starts at the lowest finite f32, not -inf, so that masked columns and the first
    // rescale give exp2(-inf) = 0 and exp2(0) = 1 instead of NaN.
    let m0 = kb.full(per_row, DType::F32, f32::MIN)?;
    let s0 = kb.full((&row_slice, [c.rows_per_cta as u64]), DType::F32, 0.0f32)?;
    // Chunk `c0` of the rows (masked columns and rows read as -inf, which add nothing).
    let chunk_at = |kb: &mut KernelBuilder<'_>, c0: Value| -> Result<Value> {
        let cols = tile_cols(kb, &layout, c.block_n, Some(c0), n)?;
        let mask = kb.and(rows.row_ok, cols.ok)?;
        let offs = kb.add(rows.row_off, cols.cols)?;
        load_f32(kb, x, offs, mask, f64::NEG_INFINITY)
    };
    // Software-pipelined: each step issues the next chunk's loads before it reduces the one
    // loaded the step before, so a CTA's loads stay in flight through its reductions' barriers
    // (the last step's prefetch is past `n`, every column masked: no memory traffic).
    let zero = kb.mul(m, 0)?;
    let first = chunk_at(&mut kb, zero)?;
    let out = kb.for_range(0, n, c.block_n, &[m0, s0, first], |kb, c0, acc| {
        let next_c0 = kb.add(c0, c.block_n as i32)?;
        let next = chunk_at(kb, next_c0)?;
        let (v, run_m, run_s) = (acc[2], acc[0], acc[1]);
        let new_m = kb.expr(|e| e.of(v).max_over(1).max(e.of(run_m)))?;
        let nm2 = kb.mul(new_m, LOG2_E)?;
        let nm2 = kb.expand_dims(nm2, 1)?;
        let chunk = kb.expr(|e| e.of(v).fma(LOG2_E, -e.of(nm2)).exp2().sum(1))?;
        let s = kb.expr(|e| {
            let rescale = ((e.of(run_m) - e.of(new_m)) * LOG2_E).exp2();
            e.of(run_s).fma(rescale, e.of(chunk))
        })?;
        Ok(vec![new_m, s, next])
    })?;
    let lse = kb.expr(|e| e.of(out[1]).log2().fma(LN_2, e.of(out[0])))?;
    let plse = kb.add(lse_out, rows.rows)?;
    kb.store(plse, lse, Some(rows.ok1))?;
    // x[r, target[r]] where the target is a class; NaN loss where it is none and not ignored.
    let in_range = kb.expr(|e| e.of(t).ge(0i32) & e.of(t).lt(e.of(n)))?;
    let take = kb.and(in_range, rows.ok1)?;
    let toff = kb.add(rows.off1, t)?;
    let xt = load_f32(&mut kb, x, toff, take, 0.0)?;
    let l = kb.expr(|e| {
        let l = e.of(in_range).select(e.of(lse) - e.of(xt), f32::NAN);
        e.of(counted).select(l, 0.0f32)
    })?;
    store_as(&mut kb, loss, rows.rows, l, DType::F32, rows.ok1)?;
    kb.finish()
}

/// Cross entropy backward: `dlogits[r, j] = dloss[r] · (exp(x[r, j] - lse[r]) - [j == target[r]])`,
/// 0 on ignored rows, from the forward pass's `lse`; one read of the logits and one write, in
/// `[rows_per_cta, block_n]` tiles (`dlogits` may be `logits` itself).
///
/// Parameters: `logits: ptr<T>`, `target: ptr<i32>`, `lse, dloss: ptr<f32>`,
/// `dlogits: ptr<T>`, `m: i32`, `n: i32` (a multiple of `c.n_divisibility`),
/// `ignore_index: i32`. Grid: [`cross_entropy_bwd_grid`]. Assumes
/// [`cross_entropy_check_shape`].
///
/// Errors: as [`cross_entropy_fwd_kernel`].
pub fn cross_entropy_bwd_kernel(ctx: &Context, target: Target, c: RowConfig) -> Result<Kernel<'_>> {
    let layout = layout_for("cross_entropy_bwd_kernel", target, &c)?;
    let mut kb = KernelBuilder::new(ctx, target, "cross_entropy_bwd", c.num_warps)?;
    kb.allow_fp_contraction(true);
    let x = kb.arg_ptr("logits", c.dtype, 16)?;
    let tgt = kb.arg_ptr("target", DType::I32, 16)?;
    let lse_in = kb.arg_ptr("lse", DType::F32, 16)?;
    let dloss = kb.arg_ptr("dloss", DType::F32, 16)?;
    let dx = kb.arg_ptr("dlogits", c.dtype, 16)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", c.n_divisibility as u64)?;
    let ignore = kb.arg_i32("ignore_index", 1)?;
    let pid = kb.program_id(0)?;
    let pid_c = kb.program_id(1)?;
    let (rows, t, counted) = rows_and_targets(&mut kb, &layout, &c, pid, [m, n, tgt, ignore])?;
    let c0 = kb.mul(pid_c, c.block_n as i32)?;
    let cols = tile_cols(&mut kb, &layout, c.block_n, Some(c0), n)?;
    let mask = kb.and(rows.row_ok, cols.ok)?;
    let offs = kb.add(rows.row_off, cols.cols)?;
    let v = load_f32(&mut kb, x, offs, mask, 0.0)?;
    let plse = kb.add(lse_in, rows.rows)?;
    let lse = kb.load(plse, Some(rows.ok1), Some(Operand::Float(0.0)))?;
    let pd = kb.add(dloss, rows.rows)?;
    let d = kb.load(pd, Some(rows.ok1), Some(Operand::Float(0.0)))?;
    // The row's scale: dloss, or 0 where the row is ignored.
    let d = kb.where_(counted, d, 0.0f32)?;
    let lse2 = kb.mul(lse, -LOG2_E)?;
    let lse2 = kb.expand_dims(lse2, 1)?;
    let d = kb.expand_dims(d, 1)?;
    let t = kb.expand_dims(t, 1)?;
    let g = kb.expr(|e| {
        let p = e.of(v).fma(LOG2_E, e.of(lse2)).exp2();
        let hit = e.of(cols.cols).equal(e.of(t));
        (p - hit.cast(DType::F32)) * e.of(d)
    })?;
    store_as(&mut kb, dx, offs, g, c.dtype, mask)?;
    kb.finish()
}

/// The host reference of [`cross_entropy_fwd_kernel`] in f64: `(loss, lse)` per row of `n`
/// logits (loss 0 on ignored rows, NaN for a target outside `0..n`).
pub fn cross_entropy_reference(
    logits: &[f32],
    targets: &[i32],
    n: usize,
    ignore_index: i32,
) -> (Vec<f64>, Vec<f64>) {
    logits
        .chunks(n.max(1))
        .zip(targets)
        .map(|(row, &t)| {
            let max = row.iter().fold(f64::NEG_INFINITY, |a, &v| a.max(v as f64));
            let lse = max
                + row
                    .iter()
                    .map(|&v| (v as f64 - max).exp())
                    .sum::<f64>()
                    .ln();
            let loss = if t == ignore_index {
                0.0
            } else {
                match row.get(t as usize) {
                    Some(&xt) if t >= 0 => lse - xt as f64,
                    _ => f64::NAN,
                }
            };
            (loss, lse)
        })
        .unzip()
}

/// The host reference of [`cross_entropy_bwd_kernel`] in f64: `dloss · (softmax - onehot)`
/// per row of `n`, 0 on ignored rows.
pub fn cross_entropy_bwd_reference(
    logits: &[f32],
    targets: &[i32],
    dloss: &[f32],
    n: usize,
    ignore_index: i32,
) -> Vec<f64> {
    let (_, lse) = cross_entropy_reference(logits, targets, n, ignore_index);
    let mut out = Vec::with_capacity(logits.len());
    for (r, row) in logits.chunks(n.max(1)).enumerate() {
        let d = if targets[r] == ignore_index {
            0.0
        } else {
            dloss[r] as f64
        };
        out.extend(row.iter().enumerate().map(|(j, &v)| {
            let hit = if j as i64 == targets[r] as i64 {
                1.0
            } else {
                0.0
            };
            d * ((v as f64 - lse[r]).exp() - hit)
        }));
    }
    out
}
