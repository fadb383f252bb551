//! Attention backward (FlashAttention-2's algorithm), deterministic: three kernels and no float
//! atomics.
//!
//! 1. [`attention_bwd_delta_kernel`]: `delta = rowsum(dO ⊙ O)` per query row (f32), the
//!    softmax-statistics pre-pass: `dS = P ⊙ (dP - delta)`.
//! 2. [`attention_bwd_dkdv_kernel`]: one CTA per key block of a KV head keeps `K_j`, `V_j` in
//!    shared memory and walks every query block of every query head that reads that KV head (GQA:
//!    the group's heads in turn, so dK and dV are summed in a fixed order inside the CTA), with
//!    the products transposed so that the accumulators are `[keys, D]`:
//!    `Sᵀ = K Qᵀ`, `Pᵀ = exp(Sᵀ·scale - lse)` (the forward's log-sum-exp), `dV += Pᵀ dO`,
//!    `dPᵀ = V dOᵀ`, `dSᵀ = Pᵀ ⊙ (dPᵀ - delta)`, `dK += dSᵀ Q`, then `dK ·= scale`.
//! 3. [`attention_bwd_dq_kernel`]: one CTA per query block of a query head walks the key blocks
//!    it sees: `S = Q Kᵀ`, `P`, `dP = dO Vᵀ`, `dS`, `dQ += dS K`, `dQ ·= scale`. Each dQ row is
//!    written once by one CTA, which is what makes the whole backward deterministic.
//!
//! Q, K, V and dO of each block are copied into shared memory with `cp.async` and read as
//! `mma.sync` operands (`ldmatrix` where the tile allows it, a transposed view of the same buffer
//! where the product needs `Qᵀ` or `Kᵀ`); P and dS are rounded to the input type before their
//! products, as in FlashAttention.
//!
//! That is the [`BwdEngine::MmaSync`] path (sm_80 and later). On Hopper (sm_90a),
//! [`BwdEngine::Wgmma`] ([`AttentionBwdConfig::hopper`]) builds the two gradient kernels on wgmma
//! with TMA copies and warp roles instead (`attention_bwd_wgmma.rs`), taking Q, K, V and dO
//! through tensor maps; the delta pre-pass is the same for both.
//!
//! Layouts as the forward's ([`attention_kernel`](super::attention_kernel)): Q, O, dO and dQ
//! `[batch · heads_q · seq, D]` row-major, K, V, dK and dV `[batch · heads_kv · seq, D]`, the
//! log-sum-exp (natural log, as the forward writes it) and delta `[batch · heads_q · seq]` f32;
//! query head `h` reads KV head `h / group`. Any sequence length (rows past it masked), D 64 or
//! 128, causal or not.

use crate::layout::encoding::helpers::{default_nvmma_shared, mma_for_dot};
use crate::layout::encoding::{CgaLayout, DotOperand, Encoding, Slice};

use super::super::{DType, Kernel, KernelBuilder, ReduceOp, Result, Target, Value};
use super::attention_bwd_config::{AttentionBwdConfig, BwdEngine};
use super::attention_bwd_rows::{row_stat, rows_of, store_rows};
use super::{tile_coords, tile_layout, Context, Tile2d};

/// Rows per CTA of the delta pre-pass.
const DELTA_ROWS: u32 = 16;

/// The grid of [`attention_bwd_delta_kernel`] for `rows` query rows (all heads).
pub fn delta_grid(rows: u64) -> (u32, u32, u32) {
    (rows.div_ceil(u64::from(DELTA_ROWS)) as u32, 1, 1)
}

