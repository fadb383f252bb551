//! The merge of split-KV attention: each of `splits` programs attended to one share of the keys
//! and wrote its row's `O_s` (normalised by its own sum) and log-sum-exp `lse_s`; the whole row
//! is `O = Σ_s e^(lse_s - m) O_s / Σ_s e^(lse_s - m)` and `lse = m + ln Σ_s e^(lse_s - m)` with
//! `m = max_s lse_s`. A split that saw no key (`lse_s = -inf`) weighs nothing; a row no split saw
//! a key of gets O = 0 and lse = -inf.
//!
//! Any split-KV kernel can use it (the paged decode does): partials `o_part [splits, rows, D]`
//! and `lse_part [splits, rows]` f32, output `o [rows, D]` in `dtype` and `lse [rows]` f32.
//! Parameters: `o_part: *f32, lse_part: *f32, o: *T, lse: *f32, rows: i32, splits: i32`. Grid:
//! [`combine_grid`]. Two passes over the splits (max, then the weighted sum): the partials are a
//! few megabytes at most, read from L2.

use crate::layout::encoding::{Encoding, Slice};

use super::super::{DType, IntoOperand, Kernel, KernelBuilder, MathOp, Result, Target};
use super::{check_pow2, tile_coords, tile_layout, Context, Tile2d};

/// Rows per CTA of [`split_kv_combine_kernel`].
const ROWS: u32 = 16;
/// Warps per CTA.
const WARPS: u32 = 4;

/// The grid of [`split_kv_combine_kernel`] for `rows` rows.
pub fn combine_grid(rows: u64) -> (u32, u32, u32) {
    (rows.div_ceil(u64::from(ROWS)) as u32, 1, 1)
}

/// Builds the split-KV merge for rows of `head_dim` (a power of two, 16..=256) elements, output
/// in `dtype` (f16, bf16 or f32). See the module docs.
pub fn split_kv_combine_kernel(
    ctx: &Context,
    target: Target,
    dtype: DType,
    head_dim: u32,
) -> Result<Kernel<'_>> {
    const OP: &str = "split_kv_combine_kernel";
    check_pow2(OP, "head_dim", u64::from(head_dim), 16, 256)?;
    if !matches!(dtype, DType::F16 | DType::BF16 | DType::F32) {
        return Err(super::super::CodegenError::arg(
            OP,
            format!("dtype {dtype}: f16, bf16 or f32"),
        ));
    }
    let mut kb = KernelBuilder::new(ctx, target, "split_kv_combine", WARPS)?;
    let o_part = kb.arg_ptr("o_part", DType::F32, 16)?;
    let lse_part = kb.arg_ptr("lse_part", DType::F32, 4)?;
    let o = kb.arg_ptr("o", dtype, 16)?;
    let lse = kb.arg_ptr("lse", DType::F32, 4)?;
    let n_rows = kb.arg_i32("rows", 1)?;
    let splits = kb.arg_i32("splits", 1)?;
    let d = head_dim as i32;
    let layout = Encoding::from(tile_layout(
        target,
        Tile2d {
            rows: ROWS,
            cols: head_dim,
            per_thread: 4.min(head_dim / 16).max(1),
            num_warps: WARPS,
        },
    )?);
    let shape = [u64::from(ROWS), u64::from(head_dim)];
    let pid = kb.program_id(0)?;
    let r0 = kb.mul(pid, ROWS as i32)?;
    let rows_l = Slice::new(1, layout.clone());
    let row = kb.arange(0, ROWS as i32, rows_l.clone())?;
    let row = kb.add(row, r0)?;
    let ok = kb.lt(row, n_rows)?;
    let (rows, cols) = tile_coords(&mut kb, &layout, shape, Some(r0), None)?;
    let ok2 = kb.lt(rows, n_rows)?;
    // Split s's lse of each row (-inf past the rows).
    let lse_of = |kb: &mut KernelBuilder<'_>, s| {
        let at = kb.mul(s, n_rows)?;
        let at = kb.add(row, at)?;
        let p = kb.add(lse_part, at)?;
        kb.load(p, Some(ok), Some(f32::NEG_INFINITY.into_operand()))
    };
    let m0 = kb.full((&rows_l, [u64::from(ROWS)]), DType::F32, f64::NEG_INFINITY)?;
    let m = kb.for_range(0, splits, 1, &[m0], |kb, s, c| {
        let x = lse_of(kb, s)?;
        Ok(vec![kb.max(c[0], x)?])
    })?[0];
    // Weights relative to the max (to 0 where every split is -inf: all weights 0 then).
    let none = kb.eq(m, f32::NEG_INFINITY)?;
    let m = kb.where_(none, 0.0f32, m)?;
    let acc0 = kb.zeros((&layout, shape), DType::F32)?;
    let sum0 = kb.zeros((&rows_l, [u64::from(ROWS)]), DType::F32)?;
    let out = kb.for_range(0, splits, 1, &[acc0, sum0], |kb, s, c| {
        let x = lse_of(kb, s)?;
        let x = kb.sub(x, m)?;
        let wgt = kb.exp(x)?;
        let at = kb.mul(s, n_rows)?;
        let at = kb.add(rows, at)?;
        let at = kb.mul(at, d)?;
        let at = kb.add(at, cols)?;
        let p = kb.add(o_part, at)?;
        let os = kb.load(p, Some(ok2), None)?;
        let w2 = kb.expand_dims(wgt, 1)?;
        let acc = kb.fma(os, w2, c[0])?;
        Ok(vec![acc, kb.add(c[1], wgt)?])
    })?;
    let (acc, sum) = (out[0], out[1]);
    let empty = kb.eq(sum, 0.0f32)?;
    let div = kb.where_(empty, 1.0f32, sum)?;
    let div = kb.expand_dims(div, 1)?;
    let res = kb.div(acc, div)?;
    let res = kb.cast(res, dtype)?;
    let at = kb.mul(rows, d)?;
    let at = kb.add(at, cols)?;
    let p = kb.add(o, at)?;
    kb.store(p, res, Some(ok2))?;
    // ln(0) = -inf for a row no split saw a key of.
    let ln_sum = kb.math(MathOp::Log2, sum)?;
    let ln_sum = kb.mul(ln_sum, std::f64::consts::LN_2)?;
    let l = kb.add(m, ln_sum)?;
    let p = kb.add(lse, row)?;
    kb.store(p, l, Some(ok))?;
    kb.finish()
}
