//! attention_fp8: FP8 forward attention (e4m3 Q, K, V with per-tensor scales, bf16 O) checked
//! against an f64 host reference, and timed next to weft's bf16 forward (ping-pong) in the same
//! run.
//!
//! `cargo run --release --example attention_fp8 --features llvm,cuda [-- sm_90a] [B H S]`
//!
//! With a GPU: each variant (the ping-pong schedule with V's rows or `Vᵀ`, the serial one with
//! `Vᵀ`; D 128 and 64, causal and not) is checked on 2 heads × 496 rows
//! (max abs error of O printed; the bound is `max|V| / 16`, P being rounded to e4m3), then timed
//! at B4 H16 S8192 (or the given B H S; S a multiple of 16) with `weft::runtime::bench` (CUDA
//! events, L2 flushed before each run, median), and the bf16 ping-pong forward on the same shape
//! right after: TFLOP/s of both (`4·B·H·S²·D`, halved when causal) and their ratio. Without a GPU
//! (or without `cuda`): the check in weft's interpreter on 2 heads × 48 rows.
//!
//! The kernel is [`weft::codegen::kernels::attention_fp8_kernel`].
mod common;

use common::Result;
use weft::codegen::kernels::{
    attention_fp8_kernel, attention_kernel, attention_reference, AttentionConfig,
    AttentionSchedule, Fp8AttentionConfig,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::backend::KernelOf;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, KernelArgs, LaunchConfig, F8E4M3};

/// The per-tensor scales of Q, K and V (stored values up to about 16).
const SCALES: [f32; 3] = [0.03, 0.05, 0.06];

fn main() -> Result<()> {
    let target = common::target_arg_or(Target::SM90A)?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        println!("# fp8 attention forward on {}", common::gpu::describe(&dev));
        run::<weft::runtime::cuda::Cuda>(
            &dev,
            &ctx,
            target,
            496,
            Some(common::bhs_arg((4, 16, 8192))),
        )?;
        return Ok(());
    }
    println!("# fp8 attention forward in the interpreter ({target})");
    let n = run::<weft::runtime::cpu::Cpu>(&common::interpreter(target)?, &ctx, target, 48, None)?;
    common::interpreted(&format!(
        "fp8 attention forward on 2 heads × 48 rows in {n} variants (ping-pong and serial, D128 and D64, causal and not): O and lse match f64"
    ));
    Ok(())
}

/// The fp8 kernel on `heads` heads of `seq` rows of stored e4m3 values (`q8`, `k8`, `v8`, each
/// `[heads · seq, D]`): returns O and the lse, and (`time`) the median ms.
#[allow(clippy::too_many_arguments)]
fn run_fp8<B: Backend>(
    dev: &B::Device,
    kernel: &KernelOf<B>,
    sig: &weft::runtime::KernelSignature,
    c: Fp8AttentionConfig,
    (heads, seq): (usize, usize),
    [q8, k8, v8]: [&[F8E4M3]; 3],
    time: bool,
) -> Result<(Vec<f32>, Vec<f32>, f64)> {
    let d = c.head_dim as usize;
    let n = heads * seq * d;
    // V's rows as given, or Vᵀ per head: [heads · D, seq].
    let (vt, v_dims, v_stride) = if c.v_transposed {
        let mut vt = vec![F8E4M3(0); n];
        for h in 0..heads {
            for s in 0..seq {
                for t in 0..d {
                    vt[(h * d + t) * seq + s] = v8[(h * seq + s) * d + t];
                }
            }
        }
        (vt, [(heads * d) as u64, seq as u64], seq as u64)
    } else {
        (v8.to_vec(), [(heads * seq) as u64, d as u64], d as u64)
    };
    let (dq, dk, dvt) = (dev.upload(q8)?, dev.upload(k8)?, dev.upload(&vt)?);
    let mut o = dev.alloc::<bf16>(n)?;
    o.fill_bytes(0xFF)?;
    let lse = dev.alloc::<f32>(heads * seq)?;
    let rows = (heads * seq) as u64;
    let qm = dev.tensor_map(
        &dq,
        &[rows, d as u64],
        &[d as u64],
        &c.q_box(),
        c.qk_swizzle(),
    )?;
    let km = dev.tensor_map(
        &dk,
        &[rows, d as u64],
        &[d as u64],
        &c.kv_box(),
        c.qk_swizzle(),
    )?;
    let vtm = dev.tensor_map(&dvt, &v_dims, &[v_stride], &c.v_box(), c.v_swizzle())?;
    let scale = 1.0 / (d as f64).sqrt();
    let mut args = KernelArgs::new();
    args.tensor_map(&qm)
        .tensor_map(&km)
        .tensor_map(&vtm)
        .ptr(&o)
        .ptr(&lse)
        .scalar(seq as i32)
        .scalar((scale * std::f64::consts::LOG2_E) as f32 * SCALES[0] * SCALES[1])
        .scalar(SCALES[2]);
    let cfg = LaunchConfig::for_kernel(c.grid(seq as u64, heads as u64), sig)?;
    // SAFETY: the kernel reads Q, K, V (or Vᵀ) through maps that cover them and writes O and lse.
    unsafe { common::launch_once::<B>(dev, kernel, &cfg, &args)? };
    let ms = if time {
        // SAFETY: as above.
        common::time::<B>(dev, |s| unsafe { s.launch(kernel, &cfg, &args) })?
    } else {
        0.0
    };
    let got = o.to_vec()?.into_iter().map(|x| x.to_f32()).collect();
    Ok((got, lse.to_vec()?, ms))
}

