//! The ping-pong schedule of [`attention_kernel`](super::attention_kernel) (FlashAttention-3's):
//! 12 warps in [warp roles](crate::codegen::KernelBuilder::warp_roles). One schedule for both
//! element types: f16/bf16 and, through [`attention_fp8_kernel`](super::attention_fp8_kernel),
//! e4m3 ([`Operands`] says what differs).
//!
//! - The producer warpgroup (24 registers) issues every TMA copy: Q once (each consumer's 64
//!   rows as a box of its own), then K and V of each key block into two-stage rings, each stage
//!   with a "full" mbarrier (bytes landed) and an "empty" one (all 256 consumer threads done).
//!   K and V have separate rings: K of block j is free once `S_j` is complete, V only once
//!   `P_j·V_j` is, a block later.
//! - Two consumer warpgroups (one replicated role, 240 registers) each own 64 query rows
//!   (three of 160 registers at head dim 64, `block_m` 192: FlashAttention-3's tile there). In
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
//!   `bar.arrive turn[r + 1 mod consumers]` (named barriers of 256 threads), so the warpgroups
//!   take the tensor cores in turn and one's softmax runs while another's GEMMs do. The last
//!   consumer arrives at `turn[0]` once at the start, so consumer 0 goes first; consumer 0
//!   syncs on `turn[0]` once at the end, so the barrier is left balanced.
//! - fp8: P goes through shared memory (two buffers per consumer, block j in buffer j mod 2, so
//!   writing `P_j` never meets `P_(j-1)·V` still reading). Each thread writes its part of `P_j`
//!   and fences it for the async proxy right after the softmax; the consumer's next
//!   `bar.sync turn[r]`, which all of its 128 threads pass before issuing `P_j·V`, orders those
//!   writes before the wgmma, so no barrier of its own is needed. V as rows: TMA lands each
//!   block in a staging ring of its own ([`TmaRing`], no empty barriers: the producer's warps
//!   meet after each transpose), and the `Vᵀ` ring is one that the producer's 128 threads fill
//!   ([`TmaRing::written_by`]). fp8 takes one length and no KV groups (a typed error).

use crate::layout::encoding::{Encoding, NvidiaMma, NvmmaShared, Slice};

use super::super::{
    CodegenError, Context, DType, Kernel, KernelBuilder, Result, Target, Value, WarpRole,
};
use super::attention_config::AttentionConfig;
use super::attention_fp8_config::Fp8Params;
use super::parts::{
    AttentionParams, Masking, OnlineSoftmax, QueryBlock, SeqLengths, StepOptions, TmaRing,
    VTranspose, V_CHUNK,
};

/// Query rows per consumer warpgroup.
const ROWS: i32 = 64;
/// Stages of the K and V rings.
const STAGES: i32 = 2;
/// fp8: P is made 2^8 times larger inside the softmax's exponent before its rounding to e4m3
/// (so that its small values stay normal numbers); the row sums grow with it, so O divided by
/// them needs no other correction.
const P_LOG2_SCALE: i32 = 8;

/// The element type's side of the ping-pong schedule: its parameters, and what follows from
/// fp8 wgmma's rule that both operands be K-major with A in shared memory.
#[derive(Debug, Clone, Copy)]
pub(super) enum Operands {
    /// f16 or bf16 (`c.dtype`): V `[seq, D]` (N-major B, which 16-bit wgmma reads), P from
    /// registers (the accumulator cast to 16 bits is already in A-fragment order), O in
    /// `c.dtype` through TMA.
    Half(AttentionParams),
    /// e4m3 Q, K, V with scales: `P·V` reads `Vᵀ` `[D, keys]` (K-major B), given so by the
    /// caller or transposed from V's rows by the producer warpgroup ([`VTranspose`]); P scaled
    /// by 256 (inside the softmax's exponent), rounded to e4m3 and staged in shared memory, O
    /// in bf16 from registers.
    Fp8(Fp8Params),
}

impl Operands {
    fn maps(&self) -> [Value; 3] {
        match self {
            Operands::Half(p) => [p.q_map, p.k_map, p.v_map],
            Operands::Fp8(p) => [p.q_map, p.k_map, p.v_map],
        }
    }

    /// How the kernel learns its sequence lengths (fp8: one length), and the softmax scale.
    fn lengths_and_scale(&self) -> (SeqLengths, Value) {
        match self {
            Operands::Half(p) => (p.lengths, p.qk_scale),
            Operands::Fp8(p) => (SeqLengths::Fixed(p.seq), p.qk_scale),
        }
    }

