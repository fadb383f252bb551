//! The merge of split-KV attention partials, shared by the standalone merge kernel
//! (`split_kv_combine_kernel`) and the paged decode kernel that merges its own splits.
//!
//! Each of `splits` programs attended to one share of the keys and wrote each row's `O_s`
//! (normalised by its own sum) and log-sum-exp `lse_s` (f32: `o_part [splits, rows, D]`,
//! `lse_part [splits, rows]`). The whole row is `O = Σ_s e^(lse_s - m) O_s / Σ_s e^(lse_s - m)`
//! and `lse = m + ln Σ_s e^(lse_s - m)` with `m = max_s lse_s`. A split that saw no key
//! (`lse_s = -inf`) weighs nothing; a row no split saw a key of gets O = 0 and lse = -inf.
//!
//! [`SplitMerge`] merges a tile of `[split_block, cols]`: the columns are (row, d) pairs of
//! `cols / D` rows, so one tile covers several rows when the splits are few (a program of one row
//! and one split would leave most of its threads idle) and many splits of one row when they are
//! many. The splits of a column sit in one thread's registers, so the merge needs no shuffle or
//! barrier; `split_block` splits are loaded at once (one memory round trip for all of them, not
//! one per split), the running max and sums rescaled between blocks (the online softmax's rule).

use crate::codegen::{DType, IntoOperand, KernelBuilder, MathOp, ReduceOp, Result, Value};
use crate::layout::encoding::{Blocked, Encoding, Slice};

/// Elements of a `[split_block, cols]` tile per thread that [`merge_tile`] aims at: the partials
/// of that many (split, column) pairs in flight at once, plus their log-sum-exps.
pub const MERGE_ELEMS_PER_THREAD: u32 = 32;

/// The tile of a merge over `threads` threads (a power of two) with rows of `head_dim` and at
/// most `rows` rows to merge: `(split_block, cols)`, powers of two, `cols` a multiple of
/// `head_dim`. The tile holds [`MERGE_ELEMS_PER_THREAD`] a thread: with few splits
/// (`max_split_block`, a power of two) the budget goes to rows, with many to splits, but the
/// columns cover the threads four each (16 bytes) while there are rows to cover them.
pub fn merge_tile(threads: u32, head_dim: u32, rows: u32, max_split_block: u32) -> (u32, u32) {
    let d = head_dim.max(1).next_power_of_two();
    let cap = max_split_block.max(1).next_power_of_two();
    let threads = threads.clamp(1, 1024).next_power_of_two();
    let budget = MERGE_ELEMS_PER_THREAD * threads;
    let all = rows
        .max(1)
        .checked_next_power_of_two()
        .unwrap_or(1 << 31)
        .saturating_mul(d);
    let cols = all.min((budget / cap).max(4 * threads).max(d));
    let s = (budget / cols).clamp(1, cap);
    (1 << s.ilog2(), cols)
}

/// One merge of split-KV partials over a `[split_block, cols]` tile (module docs).
#[derive(Debug, Clone)]
pub struct SplitMerge {
    /// The partial outputs `[splits, rows, D]` f32 (a `ptr<f32>`).
    pub o_part: Value,
    /// The partial log-sum-exps `[splits, rows]` f32 (a `ptr<f32>`).
    pub lse_part: Value,
    /// Rows of one split's partial (an `i32` scalar): the stride between splits.
    pub rows: Value,
    /// Splits (an `i32` scalar, at least 1).
    pub splits: Value,
    /// Elements of a row (a power of two dividing `cols`).
    pub head_dim: u32,
    /// Splits loaded at once (a power of two).
    pub split_block: u32,
    /// Columns of the tile: `cols / head_dim` rows.
    pub cols: u32,
    /// The tile's layout ([`SplitMerge::layout`]).
    pub layout: Encoding,
}

impl SplitMerge {
    /// The merge of partials `[o_part, lse_part]` of `[rows, splits]` (`i32` scalars) rows of
    /// `head_dim` over a `[split_block, cols]` tile ([`merge_tile`]) of `num_warps` warps.
    pub fn new(
        [o_part, lse_part]: [Value; 2],
        [rows, splits]: [Value; 2],
        head_dim: u32,
        [split_block, cols]: [u32; 2],
        num_warps: u32,
    ) -> SplitMerge {
        SplitMerge {
            o_part,
            lse_part,
            rows,
            splits,
            head_dim,
            split_block,
            cols,
            layout: SplitMerge::layout(split_block, num_warps),
        }
    }

    /// The layout of a `[split_block, cols]` tile over `num_warps` warps: a thread holds every
    /// split of four consecutive columns (a 16-byte load per split).
    pub fn layout(split_block: u32, num_warps: u32) -> Encoding {
        Blocked::new(&[split_block, 4], &[1, 32], &[1, num_warps], &[1, 0]).into()
    }

    /// The local row (`c / D`) and element (`c % D`) of every column `c`, as `[cols]` tiles in
    /// the layout's slice along the splits.
    pub fn columns(&self, kb: &mut KernelBuilder<'_>) -> Result<(Value, Value)> {
        let c = kb.arange(0, self.cols as i32, Slice::new(0, self.layout.clone()))?;
        let d = self.head_dim as i32;
        Ok((kb.div(c, d)?, kb.rem(c, d)?))
    }