/// Median ms of the bf16 ping-pong forward of `c`'s shape on `heads` × `seq` (the same-run
/// baseline).
#[cfg_attr(not(feature = "cuda"), allow(dead_code))] // a GPU run only
fn time_bf16<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    c: Fp8AttentionConfig,
    (heads, seq): (usize, usize),
) -> Result<f64> {
    let mut fc = AttentionConfig::ping_pong(DType::BF16, c.causal);
    fc.head_dim = c.head_dim;
    let k = attention_kernel(ctx, target, fc)?;
    let kernel: KernelOf<B> = k.load_on::<B>(dev)?;
    let d = c.head_dim as usize;
    let n = heads * seq * d;
    let x: Vec<bf16> = common::random(n, 9)
        .into_iter()
        .map(|v| bf16::from_f32(v / 8.0))
        .collect();
    let (dq, dk, dv) = (dev.upload(&x)?, dev.upload(&x)?, dev.upload(&x)?);
    let o = dev.alloc::<bf16>(n)?;
    let lse = dev.alloc::<f32>(heads * seq)?;
    let dims = [(heads * seq) as u64, d as u64];
    let sw = fc.swizzle();
    let qm = dev.tensor_map(&dq, &dims, &[d as u64], &fc.q_box(), sw)?;
    let km = dev.tensor_map(&dk, &dims, &[d as u64], &fc.kv_box(), sw)?;
    let vm = dev.tensor_map(&dv, &dims, &[d as u64], &fc.kv_box(), sw)?;
    let om = dev.tensor_map(&o, &dims, &[d as u64], &fc.q_box(), sw)?;
    let mut args = KernelArgs::new();
    args.tensor_map(&qm)
        .tensor_map(&km)
        .tensor_map(&vm)
        .tensor_map(&om)
        .ptr(&o)
        .ptr(&lse)
        .scalar(seq as i32)
        .scalar((std::f64::consts::LOG2_E / (d as f64).sqrt()) as f32);
    let cfg = LaunchConfig::for_kernel(fc.grid(seq as u64, heads as u64), k.signature())?;
    // SAFETY: the forward reads Q, K, V through maps that cover them and writes O and lse.
    unsafe { common::launch_once::<B>(dev, &kernel, &cfg, &args)? };
    // SAFETY: as above.
    common::time::<B>(dev, |s| unsafe { s.launch(&kernel, &cfg, &args) })
}

