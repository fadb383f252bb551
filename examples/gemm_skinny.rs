//! gemm_skinny: `Y = X · Wᵀ` for decoding, a few tokens (M = 1–128) against a large weight W
//! `[N, K]`, in bf16, fp8 e4m3, and int4 weights with group-128 scales and bf16 tokens: split-K
//! so that every SM streams W, f32 partials summed in split order by a second kernel
//! (deterministic) (`weft::codegen::kernels::{gemm_skinny_kernel, gemm_w4_kernel,
//! gemm_skinny_reduce_kernel}`).
//!
//! `cargo run --release --example gemm_skinny --features llvm,cuda [-- M N K] [bf16|fp8|w4]
//! [depth=N] [stages=N]`
//!
//! With a GPU: for M 1, 16, 64, 128 × (N, K) 8192 × 8192 and 28672 × 4096 (or the given M N K;
//! `bf16`, `fp8` or `w4` picks the weights; `depth=` and `stages=` override `W4Config::depth` and
//! `W4Config::w_stages`),
//! checks rows of Y against the f64 host reference (every row up to 16 tokens, else four), times both kernels together and a
//! device-to-device copy of W's bytes (int4: the packed bytes and the scales) in the same run,
//! and prints W's bytes per second against the copy's (which reads and writes: 2 × bytes /
//! time). cuBLAS is in `scripts/anchors/`.
//! Without a GPU: runs both kernels in the interpreter on ragged problems and checks them.
mod common;

use common::Result;
use weft::codegen::kernels::{
    gemm_reference, gemm_skinny_kernel, gemm_skinny_reduce_kernel, gemm_w4_kernel,
    gemm_w4_reference, SkinnyConfig, W4Config, FP8_SUM_LOSS, W4_GROUP,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::backend::KernelOf;
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, DeviceElem, KernelArgs, LaunchConfig, F8E4M3};

/// M × N × K.
type Mnk = (usize, usize, usize);

fn main() -> Result<()> {
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        println!("# gemm_skinny on {}", common::gpu::describe(&dev));
        let sms = dev.props().sm_count;
        println!("| dtype | M×N×K | splits | ms | W GB/s | copy GB/s | of copy | rows checked |");
        println!("|---|---|---|---|---|---|---|---|");
        let named: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| ["bf16", "fp8", "w4"].contains(&a.as_str()))
            .collect();
        let picked = |name: &str| named.is_empty() || named.iter().any(|a| a == name);
        let dtypes = [(DType::BF16, "bf16"), (DType::F8E4M3, "fp8")];
        for dtype in dtypes.iter().filter(|d| picked(d.1)).map(|d| d.0) {
            for mnk in sizes() {
                // The sum finished by the reduction kernel, then (up to 64 tokens) in the
                // partial-product kernel itself, side by side.
                for finish in [false, true] {
                    if !finish || mnk.0 <= weft::codegen::kernels::FINISH_MAX_TOKENS as usize {
                        let how = (sms, true, finish);
                        run::<weft::runtime::cuda::Cuda>(&dev, &ctx, dtype, mnk, how)?;
                    }
                }
            }
        }
        for mnk in sizes().into_iter().filter(|_| picked("w4")) {
            for finish in [false, true] {
                run_w4::<weft::runtime::cuda::Cuda>(&dev, &ctx, mnk, (sms, true, finish))?;
            }
        }
        return Ok(());
    }
    let dev = common::interpreter(Target::SM90A)?;
    for (dtype, mnk, finish) in [
        (DType::BF16, (1, 200, 328), false),
        (DType::BF16, (1, 200, 328), true),
        (DType::F8E4M3, (13, 136, 400), false),
    ] {
        run::<weft::runtime::cpu::Cpu>(&dev, &ctx, dtype, mnk, (2, false, finish))?;
    }
    for finish in [false, true] {
        run_w4::<weft::runtime::cpu::Cpu>(&dev, &ctx, (5, 72, 384), (2, false, finish))?;
    }
    common::interpreted("gemm_skinny bf16 1×200×328 (summed by the reduction kernel, and in the kernel itself), fp8 13×136×400 and int4 weights 5×72×384 (both ways), split-K: Y equals the f64 host reference within one rounding of bf16 (fp8: plus what its 14-bit tensor-core sums lose)");
    Ok(())
}

