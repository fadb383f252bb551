//! attention_bwd: attention backward (the delta pre-pass, dK/dV, dQ: deterministic, no atomics)
//! fed by weft's forward (its O and log-sum-exp), checked against an f64 host reference and
//! timed.
//!
//! `cargo run --release --example attention_bwd --features llvm,cuda [-- sm_90a] [B H S] [bm=N]
//! [bn=N] [warps=N] [wbm=N]`
//!
//! With a GPU: each variant (bf16, D 128 and 64, causal and not) on both engines (`mma.sync`:
//! `AttentionBwdConfig::new`; wgmma + TMA: `AttentionBwdConfig::hopper`, sm_90a only) is checked
//! on 2 query heads over one KV head (GQA 2) × 500 rows against the host (max error over the
//! largest gradient printed), then timed at B4 H16 S8192 for D128 and B4 H32 S8192 for D64 (or
//! the given B H S, H doubled at D64) with `weft::runtime::bench` (CUDA events, L2 flushed
//! before each run, median): the three backward kernels together, TFLOP/s counting 2.5× the
//! forward's `4·B·H·S²·D` (halved when causal), as FlashAttention counts. The two engines run
//! one after the other in the same process, so their ratio is a same-run comparison. `bm=`, `bn=`
//! and `warps=` override the mma.sync tiles, `wbm=` the wgmma engine's streamed rows (32, 64 or
//! 128), for a sweep. Without a GPU (or without `cuda`): the same check in weft's interpreter on
//! 2 heads × 70 rows.
//!
//! The kernels are [`weft::codegen::kernels::attention_bwd_delta_kernel`],
//! [`attention_bwd_dkdv_kernel`](weft::codegen::kernels::attention_bwd_dkdv_kernel) and
//! [`attention_bwd_dq_kernel`](weft::codegen::kernels::attention_bwd_dq_kernel).
mod common;

use common::attention::{with_forward_args, Sequences};
use common::attention_bwd::{gradient_error, GradInputs};
use common::Result;
use weft::codegen::kernels::{
    attention_bwd_delta_kernel, attention_bwd_dkdv_kernel, attention_bwd_dq_kernel,
    attention_bwd_reference, attention_kernel, delta_grid, AttentionBwdConfig, AttentionConfig,
    BwdEngine,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::backend::{BufferOf, KernelOf};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, KernelArgs, LaunchConfig};

fn main() -> Result<()> {
    let target = common::target_arg_or(Target::SM90A)?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        println!("# attention backward on {}", common::gpu::describe(&dev));
        run::<weft::runtime::cuda::Cuda>(
            &dev,
            &ctx,
            target,
            500,
            Some(common::bhs_arg((4, 16, 8192))),
        )?;
        return Ok(());
    }
    println!("# attention backward in the interpreter ({target})");
    let n = run::<weft::runtime::cpu::Cpu>(&common::interpreter(target)?, &ctx, target, 70, None)?;
    common::interpreted(&format!(
        "attention backward on 2 query heads over 1 KV head × 70 rows in {n} variants (bf16, D128 and D64, causal and not, mma.sync and wgmma): dQ, dK, dV match f64"
    ));
    Ok(())
}

/// Values in [-0.5, 0.5), rounded to bf16.
fn values(n: usize, seed: u64) -> Vec<f32> {
    common::random(n, seed)
        .into_iter()
        .map(|x| bf16::from_f32(x / 8.0).to_f32())
        .collect()
}

/// The device buffers and kernels of one backward problem.
struct Problem<B: Backend> {
    q: BufferOf<B, bf16>,
    k: BufferOf<B, bf16>,
    v: BufferOf<B, bf16>,
    d_o: BufferOf<B, bf16>,
    o: BufferOf<B, bf16>,
    lse: BufferOf<B, f32>,
    delta: BufferOf<B, f32>,
    dq: BufferOf<B, bf16>,
    dk: BufferOf<B, bf16>,
    dv: BufferOf<B, bf16>,
}

