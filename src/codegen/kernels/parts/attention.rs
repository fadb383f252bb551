//! The pieces of FlashAttention-style forward attention: the kernel's parameters and the query
//! block a program owns, the online softmax of one key block with its masking, and the
//! epilogue that stores `O / l` and the log-sum-exp.

use crate::codegen::kernels::attention_config::{AttentionConfig, SWIZZLE};
use crate::codegen::{DType, KernelBuilder, MathOp, MathPrecision, ReduceOp, Result, Value};
use crate::layout::encoding::{Encoding, Slice};

/// Which key blocks the online softmax masks (keys past the sequence, and causal keys after
/// the query). Only the last block of a query block needs it, and the mask is exact, so masking
/// a block that needs none is harmless.
#[derive(Debug, Clone, Copy)]
pub enum Masking {
    /// No key of the block is masked.
    None,
    /// Every block built here is masked.
    Always,
    /// Masked when the i1 scalar holds (the last block, inside a loop over all of them): a
    /// branch that all threads take alike, so one copy of the softmax serves every block.
    When(Value),
}

/// What the online softmax of a key block needs besides its scores.
pub struct OnlineSoftmax {
    /// The softmax scale times log2(e); positive (the row max is taken before scaling).
    pub qk_scale: Value,
    /// The sequence length (keys at or past it are masked).
    pub seq: Value,
    /// Column indices `[1, block_n]` of the S tile.
    pub cols: Value,
    /// Causal: the query row of each S row, `[rows, 1]` (keys after it are masked).
    pub rows: Option<Value>,
    /// Keys per block.
    pub block_n: i32,
    /// The type P is cast to for `P·V`.
    pub dtype: DType,
}

impl OnlineSoftmax {
    /// The online softmax of key block `j`'s scores `s`: returns P (16-bit), the factor that
    /// rescales O, and the new row max and sum, masking as `masking` says.
    pub fn step(
        &self,
        kb: &mut KernelBuilder<'_>,
        s: Value,
        j: Value,
        m_i: Value,
        l_i: Value,
        masking: Masking,
    ) -> Result<[Value; 4]> {
        self.step_impl(kb, s, j, m_i, l_i, masking, false, 0)
    }

    /// [`step`](Self::step) with P and the returned sum `2^log2_factor` times larger, at no
    /// cost per score: the factor joins the row's offset inside the exponent. fp8's P is scaled
    /// so before its rounding to e4m3, so that its small values stay normal numbers; divide O
    /// by the scaled sum, and the sum by the factor for the log-sum-exp.
    #[allow(clippy::too_many_arguments)] // `step`'s arguments and the factor
    pub fn step_times_pow2(
        &self,
        kb: &mut KernelBuilder<'_>,
        s: Value,
        j: Value,
        m_i: Value,
        l_i: Value,
        masking: Masking,
        log2_factor: i32,
    ) -> Result<[Value; 4]> {
        self.step_impl(kb, s, j, m_i, l_i, masking, false, log2_factor)
    }

    /// [`step`](Self::step) where a row may have seen no key yet after this block (a split of
    /// the keys that a causal row does not reach, or an empty one): such a row's max stays
    /// -inf, its P and sum 0 and its factor 0, instead of the NaN of `-inf - -inf`.
    pub fn step_rows_may_be_empty(
        &self,
        kb: &mut KernelBuilder<'_>,
        s: Value,
        j: Value,
        m_i: Value,
        l_i: Value,
        masking: Masking,
    ) -> Result<[Value; 4]> {
        self.step_impl(kb, s, j, m_i, l_i, masking, true, 0)
    }

    #[allow(clippy::too_many_arguments)] // `step`'s arguments and the choices between them
    fn step_impl(
        &self,
        kb: &mut KernelBuilder<'_>,
        s: Value,
        j: Value,
        m_i: Value,
        l_i: Value,
        masking: Masking,
        rows_may_be_empty: bool,
        log2_factor: i32,
    ) -> Result<[Value; 4]> {
        // In the log2 domain: with `qk_scale > 0`, the row max of the scaled scores is the scaled
        // row max, and `exp2(s · scale - m)` is one FMA and one `ex2.approx.ftz` per element.
        let s = match masking {
            Masking::None => s,
            Masking::Always => self.mask(kb, s, j)?,
            Masking::When(last) => {
                kb.if_(last, |kb| Ok(vec![self.mask(kb, s, j)?]), |_| Ok(vec![s]))?[0]
            }
        };
        let exp2 =
            |kb: &mut KernelBuilder<'_>, x| kb.math_with(MathOp::Exp2, x, MathPrecision::ApproxFtz);
        let m_raw = kb.reduce(s, 1, ReduceOp::Max)?;
        let m_blk = kb.mul(m_raw, self.qk_scale)?;
        let m_new = kb.max(m_i, m_blk)?;
        // The max subtracted: 0 for a row with no key yet, so its -inf scores give 0.
        let m_sub = if rows_may_be_empty {
            let none = kb.eq(m_new, f32::NEG_INFINITY)?;
            kb.where_(none, 0.0f32, m_new)?
        } else {
            m_new
        };
        let dm = kb.sub(m_i, m_sub)?;
        let alpha = exp2(kb, dm)?;
        let mut neg_m = kb.neg(m_sub)?;
        if log2_factor != 0 {
            neg_m = kb.add(neg_m, f64::from(log2_factor))?;
        }
        let neg_m = kb.expand_dims(neg_m, 1)?;
        let x = kb.fma(s, self.qk_scale, neg_m)?;
        let p = exp2(kb, x)?;
        let l_blk = kb.reduce(p, 1, ReduceOp::Sum)?;
        let l_new = kb.fma(l_i, alpha, l_blk)?;
        let p16 = kb.cast(p, self.dtype)?;
        Ok([p16, alpha, m_new, l_new])
    }

