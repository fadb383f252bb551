//! gemm: `C = A · B` (and `A · Bᵀ`) in f16 and bf16 with f32 accumulation on Hopper, as Gluon's
//! tutorials 04–06 build it: TMA loads into a 3-stage shared-memory ring guarded by mbarriers,
//! wgmma from the ring with one group in flight, an epilogue through shared memory and a TMA store.
//!
//! `cargo run --release --example gemm --features llvm,cuda [-- sm_90a [M N K] [persistent] [ws] [cluster] [sweep]]`
//! (`ws`: the warp-specialised schedule, a producer warpgroup beside the consumers; `cluster`, with
//! `ws`: in clusters of two CTAs along M that multicast the B box they share, `cluster_m = 2`). With `sm_80`
//! (no TMA or wgmma) it runs the Ampere GEMM (`gemm_sm80_kernel`: `cp.async`, `ldmatrix`,
//! `mma.sync`) instead, checked and timed the same way.
//!
//! With a GPU: each variant is checked on a 1000 × 776 × 528 problem against the host (values on
//! a grid exact in 16 bits, so only the final rounding differs), then timed at 8192³ and 4096³
//! (or the given M N K) on uniform random values with every mantissa bit random (tensor-core
//! power, and so the clock, depends on the data; the anchors use `torch.randn`) with
//! `weft::runtime::bench` (L2 flushed before each run).
//! cuBLAS on the H200 (`../shared/bench/gluon_anchors.py gemm`): 657 (f16) / 693 (bf16) TFLOP/s at
//! 8192³; Triton's `tl.dot` 642 / 659.
//! Without a GPU (or without `cuda`): prints the LLVM IR and the PTX of the f16 kernel, then runs
//! every variant (with the same `persistent` / `ws` choice) in weft's interpreter on a
//! 100 × 264 × 80 problem (ragged in every dim: TMA zero-fills past the edges and clips the
//! store) with the same host check.
//!
//! The kernel is [`weft::codegen::kernels::gemm_kernel`].
mod common;

use common::Result;
use weft::codegen::kernels::{
    gemm_kernel, gemm_reference, gemm_sm80_kernel, GemmConfig, GEMM_SM80_CONFIGS,
};
use weft::codegen::{Context, DType, Feature, Target};
use weft::runtime::backend::{BufferOf, KernelOf};
use weft::runtime::prelude::*;
use weft::runtime::{
    bf16, f16, Backend, DeviceElem, KernelArgs, KernelSignature, LaunchConfig, F8E4M3,
};

fn main() -> Result<()> {
    let target = common::target_arg_or(Target::SM90A)?;
    let ctx = Context::new();
    if !target.supports(Feature::Tma) {
        // Before Hopper: the cp.async + mma.sync GEMM.
        #[cfg(feature = "cuda")]
        if let Some(dev) = common::gpu::device() {
            println!("# gemm_sm80 on {}", common::gpu::describe(&dev));
            run_sm80::<weft::runtime::cuda::Cuda>(&dev, &ctx, target, (1008, 784, 528), &sizes())?;
            return Ok(());
        }
        let small = (96, 272, 80);
        println!("# gemm_sm80 in the interpreter ({target})");
        let dev = common::interpreter(target)?;
        let variants = run_sm80::<weft::runtime::cpu::Cpu>(&dev, &ctx, target, small, &[])?;
        common::interpreted(&format!(
            "gemm_sm80 {}×{}×{} in {variants} variants (f16, bf16, A·B and A·Bᵀ): C equals the host's within one rounding of C",
            small.0, small.1, small.2
        ));
        return Ok(());
    }
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        println!("# gemm on {}", common::gpu::describe(&dev));
        let sms = dev.props().sm_count;
        run::<weft::runtime::cuda::Cuda>(&dev, &ctx, target, (1000, 776, 528), sms, &sizes())?;
        if std::env::args().any(|a| a == "sweep") {
            sweep::<weft::runtime::cuda::Cuda>(&dev, &ctx, target, sms)?;
        }
        return Ok(());
    }
    let c = GemmConfig::new(DType::F16);
    let k = gemm_kernel(&ctx, target, c)?;
    println!("{}", k.llvm_ir());
    common::print_kernel(&c, &k)?;
    let small = (100, 264, 80);
    println!("# gemm in the interpreter ({target})");
    // A persistent kernel gets 3 programs: each walks several tiles.
    let variants =
        run::<weft::runtime::cpu::Cpu>(&common::interpreter(target)?, &ctx, target, small, 3, &[])?;
    common::interpreted(&format!(
        "gemm {}×{}×{} in {variants} variants (f16, bf16, A·Bᵀ, fp8): C equals the host's within one rounding of C",
        small.0, small.1, small.2
    ));
    Ok(())
}

