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

/// Elements of a `[split_block, cols]` tile per thread that a merge kernel of its own aims at
/// (the partials of that many (split, column) pairs in flight at once): more would leave a
/// large batch's merge fewer programs than a GPU has multiprocessors.
pub const MERGE_ELEMS_PER_THREAD: u32 = 32;

/// The tile of a merge over `threads` threads with rows of `head_dim` and at most `rows` rows
/// to merge: `(split_block, cols)`, powers of two, `cols` a multiple of `head_dim`. The tile
/// holds `per_thread` elements a thread (e.g. [`MERGE_ELEMS_PER_THREAD`]): with few splits
/// (`max_split_block`) the budget goes to rows, with many to splits, but the columns cover the
/// threads four each (16 bytes) while there are rows to cover them.
pub fn merge_tile(
    threads: u32,
    per_thread: u32,
    head_dim: u32,
    rows: u32,
    max_split_block: u32,
) -> (u32, u32) {
    let d = head_dim.max(1).next_power_of_two();
    let cap = max_split_block.max(1).next_power_of_two();
    let threads = threads.clamp(1, 1024).next_power_of_two();
    let budget = per_thread.clamp(4, 256).next_power_of_two() * threads;
    let all = rows
        .max(1)
        .checked_next_power_of_two()
        .unwrap_or(1 << 31)
        .saturating_mul(d);
    let cols = all.min((budget / cap).max(4 * threads).max(d));
    let s = (budget / cols).clamp(1, cap);
    (1 << s.ilog2(), cols)
}