/// `delta[r] = Σ_d dO[r, d] · O[r, d]` in f32 for `r < rows`. Parameters: `o: *T, d_o: *T,
/// delta: *f32, rows: i32`. Grid: [`delta_grid`].
pub fn attention_bwd_delta_kernel(
    ctx: &Context,
    target: Target,
    c: AttentionBwdConfig,
) -> Result<Kernel<'_>> {
    c.check()?;
    let mut kb = KernelBuilder::new(ctx, target, "attn_bwd_delta", 4)?;
    let o = kb.arg_ptr("o", c.dtype, 16)?;
    let d_o = kb.arg_ptr("d_o", c.dtype, 16)?;
    let delta = kb.arg_ptr("delta", DType::F32, 4)?;
    let rows = kb.arg_i32("rows", 1)?;
    let layout = Encoding::from(tile_layout(
        target,
        Tile2d {
            rows: DELTA_ROWS,
            cols: c.head_dim,
            per_thread: 4,
            num_warps: 4,
        },
    )?);
    let pid = kb.program_id(0)?;
    let r0 = kb.mul(pid, DELTA_ROWS as i32)?;
    let shape = [u64::from(DELTA_ROWS), u64::from(c.head_dim)];
    let (r, cl) = tile_coords(&mut kb, &layout, shape, Some(r0), None)?;
    let ok = kb.lt(r, rows)?;
    let off = kb.mul(r, c.head_dim as i32)?;
    let off = kb.add(off, cl)?;
    let po = kb.add(o, off)?;
    let pd = kb.add(d_o, off)?;
    let ov = kb.load(po, Some(ok), None)?;
    let dv = kb.load(pd, Some(ok), None)?;
    let ov = kb.cast(ov, DType::F32)?;
    let dv = kb.cast(dv, DType::F32)?;
    let prod = kb.mul(ov, dv)?;
    let sum = kb.reduce(prod, 1, ReduceOp::Sum)?;
    let r1 = kb.arange(0, DELTA_ROWS as i32, Slice::new(1, layout))?;
    let r1 = kb.add(r1, r0)?;
    let ok1 = kb.lt(r1, rows)?;
    let p = kb.add(delta, r1)?;
    kb.store(p, sum, Some(ok1))?;
    kb.finish()
}

/// The parameters both gradient kernels take, in this order: `q, k, v, d_o: *T, lse, delta:
/// *f32`, then each kernel's outputs, then `seq: i32, qk_scale: f32, scale: f32` (`qk_scale` is
/// `scale · log2(e)`).
struct BwdParams {
    q: Value,
    k: Value,
    v: Value,
    d_o: Value,
    lse: Value,
    delta: Value,
    /// The kernel's outputs, in the order named.
    outs: Vec<Value>,
    seq: Value,
    qk_scale: Value,
    scale: Value,
}

/// The layouts of a pass's two kinds of product over `rows` rows: scores `[rows, cols]` (A
/// `[rows, D]`, B `[D, cols]`) and gradients `[rows, D]` (A `[rows, cols]`, B `[cols, D]`).
struct Products {
    acc_s: Encoding,
    a_s: DotOperand,
    b_s: DotOperand,
    acc_g: Encoding,
    a_g: DotOperand,
    b_g: DotOperand,
}

/// A gradient kernel's builder named `name` (`_causal` appended when causal), its parameters
/// with outputs `outs`, and the layouts of its products over `rows × cols` scores.
fn start<'c>(
    ctx: &'c Context,
    target: Target,
    c: &AttentionBwdConfig,
    name: &str,
    outs: &[&str],
    [rows, cols]: [u32; 2],
) -> Result<(KernelBuilder<'c>, BwdParams, Products)> {
    c.check()?;
    let name = if c.causal {
        format!("{name}_causal")
    } else {
        name.to_string()
    };
    let mut kb = KernelBuilder::new(ctx, target, &name, c.num_warps)?;
    let dt = c.dtype;
    let ins = [
        kb.arg_ptr("q", dt, 16)?,
        kb.arg_ptr("k", dt, 16)?,
        kb.arg_ptr("v", dt, 16)?,
        kb.arg_ptr("d_o", dt, 16)?,
        kb.arg_ptr("lse", DType::F32, 4)?,
        kb.arg_ptr("delta", DType::F32, 4)?,
    ];
    let outs = outs
        .iter()
        .map(|o| kb.arg_ptr(o, dt, 16))
        .collect::<Result<Vec<_>>>()?;
    let p = BwdParams {
        q: ins[0],
        k: ins[1],
        v: ins[2],
        d_o: ins[3],
        lse: ins[4],
        delta: ins[5],
        outs,
        seq: kb.arg_i32("seq", 1)?,
        qk_scale: kb.arg_f32("qk_scale")?,
        scale: kb.arg_f32("scale")?,
    };
    let (r, n, d, w) = (
        u64::from(rows),
        u64::from(cols),
        u64::from(c.head_dim),
        c.num_warps,
    );
    let (acc_s, a_s, b_s) = mma_for_dot(2, r, n, w, 16)?;
    let (acc_g, a_g, b_g) = mma_for_dot(2, r, d, w, 16)?;
    let b_layout = "mma v2 has a B layout";
    let products = Products {
        acc_s: acc_s.into(),
        a_s,
        b_s: b_s.expect(b_layout),
        acc_g: acc_g.into(),
        a_g,
        b_g: b_g.expect(b_layout),
    };
    Ok((kb, p, products))
}