    fn is_fp8(&self) -> bool {
        matches!(self, Operands::Fp8(_))
    }

    /// fp8 with V given as rows: the producer transposes it in shared memory.
    fn transposes_v(&self) -> bool {
        matches!(self, Operands::Fp8(p) if p.v_rows)
    }
}

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
    let params = AttentionParams::declare(&mut kb, &c)?;
    ping_pong_body(&mut kb, &c, Operands::Half(params))?;
    kb.finish()
}

/// The ping-pong schedule for the kernel `kb` whose parameters `ops` holds: `c` gives the
/// shapes and masking, `c.dtype` the element type of Q, K and V. fp8 takes one length and no
/// KV groups: a typed error for `c.varlen` or `c.kv_group > 1` with [`Operands::Fp8`].
pub(super) fn ping_pong_body(
    kb: &mut KernelBuilder<'_>,
    c: &AttentionConfig,
    ops: Operands,
) -> Result<()> {
    let c = *c;
    let dt = c.dtype;
    let fp8 = ops.is_fp8();
    if fp8 && (c.varlen || c.kv_group > 1) {
        return Err(CodegenError::arg(
            "attention ping-pong",
            format!(
                "fp8 with varlen {} and kv_group {}: fp8 takes one length and kv_group 1",
                c.varlen, c.kv_group
            ),
        ));
    }
    let transpose_v = ops.transposes_v();
    let [q_map, k_map, v_map] = ops.maps();
    let (lengths, qk_scale) = ops.lengths_and_scale();
    let (bn, d) = (c.block_n as i32, u64::from(c.head_dim));
    // Consumer warpgroups, each with 64 query rows: two, or three at head dim 64
    // (FlashAttention-3's 192-row tiles there).
    let consumers = c.block_m / ROWS as u32;

    // The producer that transposes V holds a chunk of it in registers (32 bytes a thread, and
    // their permuted copy): 56 registers, the consumers give up 16 each (all three within the
    // 64K of an SM).
    // Three consumers share what the producer leaves: 160 registers each.
    let (producer_regs, consumer_regs) = match (transpose_v, consumers) {
        (true, _) => (56, 224),
        (false, 3) => (24, 160),
        _ => (24, 240),
    };
    let roles = kb.warp_roles(&[
        WarpRole::new(4).max_regs(producer_regs),
        WarpRole::new(4).replicas(consumers).max_regs(consumer_regs),
    ])?;
    // One length: the query block once, before the roles. Variable lengths: each role works it
    // out itself, so the values only consumers need are not live through the producer's 24
    // registers (ptxas sees the producer's path run on into the consumer's test, and spilled).
    QueryBlock::leave_past_the_end(kb, &c, lengths)?;
    let shared = if c.varlen {
        None
    } else {
        Some(QueryBlock::of_params(kb, &c, lengths)?)
    };
    let block_here = |kb: &mut KernelBuilder<'_>| -> Result<QueryBlock> {
        match shared {
            Some(q) => Ok(q),
            None => QueryBlock::of_params(kb, &c, lengths),
        }
    };
    let zero = kb.i32(0)?;

    // Q and K: one D-wide row of bytes per swizzle row for fp8 (64 or 128 bytes), 64 16-bit
    // elements otherwise; Vᵀ (fp8): 128 keys of one byte.
    let swizzle = if fp8 {
        c.head_dim
    } else {
        u32::from(c.swizzle())
    };
    let swz = NvmmaShared::new(swizzle, dt.bits(), 2, false);
    let v_swz = NvmmaShared::new(128, dt.bits(), 2, false);
    let v_tile = if fp8 { [d, bn as u64] } else { [bn as u64, d] };
    let q_smem = kb.alloc_shared_buffers(dt, u64::from(consumers), &[ROWS as u64, d], &swz)?;
    let k_ring = kb.alloc_shared_buffers(dt, STAGES as u64, &[bn as u64, d], &swz)?;
    let v_ring =
        kb.alloc_shared_buffers(dt, STAGES as u64, &v_tile, if fp8 { &v_swz } else { &swz })?;
    let consumer_threads = consumers * 4 * kb.threads_per_warp();
    let q_full = kb.alloc_mbarriers(1, 1)?;
    // Bytes of one K or V tile, and of Q's boxes (one a consumer) together.
    let tile_bytes = c.block_n * c.head_dim * (dt.bits() / 8);
    let q_bytes = c.block_m * c.head_dim * (dt.bits() / 8);
    // K and V rings of their own: a stage of K is free a block before V's.
    let k_bars = TmaRing::new(kb, STAGES as u32, tile_bytes, Some(consumer_threads))?;
    // Vᵀ transposed in the kernel is full once every producer thread has written its part.
    let v_bars = if transpose_v {
        let writers = 4 * kb.threads_per_warp();
        TmaRing::written_by(kb, STAGES as u32, writers, Some(consumer_threads))?
    } else {
        TmaRing::new(kb, STAGES as u32, tile_bytes, Some(consumer_threads))?
    };
    // Turn r: consumer r syncs on it, the consumer before it arrives.
    let turns = kb.alloc_named_barriers(consumers, 8)?;
    // fp8: P of consumer r, block j in buffer 2r + j mod 2.
    let p_bufs = if fp8 {
        Some(kb.alloc_shared_buffers(
            dt,
            2 * u64::from(consumers),
            &[ROWS as u64, bn as u64],
            &v_swz,
        )?)
    } else {
        None
    };
    // V's rows as TMA lands them (fp8, transposed in the kernel): a ring of its own (no empty
    // barriers: the producer's four warps meet after each transpose, so a stage is free before
    // they load it again), one staging ring per 32-column box, and a barrier for those warps.
    let v_transposer = if transpose_v {
        let t = VTranspose::new(c.block_n, c.head_dim)?;
        let lay = VTranspose::staging_layout();
        let staging = (0..t.chunks())
            .map(|_| {
                kb.alloc_shared_buffers(dt, STAGES as u64, &[bn as u64, u64::from(V_CHUNK)], &lay)
            })
            .collect::<Result<Vec<_>>>()?;
        let landed = TmaRing::new(kb, STAGES as u32, tile_bytes, None)?;
        let producer_bar = kb.alloc_named_barriers(1, 4)?;
        Some((t, staging, landed, producer_bar))
    } else {
        None
    };

    kb.in_role(roles[0], |kb| {
        let qblock = block_here(kb)?;
        let QueryBlock {
            kv_head0, n_blocks, ..
        } = qblock;
        // Q: one box of 64 rows a consumer.
        kb.mbarrier_expect(q_full, q_bytes, None)?;
        for r in 0..consumers as i32 {
            let r = kb.i32(r)?;
            let at = qblock.box_coords(kb, r)?;
            let dst = kb.index_shared(q_smem, r)?;
            let dst = qblock.box_view(kb, dst)?;
            kb.tma_load(q_map, &at, dst, q_full, None)?;
        }
        // fp8's Vᵀ given: the head's D rows, from the block's first key.
        let vt_row = if fp8 && !transpose_v {
            let bh = kb.program_id(1)?;
            Some(kb.mul(bh, c.head_dim as i32)?)
        } else {
            None
        };
        // fp8's V as rows: block i's landed boxes transposed into its Vᵀ stage once the
        // consumers have released that stage; then the producer's warps meet, so the boxes can
        // be refilled.
        let transpose = |kb: &mut KernelBuilder<'_>, i: Value| -> Result<()> {
            let Some((t, staging, landed, producer_bar)) = &v_transposer else {
                return Ok(());
            };
            let (st, ph) = landed.stage_of(kb, i)?;
            landed.wait(kb, st, ph, &[])?;
            v_bars.wait_free_all(kb, st, ph)?;
            let vt = kb.index_shared(v_ring, st)?;
            t.run(kb, staging, st, vt)?;
            v_bars.written(kb, st)?;
            kb.named_barrier_sync(*producer_bar, 0)
        };
        kb.for_range(0, n_blocks, 1, &[], |kb, j, _| {
            let (st, ph) = k_bars.stage_of(kb, j)?;
            let off = kb.mul(j, bn)?;
            let row = kb.add(kv_head0, off)?;
            k_bars.wait_free(kb, st, ph)?;
            k_bars.load(kb, st, &[(k_map, &[row, zero], k_ring)], None)?;
            match (&v_transposer, vt_row) {
                // Into the staging boxes, free since block j - 2 was transposed.
                (Some((t, staging, landed, _)), _) => {
                    let cols = (0..t.chunks())
                        .map(|ch| kb.i32(ch * V_CHUNK as i32))
                        .collect::<Result<Vec<_>>>()?;
                    let at: Vec<[Value; 2]> = cols.iter().map(|&col| [row, col]).collect();
                    let boxes: Vec<(Value, &[Value], Value)> = at
                        .iter()
                        .zip(staging)
                        .map(|(at, &ring)| (v_map, &at[..], ring))
                        .collect();
                    landed.load(kb, st, &boxes, None)?;
                }
                (None, vt_row) => {
                    v_bars.wait_free(kb, st, ph)?;
                    let at = match vt_row {
                        Some(vt_row) => [vt_row, off],
                        None => [row, zero],
                    };
                    v_bars.load(kb, st, &[(v_map, &at, v_ring)], None)?;
                }
            }
            // The block before this one, its rows landing while this one's copies start.
            if transpose_v {
                let started = kb.gt(j, 0)?;
                kb.if_then(started, |kb| {
                    let prev = kb.sub(j, 1)?;
                    transpose(kb, prev)
                })?;
            }
            Ok(vec![])
        })?;
        if transpose_v {
            let last = kb.sub(n_blocks, 1)?;
            transpose(kb, last)?;
        }
        Ok(())
    })?;

    kb.in_role(roles[1], |kb| {
        let qblock = block_here(kb)?;
        let n_blocks = qblock.n_blocks;
        let r = kb.role_replica()?;
        // The consumer whose turn follows this one's.
        let other = if consumers == 2 {
            kb.xor(r, 1)?
        } else {
            let r1 = kb.add(r, 1)?;
            kb.rem(r1, consumers as i32)?
        };
        let first = kb.eq(r, consumers as i32 - 1)?;
        kb.if_then(first, |kb| kb.named_barrier_arrive(turns, 0))?;
        let q_mine = kb.index_shared(q_smem, r)?;
        let [my_off, _] = qblock.box_start(kb, r)?;

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
            // fp8's P leaves the softmax in f32, to be scaled before its rounding.
            dtype: if fp8 { DType::F32 } else { dt },
        };
        // The online softmax of a block (fp8: P and its sums 2^8 times larger). Variable
        // lengths: a row may see no key at all (a causal row above the diagonal, an empty key
        // sequence); only in masked blocks, since the unmasked ones come first and a row that
        // sees none of block 0 (masked) leaves none unmasked.
        let softmax = |kb: &mut KernelBuilder<'_>,
                       s: Value,
                       j: Value,
                       m: Value,
                       l: Value,
                       mask: Masking|
         -> Result<[Value; 4]> {
            let options = if fp8 {
                StepOptions {
                    log2_factor: P_LOG2_SCALE,
                    ..StepOptions::default()
                }
            } else {
                StepOptions {
                    rows_may_be_empty: c.varlen && !matches!(mask, Masking::None),
                    ..StepOptions::default()
                }
            };
            scores_in.step(kb, s, j, m, l, mask, options)
        };
        let o0 = kb.zeros((&acc_o, [ROWS as u64, d]), DType::F32)?;
        let m0 = kb.full((&rows_l, [ROWS as u64]), DType::F32, f64::NEG_INFINITY)?;
        let l0 = kb.zeros((&rows_l, [ROWS as u64]), DType::F32)?;
        // fp8: the buffer of this consumer's P of block j.
        let p_buf = |kb: &mut KernelBuilder<'_>, bufs: Value, j: Value| -> Result<Value> {
            let par = kb.and(j, 1)?;
            let two_r = kb.mul(r, 2)?;
            let i = kb.add(two_r, par)?;
            kb.index_shared(bufs, i)
        };
        // The A operand of P·V from the softmax's P of block j: P itself (16-bit), or P
        // rounded to e4m3 and written to its buffer (fp8: the loop carries no P).
        let stage_p = |kb: &mut KernelBuilder<'_>, p: Value, j: Value| -> Result<Option<Value>> {
            let Some(bufs) = p_bufs else {
                return Ok(Some(p));
            };
            let p8 = kb.cast(p, dt)?;
            let buf = p_buf(kb, bufs, j)?;
            kb.store_shared(buf, p8)?;
            kb.fence_async_shared()?;
            Ok(None)
        };

        // A 16-bit P missing from the carried values: a bug in this schedule, reported as such.
        let no_p = || CodegenError::arg("attention ping-pong", "16-bit P is carried in registers");
        // Waits for K of block j and issues S_j = Q Kⱼᵀ.
        let issue_s = |kb: &mut KernelBuilder<'_>, j: Value| -> Result<(Value, Value)> {
            let (st, ph) = k_bars.stage_of(kb, j)?;
            let k_t = k_bars.wait(kb, st, ph, &[k_ring])?[0];
            let k_t = kb.permute_shared(k_t, &[1, 0])?;
            let s0 = kb.zeros((&acc_s, s_shape), DType::F32)?;
            Ok((kb.wgmma(q_mine, k_t, s0)?, st))
        };
        // Rescales O and issues O += P V of block j (waiting for its V); `p` is P in registers
        // (16-bit) or None (fp8: in its buffer).
        let issue_pv =
            |kb: &mut KernelBuilder<'_>, j: Value, o, alpha, p: Option<Value>| -> Result<Value> {
                let (st, ph) = v_bars.stage_of(kb, j)?;
                let a_col = kb.expand_dims(alpha, 1)?;
                let o = kb.mul(o, a_col)?;
                let v = v_bars.wait(kb, st, ph, &[v_ring])?[0];
                match (p, p_bufs) {
                    (None, Some(bufs)) => {
                        let v = kb.permute_shared(v, &[1, 0])?;
                        let p = p_buf(kb, bufs, j)?;
                        kb.wgmma(p, v, o)
                    }
                    (p, _) => kb.wgmma(p.ok_or_else(no_p)?, v, o),
                }
            };
        let release = |kb: &mut KernelBuilder<'_>, bars: TmaRing, j: Value| -> Result<()> {
            let (st, _) = bars.stage_of(kb, j)?;
            bars.release(kb, st)
        };
        // The loop's carried values: O, P (16-bit only), alpha, m, l.
        let pack = |o, p: Option<Value>, alpha, m, l| -> Vec<Value> {
            [Some(o), p, Some(alpha), Some(m), Some(l)]
                .into_iter()
                .flatten()
                .collect()
        };
        let unpack = |v: &[Value]| -> Result<(Value, Option<Value>, Value, Value, Value)> {
            match v {
                [o, p, alpha, m, l] => Ok((*o, Some(*p), *alpha, *m, *l)),
                [o, alpha, m, l] => Ok((*o, None, *alpha, *m, *l)),
                _ => Err(no_p()),
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
        let p = stage_p(kb, p, zero)?;

        // Block j ≥ 1: S_j and P_(j-1)·V in one turn, the softmax of j while P·V runs.
        let step = |kb: &mut KernelBuilder<'_>, j: Value, carried: &[Value], mask: Masking| {
            let (o, p, alpha, m, l) = unpack(carried)?;
            let prev = kb.sub(j, 1)?;
            kb.named_barrier_sync(turns, r)?;
            let (s, _) = issue_s(kb, j)?;
            let o = issue_pv(kb, prev, o, alpha, p)?;
            kb.named_barrier_arrive(turns, other)?;
            let s = kb.wgmma_wait(1, &[s])?[0];
            release(kb, k_bars, j)?;
            let [p, alpha, m, l] = softmax(kb, s, j, m, l, mask)?;
            let p = stage_p(kb, p, j)?;
            let o = kb.wgmma_wait(0, &[o])?[0];
            release(kb, v_bars, prev)?;
            Ok(pack(o, p, alpha, m, l))
        };
        let last = kb.sub(n_blocks, 1)?;
        let init = pack(o0, p, alpha, m, l);
        let out = match qblock.first_masked {
            None => kb.for_range(1, last, 1, &init, |kb, j, carried| {
                step(kb, j, carried, Masking::None)
            })?,
            // Variable lengths, and causal key blocks shorter than the query block (D256): the
            // diagonal may cut blocks before the last; the blocks from the first it cuts run
            // masked, in a loop of their own.
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
        let (o, p, alpha, m, l) = unpack(&out)?;
        // P·V of the last block.
        kb.named_barrier_sync(turns, r)?;
        let o = issue_pv(kb, last, o, alpha, p)?;
        kb.named_barrier_arrive(turns, other)?;
        let o = kb.wgmma_wait(0, &[o])?[0];
        release(kb, v_bars, last)?;
        // The last consumer's last arrival at turn[0] is matched here.
        let is0 = kb.eq(r, 0)?;
        kb.if_then(is0, |kb| kb.named_barrier_sync(turns, 0))?;

        let at = qblock.output_rows(kb, r)?;
        match ops {
            Operands::Half(params) => params.store_output(kb, &c, o, m, l, &acc_o, q_mine, at),
            Operands::Fp8(params) => {
                // O · v_scale / l in bf16 from registers (Q's buffer is half of O's bf16
                // tile), and the lse of the unscaled P.
                let o = kb.mul(o, params.v_scale)?;
                let l_col = kb.expand_dims(l, 1)?;
                let o = kb.div(o, l_col)?;
                let o = kb.cast(o, DType::BF16)?;
                at.store_rows(kb, params.o, o, &acc_o)?;
                let l = kb.mul(l, (-f64::from(P_LOG2_SCALE)).exp2())?;
                at.store_lse(kb, params.lse, m, l)
            }
        }
    })?;
    Ok(())
}