/// The timed shapes: `M N K` from the command line, else the issue's.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))] // a GPU run only
fn sizes() -> Vec<Mnk> {
    if let Some(mnk) = common::three_numbers_arg() {
        return vec![mnk];
    }
    [1, 16, 64, 128]
        .iter()
        .flat_map(|&m| [(m, 8192, 8192), (m, 28672, 4096)])
        .collect()
}

/// How to run a problem: the device's SMs, whether to time it, whether the partial-product
/// kernel finishes the sum itself.
type How = (u32, bool, bool);

/// Checks (and with `time`, times) one problem in `dtype`.
fn run<B: Backend>(dev: &B::Device, ctx: &Context, dtype: DType, mnk: Mnk, how: How) -> Result<()> {
    if dtype == DType::F8E4M3 {
        run_as::<B, F8E4M3>(dev, ctx, dtype, mnk, how, F8E4M3::from_f32, |x| x.to_f32())
    } else {
        run_as::<B, bf16>(dev, ctx, dtype, mnk, how, bf16::from_f32, |x| x.to_f32())
    }
}

#[allow(clippy::too_many_arguments)]
fn run_as<B: Backend, T: DeviceElem + Copy>(
    dev: &B::Device,
    ctx: &Context,
    dtype: DType,
    (m, n, k): Mnk,
    (sms, time, finish): How,
    to: fn(f32) -> T,
    from: fn(T) -> f32,
) -> Result<()> {
    let c = SkinnyConfig::new(dtype, m as u32).with_finish_in_kernel(finish);
    let kp = gemm_skinny_kernel(ctx, Target::SM90A, c)?;
    let kr = gemm_skinny_reduce_kernel(ctx, Target::SM90A, c.out_dtype())?;
    let (partial, reduce): (KernelOf<B>, KernelOf<B>) =
        (kp.load_on::<B>(dev)?, kr.load_on::<B>(dev)?);
    // Values in [-1, 1) rounded to the input type, as the device holds them.
    let round = |v: Vec<f32>| -> (Vec<T>, Vec<f32>) {
        let d: Vec<T> = v.into_iter().map(|x| to(x / 4.0)).collect();
        let h = d.iter().map(|&x| from(x)).collect();
        (d, h)
    };
    let (x, hx) = round(common::random(m * k, 5));
    let (w, hw) = round(common::random(n * k, 6));
    let (dx, dw) = (dev.upload(&x)?, dev.upload(&w)?);
    let splits = c.splits(m as u64, n as u64, k as u64, sms);
    let dpart = dev.alloc::<f32>(splits as usize * m * n)?;
    let mut dy = dev.alloc::<bf16>(m * n)?;
    dy.fill_bytes(0xFF)?;
    let (mu, nu, ku) = (m as u64, n as u64, k as u64);
    let w_map = dev.tensor_map(&dw, &[nu, ku], &[ku], &c.w_box(), c.swizzle())?;
    let x_map = dev.tensor_map(&dx, &[mu, ku], &[ku], &c.x_box(), c.swizzle())?;
    let tickets = dev.alloc_zeroed::<i32>(c.tiles(mu, nu) as usize)?;
    let mut pargs = KernelArgs::new();
    pargs.tensor_map(&w_map).tensor_map(&x_map).ptr(&dpart);
    if finish {
        pargs.ptr(&dy).ptr(&tickets);
    }
    pargs
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(k as i32)
        .scalar(splits as i32);
    let mut rargs = KernelArgs::new();
    rargs
        .ptr(&dpart)
        .ptr(&dy)
        .scalar((m * n) as i32)
        .scalar(splits as i32);
    let plc = LaunchConfig::for_kernel(c.grid(mu, nu, splits), kp.signature())?;
    let rlc = LaunchConfig::for_kernel(c.reduce_grid(mu, nu), kr.signature())?;
    // SAFETY: the maps cover W and X; the partials hold splits · M · N floats, Y M · N, the
    // tickets one per tile.
    unsafe {
        common::launch_once::<B>(dev, &partial, &plc, &pargs)?;
        if !finish {
            common::launch_once::<B>(dev, &reduce, &rlc, &rargs)?;
        }
    }
    // fp8 tensor cores keep about 14 bits of each running sum: allow for it there.
    let loss = if dtype == DType::F8E4M3 {
        FP8_SUM_LOSS
    } else {
        0.0
    };
    let abs_w: Vec<f32> = hw.iter().map(|v| v.abs()).collect();
    let rows = check_rows(&dy.to_vec()?, (m, n), |r| {
        let row = &hx[r * k..(r + 1) * k];
        let abs_x: Vec<f32> = row.iter().map(|v| v.abs()).collect();
        let magnitude = gemm_reference(&abs_x, &abs_w, 1, n, k, true);
        Ok((
            gemm_reference(row, &hw, 1, n, k, true),
            magnitude.iter().map(|s| s * loss).collect(),
        ))
    })
    .map_err(|e| format!("{dtype} {m}×{n}×{k}: {e}"))?;
    if !time {
        return Ok(());
    }
    let bytes = n * k * (dtype.bits() as usize / 8);
    let name = match finish {
        true => format!("{dtype}, sum finished in the kernel"),
        false => format!("{dtype}"),
    };
    report::<B>(
        dev,
        (&partial, &plc, &pargs),
        (!finish).then_some((&reduce, &rlc, &rargs)),
        &name,
        ((m, n, k), splits, bytes, rows),
    )
}