/// Two `[rows, D]` blocks a loop streams together (Q and dO, or K and V), in `stages` buffers
/// each: with two, the loop's step `t` reads buffers `t % 2` while the copy of step `t + 1`
/// fills the others; with one, a block loaded once.
struct PairRing {
    bufs: [Value; 2],
    stages: i32,
    copy: Encoding,
    shape: [u64; 2],
}

impl PairRing {
    /// Two buffers of `stages` stages each (D contiguous, NVMMA-swizzled for `ldmatrix`), filled
    /// by 16-byte `cp.async` copies.
    fn new(
        kb: &mut KernelBuilder<'_>,
        target: Target,
        c: &AttentionBwdConfig,
        rows: u32,
        stages: u32,
    ) -> Result<PairRing> {
        let shape = [u64::from(rows), u64::from(c.head_dim)];
        let bits = c.dtype.bits();
        let sl = default_nvmma_shared(&shape, bits, false, false, CgaLayout::single())?;
        let alloc = |kb: &mut KernelBuilder<'_>| match stages {
            1 => kb.alloc_shared(c.dtype, &shape, &sl),
            n => kb.alloc_shared_buffers(c.dtype, u64::from(n), &shape, &sl),
        };
        let (a, b) = (alloc(kb)?, alloc(kb)?);
        let copy = tile_layout(
            target,
            Tile2d {
                rows,
                cols: c.head_dim,
                per_thread: 8,
                num_warps: c.num_warps,
            },
        )?;
        Ok(PairRing {
            bufs: [a, b],
            stages: stages as i32,
            copy: Encoding::from(copy),
            shape,
        })
    }

    /// Starts copying the rows `at` of `srcs` (rows past the sequence as zeros) into step `t`'s
    /// buffers, one commit group.
    fn issue(
        &self,
        kb: &mut KernelBuilder<'_>,
        t: Value,
        srcs: [Value; 2],
        at: (Value, Value, Value),
    ) -> Result<()> {
        let (off, ok) = rows_of(kb, &self.copy, self.shape, at)?;
        for (buf, src) in self.step(kb, t)?.into_iter().zip(srcs) {
            let p = kb.add(src, off)?;
            kb.async_copy_global_to_shared(buf, p, Some(ok))?;
        }
        kb.async_commit_group().map(|_| ())
    }

    /// Step `t`'s two buffers.
    fn step(&self, kb: &mut KernelBuilder<'_>, t: Value) -> Result<[Value; 2]> {
        if self.stages == 1 {
            return Ok(self.bufs);
        }
        let st = kb.rem(t, self.stages)?;
        Ok([
            kb.index_shared(self.bufs[0], st)?,
            kb.index_shared(self.bufs[1], st)?,
        ])
    }

    /// The head of step `t` of the loop: once every warp is past step `t - 1`, starts the copy
    /// of step `t + 1` (rows `next`) into its buffers, waits for step `t`'s and returns them.
    fn advance(
        &self,
        kb: &mut KernelBuilder<'_>,
        t: Value,
        srcs: [Value; 2],
        next: (Value, Value, Value),
    ) -> Result<[Value; 2]> {
        kb.barrier()?;
        let t1 = kb.add(t, 1)?;
        self.issue(kb, t1, srcs, next)?;
        kb.async_wait_group(1)?;
        kb.barrier()?;
        self.step(kb, t)
    }
}

