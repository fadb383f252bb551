//! Gluon tutorial 02 ("Tensor Layouts") in weft: the 1-D memcpy whose tile is spread over the
//! threads by a `BlockedLayout([R], [32], [4], [0])` (R = 1, 2, 4: R consecutive f32 per thread
//! make each access an R-wide vector), and a transpose whose tile changes layout in registers
//! (`convert_layout`, through shared memory) so that both the load and the store are coalesced.
//!
//! Line counts (the kernel from its first line, `fn` or `@gluon.jit`, to its last, without
//! blank or comment lines; weft's after rustfmt, Gluon's as copied into
//! `scripts/anchors/gluon_tutorials.py`): `memcpy_1d_kernel` 11 against Gluon's 11;
//! `transpose_kernel` 10 against Gluon's 10. Gluon's four index grids
//! (`pid * BLOCK + gl.arange(…, gl.SliceLayout(…))[:, None]`) are two `block_offsets` calls, and
//! the transpose takes its two layouts as arguments, as Gluon's kernel does.
//!
//! ```sh
//! cargo run --release --features llvm,cuda --example tutorial_02_layouts [-- sm_90|sm_80]
//! ```
//! On a GPU: each kernel checked on small ragged problems first, then 2³² f32 (16 GiB, the
//! tutorial's size) copied with each R, `XBLOCK` 2048, and a 16384² f32 transpose, each timed against a device-to-device copy of the same bytes in the same
//! run (`scripts/anchors/gluon_tutorials.py layouts` times Gluon's at the same sizes). Without one:
//! a ragged 5008-element copy for each R and a 192 × 128 transpose in the interpreter, checked
//! bit for bit.
mod common;

use common::Result;
use weft::codegen::args::{i32, i64, ptr};
use weft::codegen::DType::{F32, I64};
use weft::codegen::{Context, Kernel, KernelBuilder, Target};
use weft::layout::encoding::Blocked;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

const XBLOCK: i32 = 2048;
const TILE: i32 = 64;

/// A kernel, or why it could not be built.
type Built<'c> = weft::codegen::Result<Kernel<'c>>;

/// Gluon's `memcpy_1d_kernel(in_ptr, out_ptr, xnumel, XBLOCK, layout)`, 4 warps.
fn memcpy_1d_kernel(ctx: &Context, t: Target, r: u32) -> Built<'_> {
    let mut kb = KernelBuilder::new(ctx, t, "memcpy_1d", 4)?;
    let [x, y, xnumel] = kb.args([ptr("in", F32, 16), ptr("out", F32, 16), i64("xnumel", 16)])?;
    let indices = kb.arange(0, XBLOCK, Blocked::new(&[r], &[32], &[4], &[0]))?;
    let offs = kb.expr(|e| e.program_id(0).cast(I64) * i64::from(XBLOCK) + indices)?;
    kb.expr(|e| {
        let mask = e.of(offs).lt(xnumel);
        (e.of(y) + offs).store_masked((e.of(x) + offs).load_masked(mask), mask)
    })?;
    kb.finish()
}

/// Gluon's `transpose_kernel(src, dst, M, N, layout_in, layout_out, XBLOCK, YBLOCK)`:
/// `dst[N, M] = transpose(src[M, N])` (both row-major, M and N multiples of 64), read along rows
/// of `src` in `rows`, converted to `cols` (threads along M) to write rows of `dst`.
fn transpose_kernel(ctx: &Context, t: Target, rows: Blocked, cols: Blocked) -> Built<'_> {
    let mut kb = KernelBuilder::new(ctx, t, "transpose", 4)?;
    let [src, dst] = kb.args([ptr("src", F32, 16), ptr("dst", F32, 16)])?;
    let [m, n] = kb.args([i32("m", 64), i32("n", 64)])?;
    let [ix, iy] = kb.block_offsets([TILE, TILE], rows)?;
    let v = kb.expr(|e| (e.of(src) + e.of(ix) * n + iy).load().convert_layout(&cols))?;
    let [ox, oy] = kb.block_offsets([TILE, TILE], cols)?;
    kb.expr(|e| (e.of(dst) + e.of(oy) * m + ox).store(v))?;
    kb.finish()
}

/// The transpose's load layout: threads along rows of `src`, four f32 each (Gluon's `layout_in`).
fn rows() -> Blocked {
    Blocked::new(&[1, 4], &[2, 16], &[4, 1], &[1, 0])
}

/// The transpose's store layout: threads along columns of `src` (Gluon's `layout_out`).
fn cols() -> Blocked {
    Blocked::new(&[4, 1], &[16, 2], &[1, 4], &[0, 1])
}

fn main() -> Result<()> {
    let target = common::target_arg()?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        return on_gpu(&dev, &ctx, target);
    }
    let dev = common::interpreter(target)?;
    for r in [1, 2, 4] {
        copy::<weft::runtime::cpu::Cpu>(&dev, &memcpy_1d_kernel(&ctx, target, r)?, 5008, false)?;
    }
    transpose::<weft::runtime::cpu::Cpu>(
        &dev,
        &transpose_kernel(&ctx, target, rows(), cols())?,
        192,
        128,
        false,
    )?;
    common::interpreted(
        "memcpy_1d of 5008 f32 (the last block ragged) with R = 1, 2, 4 and a 192 × 128 \
         transpose through convert_layout: bit for bit",
    );
    Ok(())
}