/// Checks every variant on 2 heads × `check_seq` rows against the host and, given a `timed`
/// B × H × S (a GPU), times it and the bf16 forward there. Returns the number of variants.
fn run<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    check_seq: usize,
    timed: Option<(usize, usize, usize)>,
) -> Result<usize> {
    println!();
    println!("| variant | check (2 heads × {check_seq}: max abs err O / bound, lse) | B×H×S | fp8 ms | fp8 TFLOP/s | bf16 ping-pong TFLOP/s | fp8 / bf16 |");
    println!("|---|---|---|---|---|---|---|");
    let mut variants = vec![];
    for (schedule, v_transposed) in [
        (AttentionSchedule::PingPong, false),
        (AttentionSchedule::PingPong, true),
        (AttentionSchedule::Serial, true),
    ] {
        for (head_dim, causal) in [(128, false), (128, true), (64, false), (64, true)] {
            variants.push(Fp8AttentionConfig {
                head_dim,
                causal,
                schedule,
                v_transposed,
            });
        }
    }
    // The bf16 baseline's ms by (D, causal), timed once each.
    let mut bf16_ms = std::collections::HashMap::new();
    for &c in &variants {
        let (head_dim, causal) = (c.head_dim, c.causal);
        let k = attention_fp8_kernel(ctx, target, c)?;
        let sig = k.signature().clone();
        let kernel: KernelOf<B> = k.load_on::<B>(dev)?;
        let d = head_dim as usize;
        let (heads, seq) = (2, check_seq);
        let n = heads * seq * d;
        let stored = |seed| -> Vec<F8E4M3> {
            common::random(n, seed)
                .into_iter()
                .map(|x| F8E4M3::from_f32(x * 4.0))
                .collect()
        };
        let (q8, k8, v8) = (stored(1), stored(2), stored(3));
        let deq = |x: &[F8E4M3], s: f32| -> Vec<f32> { x.iter().map(|v| v.to_f32() * s).collect() };
        let (q, kk, v) = (
            deq(&q8, SCALES[0]),
            deq(&k8, SCALES[1]),
            deq(&v8, SCALES[2]),
        );
        let scale = 1.0 / (d as f64).sqrt();
        let (want, want_lse) = attention_reference(&q, &kk, &v, heads, seq, d, scale, causal);
        let (got, lse, _) =
            run_fp8::<B>(dev, &kernel, &sig, c, (heads, seq), [&q8, &k8, &v8], false)?;
        let max_err = |a: &[f32], b: &[f32]| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs())
                .fold(
                    0f32,
                    |m, e| if e.is_nan() { f32::INFINITY } else { m.max(e) },
                )
        };
        let (err, lerr) = (max_err(&got, &want), max_err(&lse, &want_lse));
        let bound = v.iter().fold(0f32, |m, x| m.max(x.abs())) / 16.0 + 1e-2;
        let name = format!(
            "fp8 {:?}{} D{d}{}",
            c.schedule,
            if c.v_transposed { " Vᵀ" } else { "" },
            if causal { " causal" } else { "" }
        );
        if err > bound || lerr > 1e-2 {
            return Err(format!("{name}: differs from the host (O {err}, lse {lerr})").into());
        }
        let status = format!("ok ({err:.1e} / {bound:.1e}, {lerr:.1e})");
        let Some((b, h, s)) = timed else {
            println!("| {name} | {status} | | | | | |");
            continue;
        };
        let n = b * h * s * d;
        let big = |seed| -> Vec<F8E4M3> {
            common::random(n, seed)
                .into_iter()
                .map(|x| F8E4M3::from_f32(x * 4.0))
                .collect()
        };
        let (q8, k8, v8) = (big(4), big(5), big(6));
        let (_, _, ms) = run_fp8::<B>(dev, &kernel, &sig, c, (b * h, s), [&q8, &k8, &v8], true)?;
        let base = match bf16_ms.get(&(head_dim, causal)) {
            Some(&ms) => ms,
            None => {
                let ms = time_bf16::<B>(dev, ctx, target, c, (b * h, s))?;
                bf16_ms.insert((head_dim, causal), ms);
                ms
            }
        };
        let flops =
            4.0 * (b * h) as f64 * (s as f64).powi(2) * d as f64 / if causal { 2.0 } else { 1.0 };
        let tf = |ms: f64| flops / (ms * 1e9);
        println!(
            "| {name} | {status} | {b}×{h}×{s} | {ms:.3} | {:.0} | {:.0} | {:.2} |",
            tf(ms),
            tf(base),
            base / ms
        );
    }
    Ok(variants.len())
}
