//! The ping-pong schedule of [`attention_kernel`](super::attention_kernel) (FlashAttention-3's):
//! 12 warps in [warp roles](crate::codegen::KernelBuilder::warp_roles).
//!
//! - The producer warpgroup (24 registers) issues every TMA copy: Q once (each consumer's 64
//!   rows as a box of its own), then K and V of each key block into two-stage rings, each stage
//!   with a "full" mbarrier (bytes landed) and an "empty" one (all 256 consumer threads done).
//!   K and V have separate rings: K of block j is free once `S_j` is complete, V only once
//!   `P_j·V_j` is, a block later.
//! - Two consumer warpgroups (one replicated role, 240 registers) each own 64 query rows. In
//!   iteration j a consumer issues `S_j = Q Kⱼᵀ`, rescales O, issues `O += P_(j-1) V_(j-1)`,
//!   waits for `S_j` only, runs the softmax of block j, then waits for `P_(j-1)·V`. (ptxas 13
//!   moves that second wait up to the first, so the softmax overlaps the other warpgroup's
//!   GEMMs, not its own P·V.) Nothing is in flight across the loop's back edge (which would make
//!   ptxas serialise the wgmmas).
//! - Block 0 (S only) and the last block (masked) are peeled off the loop. One loop body for
//!   every block (block 0's missing P·V an empty commit group, the last block's mask a branch
//!   around the wait for S) compiles in two thirds of the time (177 M instructions instead of
//!   about 270 M) but ran 2–5% slower on the H200 (2026-11-25, three interleaved rounds each):
//!   ptxas schedules the softmax worse across the branches.
//! - Turns: the two issues of an iteration happen between `bar.sync turn[r]` and
//!   `bar.arrive turn[1 - r]` (named barriers of 256 threads), so the warpgroups alternate on
//!   the tensor cores and one's softmax runs while the other's GEMMs do. Consumer 1 arrives at
//!   `turn[0]` once at the start, so consumer 0 goes first; consumer 0 syncs on `turn[0]` once
//!   at the end, so the barrier is left balanced.

use crate::layout::encoding::{Encoding, NvidiaMma, NvmmaShared, Slice};

use super::super::{Context, DType, Kernel, KernelBuilder, Result, Target, Value, WarpRole};
use super::attention_config::AttentionConfig;
use super::parts::{AttentionParams, Masking, OnlineSoftmax, QueryBlock, TmaRing};

/// Consumer warpgroups, each with 64 query rows.
const CONSUMERS: u32 = 2;
/// Query rows per consumer warpgroup.
const ROWS: i32 = 64;
/// Stages of the K and V rings.
const STAGES: i32 = 2;

