//! Paged decode attention: `q_len` (1–16) query tokens per sequence against a KV cache kept in
//! pages, each sequence's pages listed in a block table, split over the keys (flash-decoding)
//! with the splits merged in the kernel by the last CTA of each sequence and KV head
//! ([`DecodeConfig::merge_in_kernel`]) or by
//! [`split_kv_combine_kernel`](super::split_kv_combine_kernel).
//!
//! Decode reads every KV byte once and does little arithmetic on it, so it is bound by memory
//! bandwidth if enough bytes are in flight. Hence:
//!
//! - **GQA packing**: one CTA serves all `group` query heads of a KV head (and all `q_len`
//!   tokens): its query tile has `q_len · group` rows (token-major, padded to an `mma` tile), so
//!   the KV head is read once, not once per query head;
//! - **split-KV**: CTA `(split, kv_head, batch)` takes one contiguous share of the sequence's key
//!   blocks ([`DecodeConfig::splits`] picks the count so that a batch of one still fills the
//!   machine), writing its partial `O` (normalised) and log-sum-exp in f32;
//! - **the merge in the kernel** ([`DecodeConfig::merge_in_kernel`]): after its partial, a CTA
//!   takes a ticket of its (sequence, KV head) (a barrier, then one device-scope atomic add with
//!   a release fence before it and an acquire fence after); the one that draws `splits - 1`
//!   merges every split of its rows ([`SplitMerge`]: the partials read from L2 once, no second
//!   launch) and puts the ticket back to 0 for the next launch. At one split (a large batch) the
//!   CTA writes O and the lse directly, with no partials and no ticket;
//! - **a `cp.async` ring**: K and V blocks of `block_n` keys are gathered through the block
//!   table (one page lookup per key, any page size, issued a step before the copy that needs
//!   it) into `stages` shared buffers, `stages - 1` blocks in flight, as the Ampere GEMM does;
//! - `S = Q Kᵀ` and `O += P V` on `mma.sync` (K read with `ldmatrix` from a K-contiguous tile,
//!   V with `ldmatrix.trans`), the online softmax in registers
//!   ([`StepOptions::rows_may_be_empty`]: a causal row may see no key of a split).
//!
//! fp8 e4m3 KV: the blocks are copied as bytes and widened to the query's type in registers;
//! K's per-head scale is folded into the softmax scale and V's into the partial output.
//!
//! Layouts (FlashAttention's `flash_attn_with_kvcache`): Q and O `[batch, q_len, heads_q, D]`,
//! K and V caches `[pages, page_size, heads_kv, D]`, the block table `[batch, max_pages]` i32
//! (entry `p` of a sequence is the cache page holding its keys `p · page_size ..`), lengths
//! `[batch]` i32 (keys of each sequence, the new tokens' included, at most `max_pages ·
//! page_size`: a longer one is cut to that; 0 is an empty sequence: O = 0, lse = -inf).
//! Partials: `o_part [splits, batch, q_len, heads_q, D]` f32, `lse_part [splits, batch, q_len,
//! heads_q]` f32. Query token `t` sits at key position `len - q_len + t`; causal, it sees keys up
//! to there.
//!
//! Parameters: `q: *T, k_cache: *KV, v_cache: *KV, block_table: *i32, seq_lens: *i32,
//! o_part: *f32, lse_part: *f32`, merging in the kernel `o: *T, lse: *f32, counters: *i32` (O
//! `[batch, q_len, heads_q, D]`, lse `[batch, q_len, heads_q]`, the tickets `[batch, heads_kv]`
//! zero before the first launch and left zero), then `max_pages: i32, qk_scale: f32`, then with
//! fp8 KV `k_scale: *f32, v_scale: *f32` (`[heads_kv]` each; a per-tensor scale is the same value
//! for every head). [`DecodeConfig::buffers`] counts every buffer's elements.
//! `qk_scale` is the softmax scale times log2(e), positive. Grid:
//! [`DecodeConfig::grid`] `(splits, heads_kv, batch)`: the kernel reads the split count, the KV
//! heads and the batch from it. Offsets into the caches are 64-bit; the others 32-bit.

