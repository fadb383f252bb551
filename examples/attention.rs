//! attention: forward attention `O = softmax(Q Kᵀ / √d) V` on Hopper (FlashAttention-style: Q tile
//! in shared memory, K/V streamed by TMA, S and O on wgmma with P from registers, online softmax
//! in registers), f16 and bf16, causal and not, with the log-sum-exp written out.
//!
//! `cargo run --release --example attention --features llvm,cuda [-- sm_90a [B H S] [ping-pong]]`
//!
//! With a GPU: each variant is checked on 2 heads × 500 rows (a masked tail) against an f64 host
//! reference (max abs error printed), then timed at B4 H16 S8192 (or the given B H S), D 128 and
//! 64, with `weft::runtime::bench`. cuDNN SDPA on the H200
//! (`../shared/bench/gluon_anchors.py attention`): 595 / 614 TFLOP/s (f16 / bf16), causal
//! 540 / 565. Without a GPU (or without `cuda`): prints the LLVM IR and the PTX of the f16
//! kernel, then runs each dtype and head dim in both schedules (serial unmasked, ping-pong causal)
//! in weft's interpreter on 2 heads × 40 rows (one masked query block, a masked key tail) with
//! the same host check.
//!
//! The kernel is [`weft::codegen::kernels::attention_kernel`].
mod common;

use common::Result;
use weft::codegen::kernels::{
    attention_kernel, attention_reference, AttentionConfig, AttentionSchedule,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::backend::{BufferOf, KernelOf};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, Backend, DeviceElem, KernelArgs, KernelSignature, LaunchConfig};

fn main() -> Result<()> {
    let target = common::target_arg_or(Target::SM90A)?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        println!("# attention forward on {}", common::gpu::describe(&dev));
        run::<weft::runtime::cuda::Cuda>(
            &dev,
            &ctx,
            target,
            (2, 500),
            Some(common::bhs_arg((4, 16, 8192))),
        )?;
        return Ok(());
    }
    let c = AttentionConfig::new(DType::F16, false);
    let k = attention_kernel(&ctx, target, c)?;
    println!("{}", k.llvm_ir());
    common::print_kernel(&c, &k)?;
    let (heads, seq) = (2, 40);
    println!("# attention forward in the interpreter ({target})");
    let variants = run::<weft::runtime::cpu::Cpu>(
        &common::interpreter(target)?,
        &ctx,
        target,
        (heads, seq),
        None,
    )?;
    common::interpreted(&format!(
        "attention on {heads} heads × {seq} rows in {variants} variants (f16 and bf16 at D128, f16 at D64; serial, and ping-pong causal): O and lse match f64"
    ));
    Ok(())
}

fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

/// Runs `c` on `heads` heads of `seq` rows on `dev` (any backend); returns O, the lse and (if
/// `time`) the median ms. Values are `[heads · seq, c.head_dim]` row-major.
#[allow(clippy::too_many_arguments)]
fn run_one<B: Backend, T: DeviceElem>(
    dev: &B::Device,
    kernel: &KernelOf<B>,
    sig: &KernelSignature,
    c: AttentionConfig,
    (heads, seq): (usize, usize),
    to: impl Fn(f32) -> T,
    from: impl Fn(T) -> f32,
    qkv: [&[f32]; 3],
    time: bool,
) -> Result<(Vec<f32>, Vec<f32>, f64)> {
    let d = c.head_dim as usize;
    let n = heads * seq * d;
    let up = |x: &[f32]| -> Result<BufferOf<B, T>> {
        Ok(dev.upload(&x.iter().map(|&y| to(y)).collect::<Vec<T>>())?)
    };
    let (dq, dk, dv) = (up(qkv[0])?, up(qkv[1])?, up(qkv[2])?);
    let mut o = dev.alloc::<T>(n)?;
    o.fill_bytes(0xFF)?;
    let lse = dev.alloc::<f32>(heads * seq)?;
    let dims = [(heads * seq) as u64, d as u64];
    let sw = c.swizzle();
    let qm = dev.tensor_map(&dq, &dims, &[d as u64], &c.q_box(), sw)?;
    let km = dev.tensor_map(&dk, &dims, &[d as u64], &c.kv_box(), sw)?;
    let vm = dev.tensor_map(&dv, &dims, &[d as u64], &c.kv_box(), sw)?;
    let om = dev.tensor_map(&o, &dims, &[d as u64], &c.q_box(), sw)?;
    let scale = 1.0 / (d as f64).sqrt();
    let mut args = KernelArgs::new();
    args.tensor_map(&qm)
        .tensor_map(&km)
        .tensor_map(&vm)
        .tensor_map(&om)
        .ptr(&o)
        .ptr(&lse)
        .scalar(seq as i32)
        .scalar((scale * std::f64::consts::LOG2_E) as f32);
    let cfg = LaunchConfig::for_kernel(c.grid(seq as u64, heads as u64), sig)?;
    // SAFETY: the kernel reads Q, K, V through maps that cover them and writes
    // O[0..heads·seq·d) and lse[0..heads·seq).
    unsafe { common::launch_once::<B>(dev, kernel, &cfg, &args)? };
    let ms = if time {
        // SAFETY: as above.
        common::time::<B>(dev, |s| unsafe { s.launch(kernel, &cfg, &args) })?
    } else {
        0.0
    };
    let got: Vec<f32> = o.to_vec()?.into_iter().map(from).collect();
    Ok((got, lse.to_vec()?, ms))
}

