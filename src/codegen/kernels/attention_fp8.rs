//! FP8 forward attention on Hopper: Q, K and V in e4m3 with per-tensor scales, `O` in bf16,
//! the softmax in f32. The schedule is the 16-bit forward's `Serial` one (8 warps, a two-stage
//! TMA ring released through "empty" mbarriers), with fp8's constraint that both wgmma operands
//! be K-major:
//!
//! - `S = Q Kᵀ`: Q `[block_m, D]` and K `[block_n, D]` are D-contiguous, which is K-major for
//!   both;
//! - `O += P V`: V is taken transposed, `Vᵀ` `[D, seq]` per head (keys contiguous, K-major for
//!   this product); P is rounded to e4m3 (scaled by 256 first, so that its small values stay
//!   normal numbers) and staged through shared memory.
//!
//! The scales fold away: `qk_scale` is the softmax scale times log2(e) times Q's and K's scales,
//! and V's scale multiplies the output (with P's 1/256).
//!
//! Layouts: Q and K `[batch · heads · seq, D]`, `Vᵀ` `[batch · heads · D, seq]` row-major e4m3
//! (`seq` a multiple of 16, TMA's row-stride rule for one-byte elements); O `[batch · heads ·
//! seq, D]` bf16; the log-sum-exp (natural log, of the scaled scores) `[batch · heads · seq]` f32.
//! Parameters: `q_map, k_map, vt_map` (boxes [`Fp8AttentionConfig::q_box`], `kv_box`,
//! `vt_box`), `o: *bf16, lse: *f32, seq: i32, qk_scale: f32, v_scale: f32`. Grid:
//! `(⌈seq / 128⌉, batch · heads)`. D 64 or 128, causal or not, any `seq` (a multiple of 16).

use crate::layout::encoding::{Encoding, NvidiaMma, NvmmaShared, Slice};

use super::super::{CodegenError, DType, Kernel, KernelBuilder, MathOp, Result, Target, Value};
use super::attention_config::AttentionConfig;
use super::parts::{Masking, OnlineSoftmax, QueryBlock, TmaRing};
use super::Context;

/// Rows of Q and keys of K per block, and warps (two warpgroups of 64 rows).
const BLOCK: u32 = 128;
const WARPS: u32 = 8;
/// P is multiplied by this before its rounding to e4m3 (and O divided by it after).
const P_SCALE: f64 = 256.0;

/// Shapes of [`attention_fp8_kernel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fp8AttentionConfig {
    /// Head dimension (64 or 128).
    pub head_dim: u32,
    /// Only keys at or before the query.
    pub causal: bool,
}

impl Fp8AttentionConfig {
    /// The TMA box of Q: `[128, D]`.
    pub fn q_box(&self) -> [u32; 2] {
        [BLOCK, self.head_dim]
    }

    /// The TMA box of K: `[128, D]`.
    pub fn kv_box(&self) -> [u32; 2] {
        [BLOCK, self.head_dim]
    }

    /// The TMA box of `Vᵀ`: `[D, 128]`.
    pub fn vt_box(&self) -> [u32; 2] {
        [self.head_dim, BLOCK]
    }

    /// The swizzle of the Q and K maps (one D-wide row of bytes: 64 or 128).
    pub fn qk_swizzle(&self) -> u16 {
        self.head_dim as u16
    }

    /// The swizzle of the `Vᵀ` map (128 keys of one byte).
    pub fn vt_swizzle(&self) -> u16 {
        128
    }

    /// The grid for `batch_heads` heads of `seq` rows.
    pub fn grid(&self, seq: u64, batch_heads: u64) -> (u32, u32, u32) {
        (seq.div_ceil(u64::from(BLOCK)) as u32, batch_heads as u32, 1)
    }
}

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
    let name = if c.causal {
        "attn_fwd_fp8_causal"
    } else {
        "attn_fwd_fp8"
    };
    let mut kb = KernelBuilder::new(ctx, target, name, WARPS)?;
    let f8 = DType::F8E4M3;
    let q_map = kb.arg_tensor_map("q_map", f8, &c.q_box(), c.qk_swizzle())?;
    let k_map = kb.arg_tensor_map("k_map", f8, &c.kv_box(), c.qk_swizzle())?;
    let vt_map = kb.arg_tensor_map("vt_map", f8, &c.vt_box(), c.vt_swizzle())?;
    let o_ptr = kb.arg_ptr("o", DType::BF16, 16)?;
    let lse_ptr = kb.arg_ptr("lse", DType::F32, 4)?;
    let seq = kb.arg_i32("seq", 16)?;
    let qk_scale = kb.arg_f32("qk_scale")?;
    let v_scale = kb.arg_f32("v_scale")?;
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
    let q_bar = kb.alloc_mbarriers(1, 1)?;
    // K and Vᵀ of a key block share a stage of a two-stage ring, as in the 16-bit forward.
    let kv = TmaRing::new(&mut kb, 2, 2 * BLOCK * c.head_dim, Some(32 * WARPS))?;
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
            let [p, alpha, m_new, l_new] =
                softmax.step(kb, s, j, m_i, l_i, Masking::When(is_last))?;
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
    let (r, cl) = super::tile_coords(&mut kb, &acc_o, [b, d], Some(q_off), None)?;
    let ok = kb.lt(r, seq)?;
    let r = kb.add(r, head0)?;
    let off = kb.mul(r, c.head_dim as i32)?;
    let off = kb.add(off, cl)?;
    let ptrs = kb.add(o_ptr, off)?;
    kb.store(ptrs, o, Some(ok))?;
    let log_l = kb.math(MathOp::Log2, l_i)?;
    let lse2 = kb.add(m_i, log_l)?;
    let lse = kb.mul(lse2, std::f64::consts::LN_2)?;
    let r = kb.arange(0, bm, rows_l)?;
    let r = kb.add(r, q_off)?;
    let ok = kb.lt(r, seq)?;
    let r = kb.add(r, head0)?;
    let ptrs = kb.add(lse_ptr, r)?;
    kb.store(ptrs, lse, Some(ok))?;
    kb.finish()
}
