//! The pieces of FlashAttention-style forward attention: the kernel's parameters and the query
//! block a program owns, the online softmax of one key block with its masking, and the
//! epilogue that stores `O / l` and the log-sum-exp.

use crate::codegen::kernels::attention_config::{AttentionConfig, SWIZZLE};
use crate::codegen::{
    CodegenError, DType, KernelBuilder, MathOp, MathPrecision, ReduceOp, Result, Value,
};
use crate::layout::encoding::{Encoding, Slice};

/// Which key blocks the online softmax masks (keys past the sequence, and causal keys after
/// the query). Only the last block of a query block needs it (with variable lengths, or causal
/// with key blocks shorter than the query block, every block from
/// [`QueryBlock::first_masked`]), and the mask is exact, so masking a block that needs none
/// is harmless.
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

/// How [`OnlineSoftmax::step`] treats a block beyond its masking; the default is the plain
/// online softmax.
#[derive(Debug, Clone, Copy, Default)]
pub struct StepOptions {
    /// A row may have seen no key yet after this block (a split of the keys that a causal row
    /// does not reach, or an empty one): such a row's max stays -inf, its P and sum 0 and its
    /// factor 0, instead of the NaN of `-inf - -inf`.
    pub rows_may_be_empty: bool,
    /// P and the returned sum come out `2^log2_factor` times larger, at no cost per score: the
    /// factor joins the row's offset inside the exponent. fp8's P is scaled so before its
    /// rounding to e4m3, so that its small values stay normal numbers; divide O by the scaled
    /// sum, and the sum by the factor for the log-sum-exp.
    pub log2_factor: i32,
}

