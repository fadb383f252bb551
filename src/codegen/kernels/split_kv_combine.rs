//! The merge of split-KV attention: each of `splits` programs attended to one share of the keys
//! and wrote its row's `O_s` (normalised by its own sum) and log-sum-exp `lse_s`; the whole row
//! is `O = Σ_s e^(lse_s - m) O_s / Σ_s e^(lse_s - m)` and `lse = m + ln Σ_s e^(lse_s - m)` with
//! `m = max_s lse_s`. A split that saw no key (`lse_s = -inf`) weighs nothing; a row no split saw
//! a key of gets O = 0 and lse = -inf.
//!
//! Any split-KV kernel can use it (the paged decode does): partials `o_part [splits, rows, D]`
//! and `lse_part [splits, rows]` f32, output `o [rows, D]` in `dtype` and `lse [rows]` f32.
//! Parameters: `o_part: *f32, lse_part: *f32, o: *T, lse: *f32, rows: i32, splits: i32`. Grid:
//! [`combine_grid`], one program per row.
//!
//! A program walks the splits 32 at a time, one split per row of its tile, so a
//! block's loads are all in flight together: a loop over single splits would wait out one memory
//! round trip per split, which at batch 1 (a few rows, tens of splits) costs as long as the
//! decode itself. Two passes (the max, then the weighted sum), each kept per split lane and
//! reduced across the warps once at the end.

use crate::layout::encoding::{Encoding, Slice};

use super::super::{DType, IntoOperand, Kernel, KernelBuilder, MathOp, ReduceOp, Result, Target};
use super::{check_pow2, tile_coords, tile_layout, Context, Tile2d};

/// Splits a program loads at once (the rows of its tile).
const SPLIT_BLOCK: u32 = 32;
/// Warps per CTA.
const WARPS: u32 = 8;

/// The grid of [`split_kv_combine_kernel`] for `rows` rows: one program each (a count past
/// `u32` saturates, and the launch refuses it).
pub fn combine_grid(rows: u64) -> (u32, u32, u32) {
    (u32::try_from(rows).unwrap_or(u32::MAX), 1, 1)
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
            rows: SPLIT_BLOCK,
            cols: head_dim,
            per_thread: 4.min(head_dim / 16).max(1),
            num_warps: WARPS,
        },
    )?);
    let shape = [u64::from(SPLIT_BLOCK), u64::from(head_dim)];
    let step = SPLIT_BLOCK as i32;
    let row = kb.program_id(0)?;
    // The split of each lane (a row of the tile), as a vector and laid out like the tile.
    let lanes_l = Slice::new(1, layout.clone());
    let lane = kb.arange(0, step, lanes_l.clone())?;
    let (lane2, cols) = tile_coords(&mut kb, &layout, shape, None, None)?;
    // The lse of splits s0 + lane (-inf past the splits).
    let lse_of = |kb: &mut KernelBuilder<'_>, s0| {
        let s = kb.add(lane, s0)?;
        let ok = kb.lt(s, splits)?;
        let at = kb.mul(s, n_rows)?;
        let at = kb.add(at, row)?;
        let p = kb.add(lse_part, at)?;
        kb.load(p, Some(ok), Some(f32::NEG_INFINITY.into_operand()))
    };
    let m0 = kb.full(
        (&lanes_l, [u64::from(SPLIT_BLOCK)]),
        DType::F32,
        f64::NEG_INFINITY,
    )?;
    let m = kb.for_range(0, splits, SPLIT_BLOCK, &[m0], |kb, s0, c| {
        let x = lse_of(kb, s0)?;
        Ok(vec![kb.max(c[0], x)?])
    })?[0];
    let m = kb.reduce(m, 0, ReduceOp::Max)?;
    // Weights relative to the max (to 0 where every split is -inf: all weights 0 then).
    let none = kb.eq(m, f32::NEG_INFINITY)?;
    let m = kb.where_(none, 0.0f32, m)?;
    let acc0 = kb.zeros((&layout, shape), DType::F32)?;
    let sum0 = kb.zeros((&lanes_l, [u64::from(SPLIT_BLOCK)]), DType::F32)?;
    let out = kb.for_range(0, splits, SPLIT_BLOCK, &[acc0, sum0], |kb, s0, c| {
        let x = lse_of(kb, s0)?;
        let x = kb.sub(x, m)?;
        let wgt = kb.exp(x)?;
        let s = kb.add(lane2, s0)?;
        let ok = kb.lt(s, splits)?;
        let at = kb.mul(s, n_rows)?;
        let at = kb.add(at, row)?;
        let at = kb.mul(at, d)?;
        let at = kb.add(at, cols)?;
        let p = kb.add(o_part, at)?;
        // Past the splits: 0 (their weight is 0, and 0 · garbage could be NaN).
        let os = kb.load(p, Some(ok), Some(0.0f32.into_operand()))?;
        let w2 = kb.expand_dims(wgt, 1)?;
        let acc = kb.fma(os, w2, c[0])?;
        Ok(vec![acc, kb.add(c[1], wgt)?])
    })?;
    let acc = kb.reduce(out[0], 0, ReduceOp::Sum)?;
    let sum = kb.reduce(out[1], 0, ReduceOp::Sum)?;
    let empty = kb.eq(sum, 0.0f32)?;
    let div = kb.where_(empty, 1.0f32, sum)?;
    let res = kb.div(acc, div)?;
    let res = kb.cast(res, dtype)?;
    let col = kb.arange(0, d, Slice::new(0, layout.clone()))?;
    let at = kb.mul(row, d)?;
    let at = kb.add(col, at)?;
    let p = kb.add(o, at)?;
    kb.store(p, res, None)?;
    // ln(0) = -inf for a row no split saw a key of.
    let ln_sum = kb.math(MathOp::Log2, sum)?;
    let ln_sum = kb.mul(ln_sum, std::f64::consts::LN_2)?;
    let l = kb.add(m, ln_sum)?;
    let p = kb.add(lse, row)?;
    kb.store(p, l, None)?;
    kb.finish()
}
