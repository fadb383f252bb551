//! The Hopper path of the attention backward ([`BwdEngine::Wgmma`](super::BwdEngine::Wgmma)):
//! the dK/dV and dQ kernels on wgmma with TMA copies and warp roles, the structure of
//! FlashAttention-3's backward main loop.
//!
//! Both gradient kernels are one loop with its operands' roles swapped. A CTA keeps a *resident*
//! block of `block_n` rows in shared memory (dK/dV: `K_j`, `V_j`; dQ: `Q_i`, `dO_i`), 64 rows a
//! consumer warpgroup, and streams `block_m` rows a step through a three-stage TMA ring (dK/dV:
//! `Q_i`, `dO_i` of every query block of every query head of the group; dQ: `K_j`, `V_j` of every
//! key block the queries see). With `X`, `Y` the resident blocks and `A`, `B` the streamed ones,
//! each consumer warpgroup computes per step, its products `[64, block_m]`:
//!
//! - `S = X Aᵀ` and `dP = Y Bᵀ`: wgmma with both operands in shared memory, issued together, the
//!   accumulators starting at `-lse / scale` and `-delta` of their query (the forward's
//!   log-sum-exp and the pre-pass's delta: of the streamed queries' columns for dK/dV, staged in
//!   shared memory with their rows; of the resident queries' rows for dQ, loaded once), so the
//!   statistics take no registers of their own while S and dP are live;
//! - `P = exp2(S · qk_scale)`, masked, while `dP` computes;
//! - dK/dV: `dV += P B` (B = dO), issued with P as the register A operand before waiting for `dP`;
//! - `dS = P ⊙ dP`, then `dK += dS A` (A = Q) or `dQ += dS A` (A = K), register A.
//!
//! Every wgmma of a step is waited for before the step ends and the stage is released, so no
//! accumulator is in flight across the loop's back edge (which makes ptxas serialise wgmmas).
//! A producer warpgroup (24 registers) issues every TMA copy and writes dK/dV's statistics; the
//! consumers run at 240 (D128 with 64 streamed rows, D64 with 128: no spills).
//!
//! Masks: streamed query rows past the sequence get `lse = +inf` (so P = 0, and dS = 0 with
//! `delta = 0`); streamed keys past the sequence (dQ) and, causal, keys after their query are set
//! to P = 0, by a branch only the blocks that need it take. Resident rows past the sequence are
//! computed and not stored. dK and dV sum over the group's query heads inside one CTA and dQ
//! over key blocks inside one CTA: no atomics, the result is deterministic.
//!
//! Parameters: `q_map, k_map, v_map, d_o_map` (tensor maps of Q, K, V, dO `[rows, D]`, box
//! [`tma_box`](AttentionBwdConfig::tma_box), swizzle [`swizzle`](AttentionBwdConfig::swizzle)),
//! `lse, delta: *f32`, the outputs (`dk, dv: *T` or `dq: *T`), `seq: i32, qk_scale: f32, scale:
//! f32`. Grids: [`dkdv_grid`](AttentionBwdConfig::dkdv_grid), [`dq_grid`](AttentionBwdConfig::dq_grid).

use crate::layout::encoding::{Encoding, NvidiaMma, NvmmaShared, Slice, SwizzledShared};

use super::super::{
    Context, DType, IntoLayout, Kernel, KernelBuilder, MathOp, MathPrecision, Result, Target,
    Value, WarpRole,
};
use super::attention_bwd_config::{AttentionBwdConfig, BWD_SWIZZLE, ROWS_PER_CONSUMER};
use super::attention_bwd_rows::{row_stat, store_rows};
use super::blocked_1d;
use super::parts::TmaRing;

/// Stages of the streamed ring: the registers allow one CTA an SM, whose shared memory has room
/// for three (at most 165 KB at D128), so the producer refills a stage (its statistics' global
/// loads, then the TMA copies) a whole step ahead of its use.
const STAGES: u32 = 3;

/// Which gradient a kernel computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// dK and dV: keys resident, queries streamed.
    DkDv,
    /// dQ: queries resident, keys streamed.
    Dq,
}

/// Builds the wgmma dK/dV kernel (`c.engine` is `Wgmma`, checked by the caller).
pub(super) fn dkdv_kernel(
    ctx: &Context,
    target: Target,
    c: AttentionBwdConfig,
) -> Result<Kernel<'_>> {
    build(ctx, target, c, Pass::DkDv)
}