impl OnlineSoftmax {
    /// The online softmax of key block `j`'s scores `s`: returns P (in `dtype`), the factor
    /// that rescales O, and the new row max and sum, masking as `masking` says.
    #[allow(clippy::too_many_arguments)] // the block, the running state and two choices
    pub fn step(
        &self,
        kb: &mut KernelBuilder<'_>,
        s: Value,
        j: Value,
        m_i: Value,
        l_i: Value,
        masking: Masking,
        options: StepOptions,
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
        let m_sub = if options.rows_may_be_empty {
            let none = kb.eq(m_new, f32::NEG_INFINITY)?;
            kb.where_(none, 0.0f32, m_new)?
        } else {
            m_new
        };
        let dm = kb.sub(m_i, m_sub)?;
        let alpha = exp2(kb, dm)?;
        let mut neg_m = kb.neg(m_sub)?;
        if options.log2_factor != 0 {
            neg_m = kb.add(neg_m, f64::from(options.log2_factor))?;
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

/// How a forward attention kernel learns its sequence lengths.
#[derive(Debug, Clone, Copy)]
pub enum SeqLengths {
    /// One length for every sequence, the `seq: i32` parameter.
    Fixed(Value),
    /// A variable-length batch: `cu_seqlens_q` and `cu_seqlens_k` (`*i32`, `[batch + 1]`
    /// cumulative offsets, FlashAttention's varlen API).
    Varlen {
        /// Cumulative query lengths.
        cu_q: Value,
        /// Cumulative key lengths.
        cu_k: Value,
    },
}

/// The parameters of a forward attention kernel, the same for every schedule:
/// `q_map, k_map, v_map, o_map, o: *T, lse: *f32, seq: i32, qk_scale: f32`, or with
/// `cu_seqlens_q: *i32, cu_seqlens_k: *i32` in place of `seq` for a variable-length batch.
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
    /// The sequence lengths.
    pub lengths: SeqLengths,
    /// The softmax scale times log2(e), positive.
    pub qk_scale: Value,
}

/// Query heads packed into one block's rows ([`AttentionConfig::packed_heads`] > 1): a box
/// of `n · per_head` rows holds `per_head` positions of each of `n` heads, head after head.
#[derive(Debug, Clone, Copy)]
pub struct PackedHeads {
    /// The block's first query head (over batch · heads_q; over heads_q with variable lengths),
    /// the outer coordinate of Q's and O's three-dimensional tensor maps.
    pub q_head: Value,
    /// The first position (of the block, or of one of its boxes) as a row of its head's
    /// stretch of Q (the sequence's start plus the position), the middle coordinate.
    pub seq_row: Value,
    /// Rows from one query head to the next in Q, O and lse (`seq`, or `total_q`).
    pub head_stride: Value,
    /// Positions of each head in a box (a power of two).
    pub per_head: i32,
}

impl PackedHeads {
    /// The position (from the box's first) of each of a box's rows `r`.
    fn position(&self, kb: &mut KernelBuilder<'_>, r: Value) -> Result<Value> {
        kb.and(r, self.per_head - 1)
    }

    /// The `[rows, D]` buffer `buf` of a box as its three-dimensional tensor map's box sees it:
    /// `[heads, per_head, D]`.
    fn view(&self, kb: &mut KernelBuilder<'_>, buf: Value) -> Result<Value> {
        let shape = kb.shape(buf)?;
        let per = self.per_head as u64;
        kb.reshape_shared(buf, &[shape[0] / per, per, shape[1]])
    }
}

/// Where one program works: its query block of its head (or heads), and the key blocks it
/// visits.
#[derive(Debug, Clone, Copy)]
pub struct QueryBlock {
    /// The first row of the program's sequence of its (first) query head in Q, O and lse.
    pub head0: Value,
    /// The first row of the same sequence of its KV head (query head `h` reads KV head
    /// `h / kv_group`) in K and V.
    pub kv_head0: Value,
    /// The block's first row within its sequence.
    pub q_off: Value,
    /// The block's first row in the whole arrays.
    pub q_row: Value,
    /// Key blocks: all of the sequence's, or (causal) those up to the query block's last row.
    pub n_blocks: Value,
    /// Query rows of the sequence.
    pub len_q: Value,
    /// Keys of the sequence.
    pub len_k: Value,
    /// Variable lengths: `len_k - len_q`, how far right the causal diagonal moves (query row
    /// `i` sees keys up to `i + shift`, FlashAttention's bottom-right alignment).
    pub shift: Option<Value>,
    /// The first key block that needs a mask (the causal diagonal or the end of the keys cuts
    /// it); the blocks before it need none. `None`: only the last block needs one (one length,
    /// unmasked or key blocks as tall as the query block).
    pub first_masked: Option<Value>,
    /// Query positions of each head in a box of Q (its rows when no heads are packed).
    pub per_box: i32,
    /// The packed heads' places, when the block holds several query heads.
    pub packed: Option<PackedHeads>,
}

impl QueryBlock {
    /// The query block of `c`'s kernel: [`of_program`](Self::of_program) for one length,
    /// [`of_varlen`](Self::of_varlen) for a variable-length batch (after
    /// [`leave_past_the_end`](Self::leave_past_the_end)).
    pub fn of_params(
        kb: &mut KernelBuilder<'_>,
        c: &AttentionConfig,
        lengths: SeqLengths,
    ) -> Result<QueryBlock> {
        match lengths {
            SeqLengths::Fixed(seq) => QueryBlock::of_program(kb, c, seq),
            SeqLengths::Varlen { cu_q, cu_k } => QueryBlock::of_varlen(kb, c, cu_q, cu_k),
        }
    }

    /// Variable lengths: leaves the kernel when the program's query block starts past its
    /// sequence's end (the grid is sized from the longest). Outside any warp role, before
    /// [`of_params`](Self::of_params); nothing for one length.
    pub fn leave_past_the_end(
        kb: &mut KernelBuilder<'_>,
        c: &AttentionConfig,
        lengths: SeqLengths,
    ) -> Result<()> {
        let SeqLengths::Varlen { cu_q, .. } = lengths else {
            return Ok(());
        };
        let qb = query_block_index(kb, c)?;
        let b = kb.program_id(2)?;
        let [_, len_q] = sequence_span(kb, cu_q, b)?;
        let q_off = kb.mul(qb, c.positions() as i32)?;
        let past = kb.ge(q_off, len_q)?;
        kb.return_if(past)
    }

    /// The query block `program_id(0)` of head `program_id(1)` (batch · query heads), every
    /// sequence `seq` long.
    pub fn of_program(
        kb: &mut KernelBuilder<'_>,
        c: &AttentionConfig,
        seq: Value,
    ) -> Result<QueryBlock> {
        let (bm, bn) = (c.positions() as i32, c.block_n as i32);
        let n = c.packed_heads.max(1) as i32;
        let qb = query_block_index(kb, c)?;
        let pack = kb.program_id(1)?;
        let bh = if n > 1 { kb.mul(pack, n)? } else { pack };
        let head0 = kb.mul(bh, seq)?;
        let q_off = kb.mul(qb, bm)?;
        let q_row = kb.add(head0, q_off)?;
        // Key blocks of the whole sequence.
        let all = |kb: &mut KernelBuilder<'_>| -> Result<Value> {
            let s1 = kb.add(seq, bn - 1)?;
            kb.div(s1, bn)
        };
        let (n_blocks, first_masked) = match (c.causal, bm == bn) {
            // The diagonal block is the last, and the only one masked (unmasked, only the
            // sequence's end cuts a block: the last).
            (true, true) => (kb.add(qb, 1)?, None),
            (false, _) => (all(kb)?, None),
            // Key blocks shorter than the query block (D256, or packed heads: fewer positions
            // than rows): the diagonal cuts the blocks from the one holding the block's first
            // position, the keys stop at its last position or the sequence's end, and the
            // blocks from the first the diagonal or the sequence's end cuts are masked.
            (true, false) => {
                let all = all(kb)?;
                let whole = kb.div(seq, bn)?;
                let reach = kb.add(q_off, bm + bn - 1)?;
                let reach = kb.div(reach, bn)?;
                let seen = kb.add(q_off, 1)?;
                let clear = kb.div(seen, bn)?;
                (kb.min(reach, all)?, Some(kb.min(clear, whole)?))
            }
        };
        // At least one block, so a sequence length of 0 or less ends (storing nothing: every
        // row is past the end) instead of waiting for a load that was never issued.
        let n_blocks = kb.max(n_blocks, 1)?;
        // `b · heads_q + h` over the group is `b · heads_kv + h / group`.
        let kv_head0 = if c.kv_group > 1 {
            let bhk = kb.div(bh, c.kv_group as i32)?;
            kb.mul(bhk, seq)?
        } else {
            head0
        };
        let packed = (n > 1).then_some(PackedHeads {
            q_head: bh,
            seq_row: q_off,
            head_stride: seq,
            per_head: c.positions_per_box() as i32,
        });
        Ok(QueryBlock {
            head0,
            kv_head0,
            q_off,
            q_row,
            n_blocks,
            len_q: seq,
            len_k: seq,
            shift: None,
            first_masked,
            per_box: c.positions_per_box() as i32,
            packed,
        })
    }

    /// The query block `program_id(0)` of query head `program_id(1)` of sequence
    /// `program_id(2)` in a variable-length batch (`cu_q`, `cu_k`: cumulative lengths). It may
    /// start past the sequence's end: [`leave_past_the_end`](Self::leave_past_the_end) first.
    pub fn of_varlen(
        kb: &mut KernelBuilder<'_>,
        c: &AttentionConfig,
        cu_q: Value,
        cu_k: Value,
    ) -> Result<QueryBlock> {
        let (bm, bn) = (c.positions() as i32, c.block_n as i32);
        let n = c.packed_heads.max(1) as i32;
        let qb = query_block_index(kb, c)?;
        let pack = kb.program_id(1)?;
        let h = if n > 1 { kb.mul(pack, n)? } else { pack };
        let b = kb.program_id(2)?;
        let batch = kb.num_programs(2)?;
        // (start, length, total) of sequence b in a cumulative array.
        let span = |kb: &mut KernelBuilder<'_>, cu: Value| -> Result<[Value; 3]> {
            let [start, len] = sequence_span(kb, cu, b)?;
            let last = kb.add(cu, batch)?;
            Ok([start, len, kb.load(last, None, None)?])
        };
        let [start_q, len_q, total_q] = span(kb, cu_q)?;
        let q_off = kb.mul(qb, bm)?;
        let [start_k, len_k, total_k] = span(kb, cu_k)?;
        let head_q = kb.mul(h, total_q)?;
        let head0 = kb.add(head_q, start_q)?;
        let q_row = kb.add(head0, q_off)?;
        let hk = kb.div(h, c.kv_group as i32)?;
        let head_k = kb.mul(hk, total_k)?;
        let kv_head0 = kb.add(head_k, start_k)?;
        let shift = kb.sub(len_k, len_q)?;
        let (keys, first_masked) = if c.causal {
            // Keys up to the block's last row (bottom-right), at most the sequence's.
            let reach = kb.add(q_off, bm)?;
            let reach = kb.add(reach, shift)?;
            let keys = kb.min(reach, len_k)?;
            // Block j needs no mask when its last key is seen by the block's first row.
            let seen = kb.add(q_off, shift)?;
            let seen = kb.add(seen, 1)?;
            let seen = kb.max(seen, 0)?;
            let clear = kb.div(seen, bn)?;
            let whole = kb.div(len_k, bn)?;
            (keys, kb.min(clear, whole)?)
        } else {
            (len_k, kb.div(len_k, bn)?)
        };
        let keys = kb.max(keys, 0)?;
        let k1 = kb.add(keys, bn - 1)?;
        let n_blocks = kb.div(k1, bn)?;
        // At least one block (fully masked when the rows see no key: O 0, lse +inf).
        let n_blocks = kb.max(n_blocks, 1)?;
        let packed = if n > 1 {
            Some(PackedHeads {
                q_head: h,
                seq_row: kb.add(start_q, q_off)?,
                head_stride: total_q,
                per_head: c.positions_per_box() as i32,
            })
        } else {
            None
        };
        Ok(QueryBlock {
            head0,
            kv_head0,
            q_off,
            q_row,
            n_blocks,
            len_q,
            len_k,
            shift: Some(shift),
            first_masked: Some(first_masked),
            per_box: c.positions_per_box() as i32,
            packed,
        })
    }