/// One launch: a kernel, its grid, its arguments.
type Launch<'a, B> = (&'a KernelOf<B>, &'a LaunchConfig, &'a KernelArgs<'a>);

/// Times the two kernels together (or the first alone) and a device copy of `bytes` (W's) in
/// the same run, and prints a table row.
fn report<B: Backend>(
    dev: &B::Device,
    (partial, plc, pargs): Launch<'_, B>,
    reduce: Option<Launch<'_, B>>,
    name: &str,
    ((m, n, k), splits, bytes, rows): (Mnk, u32, usize, usize),
) -> Result<()> {
    // SAFETY: both launches ran once already on these arguments (and were checked).
    let ms = common::time::<B>(dev, |s| unsafe {
        s.launch(partial, plc, pargs)?;
        match reduce {
            Some((reduce, rlc, rargs)) => s.launch(reduce, rlc, rargs),
            None => Ok(()),
        }
    })?;
    let src = dev.alloc::<u8>(bytes)?;
    let mut dst = dev.alloc::<u8>(bytes)?;
    let copy_ms = common::time::<B>(dev, |s| s.copy_async(&src, &mut dst))?;
    let gbs = bytes as f64 / (ms * 1e6);
    let copy = 2.0 * bytes as f64 / (copy_ms * 1e6);
    println!(
        "| {name} | {m}×{n}×{k} | {splits} | {ms:.4} | {gbs:.0} | {copy:.0} | {:.0}% | {rows} |",
        100.0 * gbs / copy
    );
    Ok(())
}