/// A problem size, M × N × K.
type Mnk = (usize, usize, usize);

/// Values on a grid (multiples of 1/8 in [-2, 2)): exact in f16 and bf16, for the checks.
fn grid_values(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % 32) as f32 / 8.0 - 2.0
        })
        .collect()
}

/// Uniform values in [-1, 1) with every mantissa bit random, for timing: tensor-core power
/// (and so the clock) depends on the data, and the anchors time `torch.randn` inputs.
fn random_values(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

/// The timed sizes: `M N K` from the command line, else 8192³ and 4096³.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))] // a GPU run only
fn sizes() -> Vec<Mnk> {
    match common::three_numbers_arg() {
        Some(mnk) => vec![mnk],
        None => vec![(8192, 8192, 8192), (4096, 4096, 4096)],
    }
}

struct Problem<B: Backend, T: DeviceElem, O: DeviceElem> {
    a: BufferOf<B, T>,
    b: BufferOf<B, T>,
    c: BufferOf<B, O>,
    m: usize,
    n: usize,
    k: usize,
}

#[allow(clippy::type_complexity)] // the problem and its two host inputs, as the caller unpacks them
fn upload<B: Backend, T: DeviceElem, O: DeviceElem>(
    dev: &B::Device,
    conv: impl Fn(f32) -> T,
    (m, n, k): Mnk,
    seed: u64,
    values: fn(usize, u64) -> Vec<f32>,
) -> Result<(Problem<B, T, O>, Vec<f32>, Vec<f32>)> {
    let a = values(m * k, seed);
    let b = values(k * n, seed + 1);
    let da = dev.upload(&a.iter().map(|&x| conv(x)).collect::<Vec<T>>())?;
    let db = dev.upload(&b.iter().map(|&x| conv(x)).collect::<Vec<T>>())?;
    let mut dc = dev.alloc::<O>(m * n)?;
    dc.fill_bytes(0xFF)?;
    Ok((
        Problem {
            a: da,
            b: db,
            c: dc,
            m,
            n,
            k,
        },
        a,
        b,
    ))
}

/// Launches once (checked) and, when `time`, returns the median ms over `bench` (else 0).
fn launch<B: Backend, T: DeviceElem, O: DeviceElem>(
    dev: &B::Device,
    kernel: &KernelOf<B>,
    sig: &KernelSignature,
    cfg: GemmConfig,
    p: &Problem<B, T, O>,
    sms: u32,
    time: bool,
) -> Result<f64> {
    let sw = cfg.swizzle();
    let (m, n, k) = (p.m as u64, p.n as u64, p.k as u64);
    let b_shape = if cfg.b_transposed { [n, k] } else { [k, n] };
    let a_map = dev.tensor_map(&p.a, &[m, k], &[k], &cfg.a_box(), sw)?;
    let b_map = dev.tensor_map(&p.b, &b_shape, &[b_shape[1]], &cfg.b_box(), sw)?;
    let c_map = dev.tensor_map(&p.c, &[m, n], &[n], &cfg.c_box(), sw)?;
    let mut args = KernelArgs::new();
    args.tensor_map(&a_map)
        .tensor_map(&b_map)
        .tensor_map(&c_map)
        .scalar(p.m as i32)
        .scalar(p.n as i32)
        .scalar(p.k as i32);
    let grid = if cfg.persistent {
        cfg.grid_persistent(m, n, sms)
    } else {
        cfg.grid(m, n)
    };
    let lc = LaunchConfig::for_kernel(grid, sig)?;
    // SAFETY: the kernel touches A, B and C only through the maps, which cover them.
    unsafe { common::launch_once::<B>(dev, kernel, &lc, &args)? };
    if !time {
        return Ok(0.0);
    }
    // SAFETY: as above.
    common::time::<B>(dev, |s| unsafe { s.launch(kernel, &lc, &args) })
}

/// The sm_80 GEMM (`cp.async` ring, `ldmatrix`, `mma.sync`; 128 × 256 tiles, 3 stages, 8 warps) in
/// f16 and bf16, A·B and A·Bᵀ: checked on `small` (multiples of 16, as the kernel is built to
/// assume) against the host, then timed at each of `sizes`. Returns the number of variants.
fn run_sm80<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    small: Mnk,
    sizes: &[Mnk],
) -> Result<usize> {
    println!("| variant | M×N×K | check (max abs err) | weft ms | weft TFLOP/s |");
    println!("|---|---|---|---|---|");
    let mut variants = 0;
    let mut failed = false;
    for (dtype, bt) in [
        (DType::F16, false),
        (DType::BF16, false),
        (DType::F16, true),
        (DType::BF16, true),
    ] {
        let cfg = GEMM_SM80_CONFIGS[1].with_b_transposed(bt);
        let k = gemm_sm80_kernel(ctx, target, cfg, dtype)?;
        let kernel = k.load_on::<B>(dev)?;
        let name = format!("{dtype} {}", if bt { "A·Bᵀ" } else { "A·B" });
        let ulp = if dtype == DType::F16 {
            1.0 / 1024.0
        } else {
            1.0 / 128.0
        };
        for (i, &(m, n, kk)) in std::iter::once(&small).chain(sizes).enumerate() {
            let values = if i == 0 { grid_values } else { random_values };
            let (a, b) = (values(m * kk, 3), values(kk * n, 4));
            let (got, ms) = if dtype == DType::F16 {
                sm80_launch::<B, f16>(
                    dev,
                    &kernel,
                    &k,
                    cfg.grid(m as u64, n as u64),
                    (m, n, kk),
                    (&a, &b),
                    i > 0,
                    f16::from_f32,
                    |x| x.to_f32(),
                )?
            } else {
                sm80_launch::<B, bf16>(
                    dev,
                    &kernel,
                    &k,
                    cfg.grid(m as u64, n as u64),
                    (m, n, kk),
                    (&a, &b),
                    i > 0,
                    bf16::from_f32,
                    |x| x.to_f32(),
                )?
            };
            if i == 0 {
                let (bad, max) = check(&got, &gemm_reference(&a, &b, m, n, kk, bt), ulp);
                failed |= bad > 0;
                let status = if bad == 0 {
                    format!("ok ({max:.1e})")
                } else {
                    format!("{bad} WRONG ({max:.1e})")
                };
                println!("| {name} | {m}×{n}×{kk} | {status} | | |");
            } else {
                let tflops = 2.0 * (m * n * kk) as f64 / (ms * 1e-3) / 1e12;
                println!("| {name} | {m}×{n}×{kk} | | {ms:.3} | {tflops:.0} |");
            }
        }
        variants += 1;
    }
    if failed {
        return Err("a variant of the sm_80 GEMM differs from the host".into());
    }
    Ok(variants)
}

