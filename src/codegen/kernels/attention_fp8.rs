//! FP8 forward attention on Hopper: Q, K and V in e4m3 with per-tensor scales, `O` in bf16,
//! the softmax in f32. Two schedules ([`Fp8AttentionConfig::schedule`]): `PingPong`, the 16-bit
//! forward's own ping-pong schedule (`attention_ws.rs`, one body for both element types: a
//! producer warpgroup and two consumer warpgroups of 64 rows taking turns on the tensor cores,
//! each staging its P in two shared buffers of its own), the fast one; and `Serial` (8 warps, a
//! two-stage TMA ring released through "empty" mbarriers, P in one shared buffer). Both follow
//! fp8's constraint that both wgmma operands be K-major (and A come from shared memory):
//!
//! - `S = Q Kᵀ`: Q `[block_m, D]` and K `[block_n, D]` are D-contiguous, which is K-major for
//!   both;
//! - `O += P V`: the wgmma reads `Vᵀ` `[D, keys]` (keys contiguous, K-major for this product).
//!   V comes as rows `[seq, D]` like Q and K (ping-pong only: the producer warpgroup transposes
//!   each block in shared memory, [`VTranspose`](super::parts::VTranspose)), or already
//!   transposed by the caller, `Vᵀ` `[D, seq]` per head ([`Fp8AttentionConfig::v_transposed`],
//!   both schedules). P is rounded to e4m3 (scaled by 256 first, so that its small values stay
//!   normal numbers) and staged through shared memory.
//!
//! The scales fold away: `qk_scale` is the softmax scale times log2(e) times Q's and K's scales,
//! and V's scale multiplies the output (with P's 1/256).
//!
//! Layouts: Q, K and V `[batch · heads · seq, D]` row-major e4m3, or V as `Vᵀ` `[batch · heads ·
//! D, seq]` (`seq` then a multiple of 16, TMA's row-stride rule for one-byte elements); O
//! `[batch · heads · seq, D]` bf16; the log-sum-exp (natural log, of the scaled scores)
//! `[batch · heads · seq]` f32. Parameters: `q_map, k_map, v_map` (boxes
//! [`Fp8AttentionConfig::q_box`], `kv_box`, `v_box`; swizzles `qk_swizzle`, `v_swizzle`),
//! `o: *bf16, lse: *f32, seq: i32, qk_scale: f32, v_scale: f32`. Grid: `(⌈seq / 128⌉, batch ·
//! heads)`. D 64 or 128, causal or not, any `seq` (a multiple of 16 with `Vᵀ`).

use crate::layout::encoding::{Encoding, NvidiaMma, NvmmaShared, Slice};

use super::super::{CodegenError, DType, Kernel, KernelBuilder, Result, Target, Value};
use super::attention_config::{AttentionConfig, AttentionSchedule};
use super::attention_fp8_config::{Fp8AttentionConfig, Fp8Params, BLOCK};
use super::attention_ws::{ping_pong_body, Operands};
use super::parts::{Masking, OnlineSoftmax, OutputRows, QueryBlock, StepOptions, TmaRing};
use super::Context;

/// Warps of the serial schedule (two warpgroups of 64 rows).
const WARPS: u32 = 8;
/// P is multiplied by this before its rounding to e4m3 (and O divided by it after).
const P_SCALE: f64 = 256.0;

/// Builds the FP8 forward for `target` (sm_90a). See the module docs.
pub fn attention_fp8_kernel(
    ctx: &Context,
    target: Target,
    c: Fp8AttentionConfig,
) -> Result<Kernel<'_>> {
    if !matches!(c.head_dim, 64 | 128) {
        return Err(CodegenError::arg(
            "attention_fp8_kernel",
            format!("head_dim {}: 64 or 128", c.head_dim),
        ));
    }
    match c.schedule {
        AttentionSchedule::PingPong => {
            let name = if c.causal {
                "attn_fwd_fp8_ws_causal"
            } else {
                "attn_fwd_fp8_ws"
            };
            let shapes = AttentionConfig {
                dtype: DType::F8E4M3,
                head_dim: c.head_dim,
                ..AttentionConfig::ping_pong(DType::BF16, c.causal)
            };
            let mut kb = KernelBuilder::new(ctx, target, name, shapes.num_warps)?;
            let params = Fp8Params::declare(&mut kb, &c)?;
            ping_pong_body(&mut kb, &shapes, Operands::Fp8(params))?;
            kb.finish()
        }
        AttentionSchedule::Serial if c.v_transposed => serial_kernel(ctx, target, c),
        AttentionSchedule::Serial => Err(CodegenError::arg(
            "attention_fp8_kernel",
            "schedule Serial with V as rows: Serial takes Vᵀ (v_transposed)",
        )),
        AttentionSchedule::Pipelined => Err(CodegenError::arg(
            "attention_fp8_kernel",
            "schedule Pipelined: PingPong or Serial for fp8",
        )),
    }
}