use crate::layout::encoding::helpers::{default_nvmma_shared, mma_for_dot};
use crate::layout::encoding::{Blocked, CgaLayout, DotOperand, Encoding, Slice};

use super::super::{AtomicOp, CodegenError, DType, Kernel, KernelBuilder, Result, Target, Value};
use super::decode_config::DecodeConfig;
use super::parts::{merge_tile, Masking, OnlineSoftmax, SplitMerge, StepOptions};
use super::{tile_coords, tile_layout, Context, Tile2d};

/// Builds the paged decode kernel for `target` (sm_80+; fp8 KV needs sm_90). See the module
/// docs.
pub fn attention_decode_kernel(
    ctx: &Context,
    target: Target,
    c: DecodeConfig,
) -> Result<Kernel<'_>> {
    c.check()?;
    if target.warp_size() != 32 {
        return Err(CodegenError::Unsupported {
            op: "attention_decode_kernel",
            target: target.to_string(),
            reason: "mma.sync is an NVIDIA instruction".into(),
        });
    }
    let name = if c.fp8_kv() {
        "attn_decode_fp8kv"
    } else {
        "attn_decode"
    };
    let mut kb = KernelBuilder::new(ctx, target, name, c.num_warps)?;
    let (dt, kvt) = (c.dtype, c.kv_dtype);
    let q = kb.arg_ptr("q", dt, 16)?;
    let k_cache = kb.arg_ptr("k_cache", kvt, 16)?;
    let v_cache = kb.arg_ptr("v_cache", kvt, 16)?;
    let table = kb.arg_ptr("block_table", DType::I32, 4)?;
    let seq_lens = kb.arg_ptr("seq_lens", DType::I32, 4)?;
    let o_part = kb.arg_ptr("o_part", DType::F32, 16)?;
    let lse_part = kb.arg_ptr("lse_part", DType::F32, 4)?;
    let merged = if c.merge_in_kernel {
        Some([
            kb.arg_ptr("o", dt, 16)?,
            kb.arg_ptr("lse", DType::F32, 4)?,
            kb.arg_ptr("counters", DType::I32, 4)?,
        ])
    } else {
        None
    };
    let max_pages = kb.arg_i32("max_pages", 1)?;
    let qk_scale = kb.arg_f32("qk_scale")?;
    let scales = if c.fp8_kv() {
        let k = kb.arg_ptr("k_scale", DType::F32, 4)?;
        Some((k, kb.arg_ptr("v_scale", DType::F32, 4)?))
    } else {
        None
    };

    let (bm, bn, d) = (c.block_m(), c.block_n, c.head_dim);
    let w = c.num_warps;
    let (acc_s, q_dot, k_dot) = mma_for_dot(2, u64::from(bm), u64::from(bn), w, 16)?;
    let (acc_o, p_dot, v_dot) = mma_for_dot(2, u64::from(bm), u64::from(d), w, 16)?;
    let (k_dot, v_dot) = (
        k_dot.expect("mma v2 has a B layout"),
        v_dot.expect("mma v2 has a B layout"),
    );
    let (acc_s, acc_o) = (Encoding::from(acc_s), Encoding::from(acc_o));

    let split = kb.program_id(0)?;
    let kvh = kb.program_id(1)?;
    let b = kb.program_id(2)?;
    let splits = kb.num_programs(0)?;
    let heads_kv = kb.num_programs(1)?;
    let batch = kb.num_programs(2)?;
    let len_ptr = kb.add(seq_lens, b)?;
    let len = kb.load(len_ptr, None, None)?;
    // A length past the sequence's table row is cut to it (the table is never read past a row).
    let cap = kb.mul(max_pages, c.page_size as i32)?;
    let len = kb.min(len, cap)?;
    let len = kb.max(len, 0)?;
    let rows = QueryRows {
        c,
        kvh,
        heads_q: kb.mul(heads_kv, c.group as i32)?,
    };

    // This split's key blocks [j0, j1) and its last key (exclusive) `k_end`.
    let bn_i = bn as i32;
    let len_r = kb.add(len, bn_i - 1)?;
    let blocks = kb.div(len_r, bn_i)?;
    let per_r = kb.add(blocks, splits)?;
    let per_r = kb.sub(per_r, 1)?;
    let per = kb.div(per_r, splits)?;
    let j0 = kb.mul(split, per)?;
    let j0 = kb.min(j0, blocks)?;
    let j1 = kb.add(j0, per)?;
    let j1 = kb.min(j1, blocks)?;
    let k_end = kb.mul(j1, bn_i)?;
    let k_end = kb.min(k_end, len)?;

    // Q: `[block_m, D]` straight into the A layout of `Q Kᵀ`, padded rows zero.
    let q_enc = Encoding::from(q_dot);
    let q_base = kb.mul(b, c.q_len as i32)?;
    let (q_rows, q_cols) = tile_coords(&mut kb, &q_enc, [u64::from(bm), u64::from(d)], None, None)?;
    let (q_row, q_ok) = rows.index(&mut kb, q_rows, q_base)?;
    let q_off = kb.mul(q_row, d as i32)?;
    let q_off = kb.add(q_off, q_cols)?;
    let q_ptrs = kb.add(q, q_off)?;
    let q_tile = kb.load(q_ptrs, Some(q_ok), None)?;

    // The rings: K as `[D, block_n]` (D contiguous: the `Kᵀ` operand read without `.trans`), V
    // as `[block_n, D]`.
    let kv_bits = kvt.bits();
    let k_shape = [u64::from(d), u64::from(bn)];
    let v_shape = [u64::from(bn), u64::from(d)];
    let k_sl = default_nvmma_shared(&k_shape, kv_bits, true, false, CgaLayout::single())?;
    let v_sl = default_nvmma_shared(&v_shape, kv_bits, false, false, CgaLayout::single())?;
    let stages = c.stages as i32;
    let k_ring = kb.alloc_shared_buffers(kvt, u64::from(c.stages), &k_shape, &k_sl)?;
    let v_ring = kb.alloc_shared_buffers(kvt, u64::from(c.stages), &v_shape, &v_sl)?;
    // 16 bytes per thread and copy, lanes along D.
    let per_thread = 128 / kv_bits;
    let v_ld = tile_layout(
        target,
        Tile2d {
            rows: bn,
            cols: d,
            per_thread,
            num_warps: w,
        },
    )?;
    let k_ld = Blocked::new(
        &[v_ld.size_per_thread[1], 1],
        &[v_ld.threads_per_warp[1], v_ld.threads_per_warp[0]],
        &[1, v_ld.warps_per_cta[0]],
        &[0, 1],
    );
    let pages = Pages {
        c,
        table,
        max_pages,
        b,
        kvh,
        heads_kv,
        k_end,
    };
    let k_copy = pages.copy_plan(&mut kb, &Encoding::from(k_ld), k_cache, 1)?;
    let v_copy = pages.copy_plan(&mut kb, &Encoding::from(v_ld), v_cache, 0)?;
    // The cache pages of block j's keys, as the K and the V copy hold them: looked up one step
    // before the copy that needs them, so the lookup's latency hides behind a block's products.
    let lookup = |kb: &mut KernelBuilder<'_>, j: Value| -> Result<[Value; 2]> {
        Ok([pages.lookup(kb, &k_copy, j)?, pages.lookup(kb, &v_copy, j)?])
    };
    let issue = |kb: &mut KernelBuilder<'_>, j: Value, [pk, pv]: [Value; 2], buf: Value| {
        let kd = kb.index_shared(k_ring, buf)?;
        pages.copy(kb, &k_copy, j, pk, kd)?;
        let vd = kb.index_shared(v_ring, buf)?;
        pages.copy(kb, &v_copy, j, pv, vd)?;
        kb.async_commit_group().map(|_| ())
    };
    for s in 0..stages - 1 {
        let j = kb.add(j0, s)?;
        let buf = kb.i32(s)?;
        let pg = lookup(&mut kb, j)?;
        issue(&mut kb, j, pg, buf)?;
    }
    let first_ahead = kb.add(j0, stages - 1)?;
    let [pk0, pv0] = lookup(&mut kb, first_ahead)?;

    // The softmax: keys at or past the split's end and, causal, after each row's token masked.
    let qk_scale = match scales {
        Some((ks, _)) => {
            let p = kb.add(ks, kvh)?;
            let s = kb.load(p, None, None)?;
            kb.mul(qk_scale, s)?
        }
        None => qk_scale,
    };
    let rows_s = Slice::new(1, acc_s.clone());
    let causal_rows = if c.causal {
        // Token t of row r = t · group + g sees keys up to len - q_len + t.
        let r = kb.arange(0, bm as i32, rows_s.clone())?;
        let t = kb.div(r, c.group as i32)?;
        let last = kb.sub(len, c.q_len as i32)?;
        let last = kb.add(t, last)?;
        Some(kb.expand_dims(last, 1)?)
    } else {
        None
    };
    let cols = kb.arange(0, bn_i, Slice::new(0, acc_s.clone()))?;
    let cols = kb.expand_dims(cols, 0)?;
    let softmax = OnlineSoftmax {
        qk_scale,
        seq: k_end,
        cols,
        rows: causal_rows,
        block_n: bn_i,
        dtype: dt,
    };
    let may_be_empty = StepOptions {
        rows_may_be_empty: true,
        ..StepOptions::default()
    };

    let o0 = kb.zeros((&acc_o, [u64::from(bm), u64::from(d)]), DType::F32)?;
    let m0 = kb.full((&rows_s, [u64::from(bm)]), DType::F32, f64::NEG_INFINITY)?;
    let l0 = kb.zeros((&rows_s, [u64::from(bm)]), DType::F32)?;
    let s_shape = (&acc_s, [u64::from(bm), u64::from(bn)]);
    let rows_o = Slice::new(1, acc_o.clone());
    let out = kb.for_range(j0, j1, 1, &[o0, m0, l0, pk0, pv0], |kb, j, carried| {
        let (o, m_i, l_i) = (carried[0], carried[1], carried[2]);
        // Block j is in buffer (j - j0) % stages; once every warp is past the previous
        // block, its buffer takes block j + stages - 1.
        let rel = kb.sub(j, j0)?;
        let here = kb.rem(rel, stages)?;
        kb.async_wait_group(c.stages - 2)?;
        kb.barrier()?;
        let ahead = kb.add(j, stages - 1)?;
        let buf = kb.add(rel, stages - 1)?;
        let buf = kb.rem(buf, stages)?;
        issue(kb, ahead, [carried[3], carried[4]], buf)?;
        let ahead1 = kb.add(ahead, 1)?;
        let [pk, pv] = lookup(kb, ahead1)?;
        let kd = kb.index_shared(k_ring, here)?;
        let kt = operand(kb, kd, &k_dot, [kvt, dt])?;
        let s0 = kb.zeros(s_shape, DType::F32)?;
        let s = kb.dot(q_tile, kt, s0)?;
        let [p16, alpha, m_new, l_new] =
            softmax.step(kb, s, j, m_i, l_i, Masking::Always, may_be_empty)?;
        let p = kb.convert_layout(p16, &p_dot)?;
        let alpha = kb.convert_layout(alpha, &rows_o)?;
        let alpha = kb.expand_dims(alpha, 1)?;
        let o = kb.mul(o, alpha)?;
        let vd = kb.index_shared(v_ring, here)?;
        let vt = operand(kb, vd, &v_dot, [kvt, dt])?;
        Ok(vec![kb.dot(p, vt, o)?, m_new, l_new, pk, pv])
    })?;
    kb.async_wait_group(0)?;
    let (o, m_i, l_i) = (out[0], out[1], out[2]);

    // This split's O / l (0 for a row that saw no key) and log-sum-exp (-inf there).
    let l_o = kb.convert_layout(l_i, &rows_o)?;
    let empty = kb.eq(l_o, 0.0f32)?;
    let l_o = kb.where_(empty, 1.0f32, l_o)?;
    let l_o = kb.expand_dims(l_o, 1)?;
    let mut o = kb.div(o, l_o)?;
    if let Some((_, vs)) = scales {
        let p = kb.add(vs, kvh)?;
        let s = kb.load(p, None, None)?;
        o = kb.mul(o, s)?;
    }
    let log_l = kb.math(crate::codegen::MathOp::Log2, l_i)?;
    let lse2 = kb.add(m_i, log_l)?;
    let lse = kb.mul(lse2, std::f64::consts::LN_2)?;
    let (o_rows, o_cols) = tile_coords(&mut kb, &acc_o, [u64::from(bm), u64::from(d)], None, None)?;
    let r = kb.arange(0, bm as i32, rows_s)?;
    // O (Q's type; or, `partial`, f32) and the lse at the rows of `[.., q_len, heads_q]`
    // arrays whose first token's row is `base`.
    let store = |kb: &mut KernelBuilder<'_>, [o_out, lse_out]: [Value; 2], base, partial| {
        let (o_row, o_ok) = rows.index(kb, o_rows, base)?;
        let o_off = kb.mul(o_row, d as i32)?;
        let o_off = kb.add(o_off, o_cols)?;
        let o_ptrs = kb.add(o_out, o_off)?;
        let o = if partial { o } else { kb.cast(o, dt)? };
        kb.store(o_ptrs, o, Some(o_ok))?;
        let (lse_row, lse_ok) = rows.index(kb, r, base)?;
        let lse_ptrs = kb.add(lse_out, lse_row)?;
        kb.store(lse_ptrs, lse, Some(lse_ok))
    };
    let part_base = kb.mul(split, batch)?;
    let part_base = kb.add(part_base, b)?;
    let part_base = kb.mul(part_base, c.q_len as i32)?;
    let Some([o_out, lse_out, counters]) = merged else {
        store(&mut kb, [o_part, lse_part], part_base, true)?;
        return kb.finish();
    };
    // One split: this CTA's O is the whole row's.
    let one = kb.eq(splits, 1)?;
    kb.if_(
        one,
        |kb| {
            store(kb, [o_out, lse_out], q_base, false)?;
            Ok(vec![])
        },
        |kb| {
            store(kb, [o_part, lse_part], part_base, true)?;
            // Every thread's partial stored, then one ticket: the atomic releases them (a fence
            // before it, device-wide) and acquires the other CTAs' (a fence after); the barrier
            // that hands its old value to every thread orders this CTA's reads after it.
            kb.barrier()?;
            let pair = kb.mul(b, heads_kv)?;
            let pair = kb.add(pair, kvh)?;
            let ticket = kb.add(counters, pair)?;
            let drawn = kb.atomic_rmw(AtomicOp::Add, ticket, 1, None)?;
            let last = kb.sub(splits, 1)?;
            let last = kb.eq(drawn, last)?;
            kb.if_then(last, |kb| {
                kb.store(ticket, 0, None)?;
                let n_rows = kb.mul(batch, c.q_len as i32)?;
                let n_rows = kb.mul(n_rows, rows.heads_q)?;
                merge_rows(
                    kb,
                    c,
                    &rows,
                    [o_part, lse_part, o_out, lse_out],
                    [n_rows, splits],
                    q_base,
                )
            })?;
            Ok(vec![])
        },
    )?;
    kb.finish()
}