/// `block` read as the B operand `layout` of a product: as stored (`[rows, D]`), or transposed
/// (`[D, rows]`, for `Qᵀ`, `dOᵀ`, `Kᵀ`, `Vᵀ`).
fn b_operand(
    kb: &mut KernelBuilder<'_>,
    block: Value,
    layout: &DotOperand,
    transposed: bool,
) -> Result<Value> {
    if transposed {
        let t = kb.permute_shared(block, &[1, 0])?;
        kb.ldmatrix(t, layout)
    } else {
        kb.ldmatrix(block, layout)
    }
}

/// Sets `x` to zero where `masked` (an i1 tile broadcastable to it).
fn zero_where(kb: &mut KernelBuilder<'_>, masked: Value, x: Value) -> Result<Value> {
    kb.where_(masked, 0.0f32, x)
}

/// Builds the dK/dV kernel. Parameters: `q, k, v, d_o: *T, lse, delta: *f32, dk, dv: *T, seq:
/// i32, qk_scale: f32, scale: f32` (`Wgmma`: `q_map, k_map, v_map, d_o_map` tensor maps first).
/// Grid: [`AttentionBwdConfig::dkdv_grid`]. See the module docs.
pub fn attention_bwd_dkdv_kernel(
    ctx: &Context,
    target: Target,
    c: AttentionBwdConfig,
) -> Result<Kernel<'_>> {
    if c.engine == BwdEngine::Wgmma {
        return super::attention_bwd_wgmma::dkdv_kernel(ctx, target, c);
    }
    let (bm, bn, d) = (c.block_m, c.block_n, c.head_dim);
    let (mut kb, p, pr) = start(ctx, target, &c, "attn_bwd_dkdv", &["dk", "dv"], [bn, bm])?;
    let (dt, seq, qk_scale, scale) = (c.dtype, p.seq, p.qk_scale, p.scale);
    let (dk_out, dv_out) = (p.outs[0], p.outs[1]);
    // Sᵀ, dPᵀ: [keys, queries]; dK, dV: [keys, D].
    let Products {
        acc_s: acc_nm,
        a_s: a_nm,
        b_s: b_nm,
        acc_g: acc_nd,
        a_g: a_nd,
        b_g: b_nd,
    } = pr;

    let jb = kb.program_id(0)?;
    let bhk = kb.program_id(1)?;
    let k0 = kb.mul(jb, bn as i32)?;
    let kv_head0 = kb.mul(bhk, seq)?;
    let kv_at = (kv_head0, k0, seq);
    let kd_shape = [u64::from(bn), u64::from(d)];
    // K and V of the block stay in shared memory (read as A operands at each step: in
    // registers they would cost a quarter of the thread's budget).
    let kv = PairRing::new(&mut kb, target, &c, bn, 1)?;
    let zero = kb.i32(0)?;
    kv.issue(&mut kb, zero, [p.k, p.v], kv_at)?;
    let [k_s, v_s] = kv.step(&mut kb, zero)?;

    let ring = PairRing::new(&mut kb, target, &c, bm, 2)?;
    let srcs = [p.q, p.d_o];
    let cols_l = Slice::new(0, acc_nm.clone());
    // Key index of each Sᵀ row, query index of each column (within the head), for masks.
    let key_r = kb.arange(0, bn as i32, Slice::new(1, acc_nm.clone()))?;
    let key_r = kb.add(key_r, k0)?;
    let key_r = kb.expand_dims(key_r, 1)?;
    let q_c = kb.arange(0, bm as i32, cols_l.clone())?;
    let q_c = kb.expand_dims(q_c, 0)?;
    // Causal: query blocks from the one holding this block's first key.
    let first = if c.causal {
        kb.div(k0, bm as i32)?
    } else {
        kb.i32(0)?
    };
    let seq_r = kb.add(seq, bm as i32 - 1)?;
    let n_q = kb.div(seq_r, bm as i32)?;
    let ln2e = std::f64::consts::LOG2_E;

    let dk0 = kb.zeros((&acc_nd, kd_shape), DType::F32)?;
    let dv0 = kb.zeros((&acc_nd, kd_shape), DType::F32)?;
    // One loop over (query head of the group, query block) pairs, `count` blocks a head; step
    // `t` past the last copies nothing (its rows start at the sequence's end).
    let count = kb.sub(n_q, first)?;
    let total = kb.mul(count, c.group as i32)?;
    let rows_at = |kb: &mut KernelBuilder<'_>, t: Value| -> Result<(Value, Value, Value)> {
        let g = kb.div(t, count)?;
        let i = kb.rem(t, count)?;
        let i = kb.add(i, first)?;
        let hq = kb.mul(bhk, c.group as i32)?;
        let hq = kb.add(hq, g)?;
        let q_head0 = kb.mul(hq, seq)?;
        let q0 = kb.mul(i, bm as i32)?;
        let live = kb.lt(t, total)?;
        let q0 = kb.where_(live, q0, seq)?;
        Ok((q_head0, q0, seq))
    };
    let at0 = rows_at(&mut kb, zero)?;
    ring.issue(&mut kb, zero, srcs, at0)?;
    let out = kb.for_range(0, total, 1, &[dk0, dv0], |kb, t, acc| {
        let (dk, dv) = (acc[0], acc[1]);
        let at = rows_at(kb, t)?;
        let q0 = at.1;
        let t1 = kb.add(t, 1)?;
        let next = rows_at(kb, t1)?;
        let [q_s, do_s] = ring.advance(kb, t, srcs, next)?;
        // Pᵀ = exp2(Sᵀ · qk_scale - lse · log2(e)); rows past the sequence have lse = +inf.
        let q_t = b_operand(kb, q_s, &b_nm, true)?;
        let s0 = kb.zeros((&acc_nm, [u64::from(bn), u64::from(bm)]), DType::F32)?;
        let k_a = kb.ldmatrix(k_s, &a_nm)?;
        let s_t = kb.dot(k_a, q_t, s0)?;
        let lse = row_stat(kb, p.lse, cols_l.clone(), bm, at, f32::INFINITY)?;
        let neg_lse = kb.mul(lse, -ln2e)?;
        let neg_lse = kb.expand_dims(neg_lse, 0)?;
        let x = kb.fma(s_t, qk_scale, neg_lse)?;
        let mut p_t = kb.exp2(x)?;
        if c.causal {
            let qi = kb.add(q_c, q0)?;
            let future = kb.gt(key_r, qi)?;
            p_t = zero_where(kb, future, p_t)?;
        }
        // dV += Pᵀ dO.
        let do_b = b_operand(kb, do_s, &b_nd, false)?;
        let p16 = kb.cast(p_t, dt)?;
        let p16 = kb.convert_layout(p16, &a_nd)?;
        let dv = kb.dot(p16, do_b, dv)?;
        // dSᵀ = Pᵀ ⊙ (V dOᵀ - delta); dK += dSᵀ Q.
        let do_t = b_operand(kb, do_s, &b_nm, true)?;
        let dp0 = kb.zeros((&acc_nm, [u64::from(bn), u64::from(bm)]), DType::F32)?;
        let v_a = kb.ldmatrix(v_s, &a_nm)?;
        let dp_t = kb.dot(v_a, do_t, dp0)?;
        let delta = row_stat(kb, p.delta, cols_l.clone(), bm, at, 0.0)?;
        let delta = kb.expand_dims(delta, 0)?;
        let ds_t = kb.sub(dp_t, delta)?;
        let ds_t = kb.mul(p_t, ds_t)?;
        let ds16 = kb.cast(ds_t, dt)?;
        let ds16 = kb.convert_layout(ds16, &a_nd)?;
        let q_b = b_operand(kb, q_s, &b_nd, false)?;
        let dk = kb.dot(ds16, q_b, dk)?;
        Ok(vec![dk, dv])
    })?;
    kb.async_wait_group(0)?;
    let dk = kb.mul(out[0], scale)?;
    store_rows(&mut kb, dk_out, dk, &acc_nd, kd_shape, kv_at, dt)?;
    store_rows(&mut kb, dv_out, out[1], &acc_nd, kd_shape, kv_at, dt)?;
    kb.finish()
}