    /// `s` with keys past the sequence (and, causal, after the query) set to -inf.
    fn mask(&self, kb: &mut KernelBuilder<'_>, s: Value, j: Value) -> Result<Value> {
        let off = kb.mul(j, self.block_n)?;
        let cl = kb.add(self.cols, off)?;
        let mut masked = kb.ge(cl, self.seq)?;
        if let Some(r) = self.rows {
            let future = kb.gt(cl, r)?;
            masked = kb.or(masked, future)?;
        }
        let ninf = kb.f32(f32::NEG_INFINITY)?;
        kb.where_(masked, ninf, s)
    }
}

/// The parameters of a forward attention kernel, the same for every schedule:
/// `q_map, k_map, v_map, o_map, o: *T, lse: *f32, seq: i32, qk_scale: f32`.
#[derive(Debug, Clone, Copy)]
pub struct AttentionParams {
    /// Q `[batch · heads · seq, D]` (box `q_box`).
    pub q_map: Value,
    /// K (box `kv_box`).
    pub k_map: Value,
    /// V (box `kv_box`).
    pub v_map: Value,
    /// O through its tensor map (box `q_box`).
    pub o_map: Value,
    /// O again as a pointer, for a query block that reaches past the sequence.
    pub o: Value,
    /// The log-sum-exp (natural log) of each query row, `[batch · heads · seq]` f32.
    pub lse: Value,
    /// The sequence length.
    pub seq: Value,
    /// The softmax scale times log2(e), positive.
    pub qk_scale: Value,
}

/// Where one program works: its query block of its head, and the key blocks it visits.
#[derive(Debug, Clone, Copy)]
pub struct QueryBlock {
    /// The head's first row in the `[batch · heads · seq]` arrays.
    pub head0: Value,
    /// The block's first row within its head.
    pub q_off: Value,
    /// The block's first row in the whole arrays.
    pub q_row: Value,
    /// Key blocks: all of the head's, or (causal) those up to the query block.
    pub n_blocks: Value,
}

impl QueryBlock {
    /// The query block `program_id(0)` of head `program_id(1)`.
    pub fn of_program(
        kb: &mut KernelBuilder<'_>,
        c: &AttentionConfig,
        seq: Value,
    ) -> Result<QueryBlock> {
        let (bm, bn) = (c.block_m as i32, c.block_n as i32);
        let qb = kb.program_id(0)?;
        let bh = kb.program_id(1)?;
        let head0 = kb.mul(bh, seq)?;
        let q_off = kb.mul(qb, bm)?;
        let q_row = kb.add(head0, q_off)?;
        let n_blocks = if c.causal {
            kb.add(qb, 1)?
        } else {
            let s1 = kb.add(seq, bn - 1)?;
            kb.div(s1, bn)?
        };
        // At least one block, so a sequence length of 0 or less ends (storing nothing: every
        // row is past the end) instead of waiting for a load that was never issued.
        let n_blocks = kb.max(n_blocks, 1)?;
        Ok(QueryBlock {
            head0,
            q_off,
            q_row,
            n_blocks,
        })
    }
}

impl AttentionParams {
    /// Declares the parameters of a kernel for `c`, in the order the module docs give.
    pub fn declare(kb: &mut KernelBuilder<'_>, c: &AttentionConfig) -> Result<AttentionParams> {
        let dt = c.dtype;
        Ok(AttentionParams {
            q_map: kb.arg_tensor_map("q_map", dt, &c.q_box(), SWIZZLE)?,
            k_map: kb.arg_tensor_map("k_map", dt, &c.kv_box(), SWIZZLE)?,
            v_map: kb.arg_tensor_map("v_map", dt, &c.kv_box(), SWIZZLE)?,
            o_map: kb.arg_tensor_map("o_map", dt, &c.q_box(), SWIZZLE)?,
            o: kb.arg_ptr("o", dt, 16)?,
            lse: kb.arg_ptr("lse", DType::F32, 16)?,
            seq: kb.arg_i32("seq", 1)?,
            qk_scale: kb.arg_f32("qk_scale")?,
        })
    }