/// Partials a thread of the merging CTA loads at once (16 splits of 4 rows of D 128 at 4 warps):
/// twice a merge kernel's, as this one CTA reads every split of its rows alone (each memory
/// round trip saved shortens the launch) and the registers are there (the ring's shared memory
/// already bounds the CTAs an SM holds; no spills at 64).
const MERGE_ELEMS_PER_CTA_THREAD: u32 = 64;

/// The last CTA of a (sequence, KV head): merges every split of its `q_len · group` rows into
/// O (Q's type) and the lse, a block of rows at a time ([`merge_tile`]).
fn merge_rows(
    kb: &mut KernelBuilder<'_>,
    c: DecodeConfig,
    rows: &QueryRows,
    [o_part, lse_part, o, lse]: [Value; 4],
    [n_rows, splits]: [Value; 2],
    q_base: Value,
) -> Result<()> {
    let real = c.q_len * c.group;
    let (split_block, cols) = merge_tile(
        c.num_warps * 32,
        MERGE_ELEMS_PER_CTA_THREAD,
        c.head_dim,
        real,
        32,
    );
    let merge = SplitMerge::new(
        [o_part, lse_part],
        [n_rows, splits],
        c.head_dim,
        [split_block, cols],
        c.num_warps,
    );
    let per = (cols / c.head_dim) as i32;
    let blocks = (real as i32 + per - 1) / per;
    kb.for_range(0, blocks, 1, &[], |kb, blk, _| {
        let first = kb.mul(blk, per)?;
        let block_rows = |kb: &mut KernelBuilder<'_>, r| {
            let r = kb.add(r, first)?;
            rows.index(kb, r, q_base)
        };
        merge.merge_into(kb, block_rows, [o, lse], c.dtype)?;
        Ok(vec![])
    })?;
    Ok(())
}

