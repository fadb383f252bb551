//! gemm_blockscaled: fp8 e4m3 `C = (sa ⊙ A) · (sb ⊙ B)ᵀ` with DeepSeek-V3's fine-grained scales
//! (1 × 128 on A, 128 × 128 on B, f32), bf16 C, on Hopper: each K block's wgmma partial is scaled
//! and promoted into the f32 accumulator while the next block's wgmma runs
//! (`weft::codegen::kernels::gemm_blockscaled_kernel`).
//!
//! `cargo run --release --example gemm_blockscaled --features llvm,cuda [-- M N K]
//! [variant=bs,bs_c2,bs_ahead,bs_tma,bs_tma_c2,bs_s6,pt128,pt_c2] [sweep]` (`variant=`: which kernels to
//! time beside the per-tensor baseline `pt`, all by default: `bs` the block-scaled kernel as shipped,
//! `bs_c2` in clusters of two CTAs along M that multicast the B box they share (`cluster_m = 2`),
//! `bs_ahead` with each K block's scales loaded a block ahead (`ScaleLoads::OneBlockAhead`), `bs_tma`
//! with them copied by the producer's TMA into each ring stage from M-/N-major copies and read from
//! shared memory (`ScaleLoads::Staged`, as DeepGEMM does; `bs_tma_c2` in clusters of two), `bs_s6` with 6 stages,
//! `pt_c2` the per-tensor baseline in clusters of two multicasting B,
//! `pt128` the per-tensor kernel on the block-scaled 128 × 128 tile, which tells the tile's cost
//! from the promotion's; `sweep`: also times other stage counts, tile widths and launch groupings
//! at 4096×7168×16384).
//!
//! With a GPU: checks each variant on a 1000 × 776 × 1552 problem against the f64 host reference element by
//! element (within C's rounding plus the fp8 tensor cores' lost low bits,
//! `gemm_blockscaled_error_bound`; it prints the worst sum error as a fraction of that bound), then times DeepGEMM's shapes (M 64, 128, 4096 × its (N, K) table) and 8192³ (or the
//! given M N K) on random data, each output checked on sampled rows (the per-tensor ones against
//! the reference with unit scales), next to weft's per-tensor fp8 GEMM (warp-specialised,
//! persistent) on the same operands in the same run: the ratio the issue asks for (≥ 0.95×). cuBLASLt per-tensor and DeepGEMM are in `scripts/anchors/`.
//! Without a GPU: runs the kernel (`bs`, and `bs_tma`) in the interpreter on a ragged 136 × 200 × 304
//! problem and checks it the same way.
mod common;

use common::blockscaled::DeviceScales;
use common::Result;
use weft::codegen::kernels::{
    gemm_blockscaled_error_bound, gemm_blockscaled_kernel, gemm_blockscaled_kernel_with,
    gemm_blockscaled_reference, gemm_kernel, GemmConfig, ScaleLoads, SCALE_BLOCK,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::backend::{BufferOf, KernelOf};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, KernelArgs, LaunchConfig, F8E4M3};

/// M × N × K.
type Mnk = (usize, usize, usize);

fn main() -> Result<()> {
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        println!("# gemm_blockscaled on {}", common::gpu::describe(&dev));
        let sms = dev.props().sm_count;
        run::<weft::runtime::cuda::Cuda>(&dev, &ctx, (1000, 776, 1552), sms, &sizes())?;
        if std::env::args().any(|a| a == "sweep") {
            sweep::<weft::runtime::cuda::Cuda>(&dev, &ctx, sms)?;
        }
        return Ok(());
    }
    let dev = common::interpreter(Target::SM90A)?;
    run::<weft::runtime::cpu::Cpu>(&dev, &ctx, (136, 200, 304), 3, &[])?;
    common::interpreted("gemm_blockscaled 136×200×304 on 3 persistent programs (scales from global memory, and staged by TMA): C equals the f64 host reference within one rounding of bf16 and the fp8 sums' bound");
    Ok(())
}