/// Copies `n` f32 with `k`: without `time`, a repeated random pattern, checked bit for bit and
/// that nothing past `n` was written; with `time` (gigabytes), an input filled on the device,
/// unchecked (the same kernel was checked at a small size first), returns (kernel ms, device
/// copy ms).
fn copy<B: Backend>(dev: &B::Device, k: &Kernel<'_>, n: usize, time: bool) -> Result<(f64, f64)> {
    let pattern = common::random(4096, 1);
    let dx = filled_or_uploaded::<B>(dev, n, time, || {
        pattern.repeat(n.div_ceil(4096))[..n].to_vec()
    })?;
    let mut dy = dev.alloc::<f32>(n + 64)?;
    dy.fill_bytes(0xFF)?;
    let loaded = k.load_on::<B>(dev)?;
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(n as i64);
    let cfg = LaunchConfig::for_kernel(n.div_ceil(XBLOCK as usize) as u32, k.signature())?;
    // SAFETY: program p copies elements [2048 p, 2048 (p + 1)) ∩ [0, n) of x into y (n + 64).
    unsafe { common::launch_once::<B>(dev, &loaded, &cfg, &args)? };
    if time {
        return common::time_against_d2d::<B>(dev, &loaded, &cfg, &args, n * 4);
    }
    let y = dy.to_vec()?;
    let ok = y[..n].chunks(4096).all(|c| c == &pattern[..c.len()]);
    if !ok || y[n..].iter().any(|v| v.to_bits() != u32::MAX) {
        return Err(format!("memcpy_1d of {n} f32 differs").into());
    }
    Ok((0.0, 0.0))
}

/// `n` f32 on the device: filled with a constant there when `timed` (no host copy of gigabytes),
/// else `host()` uploaded.
fn filled_or_uploaded<B: Backend>(
    dev: &B::Device,
    n: usize,
    timed: bool,
    host: impl FnOnce() -> Vec<f32>,
) -> Result<weft::runtime::backend::BufferOf<B, f32>> {
    if timed {
        let mut d = dev.alloc::<f32>(n)?;
        d.fill_bytes(0x3c)?;
        return Ok(d);
    }
    Ok(dev.upload(&host())?)
}

/// Transposes an `m × n` f32 matrix with `k`: without `time`, random, checked bit for bit; with
/// `time`, filled on the device and unchecked, returns (kernel ms, device copy ms).
fn transpose<B: Backend>(
    dev: &B::Device,
    k: &Kernel<'_>,
    m: usize,
    n: usize,
    time: bool,
) -> Result<(f64, f64)> {
    let x = if time {
        Vec::new()
    } else {
        common::random(m * n, 2)
    };
    let dx = filled_or_uploaded::<B>(dev, m * n, time, || x.clone())?;
    let dy = dev.alloc_zeroed::<f32>(m * n)?;
    let loaded = k.load_on::<B>(dev)?;
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
    let grid = ((m / TILE as usize) as u32, (n / TILE as usize) as u32, 1);
    let cfg = LaunchConfig::for_kernel(grid, k.signature())?;
    // SAFETY: program (i, j) reads the 64 × 64 tile (i, j) of x and writes tile (j, i) of y.
    unsafe { common::launch_once::<B>(dev, &loaded, &cfg, &args)? };
    if time {
        return common::time_against_d2d::<B>(dev, &loaded, &cfg, &args, m * n * 4);
    }
    let y = dy.to_vec()?;
    for i in 0..m {
        for j in 0..n {
            if y[j * m + i].to_bits() != x[i * n + j].to_bits() {
                return Err(format!("transpose: y[{j}][{i}] differs").into());
            }
        }
    }
    Ok((0.0, 0.0))
}

/// The tutorial's sizes on the GPU, each kernel first checked on a small ragged problem, then
/// timed against a device-to-device copy in the same run; one line per kernel as it is known.
#[cfg(feature = "cuda")]
fn on_gpu(dev: &weft::runtime::cuda::Device, ctx: &Context, target: Target) -> Result<()> {
    use weft::runtime::cuda::Cuda;
    let name = common::gpu::describe(dev);
    let n: usize = 4 << 30;
    for r in [1, 2, 4] {
        let k = memcpy_1d_kernel(ctx, target, r)?;
        copy::<Cuda>(dev, &k, 5008, false)?;
        // `xnumel` is declared a multiple of 16 (as Triton specialises 2^32), so the ragged
        // check stops 48 elements past a whole number of 2048-element blocks.
        copy::<Cuda>(dev, &k, (1 << 20) + 48, false)?;
        let (ms, d2d) = copy::<Cuda>(dev, &k, n, true)?;
        common::result_line("weft", &format!("02_memcpy_1d_R{r}"), ms, "2^32xf32");
        common::result_line("d2d", &format!("02_memcpy_1d_R{r}"), d2d, "2^32xf32");
        let tbs = |ms: f64| 8.0 * n as f64 / ms / 1e9;
        println!(
            "tutorial 02 memcpy_1d R={r} (2^32 f32) on {name}: {ms:.2} ms ({:.2} TB/s); \
             device copy {d2d:.2} ms ({:.2} TB/s), ratio {:.3}",
            tbs(ms),
            tbs(d2d),
            d2d / ms
        );
    }
    let s = 16384;
    let k = transpose_kernel(ctx, target, rows(), cols())?;
    transpose::<Cuda>(dev, &k, 1024, 640, false)?;
    let (ms, d2d) = transpose::<Cuda>(dev, &k, s, s, true)?;
    common::result_line("weft", "02_transpose", ms, "16384x16384xf32");
    common::result_line("d2d", "02_transpose", d2d, "16384x16384xf32");
    let gbs = |ms: f64| 8.0 * (s * s) as f64 / ms / 1e6;
    println!(
        "tutorial 02 transpose (16384² f32) on {name}: {ms:.3} ms ({:.0} GB/s); device copy \
         {d2d:.3} ms ({:.0} GB/s), ratio {:.3}",
        gbs(ms),
        gbs(d2d),
        d2d / ms
    );
    Ok(())
}