/// A block of K or V (of type `kvt`) from shared memory as an `mma` operand of type `dt` in
/// `layout`: `ldmatrix` for 16-bit KV; fp8 is read as bytes and widened (exactly: every e4m3
/// value is a bf16 and an f16).
fn operand(
    kb: &mut KernelBuilder<'_>,
    buf: Value,
    layout: &DotOperand,
    [kvt, dt]: [DType; 2],
) -> Result<Value> {
    if kvt == dt {
        return kb.ldmatrix(buf, layout);
    }
    let x = kb.load_shared(buf, layout)?;
    kb.cast(x, dt)
}

/// The query rows of a CTA: row `r = t · group + g` is token `t` of query head
/// `kv_head · group + g`.
struct QueryRows {
    c: DecodeConfig,
    kvh: Value,
    heads_q: Value,
}

impl QueryRows {
    /// For row indices `r` (any layout), the row of `[.., q_len, heads_q]` arrays holding them,
    /// the sequence's first token being row `seq_base` of the `[.., q_len]` rows, and whether `r`
    /// is a real row (not padding).
    fn index(
        &self,
        kb: &mut KernelBuilder<'_>,
        r: Value,
        seq_base: Value,
    ) -> Result<(Value, Value)> {
        let group = self.c.group as i32;
        let t = kb.div(r, group)?;
        let g = kb.rem(r, group)?;
        let tok = kb.add(t, seq_base)?;
        let row = kb.mul(tok, self.heads_q)?;
        let head0 = kb.mul(self.kvh, group)?;
        let row = kb.add(row, head0)?;
        let row = kb.add(row, g)?;
        let ok = kb.lt(r, (self.c.q_len * self.c.group) as i32)?;
        Ok((row, ok))
    }
}