/// The `Serial` schedule (see the module docs).
fn serial_kernel(ctx: &Context, target: Target, c: Fp8AttentionConfig) -> Result<Kernel<'_>> {
    let name = if c.causal {
        "attn_fwd_fp8_causal"
    } else {
        "attn_fwd_fp8"
    };
    let mut kb = KernelBuilder::new(ctx, target, name, WARPS)?;
    let f8 = DType::F8E4M3;
    let Fp8Params {
        q_map,
        k_map,
        v_map: vt_map,
        o: o_ptr,
        lse: lse_ptr,
        seq,
        qk_scale,
        v_scale,
        ..
    } = Fp8Params::declare(&mut kb, &c)?;
    let (bm, d) = (BLOCK as i32, u64::from(c.head_dim));
    let blocks = AttentionConfig::new(DType::BF16, c.causal);
    let QueryBlock {
        head0,
        q_off,
        q_row,
        n_blocks,
        ..
    } = QueryBlock::of_program(&mut kb, &blocks, seq)?;
    let bh = kb.program_id(1)?;
    let vt_row = kb.mul(bh, c.head_dim as i32)?;
    let zero = kb.i32(0)?;

    let qk_sl = NvmmaShared::new(u32::from(c.qk_swizzle()), 8, 2, false);
    let row128 = NvmmaShared::new(128, 8, 2, false);
    let b = u64::from(BLOCK);
    let q_smem = kb.alloc_shared(f8, &[b, d], &qk_sl)?;
    let k_ring = kb.alloc_shared_buffers(f8, 2, &[b, d], &qk_sl)?;
    let vt_ring = kb.alloc_shared_buffers(f8, 2, &[d, b], &row128)?;
    let p_smem = kb.alloc_shared(f8, &[b, b], &row128)?;
    // K and Vᵀ of a key block share a stage of a two-stage ring, Q's barrier leading its full
    // ones, as in the 16-bit forward.
    let (bars, kv) =
        TmaRing::with_lead_barriers(&mut kb, 1, 2, 2 * BLOCK * c.head_dim, Some(32 * WARPS))?;
    let q_bar = kb.mbarrier_at(bars, 0)?;
    let q_bytes = kb.tma_bytes(q_smem)?;
    kb.mbarrier_expect(q_bar, q_bytes, None)?;
    kb.tma_load(q_map, &[q_row, zero], q_smem, q_bar, None)?;
    // Key block j into stage st once its previous block is released (as the 16-bit forward).
    let load_kv = |kb: &mut KernelBuilder<'_>, j, st| -> Result<()> {
        let pred = kb.lt(j, n_blocks)?;
        let (_, round) = kv.stage_of(kb, j)?;
        kv.wait_free(kb, st, round)?;
        let key0 = kb.mul(j, bm)?;
        let row = kb.add(head0, key0)?;
        let loads: [(Value, &[Value], Value); 2] = [
            (k_map, &[row, zero], k_ring),
            (vt_map, &[vt_row, key0], vt_ring),
        ];
        kv.load(kb, st, &loads, Some(pred))
    };
    load_kv(&mut kb, zero, zero)?;

    let acc_s: Encoding = NvidiaMma::hopper(&[WARPS, 1], BLOCK, 16).into();
    let acc_o: Encoding = NvidiaMma::hopper(&[WARPS, 1], c.head_dim, 16).into();
    let rows_l = Slice::new(1, acc_s.clone());
    let o0 = kb.zeros((&acc_o, [b, d]), DType::F32)?;
    let m0 = kb.full((&rows_l, [b]), DType::F32, f64::NEG_INFINITY)?;
    let l0 = kb.zeros((&rows_l, [b]), DType::F32)?;
    let rows = if c.causal {
        let r = kb.arange(0, bm, rows_l.clone())?;
        let r = kb.add(r, q_off)?;
        Some(kb.expand_dims(r, 1)?)
    } else {
        None
    };
    let cols = kb.arange(0, bm, Slice::new(0, acc_s.clone()))?;
    let cols = kb.expand_dims(cols, 0)?;
    // P stays in f32 out of the softmax step; it is scaled and rounded here.
    let softmax = OnlineSoftmax {
        qk_scale,
        seq,
        cols,
        rows,
        block_n: bm,
        dtype: DType::F32,
    };
    kb.mbarrier_wait(q_bar, 0)?;
    let last = kb.sub(n_blocks, 1)?;
    let out = kb.for_range(
        0,
        n_blocks,
        1,
        &[o0, m0, l0, zero, zero],
        |kb, j, carried| {
            let (o, m_i, l_i, st, phase) =
                (carried[0], carried[1], carried[2], carried[3], carried[4]);
            let next = kb.add(j, 1)?;
            let (other, phase_next) = kv.advance(kb, st, phase)?;
            load_kv(kb, next, other)?;
            let k_t = kv.wait(kb, st, phase, &[k_ring])?[0];
            let k_t = kb.permute_shared(k_t, &[1, 0])?;
            let s0 = kb.zeros((&acc_s, [b, b]), DType::F32)?;
            let s = kb.wgmma(q_smem, k_t, s0)?;
            let s = kb.wgmma_wait(0, &[s])?[0];
            let is_last = kb.eq(j, last)?;
            let mask = Masking::When(is_last);
            let [p, alpha, m_new, l_new] =
                softmax.step(kb, s, j, m_i, l_i, mask, StepOptions::default())?;
            let p = kb.mul(p, P_SCALE)?;
            let p8 = kb.cast(p, f8)?;
            kb.store_shared(p_smem, p8)?;
            kb.fence_async_shared()?;
            kb.barrier()?;
            let a_col = kb.convert_layout(alpha, Slice::new(1, acc_o.clone()))?;
            let a_col = kb.expand_dims(a_col, 1)?;
            let o = kb.mul(o, a_col)?;
            let v = kb.index_shared(vt_ring, st)?;
            let v = kb.permute_shared(v, &[1, 0])?;
            let o = kb.wgmma(p_smem, v, o)?;
            let o = kb.wgmma_wait(0, &[o])?[0];
            // This warp is past the block's products: the stage is free once every warp says
            // so. (P's buffer needs no more: each warpgroup writes and reads only its own 64
            // rows, its wgmma complete before its next write.)
            kv.release(kb, st)?;
            Ok(vec![o, m_new, l_new, other, phase_next])
        },
    )?;
    let (o, m_i, l_i) = (out[0], out[1], out[2]);

    // O · v_scale / (256 · l) in bf16 and the lse, rows inside the sequence.
    let l_o = kb.convert_layout(l_i, Slice::new(1, acc_o.clone()))?;
    let l_o = kb.mul(l_o, P_SCALE)?;
    let l_o = kb.div(l_o, v_scale)?;
    let l_o = kb.expand_dims(l_o, 1)?;
    let o = kb.div(o, l_o)?;
    let o = kb.cast(o, DType::BF16)?;
    let at = OutputRows {
        packed: None,
        first_in_seq: q_off,
        first_row: q_row,
        len: seq,
        empty_rows: false,
    };
    at.store_rows(&mut kb, o_ptr, o, &acc_o)?;
    at.store_lse(&mut kb, lse_ptr, m_i, l_i)?;
    kb.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared ping-pong schedule refuses fp8 with a variable-length batch or KV groups
    /// (typed, naming both), and builds it with one length and one group.
    #[test]
    fn ping_pong_refuses_fp8_varlen_and_kv_groups() {
        let ctx = Context::new();
        let c = Fp8AttentionConfig::new(128, false);
        let shapes = |varlen, kv_group| AttentionConfig {
            dtype: DType::F8E4M3,
            head_dim: 128,
            varlen,
            kv_group,
            ..AttentionConfig::ping_pong(DType::BF16, false)
        };
        let body = |s: AttentionConfig| -> Result<()> {
            let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "t", s.num_warps)?;
            let params = Fp8Params::declare(&mut kb, &c)?;
            ping_pong_body(&mut kb, &s, Operands::Fp8(params))
        };
        for (varlen, kv_group) in [(true, 1), (false, 2), (true, 8)] {
            let e = body(shapes(varlen, kv_group)).unwrap_err().to_string();
            let named = format!("varlen {varlen} and kv_group {kv_group}");
            assert!(e.contains(&named), "{e}");
        }
        assert!(body(shapes(false, 1)).is_ok());
    }
}
