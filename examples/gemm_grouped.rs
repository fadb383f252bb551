//! gemm_grouped: the mixture-of-experts GEMM, `C[rows of e] = A[rows of e] · B[e]ᵀ` for 8
//! experts, in the contiguous (offsets) and masked (padded blocks + counts) token layouts, bf16
//! and fp8 with DeepSeek's block scales: one persistent kernel over every expert's tiles, the
//! expert row counts read on the device (`weft::codegen::kernels::gemm_grouped_kernel`).
//!
//! `cargo run --release --example gemm_grouped --features llvm,cuda [-- E T N K]`
//!
//! With a GPU: at E 8 × 4096 tokens an expert, N 4096, K 7168 and E 8 × 8192 tokens, N 7168, K
//! 2048 (or the given E, tokens an expert, N, K), checks sampled rows of every expert against the
//! f64 host reference (fp8: within the tensor cores' lost low bits too,
//! `gemm_blockscaled_error_bound`), times each variant, and times weft's dense GEMM of the same FLOPs
//! (warp-specialised, persistent; bf16, and per-tensor fp8) in the same run. `torch._grouped_mm`
//! and DeepGEMM are in `scripts/anchors/`.
//! fp8 runs twice: its scales read from global memory (as shipped), then staged by TMA through the
//! ring (`ScaleLoads::Staged`, rows `fp8 … staged`; masked layout only).
//! Without a GPU: runs every variant in the interpreter on 3 small ragged experts (one empty)
//! and checks every row.
mod common;

use common::blockscaled::DeviceScales;
use common::Result;
use weft::codegen::kernels::{
    gemm_blockscaled_error_bound, gemm_blockscaled_reference, gemm_grouped_kernel_with,
    gemm_kernel, GemmConfig, GroupedLayout, ScaleLoads, SCALE_BLOCK,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::backend::KernelOf;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, DeviceElem, KernelArgs, LaunchConfig, F8E4M3};

/// Experts' row counts, N, K.
#[derive(Clone)]
struct Shape {
    counts: Vec<usize>,
    n: usize,
    k: usize,
}

fn main() -> Result<()> {
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        println!("# gemm_grouped on {}", common::gpu::describe(&dev));
        let sms = dev.props().sm_count;
        println!("| variant | experts × tokens, N, K | ms | TFLOP/s | dense same FLOPs ms | TFLOP/s | ratio | rows checked |");
        println!("|---|---|---|---|---|---|---|---|");
        for shape in shapes() {
            for (dtype, loads) in variants() {
                for layout in layouts(loads) {
                    run::<weft::runtime::cuda::Cuda>(
                        &dev,
                        &ctx,
                        (dtype, loads),
                        layout,
                        &shape,
                        (sms, true),
                    )?;
                }
            }
        }
        return Ok(());
    }
    let dev = common::interpreter(Target::SM90A)?;
    let shape = Shape {
        counts: vec![40, 0, 90],
        n: 128,
        k: 144,
    };
    for v in variants() {
        for layout in layouts(v.1) {
            run::<weft::runtime::cpu::Cpu>(&dev, &ctx, v, layout, &shape, (2, false))?;
        }
    }
    common::interpreted("gemm_grouped bf16 and fp8 (scales from global memory, contiguous and masked; staged by TMA, masked), experts of 40, 0 and 90 rows, N 128, K 144: every expert's rows equal the f64 host reference within one rounding of bf16 (fp8: and the fp8 sums' bound)");
    Ok(())
}

/// The timed shapes: `E T N K` from the command line, else the two.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))] // a GPU run only
fn shapes() -> Vec<Shape> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if args.len() == 4 {
        return vec![Shape {
            counts: vec![args[1]; args[0]],
            n: args[2],
            k: args[3],
        }];
    }
    vec![
        Shape {
            counts: vec![4096; 8],
            n: 4096,
            k: 7168,
        },
        Shape {
            counts: vec![8192; 8],
            n: 7168,
            k: 2048,
        },
    ]
}

/// The input types, each with how its kernel loads fp8's scales (bf16 has none).
fn variants() -> [(DType, ScaleLoads); 3] {
    [
        (DType::BF16, ScaleLoads::WithTheBlock),
        (DType::F8E4M3, ScaleLoads::WithTheBlock),
        (DType::F8E4M3, ScaleLoads::Staged),
    ]
}

/// The layouts a variant runs in: staged scales only with the masked one (the contiguous
/// layout's experts start anywhere, and a TMA box of A's scales must start 16-byte aligned).
fn layouts(loads: ScaleLoads) -> Vec<GroupedLayout> {
    match loads {
        ScaleLoads::Staged => vec![GroupedLayout::Masked],
        _ => vec![GroupedLayout::Contiguous, GroupedLayout::Masked],
    }
}