/// Runs the forward (K and V repeated over the group) for O and lse, then returns the launches of
/// the backward: `(kernel, config, args)` of delta, dK/dV and dQ.
fn setup<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    c: AttentionBwdConfig,
    (hq, seq): (usize, usize),
    qkvo: [&[f32]; 4],
) -> Result<Problem<B>> {
    let d = c.head_dim as usize;
    let group = c.group as usize;
    let up = |x: &[f32]| -> Result<BufferOf<B, bf16>> {
        Ok(dev.upload(&x.iter().map(|&y| bf16::from_f32(y)).collect::<Vec<_>>())?)
    };
    let rep = |x: &[f32]| -> Vec<f32> {
        (0..hq)
            .flat_map(|h| x[(h / group) * seq * d..(h / group + 1) * seq * d].to_vec())
            .collect()
    };
    let (k_rep, v_rep) = (up(&rep(qkvo[1]))?, up(&rep(qkvo[2]))?);
    let mut fc = AttentionConfig::ping_pong(c.dtype, c.causal);
    fc.head_dim = c.head_dim;
    let fk = attention_kernel(ctx, target, fc)?;
    let fwd: KernelOf<B> = fk.load_on::<B>(dev)?;
    let p = Problem::<B> {
        q: up(qkvo[0])?,
        k: up(qkvo[1])?,
        v: up(qkvo[2])?,
        d_o: up(qkvo[3])?,
        o: dev.alloc::<bf16>(hq * seq * d)?,
        lse: dev.alloc::<f32>(hq * seq)?,
        delta: dev.alloc::<f32>(hq * seq)?,
        dq: dev.alloc::<bf16>(hq * seq * d)?,
        dk: dev.alloc::<bf16>(hq / group * seq * d)?,
        dv: dev.alloc::<bf16>(hq / group * seq * d)?,
    };
    let scale = 1.0 / (d as f64).sqrt();
    let bufs = [&p.q, &k_rep, &v_rep, &p.o];
    let seqs = Sequences::fixed(hq, seq);
    let launch = |args: &KernelArgs<'_>, grid| -> Result<()> {
        let cfg = LaunchConfig::for_kernel(grid, fk.signature())?;
        // SAFETY: the forward reads Q, K, V through maps that cover them and writes O and lse.
        unsafe { common::launch_once::<B>(dev, &fwd, &cfg, args) }
    };
    with_forward_args::<B, bf16, _>(dev, &fc, &seqs, bufs, &p.lse, scale, launch)??;
    Ok(p)
}

impl<B: Backend> Problem<B> {
    /// What the gradient kernels read.
    fn grad_inputs(&self) -> GradInputs<'_, B, bf16> {
        GradInputs {
            q: &self.q,
            k: &self.k,
            v: &self.v,
            d_o: &self.d_o,
            lse: &self.lse,
            delta: &self.delta,
        }
    }
}

/// The three backward kernels of `c` on `dev`, launched in order (`time`: timed, median ms).
#[allow(clippy::too_many_arguments)]
fn backward<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    c: AttentionBwdConfig,
    p: &Problem<B>,
    (hq, seq): (usize, usize),
    time: bool,
) -> Result<f64> {
    let d = c.head_dim as usize;
    let hkv = hq / c.group as usize;
    let scale = 1.0 / (d as f64).sqrt();
    let dk = attention_bwd_delta_kernel(ctx, target, c)?;
    let kk = attention_bwd_dkdv_kernel(ctx, target, c)?;
    let qk_k = attention_bwd_dq_kernel(ctx, target, c)?;
    let delta_k: KernelOf<B> = dk.load_on::<B>(dev)?;
    let dkdv_k: KernelOf<B> = kk.load_on::<B>(dev)?;
    let dq_k: KernelOf<B> = qk_k.load_on::<B>(dev)?;
    let rows = (hq * seq) as u64;
    let mut a0 = KernelArgs::new();
    a0.ptr(&p.o).ptr(&p.d_o).ptr(&p.delta).scalar(rows as i32);
    let x = p.grad_inputs();
    let maps = x.maps(dev, &c, (hq, seq))?;
    let a1 = x.args(maps.as_ref(), &[&p.dk, &p.dv], seq, scale);
    let a2 = x.args(maps.as_ref(), &[&p.dq], seq, scale);
    let c0 = LaunchConfig::for_kernel(delta_grid(rows), dk.signature())?;
    let c1 = LaunchConfig::for_kernel(c.dkdv_grid(seq as u64, hkv as u64), kk.signature())?;
    let c2 = LaunchConfig::for_kernel(c.dq_grid(seq as u64, hq as u64), qk_k.signature())?;
    // SAFETY: delta reads O and dO and writes delta of every row; dK/dV and dQ read the inputs
    // of every head and write their gradient rows only.
    unsafe {
        common::launch_once::<B>(dev, &delta_k, &c0, &a0)?;
        common::launch_once::<B>(dev, &dkdv_k, &c1, &a1)?;
        common::launch_once::<B>(dev, &dq_k, &c2, &a2)?;
    }
    if !time {
        return Ok(0.0);
    }
    // SAFETY: as above.
    common::time::<B>(dev, |s| unsafe {
        s.launch(&delta_k, &c0, &a0)?;
        s.launch(&dkdv_k, &c1, &a1)?;
        s.launch(&dq_k, &c2, &a2)
    })
}