/// Uploads `a` and `b` (as `T`), launches the sm_80 GEMM once (checked) and returns C as f32, and,
/// when `time`, its median milliseconds.
#[allow(clippy::too_many_arguments)]
fn sm80_launch<B: Backend, T: DeviceElem>(
    dev: &B::Device,
    kernel: &KernelOf<B>,
    k: &weft::codegen::Kernel<'_>,
    grid: (u32, u32, u32),
    (m, n, kk): Mnk,
    (a, b): (&[f32], &[f32]),
    time: bool,
    to: impl Fn(f32) -> T,
    from: impl Fn(T) -> f32,
) -> Result<(Vec<f32>, f64)> {
    let da = dev.upload(&a.iter().map(|&x| to(x)).collect::<Vec<T>>())?;
    let db = dev.upload(&b.iter().map(|&x| to(x)).collect::<Vec<T>>())?;
    let mut dc = dev.alloc::<T>(m * n)?;
    dc.fill_bytes(0xFF)?;
    let mut args = KernelArgs::new();
    args.ptr(&da)
        .ptr(&db)
        .ptr(&dc)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(kk as i32);
    let lc = LaunchConfig::for_kernel(grid, k.signature())?;
    // SAFETY: the kernel reads A (m × k), B (k × n) and writes C (m × n), masked at the edges.
    unsafe { common::launch_once::<B>(dev, kernel, &lc, &args)? };
    let ms = if time {
        // SAFETY: as above.
        common::time::<B>(dev, |s| unsafe { s.launch(kernel, &lc, &args) })?
    } else {
        0.0
    };
    Ok((dc.to_vec()?.into_iter().map(from).collect(), ms))
}

