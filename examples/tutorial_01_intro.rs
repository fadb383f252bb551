//! Gluon tutorial 01 ("Introduction to Gluon") in weft: the scalar memcpy, where each program
//! copies `[pid · XBLOCK, min(pid · XBLOCK + XBLOCK, xnumel))` one element at a time, and an
//! autotune over `XBLOCK` (256 … 8192, one warp, as the tutorial's `triton.autotune`).
//!
//! Line counts (the kernel from its first line, `fn` or `@gluon.jit`, to its last, without
//! blank or comment lines; weft's after rustfmt, Gluon's as copied into
//! `scripts/anchors/gluon_tutorials.py`): `memcpy_kernel` 8 lines against Gluon's
//! `memcpy_kernel` 8. The arguments are one line (`kb.args`, as Gluon's signature), the loop
//! one expression of its induction variable (`for_each_expr`). Every load and store is of a
//! scalar: the store is done by one thread, as in Gluon, and the offsets are i64 because
//! `xnumel` is (2³¹ elements, as the tutorial copies).
//!
//! ```sh
//! cargo run --release --features llvm,cuda --example tutorial_01_intro [-- sm_90|sm_80]
//! ```
//! On a GPU: each `XBLOCK` checked on small ragged copies, then timed copying 2³¹ f32 (8 GiB),
//! the best against a device-to-device copy of the same bytes in the same run (about 5 s in all); `scripts/anchors/gluon_tutorials.py intro` times
//! Gluon's kernel at the same size. Without one: the tutorial's test sizes (40 and 500 elements,
//! `XBLOCK` 64) in the interpreter, checked bit for bit.
mod common;

use common::Result;
use weft::codegen::args::{i64, ptr};
use weft::codegen::DType::{F32, I64};
use weft::codegen::{Context, Kernel, KernelBuilder, Target};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

/// Gluon's `memcpy_kernel(in_ptr, out_ptr, xnumel, XBLOCK)`, `num_warps=1`.
fn memcpy_kernel(ctx: &Context, t: Target, xblock: i64) -> weft::codegen::Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, t, "memcpy_scalar", 1)?;
    let [x, y, xnumel] = kb.args([ptr("in", F32, 4), ptr("out", F32, 4), i64("xnumel", 1)])?;
    let start = kb.expr(|e| e.program_id(0).cast(I64) * xblock)?;
    let end = kb.expr(|e| (e.of(start) + xblock).min(xnumel))?;
    kb.for_each_expr(start, end, 1, |i| (y + i).store((x + i).load()))?;
    kb.finish()
}

fn main() -> Result<()> {
    let target = common::target_arg()?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        return on_gpu(&dev, &ctx, target);
    }
    let dev = common::interpreter(target)?;
    for n in [40, 500] {
        run::<weft::runtime::cpu::Cpu>(&dev, &memcpy_kernel(&ctx, target, 64)?, 64, n)?;
    }
    common::interpreted("the scalar memcpy (XBLOCK 64) of 40 and 500 f32: copied bit for bit");
    Ok(())
}

/// Copies `n` random f32 with the kernel built for `xblock` and checks them bit for bit (and
/// that nothing past `n` was written); returns what the launch needs to be timed.
fn run<B: Backend>(dev: &B::Device, k: &Kernel<'_>, xblock: u64, n: usize) -> Result<()> {
    let (x, dx, dy, cfg) = launch::<B>(dev, k, xblock, n)?;
    let y = dy.to_vec()?;
    let same = x.iter().zip(&y).all(|(a, b)| a.to_bits() == b.to_bits());
    if !same || y[n..].iter().any(|v| v.to_bits() != u32::MAX) {
        return Err(format!("memcpy of {n} f32 with XBLOCK {xblock} differs").into());
    }
    drop((dx, cfg));
    Ok(())
}

type Launched<B> = (
    Vec<f32>,
    weft::runtime::backend::BufferOf<B, f32>,
    weft::runtime::backend::BufferOf<B, f32>,
    LaunchConfig,
);

fn launch<B: Backend>(
    dev: &B::Device,
    k: &Kernel<'_>,
    xblock: u64,
    n: usize,
) -> Result<Launched<B>> {
    let x = common::random(n, 1);
    let dx = dev.upload(&x)?;
    let mut dy = dev.alloc::<f32>(n + 64)?;
    dy.fill_bytes(0xFF)?;
    let loaded = k.load_on::<B>(dev)?;
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(n as i64);
    let grid = (n as u64).div_ceil(xblock) as u32;
    let cfg = LaunchConfig::for_kernel(grid, k.signature())?;
    // SAFETY: program p copies elements [p·xblock, min((p+1)·xblock, n)) of x (n) into y (n + 64).
    unsafe { common::launch_once::<B>(dev, &loaded, &cfg, &args)? };
    Ok((x, dx, dy, cfg))
}

/// The autotune: each `XBLOCK` is first checked on the GPU on small ragged copies (40, 500 and
/// 100 003 f32, bit for bit), then timed copying 2³¹ f32 (8 GiB, filled on the device: an 8 GiB
/// host check per `XBLOCK` would take longer than the whole sweep), one line per `XBLOCK` as it
/// is known; the best is reported against a device-to-device copy of the same 8 GiB.
#[cfg(feature = "cuda")]
fn on_gpu(dev: &weft::runtime::cuda::Device, ctx: &Context, target: Target) -> Result<()> {
    use weft::runtime::cuda::Cuda;
    let n: usize = 2 << 30;
    let mut dx = dev.alloc::<f32>(n)?;
    dx.fill_bytes(0x3c)?;
    let mut dy = dev.alloc::<f32>(n)?;
    let gbs = |ms: f64| 8.0 * n as f64 / ms / 1e6;
    let mut best = (f64::INFINITY, 0u64);
    for xblock in (8..14).map(|i| 1u64 << i) {
        let k = memcpy_kernel(ctx, target, xblock as i64)?;
        for small in [40, 500, 100_003] {
            run::<Cuda>(dev, &k, xblock, small)?;
        }
        let loaded = k.load_on::<Cuda>(dev)?;
        let mut args = KernelArgs::new();
        args.ptr(&dx).ptr(&dy).scalar(n as i64);
        let cfg = LaunchConfig::for_kernel(n.div_ceil(xblock as usize) as u32, k.signature())?;
        // SAFETY: program p copies its block of x into y, both n long.
        let ms = common::time::<Cuda>(dev, |s| unsafe { s.launch(&loaded, &cfg, &args) })?;
        println!("XBLOCK {xblock:5}: {ms:8.2} ms, {:7.1} GB/s", gbs(ms));
        if ms < best.0 {
            best = (ms, xblock);
        }
    }
    let d2d = common::time::<Cuda>(dev, |s| s.copy_async(&dx, &mut dy))?;
    let (ms, xblock) = best;
    common::result_line("weft", "01_memcpy_best", ms, "2^31xf32");
    common::result_line("d2d", "01_memcpy_best", d2d, "2^31xf32");
    println!(
        "tutorial 01 (scalar memcpy of 2^31 f32) on {}: best XBLOCK {xblock}, {ms:.2} ms \
         ({:.1} GB/s); device-to-device copy {d2d:.2} ms ({:.1} GB/s), ratio {:.3}",
        common::gpu::describe(dev),
        gbs(ms),
        gbs(d2d),
        d2d / ms
    );
    Ok(())
}