/// The timed shapes: `M N K` from the command line, else DeepGEMM's table and 8192³.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))] // a GPU run only
fn sizes() -> Vec<Mnk> {
    if let Some(mnk) = common::three_numbers_arg() {
        return vec![mnk];
    }
    if std::env::args().any(|a| a == "sweep") {
        return vec![];
    }
    let nk = [
        (2112, 7168),
        (24576, 1536),
        (32768, 512),
        (7168, 16384),
        (4096, 7168),
        (7168, 2048),
    ];
    let mut v: Vec<Mnk> = [64, 128, 4096]
        .iter()
        .flat_map(|&m| nk.iter().map(move |&(n, k)| (m, n, k)))
        .collect();
    v.push((8192, 8192, 8192));
    v
}

/// One problem on the device: A, B (e4m3), C (bf16), and the host copies of A, B and their
/// scales (uploaded per launch in the form its `ScaleLoads` reads).
struct Problem<B: Backend> {
    a: BufferOf<B, F8E4M3>,
    b: BufferOf<B, F8E4M3>,
    c: BufferOf<B, bf16>,
    host: [Vec<f32>; 4],
    mnk: Mnk,
}

/// Values in [-2, 2) rounded to e4m3 (as the device holds them), and scales in [1/2, 2).
fn problem<B: Backend>(dev: &B::Device, (m, n, k): Mnk, seed: u64) -> Result<Problem<B>> {
    let fp8 = |len: usize, seed: u64| -> Vec<F8E4M3> {
        common::random(len, seed)
            .into_iter()
            .map(|x| F8E4M3::from_f32(x / 2.0))
            .collect()
    };
    let scales = |len: usize, seed: u64| -> Vec<f32> {
        common::random(len, seed)
            .into_iter()
            .map(|x| 1.25 + 0.1875 * x)
            .collect()
    };
    let kbs = k.div_ceil(SCALE_BLOCK);
    let (a, b) = (fp8(m * k, seed), fp8(n * k, seed + 1));
    let (sa, sb) = (
        scales(m * kbs, seed + 2),
        scales(n.div_ceil(SCALE_BLOCK) * kbs, seed + 3),
    );
    let wide = |v: &[F8E4M3]| v.iter().map(|x| x.to_f32()).collect::<Vec<_>>();
    let mut c = dev.alloc::<bf16>(m * n)?;
    c.fill_bytes(0xFF)?;
    Ok(Problem {
        a: dev.upload(&a)?,
        b: dev.upload(&b)?,
        c,
        host: [wide(&a), wide(&b), sa, sb],
        mnk: (m, n, k),
    })
}

/// Launches the kernel of `cfg` on `p` (`scaled`: the block-scaled kernel with its scales loaded
/// so, else the per-tensor one) once, and returns its median milliseconds when `time` (else 0).
fn launch<B: Backend>(
    dev: &B::Device,
    (kernel, sig): (&KernelOf<B>, &weft::runtime::KernelSignature),
    cfg: GemmConfig,
    p: &Problem<B>,
    (sms, scaled, time): (u32, Option<ScaleLoads>, bool),
) -> Result<f64> {
    let (m, n, k) = (p.mnk.0 as u64, p.mnk.1 as u64, p.mnk.2 as u64);
    let sw = cfg.swizzle();
    let a_map = dev.tensor_map(&p.a, &[m, k], &[k], &cfg.a_box(), sw)?;
    let b_map = dev.tensor_map(&p.b, &[n, k], &[k], &cfg.b_box(), sw)?;
    let c_map = dev.tensor_map(&p.c, &[m, n], &[n], &cfg.c_box(), sw)?;
    let scales = match scaled {
        Some(loads) => Some(DeviceScales::<B>::upload(
            dev,
            [&p.host[2], &p.host[3]],
            [p.mnk.0, p.mnk.1.div_ceil(SCALE_BLOCK)],
            p.mnk.2,
            loads,
        )?),
        None => None,
    };
    let scale_maps = match &scales {
        Some(s) => s.maps(dev, &cfg)?,
        None => None,
    };
    let mut args = KernelArgs::new();
    args.tensor_map(&a_map)
        .tensor_map(&b_map)
        .tensor_map(&c_map);
    args.scalar(m as i32).scalar(n as i32).scalar(k as i32);
    if let Some(s) = &scales {
        s.push(&mut args, scale_maps.as_ref());
    }
    let lc = LaunchConfig::for_kernel(cfg.grid_persistent(m, n, sms), sig)?;
    // SAFETY: the maps cover A, B, C and staged scales; scales behind pointers hold M × ⌈K/128⌉
    // and ⌈N/128⌉ × ⌈K/128⌉.
    unsafe { common::launch_once::<B>(dev, kernel, &lc, &args)? };
    if !time {
        return Ok(0.0);
    }
    // SAFETY: as above.
    common::time::<B>(dev, |s| unsafe { s.launch(kernel, &lc, &args) })
}