/// One variant's check (wrong elements and the largest error) and its times at each size.
type Outcome = ((usize, f32), Vec<(Mnk, f64)>);

/// Checks one variant on `small` against the host, then times it at each of `sizes`.
#[allow(clippy::too_many_arguments)]
fn variant<B: Backend, T: DeviceElem, O: DeviceElem>(
    dev: &B::Device,
    kernel: &KernelOf<B>,
    sig: &KernelSignature,
    cfg: GemmConfig,
    (small, sizes): (Mnk, &[Mnk]),
    (ulp, sms): (f32, u32),
    to: impl Fn(f32) -> T + Copy,
    from: impl Fn(O) -> f32,
) -> Result<Outcome> {
    let (p, a, b) = upload::<B, T, O>(dev, to, small, 3, grid_values)?;
    launch(dev, kernel, sig, cfg, &p, sms, false)?;
    let got: Vec<f32> = p.c.to_vec()?.into_iter().map(from).collect();
    let want = gemm_reference(&a, &b, small.0, small.1, small.2, cfg.b_transposed);
    let status = check(&got, &want, ulp);
    drop(p);
    let mut times = Vec::new();
    for &size in sizes {
        let (p, _, _) = upload::<B, T, O>(dev, to, size, 5, random_values)?;
        times.push((size, launch(dev, kernel, sig, cfg, &p, sms, true)?));
    }
    Ok((status, times))
}

/// Times other tile, stage and warp configurations of the f16 A·B at 8192³.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))] // a GPU run only
fn sweep<B: Backend>(dev: &B::Device, ctx: &Context, target: Target, sms: u32) -> Result<()> {
    println!();
    println!("| f16 8192³ config | weft ms | TFLOP/s |");
    println!("|---|---|---|");
    let (p, _, _) =
        upload::<B, f16, f16>(dev, f16::from_f32, (8192, 8192, 8192), 5, random_values)?;
    let configs = [
        (256, 8, 3, 8, false),
        (256, 8, 3, 8, true),
        (256, 8, 3, 16, true),
        (256, 8, 3, 16, false),
        (128, 4, 4, 8, false),
        (128, 4, 4, 8, true),
        (128, 8, 4, 8, true),
    ];
    for (bn, warps, stages, group, persistent) in configs {
        let mut cfg = GemmConfig::new(DType::F16);
        cfg.block_n = bn;
        cfg.num_warps = warps;
        cfg.stages = stages;
        cfg.group_m = group;
        cfg.persistent = persistent;
        let k = gemm_kernel(ctx, target, cfg)?;
        let kernel = k.load_on::<B>(dev)?;
        let ms = launch(dev, &kernel, k.signature(), cfg, &p, sms, true)?;
        let kind = if persistent {
            "persistent"
        } else {
            "one tile per CTA"
        };
        println!(
            "| 128×{bn}×64, {warps} warps, {stages} stages, group {group}, {kind} | {ms:.3} | {:.0} |",
            2.0 * 8192f64.powi(3) / (ms * 1e9)
        );
    }
    Ok(())
}