    /// Causal: the last key each of `rows` query rows sees (`[rows, 1]` in `layout`, the first
    /// row `first` rows into the block's sequence; with packed heads, row `r` is position
    /// `first + r mod per_box`); `None` without a causal mask.
    pub fn causal_rows(
        &self,
        kb: &mut KernelBuilder<'_>,
        c: &AttentionConfig,
        layout: &Slice,
        rows: i32,
        first: Value,
    ) -> Result<Option<Value>> {
        if !c.causal {
            return Ok(None);
        }
        let first = match self.shift {
            Some(s) => kb.add(first, s)?,
            None => first,
        };
        let r = kb.arange(0, rows, layout.clone())?;
        let r = match self.packed {
            Some(p) => p.position(kb, r)?,
            None => r,
        };
        let r = kb.add(r, first)?;
        Ok(Some(kb.expand_dims(r, 1)?))
    }

    /// Box `b` of the block's Q (ping-pong: one a consumer): its first position within the
    /// sequence, and that position's row of the block's first head in Q, O and lse.
    pub fn box_start(&self, kb: &mut KernelBuilder<'_>, b: Value) -> Result<[Value; 2]> {
        let off = kb.mul(b, self.per_box)?;
        Ok([kb.add(self.q_off, off)?, kb.add(self.q_row, off)?])
    }