/// Checks (and on a GPU, times) one variant.
fn run<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    (dtype, loads): (DType, ScaleLoads),
    layout: GroupedLayout,
    shape: &Shape,
    (sms, time): (u32, bool),
) -> Result<()> {
    let v = (dtype, loads, layout, shape, sms, time);
    if dtype == DType::F8E4M3 {
        run_as::<B, F8E4M3>(dev, ctx, v, F8E4M3::from_f32, F8E4M3::to_f32)
    } else {
        run_as::<B, bf16>(dev, ctx, v, bf16::from_f32, bf16::to_f32)
    }
}

/// A variant: input type, how fp8's scales load, token layout, shape, SMs (the persistent grid),
/// whether to time.
type Variant<'a> = (DType, ScaleLoads, GroupedLayout, &'a Shape, u32, bool);

fn run_as<B: Backend, T: DeviceElem + Copy>(
    dev: &B::Device,
    ctx: &Context,
    (dtype, loads, layout, shape, sms, time): Variant<'_>,
    to: fn(f32) -> T,
    from: fn(T) -> f32,
) -> Result<()> {
    let fp8 = dtype == DType::F8E4M3;
    let (e, n, k) = (shape.counts.len(), shape.n, shape.k);
    // A multiple of 4 (staged scales' boxes start 16-byte aligned at each expert's block).
    let m_max = shape.counts.iter().copied().max().unwrap_or(0).div_ceil(4) * 4;
    let spans: Vec<(usize, usize)> = match layout {
        GroupedLayout::Contiguous => {
            let mut at = 0;
            shape
                .counts
                .iter()
                .map(|&c| {
                    at += c;
                    (at - c, at)
                })
                .collect()
        }
        GroupedLayout::Masked => (0..e)
            .map(|x| (x * m_max, x * m_max + shape.counts[x]))
            .collect(),
    };
    let rows = match layout {
        GroupedLayout::Contiguous => shape.counts.iter().sum(),
        GroupedLayout::Masked => e * m_max,
    };
    let c = GemmConfig::grouped(dtype);
    let kern = gemm_grouped_kernel_with(ctx, Target::SM90A, c, layout, loads)?;
    let kernel: KernelOf<B> = kern.load_on::<B>(dev)?;
    // Values in [-1, 1) rounded to the input type, scales in [1/2, 2) (1 for bf16).
    let round = |len: usize, seed: u64| -> (Vec<T>, Vec<f32>) {
        let d: Vec<T> = common::random(len, seed)
            .into_iter()
            .map(|x| to(x / 4.0))
            .collect();
        let h = d.iter().map(|&x| from(x)).collect();
        (d, h)
    };
    let (a, ha) = round(rows * k, 1);
    let (b, hb) = round(e * n * k, 2);
    let kbs = k.div_ceil(SCALE_BLOCK);
    let scales = |len: usize, seed: u64| -> Vec<f32> {
        common::random(len, seed)
            .into_iter()
            .map(|x| if fp8 { 1.25 + 0.1875 * x } else { 1.0 })
            .collect()
    };
    let (sa, sb) = (
        scales(rows * kbs, 3),
        scales(e * n.div_ceil(SCALE_BLOCK) * kbs, 4),
    );
    let (da, db) = (dev.upload(&a)?, dev.upload(&b)?);
    let scale_rows = [rows, e * n.div_ceil(SCALE_BLOCK)];
    let scales = DeviceScales::<B>::upload(dev, [&sa, &sb], scale_rows, k, loads)?;
    let mut dc = dev.alloc::<bf16>(rows * n)?;
    dc.fill_bytes(0xFF)?;
    let counts: Vec<i32> = match layout {
        GroupedLayout::Contiguous => std::iter::once(0)
            .chain(spans.iter().map(|s| s.1 as i32))
            .collect(),
        GroupedLayout::Masked => shape.counts.iter().map(|&c| c as i32).collect(),
    };
    let dcounts = dev.upload(&counts)?;
    let (ru, nu, ku) = (rows as u64, n as u64, k as u64);
    let sw = c.swizzle();
    let a_map = dev.tensor_map(&da, &[ru, ku], &[ku], &c.a_box(), sw)?;
    let b_map = dev.tensor_map(&db, &[e as u64 * nu, ku], &[ku], &c.b_box(), sw)?;
    let scale_maps = scales.maps(dev, &c)?;
    let mut args = KernelArgs::new();
    args.tensor_map(&a_map).tensor_map(&b_map).ptr(&dc);
    args.scalar(rows as i32)
        .scalar(n as i32)
        .scalar(k as i32)
        .scalar(e as i32)
        .ptr(&dcounts);
    if layout == GroupedLayout::Masked {
        args.scalar(m_max as i32);
    }
    if fp8 {
        scales.push(&mut args, scale_maps.as_ref());
    }
    let lc = LaunchConfig::for_kernel((sms, 1, 1), kern.signature())?;
    // SAFETY: the maps cover A, B and staged scales; C holds rows · N; the counts and scales
    // behind pointers their shapes.
    unsafe { common::launch_once::<B>(dev, &kernel, &lc, &args)? };
    // Sampled rows of every expert (every row of a small one) against the host.
    let out = dc.to_vec()?;
    let nb = n.div_ceil(SCALE_BLOCK) * kbs;
    let mut checked = 0;
    for (x, &(first, end)) in spans.iter().enumerate() {
        let count = end - first;
        let rows_checked = if time {
            common::sample_rows(count, &[0, count / 2, count.saturating_sub(1)])
        } else {
            (0..count).collect()
        };
        for r in rows_checked {
            let row = first + r;
            let ab = [&ha[row * k..(row + 1) * k], &hb[x * n * k..(x + 1) * n * k]];
            let scales = [&sa[row * kbs..(row + 1) * kbs], &sb[x * nb..(x + 1) * nb]];
            let want = gemm_blockscaled_reference(ab, scales, [1, n, k])?;
            // fp8 sums keep about 14 bits in the tensor cores: allow their lost low bits.
            let fp8_bound = if fp8 {
                gemm_blockscaled_error_bound(ab, scales, [1, n, k])?
            } else {
                vec![0.0; n]
            };
            for (j, (w, b)) in want.iter().zip(&fp8_bound).enumerate() {
                let g = out[row * n + j].to_f32();
                let e = (g - w).abs();
                if e.is_nan() || e > w.abs() / 128.0 + 1e-2 + b {
                    return Err(format!(
                        "{dtype} {layout:?}: expert {x} row {r} column {j}: {g} vs {w} (fp8 bound {b})"
                    )
                    .into());
                }
            }
            checked += 1;
        }
    }
    let name = match (fp8, loads) {
        (true, ScaleLoads::Staged) => format!("{dtype} {layout:?} staged"),
        _ => format!("{dtype} {layout:?}"),
    };
    let what = format!("{} × {}, {n}, {k}", e, m_max);
    if !time {
        println!("{name} {what}: {checked} rows ok");
        return Ok(());
    }
    // SAFETY: as above.
    let ms = common::time::<B>(dev, |s| unsafe { s.launch(&kernel, &lc, &args) })?;
    let tokens: usize = shape.counts.iter().sum();
    let flops = 2.0 * (tokens * n * k) as f64;
    // The dense GEMM of the same FLOPs: all tokens against one expert's B.
    let mut dense = GemmConfig::new(dtype);
    dense.b_transposed = true;
    dense.warp_specialized = true;
    dense.persistent = true;
    let kd = gemm_kernel(ctx, Target::SM90A, dense)?;
    let dk: KernelOf<B> = kd.load_on::<B>(dev)?;
    let mut dd = dev.alloc::<bf16>(tokens * n)?;
    dd.fill_bytes(0)?;
    let tu = tokens as u64;
    let da_map = dev.tensor_map(&da, &[tu, ku], &[ku], &dense.a_box(), sw)?;
    let db_map = dev.tensor_map(&db, &[nu, ku], &[ku], &dense.b_box(), sw)?;
    let dc_map = dev.tensor_map(&dd, &[tu, nu], &[nu], &dense.c_box(), sw)?;
    let mut dargs = KernelArgs::new();
    dargs
        .tensor_map(&da_map)
        .tensor_map(&db_map)
        .tensor_map(&dc_map);
    dargs
        .scalar(tokens as i32)
        .scalar(n as i32)
        .scalar(k as i32);
    let dlc = LaunchConfig::for_kernel(dense.grid_persistent(tu, nu, sms), kd.signature())?;
    // SAFETY: the maps cover the first `tokens` rows of A, expert 0's B, and the dense C.
    let dms = common::time::<B>(dev, |s| unsafe { s.launch(&dk, &dlc, &dargs) })?;
    println!(
        "| {name} | {what} | {ms:.3} | {:.0} | {dms:.3} | {:.0} | {:.2}× | {checked} ok |",
        flops / (ms * 1e9),
        flops / (dms * 1e9),
        dms / ms
    );
    Ok(())
}
