//! attention: forward attention `O = softmax(Q Kᵀ / √d) V` on Hopper (FlashAttention-style: Q tile
//! in shared memory, K/V streamed by TMA, S and O on wgmma with P from registers, online softmax
//! in registers), f16 and bf16, causal and not, with the log-sum-exp written out.
//!
//! `cargo run --release --example attention --features llvm,cuda [-- sm_90a [B H S] [ping-pong]
//! [gqa=G] [varlen] [pack=N] [qlen=N] [longest-first] [d=D,…]]`
//!
//! `longest-first` also runs each causal variant with `AttentionConfig::longest_first`.
//! `d=256` (or `d=64,128`…) runs only those head dims; without it, f16 and bf16 at D128 and
//! D256 and f16 at D64. D256 takes key blocks of 64 (`AttentionConfig::with_head_dim`), and
//! its variable-length batches run the serial schedule (ping-pong refuses them there).
//!
//! `gqa=G` (query heads per KV head) and `varlen` (a variable-length batch: B sequences of ragged
//! lengths from S/2 to 3S/2, keys as long as queries) run the grouped / packed kernels in the
//! ping-pong schedule instead: each dtype, mask and head dim checked on a small ragged batch
//! against `attention_varlen_reference`, then timed (TFLOP/s from the real lengths, halved for
//! causal). With them, `pack=N` also runs each variant with N query heads of a KV head packed
//! into a CTA (`AttentionConfig::packed_heads`), and `qlen=N` (with `varlen`) gives every
//! sequence N query tokens against its ragged keys.
//!
//! With a GPU: each variant is checked on 2 heads × 500 rows (a masked tail) against an f64 host
//! reference (max abs error printed), then timed at B4 H16 S8192 (or the given B H S; FA3's D256
//! shape is `4 8 8192 d=256`), D 128, 64 and 256, with `weft::runtime::bench`. cuDNN SDPA on the H200
//! (`../shared/bench/gluon_anchors.py attention`): 595 / 614 TFLOP/s (f16 / bf16), causal
//! 540 / 565. Without a GPU (or without `cuda`): prints the LLVM IR and the PTX of the f16
//! kernel, then runs each dtype and head dim (D256 in f16, unless `d=` is given) in both
//! schedules (serial unmasked, ping-pong causal) in weft's interpreter on 2 heads × 40 rows (one masked query block, a masked key tail) with
//! the same host check, then the grouped variable-length kernels (group 2, or the `gqa=G` /
//! `varlen` given) serial unmasked and ping-pong causal on 4 ragged sequences (0, 1, 17, 40 query
//! rows; 7, 1, 20, 30 keys).
//!
//! The kernel is [`weft::codegen::kernels::attention_kernel`].
mod common;