    /// The coordinates of box `b` in Q's (and O's) tensor map: `[row, 0]`, or with packed
    /// heads `[head, row in the head, 0]`.
    pub fn box_coords(&self, kb: &mut KernelBuilder<'_>, b: Value) -> Result<Vec<Value>> {
        let off = kb.mul(b, self.per_box)?;
        let zero = kb.i32(0)?;
        Ok(match self.packed {
            Some(p) => vec![p.q_head, kb.add(p.seq_row, off)?, zero],
            None => vec![kb.add(self.q_row, off)?, zero],
        })
    }

    /// The `[rows, D]` buffer `buf` of a box of Q (or O) as its tensor map's box sees it:
    /// itself, or `[heads, per_box, D]` with packed heads.
    pub fn box_view(&self, kb: &mut KernelBuilder<'_>, buf: Value) -> Result<Value> {
        match self.packed {
            Some(p) => p.view(kb, buf),
            None => Ok(buf),
        }
    }

    /// The output rows of box `b` of this block (ping-pong: one a consumer's).
    pub fn output_rows(&self, kb: &mut KernelBuilder<'_>, b: Value) -> Result<OutputRows> {
        let [first_in_seq, first_row] = self.box_start(kb, b)?;
        let coords = self.box_coords(kb, b)?;
        Ok(OutputRows {
            first_in_seq,
            first_row,
            len: self.len_q,
            empty_rows: self.shift.is_some(),
            packed: self.packed.map(|p| PackedHeads {
                seq_row: coords[1],
                ..p
            }),
        })
    }
}