/// Checks `rows` of C against the host reference: an element is wrong beyond C's rounding
/// (`|w|/128`, 1e-2 near zero) plus the fp8 tensor cores' lost low bits
/// ([`gemm_blockscaled_error_bound`]). Returns (wrong elements, largest error, largest error
/// beyond C's rounding as a fraction of that bound: about 0.01 for sums cut to 14 bits, 1 or
/// more for a kernel bug).
fn check<B: Backend>(p: &Problem<B>, rows: &[usize], scaled: bool) -> Result<(usize, f32, f32)> {
    let (_, n, k) = p.mnk;
    let kbs = k.div_ceil(SCALE_BLOCK);
    let [a, b, sa, sb] = &p.host;
    // The per-tensor GEMM is the block-scaled one with every scale 1.
    let (ones_a, ones_b) = (vec![1f32; sa.len()], vec![1f32; sb.len()]);
    let (sa, sb) = if scaled { (sa, sb) } else { (&ones_a, &ones_b) };
    let c = p.c.to_vec()?;
    let (mut bad, mut worst, mut of_bound) = (0, 0f32, 0f32);
    for &r in rows {
        let row = [&a[r * k..(r + 1) * k], &b[..]];
        let scales = [&sa[r * kbs..(r + 1) * kbs], &sb[..]];
        let want = gemm_blockscaled_reference(row, scales, [1, n, k])?;
        let bound = gemm_blockscaled_error_bound(row, scales, [1, n, k])?;
        for (j, (w, fp8)) in want.iter().zip(&bound).enumerate() {
            let g = c[r * n + j].to_f32();
            let e = (g - w).abs();
            worst = worst.max(e);
            of_bound = of_bound.max((e - w.abs() / 256.0).max(0.0) / fp8);
            if e.is_nan() || e > w.abs() / 128.0 + 1e-2 + fp8 {
                bad += 1;
            }
        }
    }
    Ok((bad, worst, of_bound))
}

/// One timed kernel: a name for `variant=`, its configuration, and whether it is the
/// block-scaled kernel (else weft's per-tensor fp8 GEMM on the same operands, checked with unit
/// scales).
#[derive(Clone, Copy)]
struct Variant {
    name: &'static str,
    scaled: bool,
    /// When the block-scaled kernel loads its scales.
    loads: ScaleLoads,
    /// The configuration for an `m × n` output on `sms` SMs.
    cfg: fn(u64, u64, u32) -> GemmConfig,
}

