//! Forward attention on Hopper, `O = softmax(Q Kᵀ · scale) V` per (batch, head), FlashAttention
//! style: each CTA keeps a `block_m × D` tile of Q in shared memory (TMA), streams K and V tiles
//! through a TMA ring, computes `S = Q Kᵀ` with wgmma (A and B from shared memory), the online
//! softmax in registers (row max and sum with `reduce` on the accumulator's layout, one FMA and
//! one `ex2.approx.ftz` per score with the scale folded in), and `O += P V` with wgmma taking P
//! from registers (the accumulator converted to 16 bits is already in the A-fragment order).
//! The epilogue writes `O / l` through shared memory (Q's buffer) with TMA stores, and the
//! log-sum-exp of each row (natural log) for a backward pass.
//!
//! Three schedules ([`AttentionSchedule`]): `Serial` and `Pipelined` run 8 warps, the first
//! thread issuing TMA copies and stages released through "empty" mbarriers, so the two
//! warpgroups drift apart freely; `PingPong` (`attention_ws.rs`) is FlashAttention-3's warp
//! specialisation, the fastest.
//!
//! Any sequence length: keys past the end are masked (the last block reads the next head's rows,
//! or TMA's zeros after the last head); a query block reaching past the end is stored from
//! registers for its rows inside the sequence only. Head dims 64, 128 and 256: at 256 the key
//! blocks are 64 rows (32 for `Pipelined`: [`AttentionConfig::with_head_dim`]), so the causal
//! diagonal cuts several of them and every block from [`QueryBlock::first_masked`] is masked.
//!
//! Q and O are `[batch · heads_q · seq, D]` row-major (one head after another), K and V
//! `[batch · heads_kv · seq, D]` with `heads_q = heads_kv · kv_group` (GQA; MQA is one KV head):
//! query head `h` reads KV head `h / kv_group`, the backward's and decode's convention. They are
//! read and written through tensor maps with boxes [`q_box`](AttentionConfig::q_box) (Q and O)
//! and [`kv_box`](AttentionConfig::kv_box) (K, V), 128-byte swizzle. Parameters:
//! `q_map, k_map, v_map, o_map, o: *T, lse: *f32, seq: i32, qk_scale: f32` (`o` is O again, for
//! the partial last block; `qk_scale` is the softmax scale times log2(e), positive); lse is
//! `[batch · heads_q · seq]`. Grid: [`grid`](AttentionConfig::grid), `(⌈seq / block_m⌉,
//! batch · heads_q)`: the query heads of one KV group are neighbours along the second axis, so
//! the CTAs reading the same K and V run together and share them through L2.
//!
//! **Packed query heads** ([`packed_heads`](AttentionConfig::packed_heads) `n > 1`): a CTA's
//! rows hold `block_m / n` positions of each of `n` query heads of one KV head (per Q box: head
//! after head), so a short query sequence still fills the tile and K and V are read once for
//! the `n` heads. Q and O are then seen as `[heads, seq, D]` (`[heads_q, total_q, D]` for
//! variable lengths) through three-dimensional tensor maps
//! ([`q_map_shape`](AttentionConfig::q_map_shape), box [`q_box`](AttentionConfig::q_box)
//! `[n, positions, 64]`), the causal mask takes each row's position, and the grid covers
//! `⌈seq / positions⌉` blocks of `batch · heads_q / n` packs.
//!
//! **Variable lengths** (`varlen`, FlashAttention's varlen API): `cu_seqlens_q` and
//! `cu_seqlens_k` (`*i32`, `[batch + 1]`, non-decreasing from 0) replace `seq`, so the
//! parameters are `q_map, k_map, v_map, o_map, o, lse, cu_seqlens_q, cu_seqlens_k, qk_scale`.
//! The tensors are packed head-major: Q and O `[heads_q · total_q, D]` (row
//! `h · total_q + cu_seqlens_q[b] + i` is token `i` of sequence `b`, query head `h`), K and V
//! `[heads_kv · total_k, D]`, lse `[heads_q · total_q]`, where `total = cu_seqlens[batch]`.
//! Causal masking is aligned bottom-right as FlashAttention's when the lengths differ: query `i`
//! of a sequence sees keys `j ≤ i + len_k - len_q`. A query row that sees no key (above the
//! shifted diagonal, or an empty key sequence) gets O = 0 and lse = +inf, as FlashAttention
//! writes them. Any length, 0 and 1 included: a K/V box that runs into the next sequence is
//! masked in the scores (keys `≥ len_k`), a query block that reaches past its sequence's end is
//! stored from registers for its own rows only. Grid:
//! [`varlen_grid`](AttentionConfig::varlen_grid), `(⌈max_seqlen_q / block_m⌉, heads_q, batch)`;
//! CTAs past a shorter sequence's end exit at once. Every schedule.