/// The program's query block: `program_id(0)`, or counted from the last with
/// [`AttentionConfig::longest_first`] and a causal mask, so that the blocks with the most keys
/// start first and the short ones fill the end.
fn query_block_index(kb: &mut KernelBuilder<'_>, c: &AttentionConfig) -> Result<Value> {
    let pid = kb.program_id(0)?;
    if !(c.causal && c.longest_first) {
        return Ok(pid);
    }
    let n = kb.num_programs(0)?;
    let last = kb.sub(n, 1)?;
    kb.sub(last, pid)
}

/// Where sequence `b` starts in the cumulative lengths `cu`, and its length.
fn sequence_span(kb: &mut KernelBuilder<'_>, cu: Value, b: Value) -> Result<[Value; 2]> {
    let at = kb.add(cu, b)?;
    let start = kb.load(at, None, None)?;
    let at1 = kb.add(at, 1)?;
    let end = kb.load(at1, None, None)?;
    Ok([start, kb.sub(end, start)?])
}

/// The query rows an epilogue stores.
#[derive(Debug, Clone, Copy)]
pub struct OutputRows {
    /// The first row's position within its sequence.
    pub first_in_seq: Value,
    /// The first row in the whole O and lse arrays.
    pub first_row: Value,
    /// Rows of the sequence (rows at or past it are not stored).
    pub len: Value,
    /// A row may have seen no key (variable lengths): its O is 0 and its lse +inf, as
    /// FlashAttention writes them, instead of `0 / 0`.
    pub empty_rows: bool,
    /// Rows of several query heads ([`AttentionConfig::packed_heads`]), `seq_row` the box's:
    /// where each lands.
    pub packed: Option<PackedHeads>,
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
            lengths: if c.varlen {
                SeqLengths::Varlen {
                    cu_q: kb.arg_ptr("cu_seqlens_q", DType::I32, 4)?,
                    cu_k: kb.arg_ptr("cu_seqlens_k", DType::I32, 4)?,
                }
            } else {
                SeqLengths::Fixed(kb.arg_i32("seq", 1)?)
            },
            qk_scale: kb.arg_f32("qk_scale")?,
        })
    }

    /// `O / l` and the log-sum-exp (natural log) of the query rows `at`, `o` in `acc_o`. A
    /// block inside the sequence goes through `stage` (Q's buffer, free once the last `S` is
    /// complete: same box and swizzle as the O map) and one TMA store per box; a block reaching
    /// past the sequence is stored from registers, masked, since a box would overwrite the next
    /// head's (or sequence's) first rows.
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
        at: OutputRows,
    ) -> Result<()> {
        let OutputRows {
            first_in_seq,
            first_row,
            len,
            empty_rows,
            ..
        } = at;
        let n = kb.shape(o)?[0] as i32;
        // A row that saw no key has l = 0 and O = 0: divided by 1 it stays 0.
        let l_div = if empty_rows {
            let none = kb.eq(l_i, 0.0f32)?;
            kb.where_(none, 1.0f32, l_i)?
        } else {
            l_i
        };
        let l_col = kb.expand_dims(l_div, 1)?;
        let o = kb.div(o, l_col)?;
        let o16 = kb.cast(o, c.dtype)?;
        let positions = at.packed.map_or(n, |p| p.per_head);
        let end = kb.add(first_in_seq, positions)?;
        let whole = kb.le(end, len)?;
        kb.if_(
            whole,
            |kb| {
                kb.store_shared(stage, o16)?;
                kb.fence_async_shared()?;
                kb.barrier()?;
                let zero = kb.i32(0)?;
                match at.packed {
                    Some(p) => {
                        let view = p.view(kb, stage)?;
                        kb.tma_store(self.o_map, &[p.q_head, p.seq_row, zero], view)?;
                    }
                    None => kb.tma_store(self.o_map, &[first_row, zero], stage)?,
                }
                kb.tma_store_wait(0)?;
                Ok(vec![])
            },
            |kb| {
                at.store_rows(kb, self.o, o16, acc_o)?;
                Ok(vec![])
            },
        )?;
        at.store_lse(kb, self.lse, m_i, l_i)
    }
}