/// Columns of a thread's chunk: the four consecutive columns (16 bytes of a row) a thread loads
/// per split, which share their row and so its log-sum-exp.
const CHUNK: u32 = 4;

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
    /// Elements of a row (a power of two, at least 4, dividing `cols`).
    pub head_dim: u32,
    /// Splits loaded at once (a power of two).
    pub split_block: u32,
    /// Columns of the tile: `cols / head_dim` rows.
    pub cols: u32,
    /// The layout of the `[split_block, cols]` tile: a thread holds every split of four
    /// consecutive columns (a 16-byte load per split).
    pub layout: Encoding,
    /// The layout of `[split_block, cols / 4]`, a column per chunk of four: the log-sum-exps
    /// and weights, one per (split, row) a thread needs rather than one per element.
    pub chunks: Encoding,
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
        let tile = |per| Blocked::new(&[split_block, per], &[1, 32], &[1, num_warps], &[1, 0]);
        SplitMerge {
            o_part,
            lse_part,
            rows,
            splits,
            head_dim,
            split_block,
            cols,
            layout: tile(CHUNK).into(),
            chunks: tile(1).into(),
        }
    }

    /// The local rows of the tile: of every chunk `c` of four columns (`4 c / D`, `[cols / 4]`
    /// in the chunks' slice along the splits) and of every column `c` (`c / D`, `[cols]` in the
    /// tile's).
    pub fn local_rows(&self, kb: &mut KernelBuilder<'_>) -> Result<[Value; 2]> {
        let n = (self.cols / CHUNK) as i32;
        let c = kb.arange(0, n, Slice::new(0, self.chunks.clone()))?;
        let per_chunk = kb.div(c, (self.head_dim / CHUNK) as i32)?;
        let c = kb.arange(0, self.cols as i32, Slice::new(0, self.layout.clone()))?;
        Ok([per_chunk, kb.div(c, self.head_dim as i32)?])
    }

    /// A tile of chunks (`[cols / 4]` in the chunks' slice, or `[split_block, cols / 4]` in
    /// theirs) as the same values for each of a chunk's columns, in the tile's layout: four
    /// copies in a thread's registers, where its loads of the chunk's columns are.
    fn widen(&self, kb: &mut KernelBuilder<'_>, x: Value) -> Result<Value> {
        let mut shape = kb.shape(x)?;
        let j = kb.join(x, x)?;
        let j = kb.join(j, j)?;
        if let Some(last) = shape.last_mut() {
            *last *= u64::from(CHUNK);
        }
        let w = kb.reshape(j, &shape)?;
        if shape.len() == 1 {
            kb.convert_layout(w, Slice::new(0, self.layout.clone()))
        } else {
            kb.convert_layout(w, &self.layout)
        }
    }

    /// The merged O (f32, `[cols]` in the tile's slice along the splits) and log-sum-exp (one a
    /// chunk of four columns, `[cols / 4]` in the chunks' slice): `[row, ok]` per chunk and per
    /// column (the partial row of each, and whether to merge it: elsewhere O 0 and lse -inf,
    /// nothing read), from [`local_rows`](Self::local_rows). The columns' own rows keep the
    /// facts that make their loads 16 bytes wide.
    pub fn merge(
        &self,
        kb: &mut KernelBuilder<'_>,
        [row, ok]: [Value; 2],
        [row_c, ok_c]: [Value; 2],
    ) -> Result<(Value, Value)> {
        let sb = self.split_block;
        let lanes = kb.arange(0, sb as i32, Slice::new(1, self.chunks.clone()))?;
        let lanes = kb.expand_dims(lanes, 1)?;
        let row = kb.expand_dims(row, 0)?;
        let ok = kb.expand_dims(ok, 0)?;
        let lanes_c = kb.arange(0, sb as i32, Slice::new(1, self.layout.clone()))?;
        let lanes_c = kb.expand_dims(lanes_c, 1)?;
        let row_c = kb.expand_dims(row_c, 0)?;
        let ok_c = kb.expand_dims(ok_c, 0)?;
        let cols = Slice::new(0, self.layout.clone());
        let d = kb.arange(0, self.cols as i32, cols.clone())?;
        let d = kb.rem(d, self.head_dim as i32)?;
        let d = kb.expand_dims(d, 0)?;
        let chunks = Slice::new(0, self.chunks.clone());
        let per_chunk = [u64::from(self.cols / CHUNK)];
        let m0 = kb.full((&chunks, per_chunk), DType::F32, f64::NEG_INFINITY)?;
        let sum0 = kb.zeros((&chunks, per_chunk), DType::F32)?;
        let acc0 = kb.zeros((&cols, [u64::from(self.cols)]), DType::F32)?;
        let out = kb.for_range(0, self.splits, sb, &[m0, acc0, sum0], |kb, s0, c| {
            let (m, acc, sum) = (c[0], c[1], c[2]);
            let s = kb.add(lanes, s0)?;
            let live = kb.lt(s, self.splits)?;
            let live = kb.and(live, ok)?;
            let at = kb.mul(s, self.rows)?;
            let at = kb.add(at, row)?;
            let p = kb.add(self.lse_part, at)?;
            let x = kb.load(p, Some(live), Some(f32::NEG_INFINITY.into_operand()))?;
            let s = kb.add(lanes_c, s0)?;
            let live = kb.lt(s, self.splits)?;
            let live = kb.and(live, ok_c)?;
            let at = kb.mul(s, self.rows)?;
            let at = kb.add(at, row_c)?;
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
            let ws = kb.reduce(w, 0, ReduceOp::Sum)?;
            let sum = kb.fma(sum, alpha, ws)?;
            let w = self.widen(kb, w)?;
            let wo = kb.mul(w, os)?;
            let wo = kb.reduce(wo, 0, ReduceOp::Sum)?;
            let alpha = self.widen(kb, alpha)?;
            let acc = kb.fma(acc, alpha, wo)?;
            Ok(vec![m_new, acc, sum])
        })?;
        let (m, acc, sum) = (out[0], out[1], out[2]);
        let empty = kb.eq(sum, 0.0f32)?;
        let div = kb.where_(empty, 1.0f32, sum)?;
        let div = self.widen(kb, div)?;
        let o = kb.div(acc, div)?;
        // ln(0) = -inf for a row no split saw a key of.
        let none = kb.eq(m, f32::NEG_INFINITY)?;
        let m = kb.where_(none, 0.0f32, m)?;
        let ln_sum = kb.math(MathOp::Log2, sum)?;
        let ln_sum = kb.mul(ln_sum, std::f64::consts::LN_2)?;
        Ok((o, kb.add(m, ln_sum)?))
    }

    /// [`merge`](Self::merge) of the rows `map` gives for the local rows (the partial row of
    /// each, and whether it is merged), stored: O rounded to `dtype` at `o[row · D + d]` and the
    /// lse at `lse[row]` (from each row's first chunk).
    pub fn merge_into(
        &self,
        kb: &mut KernelBuilder<'_>,
        map: impl Fn(&mut KernelBuilder<'_>, Value) -> Result<(Value, Value)>,
        [o, lse]: [Value; 2],
        dtype: DType,
    ) -> Result<()> {
        let [local, local_c] = self.local_rows(kb)?;
        let (row, ok) = map(kb, local)?;
        let (row_c, ok_c) = map(kb, local_c)?;
        let (res, l) = self.merge(kb, [row, ok], [row_c, ok_c])?;
        let res = kb.cast(res, dtype)?;
        let d = kb.arange(0, self.cols as i32, Slice::new(0, self.layout.clone()))?;
        let d = kb.rem(d, self.head_dim as i32)?;
        let at = kb.mul(row_c, self.head_dim as i32)?;
        let at = kb.add(at, d)?;
        let p = kb.add(o, at)?;
        kb.store(p, res, Some(ok_c))?;
        let n = (self.cols / CHUNK) as i32;
        let c = kb.arange(0, n, Slice::new(0, self.chunks.clone()))?;
        let c = kb.rem(c, (self.head_dim / CHUNK) as i32)?;
        let first = kb.eq(c, 0)?;
        let lse_ok = kb.and(ok, first)?;
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
        assert_eq!(merge_tile(128, 32, 128, 4096, 1), (1, 4096));
        // Two splits: 16 rows; 16 splits: 4 rows, 8 splits at once.
        assert_eq!(merge_tile(128, 32, 128, 4096, 2), (2, 2048));
        assert_eq!(merge_tile(128, 32, 128, 4096, 16), (8, 512));
        // Four rows of decode (q_len 1, GQA 4): 8 splits at once.
        assert_eq!(merge_tile(128, 32, 128, 4, 32), (8, 512));
        // One row: all the threads' budget on splits, capped.
        assert_eq!(merge_tile(128, 32, 128, 1, 32), (32, 128));
        assert_eq!(merge_tile(128, 32, 128, 1, 16), (16, 128));
        // 6 rows round to 8; one warp.
        assert_eq!(merge_tile(32, 32, 64, 6, 32), (8, 128));
        // Twice the budget: twice the splits at once.
        assert_eq!(merge_tile(128, 64, 128, 4, 32), (16, 512));
    }
}