use crate::layout::encoding::{Encoding, NvidiaMma, NvmmaShared, Slice};

use super::super::{Context, DType, Kernel, KernelBuilder, Result, Target, Value};
use super::attention_config::{AttentionConfig, AttentionSchedule, SWIZZLE};
use super::parts::{AttentionParams, Masking, OnlineSoftmax, QueryBlock, StepOptions, TmaRing};

/// Builds the attention kernel for `target` (sm_90a). See the module docs.
pub fn attention_kernel(ctx: &Context, target: Target, c: AttentionConfig) -> Result<Kernel<'_>> {
    c.check()?;
    if c.schedule == AttentionSchedule::PingPong {
        return super::attention_ws::ping_pong_kernel(ctx, target, c);
    }
    let pipelined = c.schedule == AttentionSchedule::Pipelined;
    let name = match (c.varlen, c.causal) {
        (false, false) => "attn_fwd",
        (false, true) => "attn_fwd_causal",
        (true, false) => "attn_fwd_varlen",
        (true, true) => "attn_fwd_varlen_causal",
    };
    let mut kb = KernelBuilder::new(ctx, target, name, c.num_warps)?;
    let dt = c.dtype;
    let params = AttentionParams::declare(&mut kb, &c)?;
    let AttentionParams {
        q_map,
        k_map,
        v_map,
        qk_scale,
        ..
    } = params;
    let (bm, bn, d) = (c.block_m as i32, c.block_n as i32, c.head_dim as u64);
    QueryBlock::leave_past_the_end(&mut kb, &c, params.lengths)?;
    let qblock = QueryBlock::of_params(&mut kb, &c, params.lengths)?;
    let QueryBlock {
        kv_head0,
        q_off,
        n_blocks,
        ..
    } = qblock;
    let zero = kb.i32(0)?;

    let swz = NvmmaShared::new(u32::from(SWIZZLE), dt.bits(), 2, false);
    let q_smem = kb.alloc_shared(dt, &[bm as u64, d], &swz)?;
    let ring = if pipelined { 3 } else { 2 };
    let k_ring = kb.alloc_shared_buffers(dt, ring, &[bn as u64, d], &swz)?;
    let v_ring = kb.alloc_shared_buffers(dt, ring, &[bn as u64, d], &swz)?;
    let stages: i32 = if pipelined { 3 } else { 2 };
    // K and V of a key block share a stage: one "full" barrier for both tiles' bytes, and the
    // stage is "empty" again once every thread has arrived after its last wgmma on it. Q's
    // barrier leads the full ones (one initialisation for all).
    let kv_bytes = 2 * c.block_n * c.head_dim * (dt.bits() / 8);
    let (bars, kv) =
        TmaRing::with_lead_barriers(&mut kb, 1, stages as u32, kv_bytes, Some(32 * c.num_warps))?;
    let q_bar = kb.mbarrier_at(bars, 0)?;
    let q_bytes = kb.tma_bytes(q_smem)?;
    kb.mbarrier_expect(q_bar, q_bytes, None)?;
    let q_at = qblock.box_coords(&mut kb, zero)?;
    let q_box = qblock.box_view(&mut kb, q_smem)?;
    kb.tma_load(q_map, &q_at, q_box, q_bar, None)?;

    // Loads key block `j` into its stage `st` when `j < n_blocks`, once the stage's previous
    // block (j - stages) is released.
    let load_kv = |kb: &mut KernelBuilder<'_>, j, st| -> Result<()> {
        let pred = kb.lt(j, n_blocks)?;
        let (_, round) = kv.stage_of(kb, j)?;
        kv.wait_free(kb, st, round)?;
        let off = kb.mul(j, bn)?;
        let row = kb.add(kv_head0, off)?;
        let at: &[Value] = &[row, zero];
        kv.load(
            kb,
            st,
            &[(k_map, at, k_ring), (v_map, at, v_ring)],
            Some(pred),
        )
    };
    load_kv(&mut kb, zero, zero)?;

    let acc_s: Encoding = NvidiaMma::hopper(&[c.num_warps, 1], c.block_n, 16).into();
    let acc_o: Encoding = NvidiaMma::hopper(&[c.num_warps, 1], c.head_dim, 16).into();
    let rows_l = Slice::new(1, acc_s.clone());
    let s_shape = [bm as u64, bn as u64];
    let o0 = kb.zeros((&acc_o, [bm as u64, d]), DType::F32)?;
    let m0 = kb.full((&rows_l, [bm as u64]), DType::F32, f64::NEG_INFINITY)?;
    let l0 = kb.zeros((&rows_l, [bm as u64]), DType::F32)?;
    // Row and column indices of the S tile: keys past the sequence (the last block reads the
    // next head's or sequence's rows, or TMA's zeros) and, causal, keys after the query are
    // masked.
    let rows = qblock.causal_rows(&mut kb, &c, &rows_l, bm, q_off)?;
    let cols = kb.arange(0, bn, Slice::new(0, acc_s.clone()))?;
    let cols = kb.expand_dims(cols, 0)?;
    kb.mbarrier_wait(q_bar, 0)?;

    let scores_in = OnlineSoftmax {
        qk_scale,
        seq: qblock.len_k,
        cols,
        rows,
        block_n: bn,
        dtype: dt,
    };
    // Variable lengths: a row may see no key at all (a causal row above the diagonal, an empty
    // key sequence).
    let options = StepOptions {
        rows_may_be_empty: c.varlen,
        ..StepOptions::default()
    };
    let softmax = |kb: &mut KernelBuilder<'_>, s, j, m_i, l_i, mask: Masking| {
        scores_in.step(kb, s, j, m_i, l_i, mask, options)
    };
    // S = Q Kᵀ of the block in stage `st` (issued, not waited for).
    let scores = |kb: &mut KernelBuilder<'_>, st| -> Result<Value> {
        let k_t = kb.index_shared(k_ring, st)?;
        let k_t = kb.permute_shared(k_t, &[1, 0])?;
        let s0 = kb.zeros((&acc_s, s_shape), DType::F32)?;
        kb.wgmma(q_smem, k_t, s0)
    };
    let wait_full = |kb: &mut KernelBuilder<'_>, st, phase| -> Result<()> {
        kv.wait(kb, st, phase, &[]).map(|_| ())
    };
    let release = |kb: &mut KernelBuilder<'_>, st| kv.release(kb, st);
    // O · alpha + P V (issued).
    let pv = |kb: &mut KernelBuilder<'_>, o, alpha, p16, st| -> Result<Value> {
        let a_col = kb.expand_dims(alpha, 1)?;
        let o = kb.mul(o, a_col)?;
        let v_t = kb.index_shared(v_ring, st)?;
        kb.wgmma(p16, v_t, o)
    };

    let (o, m_i, l_i) = if !pipelined {
        // One key block: prefetch the next into the other stage (once every warp released it),
        // S, softmax, P V; the last block is masked (variable lengths, and causal key blocks
        // shorter than the query block: every block from the first the diagonal or the keys'
        // end cuts).
        let block = |kb: &mut KernelBuilder<'_>,
                     j,
                     carried: &[Value],
                     mask: Masking|
         -> Result<Vec<Value>> {
            let (o, m_i, l_i, st, phase) =
                (carried[0], carried[1], carried[2], carried[3], carried[4]);
            let next = kb.add(j, 1)?;
            let other = kv.next_stage(kb, st)?;
            load_kv(kb, next, other)?;
            wait_full(kb, st, phase)?;
            let s = scores(kb, st)?;
            let s = kb.wgmma_wait(0, &[s])?[0];
            let [p16, alpha, m_new, l_new] = softmax(kb, s, j, m_i, l_i, mask)?;
            let o = pv(kb, o, alpha, p16, st)?;
            let o = kb.wgmma_wait(0, &[o])?[0];
            release(kb, st)?;
            let phase_next = kv.next_phase(kb, st, phase)?;
            Ok(vec![o, m_new, l_new, other, phase_next])
        };
        let last = kb.sub(n_blocks, 1)?;
        let out = kb.for_range(
            0,
            n_blocks,
            1,
            &[o0, m0, l0, zero, zero],
            |kb, j, carried| {
                let masked = match qblock.first_masked {
                    Some(first) => kb.ge(j, first)?,
                    None => kb.eq(j, last)?,
                };
                block(kb, j, carried, Masking::When(masked))
            },
        )?;
        (out[0], out[1], out[2])
    } else {
        // Block j's S is complete when iteration j starts and PV of block j - 1 is in flight. The
        // iteration issues S of block j + 1, runs j's softmax while it computes, waits for PV_(j-1)
        // (groups complete in order: waiting to 1 pending leaves S_(j+1)), releases that block's
        // stage and refills it with block j + 2, issues PV_j, and waits for S_(j+1) (1 pending:
        // PV_j runs on across the loop's back edge). No register of a wgmma still in flight is
        // read or copied, which would make ptxas serialise the wgmmas.
        let one = kb.i32(1)?;
        load_kv(&mut kb, one, one)?;
        wait_full(&mut kb, zero, zero)?;
        let s_first = scores(&mut kb, zero)?;
        let s_first = kb.wgmma_wait(0, &[s_first])?[0];
        let last = kb.sub(n_blocks, 1)?;
        let out = kb.for_range(
            0,
            last,
            1,
            &[o0, m0, l0, s_first, zero, zero],
            |kb, j, carried| {
                let (o, m_i, l_i, s_cur, st, ph1) = (
                    carried[0], carried[1], carried[2], carried[3], carried[4], carried[5],
                );
                // ph1 is the phase of the next stage, st1.
                let st1 = kv.next_stage(kb, st)?;
                let stm1 = kv.previous(kb, st)?;
                wait_full(kb, st1, ph1)?;
                let s_next = scores(kb, st1)?;
                // Variable lengths, and causal key blocks shorter than the query block: masked
                // from the first block the diagonal or the keys' end cuts (the last block, peeled
                // off below, always is).
                let mask = match qblock.first_masked {
                    Some(first) => Masking::When(kb.ge(j, first)?),
                    None => Masking::None,
                };
                let [p16, alpha, m_new, l_new] = softmax(kb, s_cur, j, m_i, l_i, mask)?;
                let o = kb.wgmma_wait(1, &[o])?[0];
                // PV of block j - 1 is done: release its stage (none before block 0) and refill it
                // with block j + 2.
                let started = kb.ge(j, 1)?;
                kb.if_then(started, |kb| release(kb, stm1))?;
                let ahead = kb.add(j, 2)?;
                load_kv(kb, ahead, stm1)?;
                let o = pv(kb, o, alpha, p16, st)?;
                let s_next = kb.wgmma_wait(1, &[s_next])?[0];
                let ph_next = kv.next_phase(kb, st1, ph1)?;
                Ok(vec![o, m_new, l_new, s_next, st1, ph_next])
            },
        )?;
        // The last block: its S is complete, the previous PV in flight.
        let (o, m_i, l_i, s_cur, st) = (out[0], out[1], out[2], out[3], out[4]);
        let [p16, alpha, m_new, l_new] = softmax(&mut kb, s_cur, last, m_i, l_i, Masking::Always)?;
        let o = kb.wgmma_wait(0, &[o])?[0];
        let o = pv(&mut kb, o, alpha, p16, st)?;
        let o = kb.wgmma_wait(0, &[o])?[0];
        (o, m_new, l_new)
    };

    let at = qblock.output_rows(&mut kb, zero)?;
    params.store_output(&mut kb, &c, o, m_i, l_i, &acc_o, q_smem, at)?;
    kb.finish()
}

