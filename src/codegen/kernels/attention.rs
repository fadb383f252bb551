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
//! registers for its rows inside the sequence only. Head dims 64 and 128.
//!
//! Q, K, V and O are `[batch · heads · seq, D]` row-major (one head after another), read and
//! written through tensor maps with boxes [`q_box`](AttentionConfig::q_box) (Q and O) and
//! [`kv_box`](AttentionConfig::kv_box) (K, V), 128-byte swizzle. Parameters:
//! `q_map, k_map, v_map, o_map, o: *T, lse: *f32, seq: i32, qk_scale: f32` (`o` is O again, for
//! the partial last block; `qk_scale` is the softmax scale times log2(e), positive). Grid:
//! `(⌈seq / block_m⌉, batch · heads)`.

use crate::layout::encoding::{Encoding, NvidiaMma, NvmmaShared, Slice};

use super::super::{CodegenError, Context, DType, Kernel, KernelBuilder, Result, Target};
use crate::codegen::{MathOp, MathPrecision, ReduceOp, Value};

/// Tile and thread configuration of [`attention_kernel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttentionConfig {
    /// f16 or bf16 inputs and output (f32 softmax and accumulation).
    pub dtype: DType,
    /// Head dimension (64 or 128).
    pub head_dim: u32,
    /// Query rows per CTA (16 × warps, so each warpgroup owns 64 rows).
    pub block_m: u32,
    /// Key/value rows per step.
    pub block_n: u32,
    /// Warps per CTA (8: two warpgroups).
    pub num_warps: u32,
    /// Only keys at or before the query (lower-triangular mask).
    pub causal: bool,
    /// How the warps overlap the tensor cores with the softmax.
    pub schedule: AttentionSchedule,
}

/// The schedule of [`attention_kernel`]'s main loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttentionSchedule {
    /// 8 warps, each warpgroup waits for every wgmma: S, softmax, P·V in turn; the two
    /// warpgroups drift apart freely, the first thread issues TMA copies.
    Serial,
    /// 8 warps, software-pipelined within each warpgroup: `S` of the next key block is issued
    /// before the softmax of this one; three K/V stages. On the H200 it is 5% slower than
    /// `Serial`, at 245 registers, and ptxas serialises its wgmmas (C7514): P·V of block j stays
    /// in flight across the loop's back edge, where the carried accumulator is copied.
    Pipelined,
    /// 12 warps in roles (FlashAttention-3's schedule): a producer warpgroup (24 registers)
    /// issues every TMA copy, two consumer warpgroups (240 registers) each own 64 query rows and
    /// take turns on the tensor cores through named barriers, one issuing `S_j` and `P_(j-1)·V`
    /// while the other runs its softmax; nothing is in flight across the loop's back edge.
    PingPong,
}

/// The swizzle of every tensor map (one 64-element row of 16-bit values).
const SWIZZLE: u16 = 128;
/// Columns per TMA box.
const BOX_INNER: u32 = 64;

impl AttentionConfig {
    /// 128 × 128 blocks, head dim 128, 8 warps.
    pub fn new(dtype: DType, causal: bool) -> AttentionConfig {
        AttentionConfig {
            dtype,
            head_dim: 128,
            block_m: 128,
            block_n: 128,
            num_warps: 8,
            causal,
            schedule: AttentionSchedule::Serial,
        }
    }

    /// [`new`](Self::new) with the [`PingPong`](AttentionSchedule::PingPong) schedule (12 warps).
    pub fn ping_pong(dtype: DType, causal: bool) -> AttentionConfig {
        AttentionConfig {
            num_warps: 12,
            schedule: AttentionSchedule::PingPong,
            ..AttentionConfig::new(dtype, causal)
        }
    }

    /// Query rows per consumer warpgroup's share of Q: the whole block, or each consumer's half
    /// (ping-pong loads them as separate boxes).
    fn q_rows_per_box(&self) -> u32 {
        match self.schedule {
            AttentionSchedule::PingPong => self.block_m / 2,
            _ => self.block_m,
        }
    }

    /// The grid for `batch_heads` heads of `seq` rows: one CTA per query block and head.
    pub fn grid(&self, seq: u64, batch_heads: u64) -> (u32, u32, u32) {
        (
            seq.div_ceil(u64::from(self.block_m)) as u32,
            batch_heads as u32,
            1,
        )
    }

    /// The TMA box of Q and O (`[block_m, 64]`; `[block_m / 2, 64]` for ping-pong, one per
    /// consumer).
    pub fn q_box(&self) -> [u32; 2] {
        [self.q_rows_per_box(), BOX_INNER]
    }

    /// The TMA box of K and V (`[block_n, 64]`).
    pub fn kv_box(&self) -> [u32; 2] {
        [self.block_n, BOX_INNER]
    }