/// Where a sequence's keys live: the block table and the cache's strides.
struct Pages {
    c: DecodeConfig,
    table: Value,
    max_pages: Value,
    b: Value,
    kvh: Value,
    heads_kv: Value,
    k_end: Value,
}

/// The copy of one block of K or V: the cache, the keys `0..block_n` in the slice of the copy
/// tile's layout that keeps `key_dim`, and the D index of every element of the tile.
struct CopyPlan {
    cache: Value,
    keys: Value,
    d_idx: Value,
    key_dim: usize,
}

impl Pages {
    /// The fixed part of copying a block into a buffer laid out by `layout` (`[D, block_n]` with
    /// keys along dim 1, or `[block_n, D]` with keys along dim 0).
    fn copy_plan(
        &self,
        kb: &mut KernelBuilder<'_>,
        layout: &Encoding,
        cache: Value,
        key_dim: usize,
    ) -> Result<CopyPlan> {
        let (bn, d) = (u64::from(self.c.block_n), u64::from(self.c.head_dim));
        let shape = if key_dim == 0 { [bn, d] } else { [d, bn] };
        let (r, cl) = tile_coords(kb, layout, shape, None, None)?;
        let d_idx = if key_dim == 0 { cl } else { r };
        // Keys as a 1-D tile in the slice that keeps `key_dim`: one page lookup per key a thread
        // holds, not one per element.
        let key_layout = Slice::new(1 - key_dim as u32, layout.clone());
        let keys = kb.arange(0, bn as i32, key_layout)?;
        Ok(CopyPlan {
            cache,
            keys,
            d_idx,
            key_dim,
        })
    }