/// Attention on the host in f64: `q`, `k`, `v` `[heads, seq, d]` row-major (values as f32),
/// returns O `[heads, seq, d]` and the log-sum-exp `[heads, seq]` of `q·kᵀ·scale`.
#[allow(clippy::too_many_arguments)] // the math's own inputs, named as the tests state them
pub fn attention_reference(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    heads: usize,
    seq: usize,
    d: usize,
    scale: f64,
    causal: bool,
) -> (Vec<f32>, Vec<f32>) {
    let mut o = vec![0f32; heads * seq * d];
    let mut lse = vec![0f32; heads * seq];
    let mut s = vec![0f64; seq];
    for h in 0..heads {
        let base = h * seq * d;
        for i in 0..seq {
            let keys = if causal { i + 1 } else { seq };
            let mut mx = f64::NEG_INFINITY;
            for (j, sj) in s.iter_mut().enumerate().take(keys) {
                let mut acc = 0f64;
                for t in 0..d {
                    acc += f64::from(q[base + i * d + t]) * f64::from(k[base + j * d + t]);
                }
                *sj = acc * scale;
                mx = mx.max(*sj);
            }
            let mut sum = 0f64;
            for sj in s.iter_mut().take(keys) {
                *sj = (*sj - mx).exp();
                sum += *sj;
            }
            for t in 0..d {
                let mut acc = 0f64;
                for (j, sj) in s.iter().enumerate().take(keys) {
                    acc += sj * f64::from(v[base + j * d + t]);
                }
                o[base + i * d + t] = (acc / sum) as f32;
            }
            lse[h * seq + i] = (mx + sum.ln()) as f32;
        }
    }
    (o, lse)
}
