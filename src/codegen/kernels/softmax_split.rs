//! Softmax over rows longer than one CTA holds, split over several CTAs per row: each CTA
//! takes one `block_n` chunk of a row and writes its chunk's max and sum of exponentials; a
//! second kernel merges a row's partials online (rescaling each sum to the running max) and
//! writes its chunk of the output. The row is read twice and written once.

use std::f64::consts::LOG2_E;

use crate::layout::encoding::{helpers::blocked_for, Blocked, Slice};

use super::super::{Context, DType, Kernel, KernelBuilder, ReduceOp, Result, Target, Value};
use super::row_config::RowConfig;
use super::row_tile::{load_f32, store_as, tile_cols, tile_mask_offs, tile_rows_with, TileRows};

/// The grid of both split-softmax kernels: `(m.div_ceil(rows_per_cta), n.div_ceil(block_n), 1)`;
/// the second is the number of splits (`splits` of both kernels' parameters).
pub fn softmax_split_grid(c: &RowConfig, m: usize, n: usize) -> (u32, u32, u32) {
    (c.grid(m), n.div_ceil(c.block_n.max(1) as usize) as u32, 1)
}

/// What both kernels share: `x`, the partials, `y` (the second kernel only), the sizes, the
/// CTA's rows (64-bit row starts: `m · n` may pass 2^31) and chunk, and the partials' offsets
/// `row · splits` (per row).
struct Split {
    x: Value,
    pmax: Value,
    psum: Value,
    y: Option<Value>,
    m: Value,
    splits: Value,
    pid: Value,
    chunk: Value,
    rows: TileRows,
    mask: Value,
    offs: Value,
    part_row: Value,
}

impl Split {
    fn begin(
        kb: &mut KernelBuilder<'_>,
        layout: &Blocked,
        c: &RowConfig,
        with_y: bool,
    ) -> Result<Split> {
        let x = kb.arg_ptr("x", c.dtype, 16)?;
        let pmax = kb.arg_ptr("pmax", DType::F32, 16)?;
        let psum = kb.arg_ptr("psum", DType::F32, 16)?;
        let y = match with_y {
            true => Some(kb.arg_ptr("y", c.dtype, 16)?),
            false => None,
        };
        let m = kb.arg_i32("m", 1)?;
        let n = kb.arg_i32("n", c.n_divisibility as u64)?;
        let splits = kb.arg_i32("splits", 1)?;
        let pid = kb.program_id(0)?;
        let chunk = kb.program_id(1)?;
        let rows = tile_rows_with(kb, layout, c.rows_per_cta, pid, m, n, true)?;
        let c0 = kb.mul(chunk, c.block_n as i32)?;
        let cols = tile_cols(kb, layout, c.block_n, Some(c0), n)?;
        let (mask, offs) = tile_mask_offs(kb, &rows, &cols)?;
        let part_row = kb.mul(rows.rows, splits)?;
        Ok(Split {
            x,
            pmax,
            psum,
            y,
            m,
            splits,
            pid,
            chunk,
            rows,
            mask,
            offs,
            part_row,
        })
    }
}

/// The first kernel of the split softmax: for each row `r` of an `m × n` matrix of `c.dtype`
/// and each chunk `j` of `block_n` columns, `pmax[r · splits + j]` = the chunk's max and
/// `psum[r · splits + j]` = `Σ exp(x - pmax)` over it (f32).
///
/// Parameters: `x: ptr<T>`, `pmax, psum: ptr<f32>` (`m · splits` each), `m: i32`, `n: i32`
/// (a multiple of `c.n_divisibility`), `splits: i32` (`n.div_ceil(block_n)`). Grid:
/// [`softmax_split_grid`]. Assumes `m · splits < 2^31`.
///
/// Errors: a configuration [`RowConfig::layout`] refuses, or an element type other than
/// f32/f16/bf16.
pub fn softmax_split_stats_kernel(
    ctx: &Context,
    target: Target,
    c: RowConfig,
) -> Result<Kernel<'_>> {
    let layout = c.layout("softmax_split_stats_kernel", target, 1, 0)?;
    let mut kb = KernelBuilder::new(ctx, target, "softmax_split_stats", c.num_warps)?;
    let s = Split::begin(&mut kb, &layout, &c, false)?;
    let v = load_f32(&mut kb, s.x, s.offs, s.mask, f64::NEG_INFINITY)?;
    let mx = kb.reduce(v, 1, ReduceOp::Max)?;
    let m2 = kb.mul(mx, -LOG2_E)?;
    let m2 = kb.expand_dims(m2, 1)?;
    let sum = kb.expr(|e| e.of(v).fma(LOG2_E, e.of(m2)).exp2().sum(1))?;
    let part = kb.add(s.part_row, s.chunk)?;
    store_as(&mut kb, s.pmax, part, mx, DType::F32, s.rows.ok1)?;
    store_as(&mut kb, s.psum, part, sum, DType::F32, s.rows.ok1)?;
    kb.finish()
}