    /// `O / l` and the log-sum-exp (natural log) of `rows` query rows, `o` in `acc_o`, the first
    /// row at `first_in_seq` within its head and at `first_row` in the whole
    /// `[batch · heads · seq]` array. A block inside the sequence goes through `stage` (Q's
    /// buffer, free once the last `S` is complete: same box and swizzle as the O map) and one
    /// TMA store per box; a block reaching past the sequence is stored from registers, masked,
    /// since a box would overwrite the next head's first rows.
    #[allow(clippy::too_many_arguments)]
    pub fn store_output(
        &self,
        kb: &mut KernelBuilder<'_>,
        c: &AttentionConfig,
        o: Value,
        m_i: Value,
        l_i: Value,
        acc_o: &Encoding,
        stage: Value,
        first_in_seq: Value,
        first_row: Value,
    ) -> Result<()> {
        let n = kb.shape(o)?[0] as i32;
        let l_col = kb.expand_dims(l_i, 1)?;
        let o = kb.div(o, l_col)?;
        let o16 = kb.cast(o, c.dtype)?;
        let end = kb.add(first_in_seq, n)?;
        let whole = kb.le(end, self.seq)?;
        kb.if_(
            whole,
            |kb| {
                kb.store_shared(stage, o16)?;
                kb.fence_async_shared()?;
                kb.barrier()?;
                let zero = kb.i32(0)?;
                kb.tma_store(self.o_map, &[first_row, zero], stage)?;
                kb.tma_store_wait(0)?;
                Ok(vec![])
            },
            |kb| {
                store_rows(kb, self.o, self.seq, o16, acc_o, first_in_seq, first_row)?;
                Ok(vec![])
            },
        )?;
        store_lse(kb, self.lse, self.seq, m_i, l_i, first_in_seq, first_row)
    }
}

/// Stores the `[rows, D]` tile `o` (in `acc_o`) to `o_ptr` (`[batch · heads · seq, D]`) from
/// registers, its first row at `first_in_seq` within its head and `first_row` in the whole
/// array, rows at or past `seq` left alone (a TMA box would overwrite the next head's rows).
pub fn store_rows(
    kb: &mut KernelBuilder<'_>,
    o_ptr: Value,
    seq: Value,
    o: Value,
    acc_o: &Encoding,
    first_in_seq: Value,
    first_row: Value,
) -> Result<()> {
    let shape = kb.shape(o)?;
    let (rows, d) = (shape[0], shape[1]);
    let n = rows as i32;
    let r = kb.arange(0, n, Slice::new(1, acc_o.clone()))?;
    let r_seq = kb.add(r, first_in_seq)?;
    let inside = kb.lt(r_seq, seq)?;
    let r_all = kb.add(r, first_row)?;
    let r_off = kb.mul(r_all, d as i32)?;
    let r_off = kb.expand_dims(r_off, 1)?;
    let cl = kb.arange(0, d as i32, Slice::new(0, acc_o.clone()))?;
    let cl = kb.expand_dims(cl, 0)?;
    let offs = kb.add(r_off, cl)?;
    let ptrs = kb.add(o_ptr, offs)?;
    let inside2 = kb.expand_dims(inside, 1)?;
    let mask = kb.broadcast_to(inside2, (acc_o, [rows, d]))?;
    kb.store(ptrs, o, Some(mask))
}

/// Stores the log-sum-exp (natural log) `(m + log2 l) · ln 2` of each row to `lse_ptr`
/// (`[batch · heads · seq]`), rows placed as in [`store_rows`].
pub fn store_lse(
    kb: &mut KernelBuilder<'_>,
    lse_ptr: Value,
    seq: Value,
    m_i: Value,
    l_i: Value,
    first_in_seq: Value,
    first_row: Value,
) -> Result<()> {
    let n = kb.shape(l_i)?[0] as i32;
    let log_l = kb.math(MathOp::Log2, l_i)?;
    let lse2 = kb.add(m_i, log_l)?;
    let lse_ln = kb.mul(lse2, std::f64::consts::LN_2)?;
    // In the row statistics' own layout (the scores' rows, which may differ from O's).
    let stats_l = kb.layout(l_i)?.expect("a row tile has a layout");
    let r = kb.arange(0, n, stats_l)?;
    let r_seq = kb.add(r, first_in_seq)?;
    let inside = kb.lt(r_seq, seq)?;
    let r_all = kb.add(r, first_row)?;
    let ptrs = kb.add(lse_ptr, r_all)?;
    kb.store(ptrs, lse_ln, Some(inside))
}