fn check(got: &[f32], want: &[f32], ulp: f32) -> (usize, f32) {
    let mut bad = 0;
    let mut max = 0f32;
    for (g, w) in got.iter().zip(want) {
        let e = (g - w).abs();
        max = max.max(e);
        if e.is_nan() || e > w.abs() * ulp + 1e-3 {
            bad += 1;
        }
    }
    (bad, max)
}

/// Checks every variant on `small` on `dev` (any backend) and times it at each of `sizes`
/// (none in the interpreter); prints a table row per variant and size. `sms` bounds a
/// persistent grid. Returns the number of variants.
fn run<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    target: Target,
    small: Mnk,
    sms: u32,
    sizes: &[Mnk],
) -> Result<usize> {
    let timed = !sizes.is_empty();
    println!();
    if timed {
        println!("| variant | M×N×K | check (max abs err) | weft ms | weft TFLOP/s | registers |");
        println!("|---|---|---|---|---|---|");
    } else {
        println!("| variant | M×N×K | check (max abs err) |");
        println!("|---|---|---|");
    }
    let mut failed = false;
    let variants = [
        (DType::F16, false),
        (DType::BF16, false),
        (DType::F16, true),
        (DType::BF16, true),
        (DType::F8E4M3, true),
    ];
    let persistent = std::env::args().any(|a| a == "persistent");
    let ws = std::env::args().any(|a| a == "ws");
    let cluster = std::env::args().any(|a| a == "cluster");
    for (dtype, bt) in variants {
        let mut cfg = GemmConfig::new(dtype);
        cfg.b_transposed = bt;
        cfg.persistent = persistent;
        cfg.warp_specialized = ws;
        cfg.cluster_m = if cluster { 2 } else { 1 };
        let k = gemm_kernel(ctx, target, cfg)?;
        let sig = k.signature().clone();
        let kernel = k.load_on::<B>(dev)?;
        let name = format!(
            "{dtype}→{} {}{}{}{}",
            cfg.out_dtype,
            if bt { "A·Bᵀ" } else { "A·B" },
            if ws { " ws" } else { "" },
            if persistent { " persistent" } else { "" },
            if cluster { " cluster 2" } else { "" }
        );
        let ulp = if cfg.out_dtype == DType::F16 {
            1.0 / 1024.0
        } else {
            1.0 / 128.0
        };
        // Check on an odd size first, then time.
        let sizes = (small, sizes);
        let (status, times) = match dtype {
            DType::F16 => variant::<B, _, _>(
                dev,
                &kernel,
                &sig,
                cfg,
                sizes,
                (ulp, sms),
                f16::from_f32,
                |x: f16| x.to_f32(),
            )?,
            DType::BF16 => variant::<B, _, _>(
                dev,
                &kernel,
                &sig,
                cfg,
                sizes,
                (ulp, sms),
                bf16::from_f32,
                |x: bf16| x.to_f32(),
            )?,
            _ => variant::<B, _, _>(
                dev,
                &kernel,
                &sig,
                cfg,
                sizes,
                (ulp, sms),
                F8E4M3::from_f32,
                |x: bf16| x.to_f32(),
            )?,
        };
        let status = if status.0 == 0 {
            format!("ok ({:.1e})", status.1)
        } else {
            failed = true;
            format!("FAIL: {} wrong", status.0)
        };
        if !timed {
            let (m, n, kk) = small;
            println!("| {name} | {m}×{n}×{kk} | {status} |");
        }
        for ((m, n, kk), ms) in times {
            let tflops = 2.0 * (m * n * kk) as f64 / (ms * 1e9);
            let attrs = format!("{} regs", kernel.attrs().num_regs);
            println!("| {name} | {m}×{n}×{kk} | {status} | {ms:.3} | {tflops:.0} | {attrs} |");
        }
    }
    if failed {
        return Err("a GEMM result differs from the host".into());
    }
    Ok(variants.len())
}