/// Builds the ping-pong attention kernel (`c.schedule` is `PingPong`, checked by the caller).
pub(super) fn ping_pong_kernel(
    ctx: &Context,
    target: Target,
    c: AttentionConfig,
) -> Result<Kernel<'_>> {
    let name = match (c.varlen, c.causal) {
        (false, false) => "attn_fwd_ws",
        (false, true) => "attn_fwd_ws_causal",
        (true, false) => "attn_fwd_ws_varlen",
        (true, true) => "attn_fwd_ws_varlen_causal",
    };
    let mut kb = KernelBuilder::new(ctx, target, name, c.num_warps)?;
    let dt = c.dtype;
    let swizzle = c.swizzle();
    let params = AttentionParams::declare(&mut kb, &c)?;
    let AttentionParams {
        q_map,
        k_map,
        v_map,
        qk_scale,
        ..
    } = params;
    let (bn, d) = (c.block_n as i32, u64::from(c.head_dim));

    let roles = kb.warp_roles(&[
        WarpRole::new(4).max_regs(24),
        WarpRole::new(4).replicas(CONSUMERS).max_regs(240),
    ])?;
    // One length: the query block once, before the roles. Variable lengths: each role works it
    // out itself, so the values only consumers need are not live through the producer's 24
    // registers (ptxas sees the producer's path run on into the consumer's test, and spilled).
    QueryBlock::leave_past_the_end(&mut kb, &c, &params)?;
    let shared = if c.varlen {
        None
    } else {
        Some(QueryBlock::of_params(&mut kb, &c, &params)?)
    };
    let block_here = |kb: &mut KernelBuilder<'_>| -> Result<QueryBlock> {
        match shared {
            Some(q) => Ok(q),
            None => QueryBlock::of_params(kb, &c, &params),
        }
    };
    let zero = kb.i32(0)?;

    let swz = NvmmaShared::new(u32::from(swizzle), dt.bits(), 2, false);
    let q_smem = kb.alloc_shared_buffers(dt, u64::from(CONSUMERS), &[ROWS as u64, d], &swz)?;
    let k_ring = kb.alloc_shared_buffers(dt, STAGES as u64, &[bn as u64, d], &swz)?;
    let v_ring = kb.alloc_shared_buffers(dt, STAGES as u64, &[bn as u64, d], &swz)?;
    let consumer_threads = CONSUMERS * 4 * kb.threads_per_warp();
    let q_full = kb.alloc_mbarriers(1, 1)?;
    // Bytes of one K or V tile (and of Q's two halves together).
    let tile_bytes = c.block_n * c.head_dim * (dt.bits() / 8);
    // K and V rings of their own: a stage of K is free a block before V's.
    let k_bars = TmaRing::new(&mut kb, STAGES as u32, tile_bytes, Some(consumer_threads))?;
    let v_bars = TmaRing::new(&mut kb, STAGES as u32, tile_bytes, Some(consumer_threads))?;
    let turns = kb.alloc_named_barriers(CONSUMERS, CONSUMERS * 4)?;

    kb.in_role(roles[0], |kb| {
        let QueryBlock {
            kv_head0,
            q_row,
            n_blocks,
            ..
        } = block_here(kb)?;
        // Q: two boxes of 64 rows, one K tile's bytes (block_m = block_n).
        kb.mbarrier_expect(q_full, tile_bytes, None)?;
        for r in 0..CONSUMERS as i32 {
            let row = kb.add(q_row, r * ROWS)?;
            let dst = kb.index_shared(q_smem, r)?;
            kb.tma_load(q_map, &[row, zero], dst, q_full, None)?;
        }
        kb.for_range(0, n_blocks, 1, &[], |kb, j, _| {
            let (st, ph) = k_bars.stage_of(kb, j)?;
            let off = kb.mul(j, bn)?;
            let row = kb.add(kv_head0, off)?;
            for (map, ring, bars) in [(k_map, k_ring, k_bars), (v_map, v_ring, v_bars)] {
                bars.wait_free(kb, st, ph)?;
                bars.load(kb, st, &[(map, &[row, zero], ring)], None)?;
            }
            Ok(vec![])
        })?;
        Ok(())
    })?;

    kb.in_role(roles[1], |kb| {
        let qblock = block_here(kb)?;
        let QueryBlock {
            q_off,
            q_row,
            n_blocks,
            ..
        } = qblock;
        let r = kb.role_replica()?;
        let other = kb.xor(r, 1)?;
        let first = kb.eq(r, 1)?;
        kb.if_then(first, |kb| kb.named_barrier_arrive(turns, 0))?;
        let q_mine = kb.index_shared(q_smem, r)?;
        let rows_in_block = kb.mul(r, ROWS)?;
        let my_off = kb.add(q_off, rows_in_block)?;
        let my_row = kb.add(q_row, rows_in_block)?;

        let acc_s: Encoding = NvidiaMma::hopper(&[4, 1], c.block_n, 16).into();
        let acc_o: Encoding = NvidiaMma::hopper(&[4, 1], c.head_dim, 16).into();
        let rows_l = Slice::new(1, acc_s.clone());
        let s_shape = [ROWS as u64, bn as u64];
        let rows = qblock.causal_rows(kb, &c, &rows_l, ROWS, my_off)?;
        let cols = kb.arange(0, bn, Slice::new(0, acc_s.clone()))?;
        let cols = kb.expand_dims(cols, 0)?;
        let scores_in = OnlineSoftmax {
            qk_scale,
            seq: qblock.len_k,
            cols,
            rows,
            block_n: bn,
            dtype: dt,
        };
        let o0 = kb.zeros((&acc_o, [ROWS as u64, d]), DType::F32)?;
        let m0 = kb.full((&rows_l, [ROWS as u64]), DType::F32, f64::NEG_INFINITY)?;
        let l0 = kb.zeros((&rows_l, [ROWS as u64]), DType::F32)?;

        // Waits for K of block j and issues S_j = Q Kⱼᵀ.
        let issue_s = |kb: &mut KernelBuilder<'_>, j: Value| -> Result<(Value, Value)> {
            let (st, ph) = k_bars.stage_of(kb, j)?;
            let k_t = k_bars.wait(kb, st, ph, &[k_ring])?[0];
            let k_t = kb.permute_shared(k_t, &[1, 0])?;
            let s0 = kb.zeros((&acc_s, s_shape), DType::F32)?;
            Ok((kb.wgmma(q_mine, k_t, s0)?, st))
        };
        // Rescales O and issues O += P V of block j (waiting for its V).
        let issue_pv = |kb: &mut KernelBuilder<'_>, j: Value, o, alpha, p| -> Result<Value> {
            let (st, ph) = v_bars.stage_of(kb, j)?;
            let a_col = kb.expand_dims(alpha, 1)?;
            let o = kb.mul(o, a_col)?;
            let v = v_bars.wait(kb, st, ph, &[v_ring])?[0];
            kb.wgmma(p, v, o)
        };
        let release = |kb: &mut KernelBuilder<'_>, bars: TmaRing, j: Value| -> Result<()> {
            let (st, _) = bars.stage_of(kb, j)?;
            bars.release(kb, st)
        };
        // Variable lengths: a row may see no key at all (a causal row above the diagonal, an
        // empty key sequence); only in masked blocks, since the unmasked ones come first and a
        // row that sees none of block 0 (masked) leaves none unmasked.
        let softmax = |kb: &mut KernelBuilder<'_>, s, j, m, l, mask| {
            if c.varlen && !matches!(mask, Masking::None) {
                scores_in.step_rows_may_be_empty(kb, s, j, m, l, mask)
            } else {
                scores_in.step(kb, s, j, m, l, mask)
            }
        };
        kb.mbarrier_wait(q_full, 0)?;

        // Block 0: S only (no P·V before it), masked (the mask is exact, so a block that needs
        // none is unharmed).
        kb.named_barrier_sync(turns, r)?;
        let (s, _) = issue_s(kb, zero)?;
        kb.named_barrier_arrive(turns, other)?;
        let s = kb.wgmma_wait(0, &[s])?[0];
        release(kb, k_bars, zero)?;
        let [p, alpha, m, l] = softmax(kb, s, zero, m0, l0, Masking::Always)?;

        // Block j ≥ 1: S_j and P_(j-1)·V in one turn, the softmax of j while P·V runs.
        let step = |kb: &mut KernelBuilder<'_>, j: Value, carried: &[Value], mask: Masking| {
            let (o, p, alpha, m, l) = (carried[0], carried[1], carried[2], carried[3], carried[4]);
            let prev = kb.sub(j, 1)?;
            kb.named_barrier_sync(turns, r)?;
            let (s, _) = issue_s(kb, j)?;
            let o = issue_pv(kb, prev, o, alpha, p)?;
            kb.named_barrier_arrive(turns, other)?;
            let s = kb.wgmma_wait(1, &[s])?[0];
            release(kb, k_bars, j)?;
            let [p, alpha, m, l] = softmax(kb, s, j, m, l, mask)?;
            let o = kb.wgmma_wait(0, &[o])?[0];
            release(kb, v_bars, prev)?;
            Ok(vec![o, p, alpha, m, l])
        };
        let last = kb.sub(n_blocks, 1)?;
        let init = [o0, p, alpha, m, l];
        let out = match qblock.first_masked {
            None => kb.for_range(1, last, 1, &init, |kb, j, carried| {
                step(kb, j, carried, Masking::None)
            })?,
            // Variable lengths: the diagonal may cut two blocks before the last; the blocks
            // from the first it cuts run masked, in a loop of their own.
            Some(first) => {
                let mid = kb.min(first, last)?;
                let mid = kb.max(mid, 1)?;
                let clear = kb.for_range(1, mid, 1, &init, |kb, j, carried| {
                    step(kb, j, carried, Masking::None)
                })?;
                kb.for_range(mid, last, 1, &clear, |kb, j, carried| {
                    step(kb, j, carried, Masking::Always)
                })?
            }
        };
        // The last block (masked), when there are two or more.
        let more = kb.gt(n_blocks, 1)?;
        let out = kb.if_(
            more,
            |kb| step(kb, last, &out, Masking::Always),
            |_| Ok(out.clone()),
        )?;
        let (o, p, alpha, m, l) = (out[0], out[1], out[2], out[3], out[4]);
        // P·V of the last block.
        kb.named_barrier_sync(turns, r)?;
        let o = issue_pv(kb, last, o, alpha, p)?;
        kb.named_barrier_arrive(turns, other)?;
        let o = kb.wgmma_wait(0, &[o])?[0];
        release(kb, v_bars, last)?;
        // Consumer 1's last arrival at turn[0] is matched here.
        let is0 = kb.eq(r, 0)?;
        kb.if_then(is0, |kb| kb.named_barrier_sync(turns, 0))?;

        let at = qblock.output_rows(my_off, my_row);
        params.store_output(kb, &c, o, m, l, &acc_o, q_mine, at)
    })?;
    kb.finish()
}