/// Every variant `variant=` may name. `pt` (weft's per-tensor fp8 GEMM as shipped: 128 × 256
/// tiles) is the baseline each row's ratio divides by; `pt128` is the same per-tensor kernel on
/// the block-scaled kernel's 128 × 128 tile and 5 stages, which separates the cost of the tile
/// (its operand bytes per flop) from the cost of the promotion.
const VARIANTS: [Variant; 9] = [
    Variant {
        name: "bs",
        scaled: true,
        loads: ScaleLoads::WithTheBlock,
        cfg: GemmConfig::block_scaled_for,
    },
    Variant {
        name: "bs_c2",
        scaled: true,
        loads: ScaleLoads::WithTheBlock,
        cfg: |m, n, sms| GemmConfig {
            cluster_m: 2,
            ..GemmConfig::block_scaled_for(m, n, sms)
        },
    },
    Variant {
        name: "bs_ahead",
        scaled: true,
        loads: ScaleLoads::OneBlockAhead,
        cfg: GemmConfig::block_scaled_for,
    },
    Variant {
        name: "bs_tma",
        scaled: true,
        loads: ScaleLoads::Staged,
        cfg: GemmConfig::block_scaled_for,
    },
    Variant {
        name: "bs_tma_c2",
        scaled: true,
        loads: ScaleLoads::Staged,
        cfg: |m, n, sms| GemmConfig {
            cluster_m: 2,
            ..GemmConfig::block_scaled_for(m, n, sms)
        },
    },
    Variant {
        name: "bs_s6",
        scaled: true,
        loads: ScaleLoads::WithTheBlock,
        cfg: |m, n, sms| GemmConfig {
            stages: 6,
            ..GemmConfig::block_scaled_for(m, n, sms)
        },
    },
    Variant {
        name: "pt128",
        scaled: false,
        loads: ScaleLoads::WithTheBlock,
        cfg: |_, _, _| GemmConfig::block_scaled(),
    },
    Variant {
        name: "pt_c2",
        scaled: false,
        loads: ScaleLoads::WithTheBlock,
        cfg: |_, _, _| GemmConfig {
            warp_specialized: true,
            persistent: true,
            cluster_m: 2,
            ..GemmConfig::new(DType::F8E4M3)
        },
    },
    Variant {
        name: "pt",
        scaled: false,
        loads: ScaleLoads::WithTheBlock,
        cfg: |_, _, _| GemmConfig {
            warp_specialized: true,
            persistent: true,
            ..GemmConfig::new(DType::F8E4M3)
        },
    },
];

/// The variants `variant=a,b,…` names (`defaults` when absent), with the baseline `pt` last
/// when `timed`.
fn chosen_variants(defaults: &[&str], timed: bool) -> Result<Vec<Variant>> {
    let arg = std::env::args().find_map(|a| a.strip_prefix("variant=").map(str::to_owned));
    let names: Vec<String> = match arg {
        Some(list) => list.split(',').map(str::to_owned).collect(),
        None => defaults.iter().map(|n| (*n).to_owned()).collect(),
    };
    let mut out = Vec::new();
    for name in names.iter().filter(|n| !timed || *n != "pt") {
        match VARIANTS.iter().find(|v| v.name == name) {
            Some(v) => out.push(*v),
            None => {
                let known: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
                return Err(format!("variant {name}: one of {}", known.join(", ")).into());
            }
        }
    }
    if timed {
        out.extend(VARIANTS.iter().filter(|v| v.name == "pt"));
    }
    Ok(out)
}

/// Builds variant `v` for an `m × n` output, runs it once on `p` and checks `rows` of C
/// (block-scaled against the reference, per-tensor against it with unit scales); returns its
/// median milliseconds when `time` (else 0).
fn run_variant<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    v: Variant,
    p: &mut Problem<B>,
    (sms, rows, time): (u32, &[usize], bool),
) -> Result<f64> {
    let (m, n, kk) = p.mnk;
    let cfg = (v.cfg)(m as u64, n as u64, sms);
    let k = if v.scaled {
        gemm_blockscaled_kernel_with(ctx, Target::SM90A, cfg, v.loads)?
    } else {
        gemm_kernel(ctx, Target::SM90A, cfg)?
    };
    let kernel = k.load_on::<B>(dev)?;
    p.c.fill_bytes(0xFF)?;
    let loads = v.scaled.then_some(v.loads);
    let ms = launch(dev, (&kernel, k.signature()), cfg, p, (sms, loads, time))?;
    let (bad, _, _) = check(p, rows, v.scaled)?;
    if bad > 0 {
        return Err(format!("{} at {m}×{n}×{kk}: {bad} wrong elements", v.name).into());
    }
    Ok(ms)
}