/// Builds the wgmma dQ kernel (`c.engine` is `Wgmma`, checked by the caller).
pub(super) fn dq_kernel(
    ctx: &Context,
    target: Target,
    c: AttentionBwdConfig,
) -> Result<Kernel<'_>> {
    build(ctx, target, c, Pass::Dq)
}

/// Where the streamed rows of step `t` are: the first row of their head in the whole array, and
/// their first row within the head (the sequence's end past the last step).
type RowsAt<'a> = dyn Fn(&mut KernelBuilder<'_>, Value) -> Result<(Value, Value)> + 'a;

fn build(ctx: &Context, target: Target, c: AttentionBwdConfig, pass: Pass) -> Result<Kernel<'_>> {
    c.check()?;
    let base = match pass {
        Pass::DkDv => "attn_bwd_dkdv_wg",
        Pass::Dq => "attn_bwd_dq_wg",
    };
    let name = if c.causal {
        format!("{base}_causal")
    } else {
        base.to_string()
    };
    let mut kb = KernelBuilder::new(ctx, target, &name, c.num_warps)?;
    let dt = c.dtype;
    let bx = c.tma_box();
    let [q_map, k_map, v_map, do_map] = [
        kb.arg_tensor_map("q_map", dt, &bx, BWD_SWIZZLE)?,
        kb.arg_tensor_map("k_map", dt, &bx, BWD_SWIZZLE)?,
        kb.arg_tensor_map("v_map", dt, &bx, BWD_SWIZZLE)?,
        kb.arg_tensor_map("d_o_map", dt, &bx, BWD_SWIZZLE)?,
    ];
    let lse = kb.arg_ptr("lse", DType::F32, 4)?;
    let delta = kb.arg_ptr("delta", DType::F32, 4)?;
    let outs = match pass {
        Pass::DkDv => vec![kb.arg_ptr("dk", dt, 16)?, kb.arg_ptr("dv", dt, 16)?],
        Pass::Dq => vec![kb.arg_ptr("dq", dt, 16)?],
    };
    let seq = kb.arg_i32("seq", 1)?;
    let qk_scale = kb.arg_f32("qk_scale")?;
    let scale = kb.arg_f32("scale")?;

    let consumers = c.block_n / ROWS_PER_CONSUMER;
    let roles = kb.warp_roles(&[
        WarpRole::new(4).max_regs(24),
        WarpRole::new(4).replicas(consumers).max_regs(240),
    ])?;
    let (bm, d, group) = (c.block_m as i32, u64::from(c.head_dim), c.group as i32);
    let pid = kb.program_id(0)?;
    // Causal dQ: the last query blocks see the most keys, so they start first (the dK/dV
    // kernel's first key blocks see the most queries already).
    let blk = if pass == Pass::Dq && c.causal {
        let s1 = kb.add(seq, c.block_n as i32 - 1)?;
        let n = kb.div(s1, c.block_n as i32)?;
        let last = kb.sub(n, 1)?;
        kb.sub(last, pid)?
    } else {
        pid
    };
    let bh = kb.program_id(1)?;
    // The resident block's first row within its head, and its head's first row.
    let r0 = kb.mul(blk, c.block_n as i32)?;
    let res_head0 = kb.mul(bh, seq)?;
    let zero = kb.i32(0)?;
    let n_streamed = |kb: &mut KernelBuilder<'_>, end: Value| -> Result<Value> {
        let e = kb.add(end, bm - 1)?;
        kb.div(e, bm)
    };
    // Steps, and where each one's streamed rows are.
    let (total, rows_at): (Value, Box<RowsAt<'_>>) = match pass {
        Pass::DkDv => {
            // (query head of the group, query block) pairs; causal: query blocks from the one
            // holding the resident block's first key.
            let first = if c.causal { kb.div(r0, bm)? } else { zero };
            let n_q = n_streamed(&mut kb, seq)?;
            let count = kb.sub(n_q, first)?;
            let total = kb.mul(count, group)?;
            let hq0 = kb.mul(bh, group)?;
            let at = move |kb: &mut KernelBuilder<'_>, t: Value| -> Result<(Value, Value)> {
                let g = kb.div(t, count)?;
                let i = kb.rem(t, count)?;
                let i = kb.add(i, first)?;
                let hq = kb.add(hq0, g)?;
                let head0 = kb.mul(hq, seq)?;
                let q0 = kb.mul(i, bm)?;
                let live = kb.lt(t, total)?;
                Ok((head0, kb.where_(live, q0, seq)?))
            };
            (total, Box::new(at))
        }
        Pass::Dq => {
            // Key blocks up to the resident block's last query (causal), else all.
            let end = if c.causal {
                let last = kb.add(r0, c.block_n as i32)?;
                kb.min(last, seq)?
            } else {
                seq
            };
            let total = n_streamed(&mut kb, end)?;
            let hk = kb.div(bh, group)?;
            let kv_head0 = kb.mul(hk, seq)?;
            let at = move |kb: &mut KernelBuilder<'_>, t: Value| -> Result<(Value, Value)> {
                let k0 = kb.mul(t, bm)?;
                let live = kb.lt(t, total)?;
                Ok((kv_head0, kb.where_(live, k0, seq)?))
            };
            (total, Box::new(at))
        }
    };
    let (res_maps, str_maps) = match pass {
        Pass::DkDv => ([k_map, v_map], [q_map, do_map]),
        Pass::Dq => ([q_map, do_map], [k_map, v_map]),
    };

    let swz = NvmmaShared::new(u32::from(BWD_SWIZZLE), dt.bits(), 2, false);
    let res_shape = [u64::from(ROWS_PER_CONSUMER), d];
    let str_shape = [u64::from(c.block_m), d];
    let res_bufs = [
        kb.alloc_shared_buffers(dt, u64::from(consumers), &res_shape, &swz)?,
        kb.alloc_shared_buffers(dt, u64::from(consumers), &res_shape, &swz)?,
    ];
    let str_rings = [
        kb.alloc_shared_buffers(dt, u64::from(STAGES), &str_shape, &swz)?,
        kb.alloc_shared_buffers(dt, u64::from(STAGES), &str_shape, &swz)?,
    ];
    let elem = dt.bits() / 8;
    let consumer_threads = consumers * 4 * kb.threads_per_warp();
    let ring = TmaRing::new(
        &mut kb,
        STAGES,
        2 * c.block_m * c.head_dim * elem,
        Some(consumer_threads),
    )?;
    let res_full = kb.alloc_mbarriers(1, 1)?;
    // The statistics of a query row as the score accumulators start from them: `-lse / scale`
    // (so `P = exp2(S · qk_scale)`) and `-delta` (so `dS = P ⊙ dP`).
    let lse_to_s = kb.f32(-std::f64::consts::LOG2_E as f32)?;
    let lse_to_s = kb.div(lse_to_s, qk_scale)?;
    let stats =
        |kb: &mut KernelBuilder<'_>, l: &dyn IntoLayout, n: u32, at| -> Result<[Value; 2]> {
            let ls = row_stat(kb, lse, l, n, at, f32::INFINITY)?;
            let ls = kb.mul(ls, lse_to_s)?;
            let dl = row_stat(kb, delta, l, n, at, 0.0)?;
            Ok([ls, kb.neg(dl)?])
        };
    // dK/dV: the streamed queries' statistics go through shared memory with their rows, one
    // `[block_m]` buffer each a stage, written by the producer (a global load's latency at the
    // head of every step would stall the consumers).
    let stat_rings = match pass {
        Pass::DkDv => {
            let plain = SwizzledShared::new(1, 1, 1, &[0]);
            let shape = [u64::from(c.block_m)];
            Some([
                kb.alloc_shared_buffers(DType::F32, u64::from(STAGES), &shape, plain.clone())?,
                kb.alloc_shared_buffers(DType::F32, u64::from(STAGES), &shape, plain)?,
            ])
        }
        Pass::Dq => None,
    };

    kb.in_role(roles[0], |kb| {
        kb.mbarrier_expect(res_full, 2 * c.block_n * c.head_dim * elem, None)?;
        let res_row = kb.add(res_head0, r0)?;
        for w in 0..consumers as i32 {
            let row = kb.add(res_row, w * ROWS_PER_CONSUMER as i32)?;
            for (map, bufs) in res_maps.iter().zip(res_bufs) {
                let dst = kb.index_shared(bufs, w)?;
                kb.tma_load(*map, &[row, zero], dst, res_full, None)?;
            }
        }
        kb.for_range(0, total, 1, &[], |kb, t, _| {
            let (st, ph) = ring.stage_of(kb, t)?;
            ring.wait_free(kb, st, ph)?;
            let (head0, s0) = rows_at(kb, t)?;
            if let Some(rings) = stat_rings {
                // Every producer thread past the wait for the stage, then every statistic
                // written before the stage's barrier is armed.
                kb.barrier()?;
                let l = blocked_1d(target, 1, 4, c.block_m)?;
                let vals = stats(kb, &l, c.block_m, (head0, s0, seq))?;
                for (ring_s, v) in rings.into_iter().zip(vals) {
                    let buf = kb.index_shared(ring_s, st)?;
                    kb.store_shared(buf, v)?;
                }
                kb.barrier()?;
            }
            let row = kb.add(head0, s0)?;
            let at = [row, zero];
            let loads = [
                (str_maps[0], &at[..], str_rings[0]),
                (str_maps[1], &at[..], str_rings[1]),
            ];
            ring.load(kb, st, &loads, None)?;
            Ok(vec![])
        })?;
        Ok(())
    })?;

    kb.in_role(roles[1], |kb| {
        let r = kb.role_replica()?;
        let mine = kb.mul(r, ROWS_PER_CONSUMER as i32)?;
        let mine0 = kb.add(r0, mine)?;
        let res_at = (res_head0, mine0, seq);

        let acc_s: Encoding = NvidiaMma::hopper(&[4, 1], c.block_m, 16).into();
        let acc_g: Encoding = NvidiaMma::hopper(&[4, 1], c.head_dim, 16).into();
        let rows_l = Slice::new(1, acc_s.clone());
        let cols_l = Slice::new(0, acc_s.clone());
        let s_shape = [u64::from(ROWS_PER_CONSUMER), u64::from(c.block_m)];
        let g_shape = [u64::from(ROWS_PER_CONSUMER), d];
        // Index of each resident row `[64, 1]` and of each streamed column `[1, block_m]`
        // (within its block), for the masks.
        let res_i = kb.arange(0, ROWS_PER_CONSUMER as i32, rows_l.clone())?;
        let res_i = kb.add(res_i, mine0)?;
        let res_i = kb.expand_dims(res_i, 1)?;
        let str_i = kb.arange(0, bm, cols_l.clone())?;
        let str_i = kb.expand_dims(str_i, 0)?;
        // dQ: the resident queries' statistics, loaded once.
        let row_stats = match pass {
            Pass::DkDv => None,
            Pass::Dq => {
                let [ls, dl] = stats(kb, &rows_l, ROWS_PER_CONSUMER, res_at)?;
                Some([kb.expand_dims(ls, 1)?, kb.expand_dims(dl, 1)?])
            }
        };
        let n_acc = match pass {
            Pass::DkDv => 2,
            Pass::Dq => 1,
        };
        let init = (0..n_acc)
            .map(|_| kb.zeros((&acc_g, g_shape), DType::F32))
            .collect::<Result<Vec<_>>>()?;
        kb.mbarrier_wait(res_full, 0)?;

        let out = kb.for_range(0, total, 1, &init, |kb, t, acc| {
            let (st, ph) = ring.stage_of(kb, t)?;
            let (_, s0) = rows_at(kb, t)?;
            let bufs = ring.wait(kb, st, ph, &str_rings)?;
            // The statistics start S and dP: dK/dV's of the step's query columns, from the stage.
            let [ls, dl] = match (row_stats, stat_rings) {
                (Some(st), _) => st,
                (None, Some(rings)) => {
                    let mut v = [zero; 2];
                    for (vi, ring_s) in v.iter_mut().zip(rings) {
                        let buf = kb.index_shared(ring_s, st)?;
                        let x = kb.load_shared(buf, &cols_l)?;
                        *vi = kb.expand_dims(x, 0)?;
                    }
                    v
                }
                (None, None) => unreachable!("dQ has row statistics, dK/dV a ring of them"),
            };
            let s_init = kb.broadcast_to(ls, (&acc_s, s_shape))?;
            let dp_init = kb.broadcast_to(dl, (&acc_s, s_shape))?;
            // Nothing is in flight here: passing the starting values through a wait gives each
            // element a register of its own before S is issued. Otherwise the compiler copies
            // dP's repeated values into place between the two wgmmas, and ptxas waits for S
            // before dP is issued (C7517).
            let [s_init, dp_init] = kb.wgmma_wait(0, &[s_init, dp_init])?[..] else {
                unreachable!("a wait returns the values it is given")
            };
            // The resident blocks' descriptors, made in the step (`min(r, t + consumers)` is `r`,
            // which the compiler cannot see): hoisted out of the loop, their 64-bit values for
            // every k-step would stay live across it.
            let ahead = kb.add(t, consumers as i32)?;
            let r_t = kb.min(r, ahead)?;
            let x = kb.index_shared(res_bufs[0], r_t)?;
            let y = kb.index_shared(res_bufs[1], r_t)?;
            let (a, b) = (bufs[0], bufs[1]);
            let a_t = kb.permute_shared(a, &[1, 0])?;
            let b_t = kb.permute_shared(b, &[1, 0])?;
            let s = kb.wgmma(x, a_t, s_init)?;
            let dp = kb.wgmma(y, b_t, dp_init)?;
            let s = kb.wgmma_wait(1, &[s])?[0];
            let z = kb.mul(s, qk_scale)?;
            let p = kb.math_with(MathOp::Exp2, z, MathPrecision::ApproxFtz)?;
            let p = mask(kb, pass, &c, p, (res_i, str_i, s0, mine0, seq))?;
            let p16 = kb.cast(p, dt)?;
            let dv = match pass {
                Pass::DkDv => Some(kb.wgmma(p16, b, acc[1])?),
                Pass::Dq => None,
            };
            let pending = u32::from(dv.is_some());
            let dp = kb.wgmma_wait(pending, &[dp])?[0];
            // P from its 16-bit copy (which the dV product holds anyway): the f32 scores' 32
            // registers are free while dP and dS are live.
            let p_back = kb.cast(p16, DType::F32)?;
            let ds = kb.mul(p_back, dp)?;
            let ds16 = kb.cast(ds, dt)?;
            let g = kb.wgmma(ds16, a, acc[0])?;
            let done = match dv {
                Some(dv) => kb.wgmma_wait(0, &[g, dv])?,
                None => kb.wgmma_wait(0, &[g])?,
            };
            ring.release(kb, st)?;
            Ok(done)
        })?;
        // Both gradients rounded before either is stored: the f32 accumulators and the stores'
        // addresses are not live together.
        let scaled = kb.mul(out[0], scale)?;
        let mut grads = vec![kb.cast(scaled, dt)?];
        if pass == Pass::DkDv {
            grads.push(kb.cast(out[1], dt)?);
        }
        for (g, ptr) in grads.into_iter().zip(outs) {
            store_rows(kb, ptr, g, &acc_g, g_shape, res_at, dt)?;
        }
        Ok(())
    })?;
    kb.finish()
}