/// Checks every variant on 2 query heads (GQA 2) × `check_seq` rows against the host and, given
/// a `timed` B × H × S (a GPU), times it there (multi-head); prints a row per variant. Returns
/// the number of variants.
fn run<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    check_seq: usize,
    timed: Option<(usize, usize, usize)>,
) -> Result<usize> {
    println!();
    println!("| variant | engine | check (2 heads GQA 2 × {check_seq}: max err / max |grad| dQ, dK, dV) | B×H×S | weft ms | weft TFLOP/s |");
    println!("|---|---|---|---|---|---|");
    let mut variants = Vec::new();
    for (d, causal) in [(128, false), (128, true), (64, false), (64, true)] {
        variants.push(AttentionBwdConfig::new(DType::BF16, d, 2, causal));
        // The wgmma engine needs sm_90a.
        if target.supports(weft::target::Feature::Wgmma) {
            variants.push(AttentionBwdConfig::hopper(DType::BF16, d, 2, causal));
        }
    }
    for mut c in variants.iter().copied() {
        let (d, causal) = (c.head_dim, c.causal);
        // `bm=`, `bn=`, `warps=` (mma.sync) and `wbm=` (wgmma) on the command line override the
        // tiles (a sweep).
        for a in std::env::args() {
            let Some((key, val)) = a.split_once('=') else {
                continue;
            };
            let val: u32 = val.parse()?;
            match (key, c.engine) {
                ("bm", BwdEngine::MmaSync) => c.block_m = val,
                ("bn", BwdEngine::MmaSync) => c.block_n = val,
                ("warps", BwdEngine::MmaSync) => c.num_warps = val,
                ("wbm", BwdEngine::Wgmma) => c.block_m = val,
                ("bm" | "bn" | "warps" | "wbm", _) => {}
                _ => return Err(format!("unknown option {a}: bm=, bn=, warps= or wbm=").into()),
            }
        }
        let engine = match c.engine {
            BwdEngine::MmaSync => "mma.sync",
            BwdEngine::Wgmma => "wgmma",
        };
        let dd = d as usize;
        let (hq, seq) = (2, check_seq);
        let q = values(hq * seq * dd, 1);
        let k = values(seq * dd, 2);
        let v = values(seq * dd, 3);
        let d_o = values(hq * seq * dd, 4);
        let p = setup::<B>(dev, ctx, target, c, (hq, seq), [&q, &k, &v, &d_o])?;
        backward::<B>(dev, ctx, target, c, &p, (hq, seq), false)?;
        let scale = 1.0 / (dd as f64).sqrt();
        let want = attention_bwd_reference(&q, &k, &v, &d_o, (hq, 2), seq, dd, scale, causal)
            .ok_or("inputs shorter than their shapes")?;
        let mut errs = Vec::new();
        for (got, want) in [p.dq.to_vec()?, p.dk.to_vec()?, p.dv.to_vec()?]
            .iter()
            .zip(&want)
        {
            errs.push(gradient_error(got.iter().map(|g| g.to_f64()), want));
        }
        let name = format!("bf16 D{d}{}", if causal { " causal" } else { "" });
        if errs.iter().any(|&e| e > 1.6e-2) {
            return Err(format!("{name}: a gradient differs from the host: {errs:?}").into());
        }
        let status = format!("ok ({:.1e}, {:.1e}, {:.1e})", errs[0], errs[1], errs[2]);
        let Some((b, h, s)) = timed else {
            println!("| {name} | {engine} | {status} | | | |");
            continue;
        };
        // D64 at twice the heads (B4 H32 S8K by default), as the anchors measure it.
        let h = if d == 64 { 2 * h } else { h };
        let c = AttentionBwdConfig { group: 1, ..c };
        let n = b * h * s * dd;
        let (q, k, v, d_o) = (values(n, 5), values(n, 6), values(n, 7), values(n, 8));
        let p = setup::<B>(dev, ctx, target, c, (b * h, s), [&q, &k, &v, &d_o])?;
        let ms = backward::<B>(dev, ctx, target, c, &p, (b * h, s), true)?;
        let flops = 2.5 * 4.0 * (b * h) as f64 * (s as f64).powi(2) * dd as f64
            / if causal { 2.0 } else { 1.0 };
        println!(
            "| {name} | {engine} | {status} | {b}×{h}×{s} | {ms:.3} | {:.0} |",
            flops / (ms * 1e9)
        );
    }
    Ok(variants.len())
}