/// The second kernel of the split softmax: each CTA issues the loads of its chunk of `x`, then
/// merges its rows' `splits` partials of [`softmax_split_stats_kernel`] 64 at a time, each step
/// one tile of loads and two reductions (`M = max(M, max_j pmax_j)`,
/// `S = S · exp(M_old - M) + Σ_j psum_j · exp(pmax_j - M)`), and writes `y = exp(x - M) / S`
/// over its chunk. (Merging one partial per loop step made every CTA wait for `splits`
/// dependent loads in a row before its own chunk was even requested.)
///
/// Parameters: `x: ptr<T>`, `pmax, psum: ptr<f32>`, `y: ptr<T>`, `m: i32`, `n: i32`,
/// `splits: i32`. Grid: [`softmax_split_grid`].
///
/// Errors: as [`softmax_split_stats_kernel`].
pub fn softmax_split_apply_kernel(
    ctx: &Context,
    target: Target,
    c: RowConfig,
) -> Result<Kernel<'_>> {
    let layout = c.layout("softmax_split_apply_kernel", target, 1, 0)?;
    let mut kb = KernelBuilder::new(ctx, target, "softmax_split_apply", c.num_warps)?;
    let s = Split::begin(&mut kb, &layout, &c, true)?;
    // The chunk first, so that its loads are in flight while the partials merge.
    let v = load_f32(&mut kb, s.x, s.offs, s.mask, f64::NEG_INFINITY)?;
    let ms = merge_partials(&mut kb, target, &c, &s)?;
    let ms = [
        kb.convert_layout(ms[0], Slice::new(1, layout.clone().into()))?,
        kb.convert_layout(ms[1], Slice::new(1, layout.clone().into()))?,
    ];
    let m2 = kb.mul(ms[0], -LOG2_E)?;
    let m2 = kb.expand_dims(m2, 1)?;
    let inv = kb.div(1.0f32, ms[1])?;
    let inv = kb.expand_dims(inv, 1)?;
    let out = kb.expr(|e| e.of(v).fma(LOG2_E, e.of(m2)).exp2() * e.of(inv))?;
    let y = s.y.unwrap_or(s.x);
    store_as(&mut kb, y, s.offs, out, c.dtype, s.mask)?;
    kb.finish()
}

/// Partials merged per step of [`merge_partials`]: one step for rows of up to 64 chunks
/// (512K columns in chunks of 8192).
const MERGE_STEP: u32 = 64;

/// The row max `M` and `S = Σ_j psum_j · exp(pmax_j - M)` of each of the CTA's rows, merged from
/// its `splits` partials [`MERGE_STEP`] at a time as a `[rows_per_cta, MERGE_STEP]` tile (all of a
/// step's loads issued together, not one dependent load per partial), in the row slice of that
/// tile's own layout.
fn merge_partials(
    kb: &mut KernelBuilder<'_>,
    target: Target,
    c: &RowConfig,
    s: &Split,
) -> Result<[Value; 2]> {
    let rpc = c.rows_per_cta as u64;
    let pl = blocked_for(
        &[rpc, MERGE_STEP as u64],
        &[1, 1],
        c.num_warps,
        target.warp_size(),
    )?;
    let prow = Slice::new(1, pl.clone().into());
    let rows = kb.arange(0, c.rows_per_cta as i32, prow.clone())?;
    let r0 = kb.mul(s.pid, c.rows_per_cta as i32)?;
    let rows = kb.add(rows, r0)?;
    let row_ok = kb.lt(rows, s.m)?;
    let base = kb.mul(rows, s.splits)?;
    let (row_ok, base) = (kb.expand_dims(row_ok, 1)?, kb.expand_dims(base, 1)?);
    // The running max starts at the lowest finite f32 so that its first rescale is exp2(-inf).
    let m0 = kb.full((&prow, [rpc]), DType::F32, f32::MIN)?;
    let s0 = kb.full((&prow, [rpc]), DType::F32, 0.0f32)?;
    let out = kb.for_range(0, s.splits, MERGE_STEP, &[m0, s0], |kb, j0, acc| {
        let j = kb.arange(0, MERGE_STEP as i32, Slice::new(0, pl.clone().into()))?;
        let j = kb.add(j, j0)?;
        let j_ok = kb.lt(j, s.splits)?;
        let (j, j_ok) = (kb.expand_dims(j, 0)?, kb.expand_dims(j_ok, 0)?);
        let mask = kb.and(row_ok, j_ok)?;
        let off = kb.add(base, j)?;
        let pm = load_f32(kb, s.pmax, off, mask, f64::NEG_INFINITY)?;
        let ps = load_f32(kb, s.psum, off, mask, 0.0)?;
        let new_m = kb.expr(|e| e.of(pm).max_over(1).max(e.of(acc[0])))?;
        let nm = kb.expand_dims(new_m, 1)?;
        let sum = kb.expr(|e| {
            let old = ((e.of(acc[0]) - e.of(new_m)) * LOG2_E).exp2();
            let these = (e.of(ps) * ((e.of(pm) - e.of(nm)) * LOG2_E).exp2()).sum(1);
            e.of(acc[1]).fma(old, these)
        })?;
        Ok(vec![new_m, sum])
    })?;
    Ok([out[0], out[1]])
}