use common::attention::{with_forward_args, Sequences};
use common::Result;
use weft::codegen::kernels::{
    attention_kernel, attention_reference, attention_varlen_reference, AttentionConfig,
    AttentionSchedule, VarlenShape,
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
        let timed = Some(common::bhs_arg((4, 16, 8192)));
        if let Some(packed) = packed_args()? {
            run_packed::<weft::runtime::cuda::Cuda>(&dev, &ctx, target, packed, timed)?;
            return Ok(());
        }
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
        "attention on {heads} heads × {seq} rows in {variants} variants (f16 and bf16 at D128, f16 at D64 and D256, or the head dims asked for; serial, and ping-pong causal): O and lse match f64"
    ));
    let dev = common::interpreter(target)?;
    let packed = packed_args()?.unwrap_or((2, true));
    let variants = run_packed::<weft::runtime::cpu::Cpu>(&dev, &ctx, target, packed, None)?;
    common::interpreted(&format!(
        "grouped (group {}) / variable-length ({}) attention in {variants} variants: O and lse match f64",
        packed.0, packed.1
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

/// Runs `c` on the sequences `p` on `dev` (any backend); returns O, the lse and (if `time`)
/// the median ms. Q and O are `[heads_q · tokens, D]`, K and V `[heads_kv · tokens, D]`.
#[allow(clippy::too_many_arguments)]
fn run_one<B: Backend, T: DeviceElem>(
    dev: &B::Device,
    kernel: &KernelOf<B>,
    sig: &KernelSignature,
    c: AttentionConfig,
    p: &Sequences,
    to: impl Fn(f32) -> T,
    from: impl Fn(T) -> f32,
    qkv: [&[f32]; 3],
    time: bool,
) -> Result<(Vec<f32>, Vec<f32>, f64)> {
    let d = c.head_dim as usize;
    let (rows_q, _) = p.rows(&c);
    let up = |x: &[f32]| -> Result<BufferOf<B, T>> {
        Ok(dev.upload(&x.iter().map(|&y| to(y)).collect::<Vec<T>>())?)
    };
    let (dq, dk, dv) = (up(qkv[0])?, up(qkv[1])?, up(qkv[2])?);
    let mut o = dev.alloc::<T>(rows_q * d)?;
    o.fill_bytes(0xFF)?;
    let lse = dev.alloc::<f32>(rows_q)?;
    let scale = 1.0 / (d as f64).sqrt();
    let bufs = [&dq, &dk, &dv, &o];
    let run = |args: &KernelArgs<'_>, grid| -> Result<f64> {
        let cfg = LaunchConfig::for_kernel(grid, sig)?;
        // SAFETY: the kernel reads Q, K, V through maps that cover them and the cumulative
        // lengths, and writes O[0..rows_q·d) and lse[0..rows_q).
        unsafe { common::launch_once::<B>(dev, kernel, &cfg, args)? };
        if !time {
            return Ok(0.0);
        }
        // SAFETY: as above.
        common::time::<B>(dev, |s| unsafe { s.launch(kernel, &cfg, args) })
    };
    let ms = with_forward_args::<B, T, _>(dev, &c, p, bufs, &lse, scale, run)??;
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
    shape: &Sequences,
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
    // Each dtype, masking and schedule at D 128 and 256; f16 at D 64, where ping-pong also
    // runs with three consumers (192 rows).
    // `longest-first`: each causal variant also with its longest query blocks first.
    let orders: &[bool] = if std::env::args().any(|a| a == "longest-first") {
        &[false, true]
    } else {
        &[false]
    };
    let mut variants = Vec::new();
    for (dtype, head_dim) in head_dims()? {
        for causal in [false, true] {
            for schedule in [AttentionSchedule::Serial, AttentionSchedule::PingPong] {
                for &lf in orders.iter().filter(|&&lf| causal || !lf) {
                    variants.push((dtype, causal, schedule, head_dim, 2, lf));
                    if schedule == AttentionSchedule::PingPong && head_dim == 64 {
                        variants.push((dtype, causal, schedule, head_dim, 3, lf));
                    }
                }
            }
        }
    }
    // `ping-pong` on the command line: only that schedule (a sweep over shapes).
    let only_ping_pong = std::env::args().any(|a| a == "ping-pong");
    variants.retain(|v| !only_ping_pong || v.2 == AttentionSchedule::PingPong);
    // In the interpreter (about a second per variant in a debug build), half of them: each
    // dtype and head dim in both schedules, the serial one unmasked, ping-pong causal (D256
    // in f16 only, unless asked for).
    if timed.is_none() {
        let asked = head_dims_arg()?.is_some();
        variants.retain(|v| v.1 == (v.2 == AttentionSchedule::PingPong));
        variants.retain(|v| asked || v.3 != 256 || v.0 == DType::F16);
    }
    for &(dtype, causal, schedule, head_dim, consumers, longest_first) in &variants {
        let c = match schedule {
            AttentionSchedule::PingPong => AttentionConfig::ping_pong(dtype, causal)
                .with_head_dim(head_dim)
                .with_consumers(consumers),
            _ => AttentionConfig::new(dtype, causal).with_head_dim(head_dim),
        };
        let c = AttentionConfig { longest_first, ..c };
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
        let fixed = Sequences::fixed(ch, cs);
        let (got, lse, _) = run_typed::<B>(dev, &kernel, &sig, c, &fixed, [&q, &kk, &v], false)?;
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
            "{dtype} D{dd}{}{}{}{}",
            if causal { " causal" } else { "" },
            match schedule {
                AttentionSchedule::PingPong => " ping-pong",
                AttentionSchedule::Pipelined => " pipelined",
                AttentionSchedule::Serial => "",
            },
            if consumers == 3 { " ×3" } else { "" },
            if longest_first { " longest-first" } else { "" }
        );
        let Some((b, h, s)) = timed else {
            println!("| {name} | {status} |");
            continue;
        };
        let n = b * h * s * dd;
        let (q, kk, v) = (values(n, 4), values(n, 5), values(n, 6));
        let timed = Sequences::fixed(b * h, s);
        let (_, _, ms) = run_typed::<B>(dev, &kernel, &sig, c, &timed, [&q, &kk, &v], true)?;
        let flops = timed.flops(&c);
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

/// The grouped / variable-length options on the command line: `gqa=G` (query heads per KV
/// head) and `varlen`.
fn packed_args() -> Result<Option<(u32, bool)>> {
    let mut group = None;
    for a in std::env::args().skip(1) {
        if let Some(g) = a.strip_prefix("gqa=") {
            let g: u32 = g.parse().map_err(|_| format!("gqa={g}: a whole number"))?;
            group = Some(g);
        }
    }
    let varlen = std::env::args().any(|a| a == "varlen");
    Ok((group.is_some() || varlen).then_some((group.unwrap_or(1), varlen)))
}

/// The head dims given as `d=D,…` on the command line, if any.
fn head_dims_arg() -> Result<Option<Vec<u32>>> {
    let Some(list) = std::env::args().find_map(|a| a.strip_prefix("d=").map(str::to_owned)) else {
        return Ok(None);
    };
    let dims = list
        .split(',')
        .map(|d| {
            d.parse::<u32>()
                .map_err(|_| format!("d={list}: head dims as whole numbers, e.g. d=256"))
        })
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(Some(dims))
}

/// The (dtype, head dim) pairs to run: f16 and bf16 at each head dim given (`d=…`), else at
/// D128 and D256, and f16 at D64.
fn head_dims() -> Result<Vec<(DType, u32)>> {
    Ok(match head_dims_arg()? {
        Some(dims) => dims
            .into_iter()
            .flat_map(|d| [(DType::F16, d), (DType::BF16, d)])
            .collect(),
        None => vec![
            (DType::F16, 128),
            (DType::BF16, 128),
            (DType::F16, 64),
            (DType::F16, 256),
            (DType::BF16, 256),
        ],
    })
}

/// Ragged lengths around `s` for `b` sequences: `s · (1 + k/16)` for k in -8..=8 in a fixed
/// scramble, so a batch has short and long sequences at the same mean.
fn ragged(b: usize, s: usize) -> Vec<i32> {
    (0..b)
        .map(|i| {
            let k = (i * 7 + 3) % 17;
            (s * (8 + k) / 16).max(1) as i32
        })
        .collect()
}

/// Grouped heads (`group`) and/or variable lengths (`varlen`) in the ping-pong schedule (and the
/// serial one in the check): each dtype, mask and head dim checked on a small batch against the
/// f64 host reference (`attention_varlen_reference`), then, given a `timed` B × H × S (H query
/// heads; variable lengths: B sequences of ragged lengths averaging about S), timed. Returns the
/// number of variants.
fn run_packed<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    (group, varlen): (u32, bool),
    timed: Option<(usize, usize, usize)>,
) -> Result<usize> {
    let g = group as usize;
    // The check: ragged lengths (empty, one token, partial blocks, keys shorter and longer than
    // queries), or one length with a masked tail.
    // Smaller in the interpreter.
    let small = timed.is_none();
    let check = match (varlen, small) {
        (true, false) => Sequences {
            heads_q: 2 * g,
            lens_q: vec![0, 1, 17, 130, 300],
            lens_k: vec![7, 1, 20, 129, 400],
        },
        (true, true) => Sequences {
            heads_q: g,
            lens_q: vec![0, 1, 17, 40],
            lens_k: vec![7, 1, 20, 30],
        },
        (false, _) => Sequences::fixed(2 * g, if small { 40 } else { 300 }),
    };
    let mut schedules = vec![AttentionSchedule::PingPong];
    if timed.is_none() {
        schedules.push(AttentionSchedule::Serial);
    }
    // `pack=N`: unpacked and N query heads a CTA, side by side.
    let packs: Vec<u32> = match common::number_arg::<u32>("pack")? {
        Some(n) if n > 1 => vec![1, n],
        _ => vec![1],
    };
    // `qlen=N` (with `varlen`): N query tokens a sequence against its ragged keys (chunked
    // prefill, speculative decoding).
    let qlen = match common::number_arg::<u32>("qlen")? {
        Some(n) => Some(i32::try_from(n).map_err(|_| format!("qlen={n}: at most {}", i32::MAX))?),
        None => None,
    };
    println!();
    println!("| variant | check (max abs err O / lse) | shape | weft ms | weft TFLOP/s |");
    println!("|---|---|---|---|---|");
    let mut variants = 0;
    let mut failed = false;
    // D128 only in the interpreter, unless head dims are asked for.
    let asked = head_dims_arg()?.is_some();
    for (dtype, head_dim) in head_dims()? {
        for causal in [false, true] {
            for (&schedule, &packed_heads) in schedules
                .iter()
                .flat_map(|s| packs.iter().map(move |p| (s, p)))
            {
                // In the interpreter, two variants: serial unmasked and ping-pong causal.
                if timed.is_none()
                    && ((!asked && head_dim != 128)
                        || causal != (schedule == AttentionSchedule::PingPong))
                {
                    continue;
                }
                // Ping-pong takes no variable lengths at D256: the serial schedule runs them.
                let schedule = if varlen && head_dim == 256 {
                    AttentionSchedule::Serial
                } else {
                    schedule
                };
                let mut c = match schedule {
                    AttentionSchedule::PingPong => AttentionConfig::ping_pong(dtype, causal),
                    _ => AttentionConfig::new(dtype, causal),
                }
                .with_head_dim(head_dim);
                c.kv_group = group;
                c.varlen = varlen;
                c.packed_heads = packed_heads;
                let k = attention_kernel(ctx, target, c)?;
                let sig = k.signature().clone();
                let kernel = k.load_on::<B>(dev)?;
                let d = head_dim as usize;
                let round = |x: f32| match dtype {
                    DType::F16 => f16::from_f32(x).to_f32(),
                    _ => bf16::from_f32(x).to_f32(),
                };
                let (rq, rk) = check.rows(&c);
                let gen =
                    |n, seed| -> Vec<f32> { values(n * d, seed).into_iter().map(round).collect() };
                let (q, kk, v) = (gen(rq, 1), gen(rk, 2), gen(rk, 3));
                let [cu_q, cu_k] = check.cumulative();
                let shape = VarlenShape {
                    cu_seqlens_q: &cu_q,
                    cu_seqlens_k: &cu_k,
                    heads_q: check.heads_q,
                    kv_group: g,
                    head_dim: d,
                };
                let scale = 1.0 / (d as f64).sqrt();
                let (want, want_lse) =
                    attention_varlen_reference(&q, &kk, &v, &shape, scale, causal)?;
                let (got, lse, _) =
                    run_typed::<B>(dev, &kernel, &sig, c, &check, [&q, &kk, &v], false)?;
                let worst = |a: &[f32], b: &[f32]| {
                    a.iter()
                        .zip(b)
                        .map(|(&x, &y)| if x == y { 0.0 } else { (x - y).abs() })
                        .fold(0f32, |m, e| if e.is_nan() { f32::NAN } else { m.max(e) })
                };
                let (err, lerr) = (worst(&got, &want), worst(&lse, &want_lse));
                let tol = if dtype == DType::F16 { 4e-3 } else { 3e-2 };
                let status = if err <= tol && lerr <= 1e-2 {
                    format!("ok ({err:.1e} / {lerr:.1e})")
                } else {
                    failed = true;
                    format!("FAIL ({err:.1e} / {lerr:.1e})")
                };
                let name = format!(
                    "{dtype} D{d}{} {schedule:?} group {g}{}{}",
                    if causal { " causal" } else { "" },
                    if varlen { " varlen" } else { "" },
                    if packed_heads > 1 {
                        format!(" packed {packed_heads}")
                    } else {
                        String::new()
                    },
                );
                variants += 1;
                let Some((b, h, s)) = timed else {
                    println!("| {name} | {status} | | | |");
                    continue;
                };
                let run = if varlen {
                    let lens = ragged(b, s);
                    Sequences {
                        heads_q: h,
                        lens_q: match qlen {
                            Some(n) => vec![n; b],
                            None => lens.clone(),
                        },
                        lens_k: lens,
                    }
                } else {
                    Sequences::fixed(b * h, s)
                };
                let (rq, rk) = run.rows(&c);
                let (q, kk, v) = (values(rq * d, 4), values(rk * d, 5), values(rk * d, 6));
                let (_, _, ms) = run_typed::<B>(dev, &kernel, &sig, c, &run, [&q, &kk, &v], true)?;
                println!(
                    "| {name} | {status} | B{b} H{h} S{s}{} | {ms:.3} | {:.0} |",
                    if varlen { " (ragged)" } else { "" },
                    run.flops(&c) / (ms * 1e9)
                );
            }
        }
    }
    if failed {
        return Err("a grouped or variable-length attention result differs from the host".into());
    }
    Ok(variants)
}