    /// The cache page of each key of block `j` (0 for keys at or past the split's end, whose
    /// table entries are not read), in the plan's key layout.
    fn lookup(&self, kb: &mut KernelBuilder<'_>, p: &CopyPlan, j: Value) -> Result<Value> {
        let first = kb.mul(j, self.c.block_n as i32)?;
        let key = kb.add(p.keys, first)?;
        let live = kb.lt(key, self.k_end)?;
        let slot = kb.div(key, self.c.page_size as i32)?;
        let row = kb.mul(self.b, self.max_pages)?;
        let at = kb.add(slot, row)?;
        let at = kb.add(self.table, at)?;
        kb.load(at, Some(live), None)
    }

    /// Starts copying key block `j`, whose keys' pages are `page` ([`lookup`](Self::lookup)),
    /// into `buf` (keys at or past the split's end: zeros).
    fn copy(
        &self,
        kb: &mut KernelBuilder<'_>,
        p: &CopyPlan,
        j: Value,
        page: Value,
        buf: Value,
    ) -> Result<()> {
        let c = self.c;
        let first = kb.mul(j, c.block_n as i32)?;
        let key = kb.add(p.keys, first)?;
        let live = kb.lt(key, self.k_end)?;
        let within = kb.rem(key, c.page_size as i32)?;
        // Element offset of (page, within, kv_head, 0): 64-bit, a cache may pass 2³¹ elements.
        let d = c.head_dim as i32;
        let row_stride = kb.mul(self.heads_kv, d)?;
        let page_stride = kb.mul(row_stride, c.page_size as i32)?;
        let page = kb.cast(page, DType::I64)?;
        let page_stride = kb.cast(page_stride, DType::I64)?;
        let off = kb.mul(page, page_stride)?;
        let in_page = kb.mul(within, row_stride)?;
        let head = kb.mul(self.kvh, d)?;
        let in_page = kb.add(in_page, head)?;
        let in_page = kb.cast(in_page, DType::I64)?;
        let off = kb.add(off, in_page)?;
        let off = kb.expand_dims(off, 1 - p.key_dim)?;
        let live = kb.expand_dims(live, 1 - p.key_dim)?;
        let off = kb.add(off, p.d_idx)?;
        let ptrs = kb.add(p.cache, off)?;
        let shape = kb.shape(p.d_idx)?;
        let layout = kb.layout(p.d_idx)?.expect("a copy tile has a layout");
        let live = kb.broadcast_to(live, (&layout, [shape[0], shape[1]]))?;
        kb.async_copy_global_to_shared(buf, ptrs, Some(live))
    }
}