impl OutputRows {
    /// For rows `r` of the box: whether each lies inside its sequence, and its row in the whole
    /// O and lse arrays.
    fn places(&self, kb: &mut KernelBuilder<'_>, r: Value) -> Result<[Value; 2]> {
        let Some(p) = self.packed else {
            let r_seq = kb.add(r, self.first_in_seq)?;
            return Ok([kb.lt(r_seq, self.len)?, kb.add(r, self.first_row)?]);
        };
        let pos = p.position(kb, r)?;
        let head = kb.shr(r, p.per_head.trailing_zeros() as i32)?;
        let r_seq = kb.add(pos, self.first_in_seq)?;
        let inside = kb.lt(r_seq, self.len)?;
        let head_off = kb.mul(head, p.head_stride)?;
        let r_all = kb.add(head_off, pos)?;
        Ok([inside, kb.add(r_all, self.first_row)?])
    }

    /// Stores the `[rows, D]` tile `o` (in `acc_o`) to `o_ptr` (`[rows of all sequences, D]`)
    /// from registers, rows at or past the sequence's end left alone (a TMA box would overwrite
    /// the next head's or sequence's rows). One store of O for every forward and element type.
    pub fn store_rows(
        &self,
        kb: &mut KernelBuilder<'_>,
        o_ptr: Value,
        o: Value,
        acc_o: &Encoding,
    ) -> Result<()> {
        let shape = kb.shape(o)?;
        let (rows, d) = (shape[0], shape[1]);
        let n = rows as i32;
        let r = kb.arange(0, n, Slice::new(1, acc_o.clone()))?;
        let [inside, r_all] = self.places(kb, r)?;
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
    /// (one f32 a row, placed as in [`store_rows`](Self::store_rows)); with `empty_rows`, a
    /// row with `l = 0` gets +inf. `l` is the plain sum of the row's `exp2` terms.
    pub fn store_lse(
        &self,
        kb: &mut KernelBuilder<'_>,
        lse_ptr: Value,
        m_i: Value,
        l_i: Value,
    ) -> Result<()> {
        let n = kb.shape(l_i)?[0] as i32;
        let log_l = kb.math(MathOp::Log2, l_i)?;
        let lse2 = kb.add(m_i, log_l)?;
        let lse_ln = kb.mul(lse2, std::f64::consts::LN_2)?;
        let lse_ln = if self.empty_rows {
            let none = kb.eq(l_i, 0.0f32)?;
            kb.where_(none, f32::INFINITY, lse_ln)?
        } else {
            lse_ln
        };
        // In the row statistics' own layout (the scores' rows, which may differ from O's).
        let stats_l = kb.layout(l_i)?.ok_or_else(|| {
            CodegenError::arg("OutputRows::store_lse", "the row statistics have no layout")
        })?;
        let r = kb.arange(0, n, stats_l)?;
        let [inside, r_all] = self.places(kb, r)?;
        let ptrs = kb.add(lse_ptr, r_all)?;
        kb.store(ptrs, lse_ln, Some(inside))
    }
}