/// Checks every variant on `small` (every row), then times them at each of `sizes` beside the
/// per-tensor baseline, printing a table.
fn run<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    small: Mnk,
    sms: u32,
    sizes: &[Mnk],
) -> Result<()> {
    // In the interpreter the shipped kernel and the staged one unless `variant=` says otherwise.
    let defaults: Vec<&str> = if sizes.is_empty() {
        vec!["bs", "bs_tma"]
    } else {
        VARIANTS.iter().map(|v| v.name).collect()
    };
    let variants = chosen_variants(&defaults, !sizes.is_empty())?;
    let mut p = problem::<B>(dev, small, 7)?;
    let all: Vec<usize> = (0..small.0).collect();
    for v in &variants {
        run_variant(dev, ctx, *v, &mut p, (sms, &all, false))?;
        let (_, worst, of_bound) = check(&p, &all, v.scaled)?;
        println!(
            "check {} {}×{}×{}: 0 wrong, max abs error {worst:.2e}, worst sum error {of_bound:.3} of the fp8 bound",
            v.name, small.0, small.1, small.2
        );
    }
    if sizes.is_empty() {
        return Ok(());
    }
    println!();
    println!("| M×N×K | variant | ms | TFLOP/s | ÷ per-tensor (pt) time | rows checked |");
    println!("|---|---|---|---|---|---|");
    for &(m, n, kk) in sizes {
        let mut p = problem::<B>(dev, (m, n, kk), 11)?;
        // Four rows (the host reference of a whole output would take minutes).
        let last = m.saturating_sub(1);
        let mut rows = vec![0, 1.min(last), m / 2, last];
        rows.dedup();
        let times = variants
            .iter()
            .map(|v| run_variant(dev, ctx, *v, &mut p, (sms, &rows, true)))
            .collect::<Result<Vec<f64>>>()?;
        let base = times[times.len() - 1];
        for (v, ms) in variants.iter().zip(&times) {
            let tf = 2.0 * (m * n * kk) as f64 / (ms * 1e9);
            println!(
                "| {m}×{n}×{kk} | {} | {ms:.3} | {tf:.0} | {:.2}× | {} ok |",
                v.name,
                base / ms,
                rows.len()
            );
        }
    }
    Ok(())
}

/// Times other configurations of the block-scaled kernel at DeepGEMM's 4096×7168×16384, each
/// output checked on sampled rows.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))] // a GPU run only
fn sweep<B: Backend>(dev: &B::Device, ctx: &Context, sms: u32) -> Result<()> {
    let (m, n, kk) = (4096, 7168, 16384);
    let p = problem::<B>(dev, (m, n, kk), 11)?;
    println!();
    println!("| 4096×7168×16384 config | ms | TFLOP/s |");
    println!("|---|---|---|");
    for (block_n, stages, group_m) in [
        (128, 4, 8),
        (128, 5, 8),
        (128, 6, 8),
        (128, 5, 16),
        (128, 5, 4),
        (64, 6, 8),
    ] {
        let mut cfg = GemmConfig::block_scaled();
        cfg.block_n = block_n;
        cfg.stages = stages;
        cfg.group_m = group_m;
        let timed = || -> Result<f64> {
            let k = gemm_blockscaled_kernel(ctx, Target::SM90A, cfg)?;
            let kernel = k.load_on::<B>(dev)?;
            let loads = Some(ScaleLoads::WithTheBlock);
            let ms = launch(dev, (&kernel, k.signature()), cfg, &p, (sms, loads, true))?;
            let (bad, _, _) = check(&p, &[0, m / 2, m - 1], true)?;
            if bad > 0 {
                return Err(format!("{bad} wrong").into());
            }
            Ok(ms)
        };
        let name = format!("128×{block_n}, {stages} stages, group {group_m}");
        match timed() {
            Ok(ms) => println!(
                "| {name} | {ms:.3} | {:.0} |",
                2.0 * (m * n * kk) as f64 / (ms * 1e9)
            ),
            // A configuration the device refuses (shared memory) is a row, not the end.
            Err(e) => println!("| {name} | {e} | |"),
        }
    }
    Ok(())
}