/// `p` with the masked entries set to 0, in a branch that only the blocks needing it take (the
/// mask is exact, so it would be harmless elsewhere). `res_i` `[64, 1]` is each resident row's
/// index, `str_i` `[1, block_m]` each streamed column's within its block, `s0` the block's first
/// streamed row, `first_res` the warpgroup's first resident row. dK/dV (causal only): keys (rows)
/// after their query (column). dQ: keys (columns) past the sequence and, causal, after their
/// query (row).
fn mask(
    kb: &mut KernelBuilder<'_>,
    pass: Pass,
    c: &AttentionBwdConfig,
    p: Value,
    (res_i, str_i, s0, first_res, seq): (Value, Value, Value, Value, Value),
) -> Result<Value> {
    let last_str = kb.add(s0, c.block_m as i32 - 1)?;
    // Some key after some query: the last key after the first query.
    let needed = match pass {
        Pass::DkDv if !c.causal => return Ok(p),
        Pass::DkDv => {
            let last_res = kb.add(first_res, ROWS_PER_CONSUMER as i32 - 1)?;
            kb.gt(last_res, s0)?
        }
        Pass::Dq => {
            let past = kb.ge(last_str, seq)?;
            if c.causal {
                let future = kb.gt(last_str, first_res)?;
                kb.or(past, future)?
            } else {
                past
            }
        }
    };
    let masked = |kb: &mut KernelBuilder<'_>| -> Result<Vec<Value>> {
        let cols = kb.add(str_i, s0)?;
        let m = match pass {
            Pass::DkDv => kb.gt(res_i, cols)?,
            Pass::Dq => {
                let past = kb.ge(cols, seq)?;
                if c.causal {
                    let future = kb.gt(cols, res_i)?;
                    kb.or(past, future)?
                } else {
                    past
                }
            }
        };
        Ok(vec![kb.where_(m, 0.0f32, p)?])
    };
    Ok(kb.if_(needed, masked, |_| Ok(vec![p]))?[0])
}