/// Builds the dQ kernel. Parameters: `q, k, v, d_o: *T, lse, delta: *f32, dq: *T, seq: i32,
/// qk_scale: f32, scale: f32` (`Wgmma`: `q_map, k_map, v_map, d_o_map` tensor maps first).
/// Grid: [`AttentionBwdConfig::dq_grid`]. See the module docs.
pub fn attention_bwd_dq_kernel(
    ctx: &Context,
    target: Target,
    c: AttentionBwdConfig,
) -> Result<Kernel<'_>> {
    if c.engine == BwdEngine::Wgmma {
        return super::attention_bwd_wgmma::dq_kernel(ctx, target, c);
    }
    let (bm, bn, d) = (c.block_m, c.block_n, c.head_dim);
    let (mut kb, p, pr) = start(ctx, target, &c, "attn_bwd_dq", &["dq"], [bm, bn])?;
    let (dt, seq, qk_scale, scale) = (c.dtype, p.seq, p.qk_scale, p.scale);
    let dq_out = p.outs[0];
    // S, dP: [queries, keys]; dQ: [queries, D].
    let Products {
        acc_s: acc_mn,
        a_s: a_mn,
        b_s: b_mn,
        acc_g: acc_md,
        a_g: a_md,
        b_g: b_md,
    } = pr;

    let ib = kb.program_id(0)?;
    let bhq = kb.program_id(1)?;
    let q0 = kb.mul(ib, bm as i32)?;
    let q_head0 = kb.mul(bhq, seq)?;
    let q_at = (q_head0, q0, seq);
    let bhk = kb.div(bhq, c.group as i32)?;
    let kv_head0 = kb.mul(bhk, seq)?;
    let qd_shape = [u64::from(bm), u64::from(d)];
    let a_enc = Encoding::from(a_mn);
    let (off, ok) = rows_of(&mut kb, &a_enc, qd_shape, q_at)?;
    let qp = kb.add(p.q, off)?;
    let q_a = kb.load(qp, Some(ok), None)?;
    let dop = kb.add(p.d_o, off)?;
    let do_a = kb.load(dop, Some(ok), None)?;
    let rows_l = Slice::new(1, acc_mn.clone());
    let lse = row_stat(&mut kb, p.lse, rows_l.clone(), bm, q_at, f32::INFINITY)?;
    let neg_lse = kb.mul(lse, -std::f64::consts::LOG2_E)?;
    let neg_lse = kb.expand_dims(neg_lse, 1)?;
    let delta = row_stat(&mut kb, p.delta, rows_l, bm, q_at, 0.0)?;
    let delta = kb.expand_dims(delta, 1)?;

    let ring = PairRing::new(&mut kb, target, &c, bn, 2)?;
    let srcs = [p.k, p.v];
    let q_r = kb.arange(0, bm as i32, Slice::new(1, acc_mn.clone()))?;
    let q_r = kb.add(q_r, q0)?;
    let q_r = kb.expand_dims(q_r, 1)?;
    let key_c = kb.arange(0, bn as i32, Slice::new(0, acc_mn.clone()))?;
    let key_c = kb.expand_dims(key_c, 0)?;
    // Key blocks up to the last query of this block (causal), else all.
    let end = if c.causal {
        let last = kb.add(q0, bm as i32)?;
        kb.min(last, seq)?
    } else {
        seq
    };
    let end_r = kb.add(end, bn as i32 - 1)?;
    let n_k = kb.div(end_r, bn as i32)?;

    let dq0 = kb.zeros((&acc_md, qd_shape), DType::F32)?;
    // Step j's keys; past the last block, none (rows from the sequence's end).
    let rows_at = |kb: &mut KernelBuilder<'_>, j: Value| -> Result<(Value, Value, Value)> {
        let k0 = kb.mul(j, bn as i32)?;
        let live = kb.lt(j, n_k)?;
        let k0 = kb.where_(live, k0, seq)?;
        Ok((kv_head0, k0, seq))
    };
    let zero = kb.i32(0)?;
    let at0 = rows_at(&mut kb, zero)?;
    ring.issue(&mut kb, zero, srcs, at0)?;
    let dq = kb.for_range(0, n_k, 1, &[dq0], |kb, j, acc| {
        let k0 = kb.mul(j, bn as i32)?;
        let j1 = kb.add(j, 1)?;
        let next = rows_at(kb, j1)?;
        let [k_s, v_s] = ring.advance(kb, j, srcs, next)?;
        let k_t = b_operand(kb, k_s, &b_mn, true)?;
        let s0 = kb.zeros((&acc_mn, [u64::from(bm), u64::from(bn)]), DType::F32)?;
        let s = kb.dot(q_a, k_t, s0)?;
        let x = kb.fma(s, qk_scale, neg_lse)?;
        let pm = kb.exp2(x)?;
        // Keys past the sequence (zeros in the buffer, not -inf) and, causal, after the query.
        let kj = kb.add(key_c, k0)?;
        let mut masked = kb.ge(kj, seq)?;
        if c.causal {
            let future = kb.gt(kj, q_r)?;
            masked = kb.or(masked, future)?;
        }
        let pm = zero_where(kb, masked, pm)?;
        let v_t = b_operand(kb, v_s, &b_mn, true)?;
        let dp0 = kb.zeros((&acc_mn, [u64::from(bm), u64::from(bn)]), DType::F32)?;
        let dp = kb.dot(do_a, v_t, dp0)?;
        let ds = kb.sub(dp, delta)?;
        let ds = kb.mul(pm, ds)?;
        let ds16 = kb.cast(ds, dt)?;
        let ds16 = kb.convert_layout(ds16, &a_md)?;
        let k_b = b_operand(kb, k_s, &b_md, false)?;
        Ok(vec![kb.dot(ds16, k_b, acc[0])?])
    })?[0];
    kb.async_wait_group(0)?;
    let dq = kb.mul(dq, scale)?;
    store_rows(&mut kb, dq_out, dq, &acc_md, qd_shape, q_at, dt)?;
    kb.finish()
}