/// A paged KV cache on the host, as [`decode_reference`] reads it (values as f32, fp8 ones
/// already multiplied by their scales).
#[derive(Debug, Clone, Copy)]
pub struct PagedKv<'a> {
    /// K `[pages, page_size, heads_kv, D]`.
    pub k: &'a [f32],
    /// V, as K.
    pub v: &'a [f32],
    /// `[batch, max_pages]`: the cache page of each sequence's page slot.
    pub block_table: &'a [i32],
    /// `[batch]`: keys of each sequence.
    pub seq_lens: &'a [i32],
    /// Page slots per sequence in the block table.
    pub max_pages: usize,
    /// KV heads.
    pub heads_kv: usize,
}

/// Paged decode attention on the host in f64, as the kernel and its combine compute it: `q`
/// `[batch, q_len, heads_kv · group, D]`; returns O (same shape; 0 for a row that sees no key)
/// and the log-sum-exp (natural log, -inf there) `[batch, q_len, heads_q]`. `None` when an input
/// is shorter than its shape says, or a length or a block-table entry points outside the cache.
pub fn decode_reference(
    c: &DecodeConfig,
    q: &[f32],
    kv: &PagedKv<'_>,
    scale: f64,
) -> Option<(Vec<f32>, Vec<f32>)> {
    let (d, ps, ql, group) = (
        c.head_dim as usize,
        c.page_size as usize,
        c.q_len as usize,
        c.group as usize,
    );
    let hkv = kv.heads_kv;
    let hq = hkv * group;
    let batch = kv.seq_lens.len();
    if q.len() < batch * ql * hq * d
        || kv.block_table.len() < batch * kv.max_pages
        || kv.v.len() != kv.k.len()
    {
        return None;
    }
    let mut o = vec![0f32; batch * ql * hq * d];
    let mut lse = vec![f32::NEG_INFINITY; batch * ql * hq];
    let mut s = Vec::new();
    for b in 0..batch {
        let len = usize::try_from(kv.seq_lens[b]).unwrap_or(0);
        if len > kv.max_pages * ps {
            return None;
        }
        // The cache element of key `j`, head `h`, column 0.
        let at = |j: usize, h: usize| -> Option<usize> {
            let page = usize::try_from(kv.block_table[b * kv.max_pages + j / ps]).ok()?;
            let i = ((page * ps + j % ps) * hkv + h) * d;
            (i + d <= kv.k.len()).then_some(i)
        };
        for t in 0..ql {
            // Causal: token t sits at len - q_len + t.
            let keys = if c.causal {
                (len + t + 1).saturating_sub(ql).min(len)
            } else {
                len
            };
            for hh in 0..hq {
                let h = hh / group;
                let row = (b * ql + t) * hq + hh;
                let qr = &q[row * d..row * d + d];
                s.clear();
                for j in 0..keys {
                    let i = at(j, h)?;
                    let dot: f64 = qr
                        .iter()
                        .zip(&kv.k[i..i + d])
                        .map(|(&a, &x)| f64::from(a) * f64::from(x))
                        .sum();
                    s.push(dot * scale);
                }
                if s.is_empty() {
                    continue;
                }
                let mx = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = s.iter().map(|x| (x - mx).exp()).sum();
                for col in 0..d {
                    let mut acc = 0f64;
                    for (j, sj) in s.iter().enumerate() {
                        acc += (sj - mx).exp() * f64::from(kv.v[at(j, h)? + col]);
                    }
                    o[row * d + col] = (acc / sum) as f32;
                }
                lse[row] = (mx + sum.ln()) as f32;
            }
        }
    }
    Some((o, lse))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One key: O is its value row and lse its scaled score; a second sequence of no keys gets
    /// O = 0 and lse = -inf; short inputs and pages outside the cache are refused.
    #[test]
    fn the_reference_on_one_key_and_bad_input() {
        let c = DecodeConfig {
            head_dim: 64,
            ..DecodeConfig::new(DType::BF16, 8, 1, 1)
        };
        let d = 64;
        let q: Vec<f32> = (0..2 * d).map(|i| (i % 5) as f32 / 4.0).collect();
        // Page 1 holds the key (page 0 is never referenced).
        let mut k = vec![9.0f32; 2 * 8 * d];
        let mut v = k.clone();
        for t in 0..d {
            k[8 * d + t] = 0.5;
            v[8 * d + t] = t as f32;
        }
        let kv = PagedKv {
            k: &k,
            v: &v,
            block_table: &[1, 0],
            seq_lens: &[1, 0],
            max_pages: 1,
            heads_kv: 1,
        };
        let (o, lse) = decode_reference(&c, &q, &kv, 0.5).unwrap();
        let want_lse: f32 = q[..d].iter().map(|x| x * 0.5).sum::<f32>() * 0.5;
        assert!((lse[0] - want_lse).abs() < 1e-5, "{} vs {want_lse}", lse[0]);
        assert!((0..d).all(|t| o[t] == t as f32));
        assert_eq!(lse[1], f32::NEG_INFINITY);
        assert!(o[d..].iter().all(|&x| x == 0.0));
        let too_long = PagedKv {
            seq_lens: &[9, 0],
            ..kv
        };
        assert!(decode_reference(&c, &q, &too_long, 0.5).is_none());
        let outside = PagedKv {
            block_table: &[5, 0],
            ..kv
        };
        assert!(decode_reference(&c, &q, &outside, 0.5).is_none());
        assert!(decode_reference(&c, &q[1..], &kv, 0.5).is_none());
    }
}