    /// The swizzle of every tensor map, in bytes.
    pub fn swizzle(&self) -> u16 {
        SWIZZLE
    }

    fn check(&self) -> Result<()> {
        let bad = |reason: String| CodegenError::arg("attention_kernel", reason);
        if !matches!(self.dtype, DType::F16 | DType::BF16) {
            return Err(bad(format!("dtype {}: f16 or bf16", self.dtype)));
        }
        if !matches!(self.head_dim, 64 | 128) {
            return Err(bad(format!("head_dim {}: 64 or 128", self.head_dim)));
        }
        let warps = match self.schedule {
            AttentionSchedule::PingPong => 12,
            _ => 8,
        };
        if self.num_warps != warps || self.block_m != 128 {
            return Err(bad(format!(
                "block_m {} with {} warps: 128 rows over {warps} warps for {:?}",
                self.block_m, self.num_warps, self.schedule
            )));
        }
        if self.block_n != self.block_m {
            return Err(bad(format!("block_n {}: equal to block_m", self.block_n)));
        }
        Ok(())
    }
}

/// Builds the attention kernel for `target` (sm_90a). See the module docs.
pub fn attention_kernel(ctx: &Context, target: Target, c: AttentionConfig) -> Result<Kernel<'_>> {
    c.check()?;
    if c.schedule == AttentionSchedule::PingPong {
        return super::attention_ws::ping_pong_kernel(ctx, target, c);
    }
    let pipelined = c.schedule == AttentionSchedule::Pipelined;
    let name = if c.causal {
        "attn_fwd_causal"
    } else {
        "attn_fwd"
    };
    let mut kb = KernelBuilder::new(ctx, target, name, c.num_warps)?;
    let dt = c.dtype;
    let params = Params::declare(&mut kb, &c)?;
    let Params {
        q_map,
        k_map,
        v_map,
        seq,
        qk_scale,
        ..
    } = params;
    let (bm, bn, d) = (c.block_m as i32, c.block_n as i32, c.head_dim as u64);
    let QueryBlock {
        head0,
        q_off,
        q_row,
        n_blocks,
    } = QueryBlock::of_program(&mut kb, &c, seq)?;
    let zero = kb.i32(0)?;

    let swz = NvmmaShared::new(u32::from(SWIZZLE), dt.bits(), 2, false);
    let q_smem = kb.alloc_shared(dt, &[bm as u64, d], &swz)?;
    let ring = if pipelined { 3 } else { 2 };
    let k_ring = kb.alloc_shared_buffers(dt, ring, &[bn as u64, d], &swz)?;
    let v_ring = kb.alloc_shared_buffers(dt, ring, &[bn as u64, d], &swz)?;
    let stages: i32 = if pipelined { 3 } else { 2 };
    let bars = kb.alloc_mbarriers(1 + stages as u32, 1)?; // Q, then K+V of each stage ("full")
                                                          // Stage s is "empty" again once every thread has arrived after its last wgmma on it.
    let empty = kb.alloc_mbarriers(stages as u32, 32 * c.num_warps)?;
    let q_bar = kb.mbarrier_at(bars, 0)?;
    let q_bytes = kb.tma_bytes(q_smem)?;
    kb.mbarrier_expect(q_bar, q_bytes, None)?;
    kb.tma_load(q_map, &[q_row, zero], q_smem, q_bar, None)?;

    let kv_bytes = 2 * c.block_n * c.head_dim * (dt.bits() / 8);
    // Loads key block `j` into stage `st` when `j < n_blocks`, once the stage's previous block
    // (j - stages) is released: the issuing thread waits for phase ((j / stages) & 1) ^ 1 of its
    // empty barrier (a fresh barrier passes parity 1), no other thread stalls.
    let load_kv = |kb: &mut KernelBuilder<'_>, j, st| -> Result<()> {
        let pred = kb.lt(j, n_blocks)?;
        let round = kb.div(j, stages)?;
        let round = kb.and(round, 1)?;
        let parity = kb.xor(round, 1)?;
        let free = kb.mbarrier_at(empty, st)?;
        kb.mbarrier_wait_issuer(free, parity)?;
        let bar_i = kb_stage_bar(kb, st)?;
        let bar = kb.mbarrier_at(bars, bar_i)?;
        kb.mbarrier_expect(bar, kv_bytes, Some(pred))?;
        let off = kb.mul(j, bn)?;
        let row = kb.add(head0, off)?;
        let kd = kb.index_shared(k_ring, st)?;
        kb.tma_load(k_map, &[row, zero], kd, bar, Some(pred))?;
        let vd = kb.index_shared(v_ring, st)?;
        kb.tma_load(v_map, &[row, zero], vd, bar, Some(pred))
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
    // next head's rows, or TMA's zeros) and, causal, keys after the query are masked.
    let rows = if c.causal {
        let r = kb.arange(0, bm, rows_l.clone())?;
        let r = kb.add(r, q_off)?;
        Some(kb.expand_dims(r, 1)?)
    } else {
        None
    };
    let cols = kb.arange(0, bn, Slice::new(0, acc_s.clone()))?;
    let cols = kb.expand_dims(cols, 0)?;
    kb.mbarrier_wait(q_bar, 0)?;

    let scores_in = Scores {
        qk_scale,
        seq,
        cols,
        rows,
        block_n: bn,
        dtype: dt,
    };
    let softmax = |kb: &mut KernelBuilder<'_>, s, j, m_i, l_i, mask: Masking| {
        scores_in.online_softmax(kb, s, j, m_i, l_i, mask)
    };
    // S = Q Kᵀ of the block in stage `st` (issued, not waited for).
    let scores = |kb: &mut KernelBuilder<'_>, st| -> Result<crate::codegen::Value> {
        let k_t = kb.index_shared(k_ring, st)?;
        let k_t = kb.permute_shared(k_t, &[1, 0])?;
        let s0 = kb.zeros((&acc_s, s_shape), DType::F32)?;
        kb.wgmma(q_smem, k_t, s0)
    };
    let wait_full = |kb: &mut KernelBuilder<'_>, st, phase| -> Result<()> {
        let bar_i = kb_stage_bar(kb, st)?;
        let bar = kb.mbarrier_at(bars, bar_i)?;
        kb.mbarrier_wait(bar, phase)
    };
    let release = |kb: &mut KernelBuilder<'_>, st| -> Result<()> {
        let free = kb.mbarrier_at(empty, st)?;
        kb.mbarrier_arrive(free)
    };
    // O · alpha + P V (issued).
    let pv = |kb: &mut KernelBuilder<'_>, o, alpha, p16, st| -> Result<crate::codegen::Value> {
        let a_col = kb.expand_dims(alpha, 1)?;
        let o = kb.mul(o, a_col)?;
        let v_t = kb.index_shared(v_ring, st)?;
        kb.wgmma(p16, v_t, o)
    };

    let (o, m_i, l_i) = if !pipelined {
        // One key block: prefetch the next into the other stage (once every warp released it),
        // S, softmax, P V; the last block is masked.
        let block = |kb: &mut KernelBuilder<'_>,
                     j,
                     carried: &[crate::codegen::Value],
                     mask: Masking|
         -> Result<Vec<crate::codegen::Value>> {
            let (o, m_i, l_i, st, phase) =
                (carried[0], carried[1], carried[2], carried[3], carried[4]);
            let next = kb.add(j, 1)?;
            let other = kb.xor(st, 1)?;
            load_kv(kb, next, other)?;
            wait_full(kb, st, phase)?;
            let s = scores(kb, st)?;
            let s = kb.wgmma_wait(0, &[s])?[0];
            let [p16, alpha, m_new, l_new] = softmax(kb, s, j, m_i, l_i, mask)?;
            let o = pv(kb, o, alpha, p16, st)?;
            let o = kb.wgmma_wait(0, &[o])?[0];
            release(kb, st)?;
            let flip = kb.xor(phase, 1)?;
            let wraps = kb.eq(st, 1)?;
            let phase_next = kb.where_(wraps, flip, phase)?;
            Ok(vec![o, m_new, l_new, other, phase_next])
        };
        let last = kb.sub(n_blocks, 1)?;
        let out = kb.for_range(
            0,
            n_blocks,
            1,
            &[o0, m0, l0, zero, zero],
            |kb, j, carried| {
                let is_last = kb.eq(j, last)?;
                block(kb, j, carried, Masking::When(is_last))
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
                let st_p1 = kb.add(st, 1)?;
                let wrap = kb.eq(st_p1, stages)?;
                let st1 = kb.where_(wrap, 0, st_p1)?;
                let at0 = kb.eq(st, 0)?;
                let st_m1 = kb.sub(st, 1)?;
                let stm1 = kb.where_(at0, stages - 1, st_m1)?;
                wait_full(kb, st1, ph1)?;
                let s_next = scores(kb, st1)?;
                let [p16, alpha, m_new, l_new] = softmax(kb, s_cur, j, m_i, l_i, Masking::None)?;
                let o = kb.wgmma_wait(1, &[o])?[0];
                // PV of block j - 1 is done: release its stage (none before block 0) and refill it
                // with block j + 2.
                let started = kb.ge(j, 1)?;
                kb.if_then(started, |kb| release(kb, stm1))?;
                let ahead = kb.add(j, 2)?;
                load_kv(kb, ahead, stm1)?;
                let o = pv(kb, o, alpha, p16, st)?;
                let s_next = kb.wgmma_wait(1, &[s_next])?[0];
                let flip = kb.xor(ph1, 1)?;
                let wraps = kb.eq(st1, stages - 1)?;
                let ph_next = kb.where_(wraps, flip, ph1)?;
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

    params.store_output(&mut kb, &c, o, m_i, l_i, &acc_o, q_smem, q_off, q_row)?;
    kb.finish()
}

/// Which key blocks the online softmax masks (keys past the sequence, and causal keys after
/// the query). Only the last block of a query block needs it, and the mask is exact, so masking
/// a block that needs none is harmless.
#[derive(Debug, Clone, Copy)]
pub(super) enum Masking {
    /// No key of the block is masked.
    None,
    /// Every block built here is masked.
    Always,
    /// Masked when the i1 scalar holds (the last block, inside a loop over all of them): a
    /// branch that all threads take alike, so one copy of the softmax serves every block.
    When(Value),
}

/// What the online softmax of a key block needs besides its scores.
pub(super) struct Scores {
    /// The softmax scale times log2(e); positive (the row max is taken before scaling).
    pub qk_scale: Value,
    /// The sequence length (keys at or past it are masked).
    pub seq: Value,
    /// Column indices `[1, block_n]` of the S tile.
    pub cols: Value,
    /// Causal: the query row of each S row, `[rows, 1]` (keys after it are masked).
    pub rows: Option<Value>,
    pub block_n: i32,
    /// The type P is cast to for `P·V`.
    pub dtype: DType,
}

impl Scores {
    /// The online softmax of key block `j`'s scores `s`: returns P (16-bit), the factor that
    /// rescales O, and the new row max and sum, masking as `masking` says.
    pub(super) fn online_softmax(
        &self,
        kb: &mut KernelBuilder<'_>,
        s: Value,
        j: Value,
        m_i: Value,
        l_i: Value,
        masking: Masking,
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
        let dm = kb.sub(m_i, m_new)?;
        let alpha = exp2(kb, dm)?;
        let neg_m = kb.neg(m_new)?;
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

/// The kernel's parameters, the same for every schedule (see the module docs).
#[derive(Debug, Clone, Copy)]
pub(super) struct Params {
    pub q_map: Value,
    pub k_map: Value,
    pub v_map: Value,
    /// O through its tensor map, and as a pointer for a block that reaches past the sequence.
    pub o_map: Value,
    pub o: Value,
    pub lse: Value,
    pub seq: Value,
    pub qk_scale: Value,
}

/// Where one program works: its query block of its head, and the key blocks it visits.
#[derive(Debug, Clone, Copy)]
pub(super) struct QueryBlock {
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
    pub(super) fn of_program(
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

impl Params {
    /// Declares the parameters of a kernel for `c`, in the order the module docs give.
    pub(super) fn declare(kb: &mut KernelBuilder<'_>, c: &AttentionConfig) -> Result<Params> {
        let dt = c.dtype;
        Ok(Params {
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
    pub(super) fn store_output(
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
        let rows = kb.shape(o)?[0];
        let (d, n) = (u64::from(c.head_dim), rows as i32);
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
                let r = kb.arange(0, n, Slice::new(1, acc_o.clone()))?;
                let r_seq = kb.add(r, first_in_seq)?;
                let inside = kb.lt(r_seq, self.seq)?;
                let r_all = kb.add(r, first_row)?;
                let r_off = kb.mul(r_all, d as i32)?;
                let r_off = kb.expand_dims(r_off, 1)?;
                let cl = kb.arange(0, d as i32, Slice::new(0, acc_o.clone()))?;
                let cl = kb.expand_dims(cl, 0)?;
                let offs = kb.add(r_off, cl)?;
                let ptrs = kb.add(self.o, offs)?;
                let inside2 = kb.expand_dims(inside, 1)?;
                let mask = kb.broadcast_to(inside2, (acc_o, [rows, d]))?;
                kb.store(ptrs, o16, Some(mask))?;
                Ok(vec![])
            },
        )?;
        let log_l = kb.math(MathOp::Log2, l_i)?;
        let lse2 = kb.add(m_i, log_l)?;
        let lse_ln = kb.mul(lse2, std::f64::consts::LN_2)?;
        // In the row statistics' own layout (the scores' rows, which may differ from O's).
        let stats_l = kb.layout(l_i)?.expect("a row tile has a layout");
        let r = kb.arange(0, n, stats_l)?;
        let r_seq = kb.add(r, first_in_seq)?;
        let inside = kb.lt(r_seq, self.seq)?;
        let r_all = kb.add(r, first_row)?;
        let ptrs = kb.add(self.lse, r_all)?;
        kb.store(ptrs, lse_ln, Some(inside))
    }
}

/// The barrier index of stage `st` (barrier 0 is Q's).
fn kb_stage_bar(
    kb: &mut KernelBuilder<'_>,
    st: crate::codegen::Value,
) -> Result<crate::codegen::Value> {
    kb.add(st, 1)
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