    /// The merged O (f32) and log-sum-exp of every column, `[cols]` in the slice along the
    /// splits: column `c` is element `d[c]` of partial row `row[c]` (from
    /// [`columns`](Self::columns)), merged where `ok[c]` (elsewhere O 0 and lse -inf, nothing
    /// read).
    pub fn merge(
        &self,
        kb: &mut KernelBuilder<'_>,
        row: Value,
        d: Value,
        ok: Value,
    ) -> Result<(Value, Value)> {
        let sb = self.split_block;
        let lanes = kb.arange(0, sb as i32, Slice::new(1, self.layout.clone()))?;
        let lanes = kb.expand_dims(lanes, 1)?;
        let row = kb.expand_dims(row, 0)?;
        let d = kb.expand_dims(d, 0)?;
        let ok = kb.expand_dims(ok, 0)?;
        let cols = Slice::new(0, self.layout.clone());
        let shape = [u64::from(self.cols)];
        let m0 = kb.full((&cols, shape), DType::F32, f64::NEG_INFINITY)?;
        let acc0 = kb.zeros((&cols, shape), DType::F32)?;
        let sum0 = kb.zeros((&cols, shape), DType::F32)?;
        let out = kb.for_range(0, self.splits, sb, &[m0, acc0, sum0], |kb, s0, c| {
            let (m, acc, sum) = (c[0], c[1], c[2]);
            let s = kb.add(lanes, s0)?;
            let live = kb.lt(s, self.splits)?;
            let live = kb.and(live, ok)?;
            let at = kb.mul(s, self.rows)?;
            let at = kb.add(at, row)?;
            let p = kb.add(self.lse_part, at)?;
            let x = kb.load(p, Some(live), Some(f32::NEG_INFINITY.into_operand()))?;
            let at = kb.mul(at, self.head_dim as i32)?;
            let at = kb.add(at, d)?;
            let p = kb.add(self.o_part, at)?;
            // Past the splits: 0 (their weight is 0, and 0 · garbage could be NaN).
            let os = kb.load(p, Some(live), Some(0.0f32.into_operand()))?;
            // The new max, and the weights relative to it (to 0 while every split so far is
            // -inf: all weights are 0 then).
            let mx = kb.reduce(x, 0, ReduceOp::Max)?;
            let m_new = kb.max(m, mx)?;
            let none = kb.eq(m_new, f32::NEG_INFINITY)?;
            let r = kb.where_(none, 0.0f32, m_new)?;
            let da = kb.sub(m, r)?;
            let alpha = kb.exp(da)?;
            let r2 = kb.expand_dims(r, 0)?;
            let x = kb.sub(x, r2)?;
            let w = kb.exp(x)?;
            let wo = kb.mul(w, os)?;
            let wo = kb.reduce(wo, 0, ReduceOp::Sum)?;
            let acc = kb.fma(acc, alpha, wo)?;
            let ws = kb.reduce(w, 0, ReduceOp::Sum)?;
            let sum = kb.fma(sum, alpha, ws)?;
            Ok(vec![m_new, acc, sum])
        })?;
        let (m, acc, sum) = (out[0], out[1], out[2]);
        let empty = kb.eq(sum, 0.0f32)?;
        let div = kb.where_(empty, 1.0f32, sum)?;
        let o = kb.div(acc, div)?;
        // ln(0) = -inf for a row no split saw a key of.
        let none = kb.eq(m, f32::NEG_INFINITY)?;
        let m = kb.where_(none, 0.0f32, m)?;
        let ln_sum = kb.math(MathOp::Log2, sum)?;
        let ln_sum = kb.mul(ln_sum, std::f64::consts::LN_2)?;
        Ok((o, kb.add(m, ln_sum)?))
    }
}

impl SplitMerge {
    /// [`merge`](Self::merge), stored: O rounded to `dtype` at `o[row · D + d]` and the lse at
    /// `lse[row]` (from each row's column 0), where `ok`.
    pub fn merge_into(
        &self,
        kb: &mut KernelBuilder<'_>,
        [row, d, ok]: [Value; 3],
        [o, lse]: [Value; 2],
        dtype: DType,
    ) -> Result<()> {
        let (res, l) = self.merge(kb, row, d, ok)?;
        let res = kb.cast(res, dtype)?;
        let at = kb.mul(row, self.head_dim as i32)?;
        let at = kb.add(at, d)?;
        let p = kb.add(o, at)?;
        kb.store(p, res, Some(ok))?;
        let first_col = kb.eq(d, 0)?;
        let lse_ok = kb.and(ok, first_col)?;
        let p = kb.add(lse, row)?;
        kb.store(p, l, Some(lse_ok))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_fill_the_threads_and_cap_the_splits() {
        // One split, D 128, 4 warps: 32 rows, 32 elements a thread.
        assert_eq!(merge_tile(128, 128, 4096, 1), (1, 4096));
        // Two splits: 16 rows; 16 splits: 4 rows, 8 splits at once.
        assert_eq!(merge_tile(128, 128, 4096, 2), (2, 2048));
        assert_eq!(merge_tile(128, 128, 4096, 16), (8, 512));
        // Four rows of decode (q_len 1, GQA 4): 8 splits at once.
        assert_eq!(merge_tile(128, 128, 4, 32), (8, 512));
        // One row: all the threads' budget on splits, capped.
        assert_eq!(merge_tile(128, 128, 1, 32), (32, 128));
        assert_eq!(merge_tile(128, 128, 1, 16), (16, 128));
        // 6 rows round to 8; one warp.
        assert_eq!(merge_tile(32, 64, 6, 32), (8, 128));
    }
}