/// The gradients of attention on the host in f64: `q`, `d_o` `[heads_q, seq, d]`, `k`, `v`
/// `[heads_kv, seq, d]` (query head `h` reads KV head `h / group`); returns dQ, dK, dV in the
/// same shapes. `None` when `group` does not divide `heads_q` or an input is shorter than its
/// shape.
#[allow(clippy::too_many_arguments)] // the math's own inputs, named as the tests state them
pub fn attention_bwd_reference(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    d_o: &[f32],
    (heads_q, group): (usize, usize),
    seq: usize,
    d: usize,
    scale: f64,
    causal: bool,
) -> Option<[Vec<f64>; 3]> {
    if group == 0 || heads_q % group != 0 {
        return None;
    }
    let heads_kv = heads_q / group;
    let (nq, nkv) = (heads_q * seq * d, heads_kv * seq * d);
    if q.len() < nq || d_o.len() < nq || k.len() < nkv || v.len() < nkv {
        return None;
    }
    let mut dq = vec![0f64; heads_q * seq * d];
    let mut dk = vec![0f64; heads_kv * seq * d];
    let mut dv = vec![0f64; heads_kv * seq * d];
    let mut pr = vec![0f64; seq];
    let mut dp = vec![0f64; seq];
    for h in 0..heads_q {
        let (qb, kb) = (h * seq * d, (h / group) * seq * d);
        for i in 0..seq {
            let keys = if causal { i + 1 } else { seq };
            let row = |x: &[f32], base: usize, r: usize| -> Vec<f64> {
                x[base + r * d..base + r * d + d]
                    .iter()
                    .map(|&e| f64::from(e))
                    .collect()
            };
            let (qi, doi) = (row(q, qb, i), row(d_o, qb, i));
            let mut mx = f64::NEG_INFINITY;
            for (j, pj) in pr.iter_mut().enumerate().take(keys) {
                let kj = row(k, kb, j);
                *pj = qi.iter().zip(&kj).map(|(a, b)| a * b).sum::<f64>() * scale;
                mx = mx.max(*pj);
            }
            let sum: f64 = pr[..keys].iter().map(|s| (s - mx).exp()).sum();
            for pj in pr.iter_mut().take(keys) {
                *pj = (*pj - mx).exp() / sum;
            }
            // dP = dO Vᵀ, delta = Σ P dP (= rowsum(dO ⊙ O)).
            let mut delta = 0f64;
            for (j, dpj) in dp.iter_mut().enumerate().take(keys) {
                let vj = row(v, kb, j);
                *dpj = doi.iter().zip(&vj).map(|(a, b)| a * b).sum();
                delta += pr[j] * *dpj;
            }
            for j in 0..keys {
                let ds = pr[j] * (dp[j] - delta) * scale;
                for t in 0..d {
                    dq[qb + i * d + t] += ds * f64::from(k[kb + j * d + t]);
                    dk[kb + j * d + t] += ds * qi[t];
                    dv[kb + j * d + t] += pr[j] * doi[t];
                }
            }
        }
    }
    Some([dq, dk, dv])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference's gradients against central differences of the forward reference's
    /// `Σ O ⊙ dO`, for every input element, GQA 2, causal and not.
    #[test]
    fn reference_gradients_match_finite_differences() {
        let (hq, group, seq, d) = (2, 2, 5, 3);
        let gen = |n: usize, seed: u32| -> Vec<f32> {
            (0..n)
                .map(|i| {
                    (((i as u32 + 1).wrapping_mul(2654435761) ^ seed) % 1000) as f32 / 500.0 - 1.0
                })
                .collect()
        };
        let (q, k, v, d_o) = (
            gen(hq * seq * d, 1),
            gen(seq * d, 2),
            gen(seq * d, 3),
            gen(hq * seq * d, 4),
        );
        let scale = 0.7;
        for causal in [false, true] {
            let loss = |q: &[f32], k: &[f32], v: &[f32]| -> f64 {
                let rep = |x: &[f32]| [x, x].concat();
                let (o, _) = super::super::attention_reference(
                    q,
                    &rep(k),
                    &rep(v),
                    hq,
                    seq,
                    d,
                    scale,
                    causal,
                );
                o.iter()
                    .zip(&d_o)
                    .map(|(a, b)| f64::from(*a) * f64::from(*b))
                    .sum()
            };
            let [dq, dk, dv] =
                attention_bwd_reference(&q, &k, &v, &d_o, (hq, group), seq, d, scale, causal)
                    .unwrap();
            let eps = 1e-2f32;
            for (which, grad) in [(0, &dq), (1, &dk), (2, &dv)] {
                for (i, &g) in grad.iter().enumerate() {
                    let mut x = [q.clone(), k.clone(), v.clone()];
                    x[which][i] += eps;
                    let up = loss(&x[0], &x[1], &x[2]);
                    x[which][i] -= 2.0 * eps;
                    let down = loss(&x[0], &x[1], &x[2]);
                    let fd = (up - down) / (2.0 * f64::from(eps));
                    assert!(
                        (fd - g).abs() < 2e-3,
                        "causal {causal} input {which} [{i}]: {fd} vs {g}"
                    );
                }
            }
        }
        assert!(attention_bwd_reference(&q, &k, &v, &d_o, (hq, 3), seq, d, 1.0, false).is_none());
        assert!(
            attention_bwd_reference(&q, &k[1..], &v, &d_o, (2, 2), seq, d, 1.0, false).is_none()
        );
    }
}