/// Checks (and with `time`, times) the int4-weight GEMM with bf16 tokens on one problem.
fn run_w4<B: Backend>(
    dev: &B::Device,
    ctx: &Context,
    (m, n, k): Mnk,
    (sms, time, finish): How,
) -> Result<()> {
    let mut c = W4Config::new(DType::BF16, m as u32).with_finish_in_kernel(finish);
    // `depth=N` and `stages=N` override the groups a loop iteration computes and W's
    // shared-memory ring (a sweep).
    c.depth = common::number_arg("depth")?.unwrap_or(c.depth);
    c.w_stages = common::number_arg("stages")?.unwrap_or(c.w_stages);
    let kp = gemm_w4_kernel(ctx, Target::SM90A, c)?;
    let kr = gemm_skinny_reduce_kernel(ctx, Target::SM90A, DType::BF16)?;
    let (partial, reduce): (KernelOf<B>, KernelOf<B>) =
        (kp.load_on::<B>(dev)?, kr.load_on::<B>(dev)?);
    let groups = k.div_ceil(W4_GROUP as usize);
    let x: Vec<bf16> = common::random(m * k, 7)
        .into_iter()
        .map(|v| bf16::from_f32(v / 4.0))
        .collect();
    let w: Vec<i8> = common::random(n * k / 2, 8)
        .into_iter()
        .map(|v| (v * 32.0) as i8)
        .collect();
    let s: Vec<bf16> = common::random(n * groups, 9)
        .into_iter()
        .map(|v| bf16::from_f32((v.abs() + 1.0) / 256.0))
        .collect();
    let (dx, dw, ds) = (dev.upload(&x)?, dev.upload(&w)?, dev.upload(&s)?);
    let splits = c.splits(m as u64, n as u64, k as u64, sms);
    let dpart = dev.alloc::<f32>(splits as usize * m * n)?;
    let mut dy = dev.alloc::<bf16>(m * n)?;
    dy.fill_bytes(0xFF)?;
    let tickets = dev.alloc_zeroed::<i32>(c.tiles(m as u64, n as u64) as usize)?;
    let mut pargs = KernelArgs::new();
    pargs.ptr(&dw).ptr(&ds).ptr(&dx).ptr(&dpart);
    if finish {
        pargs.ptr(&dy).ptr(&tickets);
    }
    pargs
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(k as i32)
        .scalar(splits as i32);
    let mut rargs = KernelArgs::new();
    rargs
        .ptr(&dpart)
        .ptr(&dy)
        .scalar((m * n) as i32)
        .scalar(splits as i32);
    let plc = LaunchConfig::for_kernel(c.grid(m as u64, n as u64, splits), kp.signature())?;
    let rlc = LaunchConfig::for_kernel(((m * n).div_ceil(512) as u32, 1, 1), kr.signature())?;
    // SAFETY: the kernel reads W (N · K / 2 bytes), the scales and X within their shapes and
    // writes splits · M · N partials (finishing: Y, a ticket per tile); the reduction writes Y.
    unsafe {
        common::launch_once::<B>(dev, &partial, &plc, &pargs)?;
        if !finish {
            common::launch_once::<B>(dev, &reduce, &rlc, &rargs)?;
        }
    }
    let hx: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
    let hw: Vec<u8> = w.iter().map(|&b| b as u8).collect();
    let hs: Vec<f32> = s.iter().map(|v| v.to_f32()).collect();
    let rows = check_rows(&dy.to_vec()?, (m, n), |r| {
        Ok((
            gemm_w4_reference(&hx[r * k..(r + 1) * k], &hw, &hs, [1, n, k])?,
            vec![0.0; n],
        ))
    })
    .map_err(|e| format!("int4 {m}×{n}×{k}: {e}"))?;
    if !time {
        return Ok(());
    }
    let bytes = n * k / 2 + n * groups * 2;
    report::<B>(
        dev,
        (&partial, &plc, &pargs),
        (!finish).then_some((&reduce, &rlc, &rargs)),
        if finish {
            "int4 · bf16, sum finished in the kernel"
        } else {
            "int4 · bf16"
        },
        ((m, n, k), splits, bytes, rows),
    )
}

/// Checks Y's rows against `want` (one row's reference and, per column, what the tensor cores'
/// sums may lose beyond Y's rounding): every row up to 16 tokens, else the first two, the middle
/// and the last (the host reference of every row would take minutes). Returns how many rows were
/// checked.
fn check_rows(
    y: &[bf16],
    (m, n): (usize, usize),
    want: impl Fn(usize) -> Result<(Vec<f32>, Vec<f32>)>,
) -> Result<usize> {
    let rows: Vec<usize> = if m <= 16 {
        (0..m).collect()
    } else {
        vec![0, 1, m / 2, m.saturating_sub(1)]
    };
    for &r in &rows {
        let (want, slack) = want(r)?;
        for (j, (w, slack)) in want.iter().zip(&slack).enumerate() {
            let g = y[r * n + j].to_f32();
            let e = (g - w).abs();
            if e.is_nan() || e > w.abs() / 128.0 + 1e-3 + slack {
                return Err(format!("row {r} column {j}: {g} vs {w}").into());
            }
        }
    }
    Ok(rows.len())
}