/// [`run_one`] in `dtype` (f16, else bf16).
#[allow(clippy::too_many_arguments)]
fn run_typed<B: Backend>(
    dev: &B::Device,
    kernel: &KernelOf<B>,
    sig: &KernelSignature,
    c: AttentionConfig,
    shape: (usize, usize),
    qkv: [&[f32]; 3],
    time: bool,
) -> Result<(Vec<f32>, Vec<f32>, f64)> {
    if c.dtype == DType::F16 {
        let from = |x: f16| x.to_f32();
        run_one::<B, f16>(dev, kernel, sig, c, shape, f16::from_f32, from, qkv, time)
    } else {
        let from = |x: bf16| x.to_f32();
        run_one::<B, bf16>(dev, kernel, sig, c, shape, bf16::from_f32, from, qkv, time)
    }
}

/// Checks every variant on `check` (heads, rows) on `dev` (any backend) against the f64 host
/// reference and, given a `timed` B × H × S (a GPU), times it there; prints a table row per
/// variant. Returns the number of variants.
fn run<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    (ch, cs): (usize, usize),
    timed: Option<(usize, usize, usize)>,
) -> Result<usize> {
    println!();
    if timed.is_some() {
        println!("| variant | check ({ch} heads × {cs}: max abs err O / lse) | B×H×S | weft ms | weft TFLOP/s | registers |");
        println!("|---|---|---|---|---|---|");
    } else {
        println!("| variant | check ({ch} heads × {cs}: max abs err O / lse) |");
        println!("|---|---|");
    }
    let mut failed = false;
    // Each dtype, masking and schedule at D 128; f16 at D 64.
    let mut variants = Vec::new();
    for (dtype, head_dim) in [(DType::F16, 128), (DType::BF16, 128), (DType::F16, 64)] {
        for causal in [false, true] {
            for schedule in [AttentionSchedule::Serial, AttentionSchedule::PingPong] {
                variants.push((dtype, causal, schedule, head_dim));
            }
        }
    }
    // `ping-pong` on the command line: only that schedule (a sweep over shapes).
    let only_ping_pong = std::env::args().any(|a| a == "ping-pong");
    variants.retain(|v| !only_ping_pong || v.2 == AttentionSchedule::PingPong);
    // In the interpreter (about a second per variant in a debug build), half of them: each
    // dtype and head dim in both schedules, the serial one unmasked, ping-pong causal.
    if timed.is_none() {
        variants.retain(|v| v.1 == (v.2 == AttentionSchedule::PingPong));
    }
    for &(dtype, causal, schedule, head_dim) in &variants {
        let mut c = match schedule {
            AttentionSchedule::PingPong => AttentionConfig::ping_pong(dtype, causal),
            _ => AttentionConfig::new(dtype, causal),
        };
        c.head_dim = head_dim;
        let dd = head_dim as usize;
        let k = attention_kernel(ctx, target, c)?;
        let sig = k.signature().clone();
        let kernel = k.load_on::<B>(dev)?;
        let round = |x: f32| match dtype {
            DType::F16 => f16::from_f32(x).to_f32(),
            _ => bf16::from_f32(x).to_f32(),
        };
        let gen =
            |seed| -> Vec<f32> { values(ch * cs * dd, seed).into_iter().map(round).collect() };
        let (q, kk, v) = (gen(1), gen(2), gen(3));
        let (want, want_lse) =
            attention_reference(&q, &kk, &v, ch, cs, dd, 1.0 / (dd as f64).sqrt(), causal);
        let (got, lse, _) = run_typed::<B>(dev, &kernel, &sig, c, (ch, cs), [&q, &kk, &v], false)?;
        let err = got
            .iter()
            .zip(&want)
            .map(|(g, w)| (g - w).abs())
            .fold(0f32, f32::max);
        let lerr = lse
            .iter()
            .zip(&want_lse)
            .map(|(g, w)| (g - w).abs())
            .fold(0f32, f32::max);
        let tol = if dtype == DType::F16 { 4e-3 } else { 3e-2 };
        let status = if err <= tol && lerr <= 1e-2 && err.is_finite() && lerr.is_finite() {
            format!("ok ({err:.1e} / {lerr:.1e})")
        } else {
            failed = true;
            format!("FAIL ({err:.1e} / {lerr:.1e})")
        };
        let name = format!(
            "{dtype} D{dd}{}{}",
            if causal { " causal" } else { "" },
            match schedule {
                AttentionSchedule::PingPong => " ping-pong",
                AttentionSchedule::Pipelined => " pipelined",
                AttentionSchedule::Serial => "",
            }
        );
        let Some((b, h, s)) = timed else {
            println!("| {name} | {status} |");
            continue;
        };
        let n = b * h * s * dd;
        let (q, kk, v) = (values(n, 4), values(n, 5), values(n, 6));
        let (_, _, ms) = run_typed::<B>(dev, &kernel, &sig, c, (b * h, s), [&q, &kk, &v], true)?;
        let flops =
            4.0 * (b * h) as f64 * (s as f64).powi(2) * dd as f64 / if causal { 2.0 } else { 1.0 };
        println!(
            "| {name} | {status} | {b}×{h}×{s} | {ms:.3} | {:.0} | {} |",
            flops / (ms * 1e9),
            kernel.attrs().num_regs
        );
    }
    if failed {
        return Err("an attention result differs from the host".into());
    }
    Ok(variants.len())
}
