//! Gluon tutorial 03 ("Async Copy") in weft: `C = A + B` over a row-major f32 matrix, each
//! program a block of 32 rows walking its columns in blocks of 64, with `cp.async` copying the
//! next column block of A and B into a second shared buffer while the current one is added
//! (Gluon's `elementwise_add_pipelined_kernel`, two buffers).
//!
//! Line counts (no blank or comment lines; weft's after rustfmt, Gluon's as copied into
//! `scripts/anchors/gluon_tutorials.py`): `add_pipelined_kernel` 51 (six closing-brace lines)
//! against 55 for Gluon's `elementwise_add_pipelined_kernel`. Gluon peels the pipeline's first
//! copy and its last `num_buffers - 1` iterations; here the copy one block ahead is simply
//! masked off past the last block, so one loop does it all.
//!
//! ```sh
//! cargo run --release --features llvm,cuda --example tutorial_03_async_copy [-- sm_90|sm_80]
//! ```
//! On a GPU: the tutorial's 32768² f32, timed against a device-to-device copy of the same bytes
//! (A and B read, C written) in the same run (`scripts/anchors/gluon_tutorials.py async_copy`
//! times Gluon's). Without one: a ragged 100 × 333 matrix in the interpreter, checked bit for bit.
mod common;

use common::Result;
use weft::codegen::kernels::parts::ceil_div;
use weft::codegen::DType::F32;
use weft::codegen::{Context, Kernel, KernelBuilder, Target, Value};
use weft::layout::encoding::{Blocked, Slice, SwizzledShared};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

const XBLOCK: i32 = 32;
const YBLOCK: i32 = 64;

/// `c = a + b` for `xnumel × ynumel` row-major f32 (row stride `ynumel`), 4 warps, two buffers.
fn add_pipelined_kernel(ctx: &Context, t: Target) -> weft::codegen::Result<Kernel<'_>> {
    let layout = Blocked::new(&[1, 1], &[1, 32], &[1, 4], &[1, 0]);
    let mut kb = KernelBuilder::new(ctx, t, "elementwise_add_pipelined", 4)?;
    let (a, b) = (kb.arg_ptr("a", F32, 16)?, kb.arg_ptr("b", F32, 16)?);
    let c = kb.arg_ptr("c", F32, 16)?;
    let (xnumel, ynumel) = (kb.arg_i32("xnumel", 1)?, kb.arg_i32("ynumel", 1)?);
    let pid = kb.program_id(0)?;
    let xoffs = kb.arange(0, XBLOCK, Slice::new(1, layout.clone().into()))?;
    let rows = kb.expr(|e| e.of(pid) * XBLOCK + e.of(xoffs))?;
    let rows = kb.expand_dims(rows, 1)?;
    let y_idx = kb.arange(0, YBLOCK, Slice::new(0, layout.clone().into()))?;
    let y_idx = kb.expand_dims(y_idx, 0)?;
    let plain = SwizzledShared::new(1, 1, 1, &[1, 0]);
    let shape = [XBLOCK as u64, YBLOCK as u64];
    let a_smem = kb.alloc_shared_buffers(F32, 2, &shape, &plain)?;
    let b_smem = kb.alloc_shared_buffers(F32, 2, &shape, &plain)?;
    // The offsets and mask of column block `j`.
    let block = |kb: &mut KernelBuilder<'_>, j: Value| -> weft::codegen::Result<(Value, Value)> {
        let cols = kb.expr(|e| e.of(j) * YBLOCK + e.of(y_idx))?;
        let m = kb.expr(|e| e.of(rows).lt(e.of(xnumel)) & e.of(cols).lt(e.of(ynumel)))?;
        Ok((kb.expr(|e| e.of(rows) * e.of(ynumel) + e.of(cols))?, m))
    };
    // Copies column block `j` of A and B into buffer `j % 2` (nothing past the last block).
    let issue = |kb: &mut KernelBuilder<'_>, j: Value| -> weft::codegen::Result<()> {
        let (offs, m) = block(kb, j)?;
        for (src, smem) in [(a, a_smem), (b, b_smem)] {
            let (p, buf) = (kb.add(src, offs)?, kb.expr(|e| e.of(j) % 2)?);
            let buf = kb.index_shared(smem, buf)?;
            kb.async_copy_global_to_shared(buf, p, Some(m))?;
        }
        kb.async_commit_group().map(|_| ())
    };
    let zero = kb.i32(0)?;
    issue(&mut kb, zero)?;
    let blocks = ceil_div(&mut kb, ynumel, YBLOCK)?;
    kb.for_range(0, blocks, 1, &[], |kb, j, _| {
        let next = kb.add(j, 1)?;
        kb.barrier()?; // every thread is done reading the buffer the next copy overwrites
        issue(kb, next)?;
        kb.async_wait_group(1)?;
        kb.barrier()?; // the copies each thread waited for, visible to every thread
        let buf = kb.expr(|e| e.of(j) % 2)?;
        let (sa, sb) = (kb.index_shared(a_smem, buf)?, kb.index_shared(b_smem, buf)?);
        let (va, vb) = (
            kb.load_shared(sa, layout.clone())?,
            kb.load_shared(sb, layout.clone())?,
        );
        let (offs, m) = block(kb, j)?;
        kb.expr(|e| (e.of(c) + offs).store_masked(e.of(va) + vb, m))?;
        Ok(vec![])
    })?;
    kb.finish()
}

fn main() -> Result<()> {
    let target = common::target_arg()?;
    let ctx = Context::new();
    let kernel = add_pipelined_kernel(&ctx, target)?;
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        let n = 32 * 1024;
        run::<weft::runtime::cuda::Cuda>(&dev, &kernel, 1000, 3333, false)?;
        let (ms, d2d) = run::<weft::runtime::cuda::Cuda>(&dev, &kernel, n, n, true)?;
        common::result_line("weft", "03_add_pipelined", ms, "32768x32768xf32");
        common::result_line("d2d", "03_add_pipelined", d2d, "32768x32768xf32");
        let gbs = |ms: f64| 12.0 * (n * n) as f64 / ms / 1e6;
        println!(
            "tutorial 03 elementwise_add_pipelined ({n}² f32) on {}: {ms:.3} ms ({:.0} GB/s); \
             device copy moving the same bytes {d2d:.3} ms ({:.0} GB/s), ratio {:.3}",
            common::gpu::describe(&dev),
            gbs(ms),
            gbs(d2d),
            d2d / ms
        );
        return Ok(());
    }
    run::<weft::runtime::cpu::Cpu>(&common::interpreter(target)?, &kernel, 100, 333, false)?;
    common::interpreted("elementwise_add_pipelined of 100 × 333 f32: C = A + B bit for bit");
    Ok(())
}

/// Adds two `x × y` matrices with `kernel` on `dev`: without `time`, random ones, C checked bit
/// for bit; with `time`, A and B filled on the device (checked at a small size first), returns
/// (kernel ms, ms of a device copy of 6 x y bytes, which reads and writes the 12 x y bytes the
/// kernel moves).
fn run<B: Backend>(
    dev: &B::Device,
    kernel: &Kernel<'_>,
    x: usize,
    y: usize,
    time: bool,
) -> Result<(f64, f64)> {
    let (da, db, ha, hb) = common::inputs::<B>(dev, x * y, time)?;
    let mut dc = dev.alloc::<f32>(x * y)?;
    dc.fill_bytes(0xFF)?;
    let loaded = kernel.load_on::<B>(dev)?;
    let mut args = KernelArgs::new();
    args.ptr(&da)
        .ptr(&db)
        .ptr(&dc)
        .scalar(x as i32)
        .scalar(y as i32);
    let cfg = LaunchConfig::for_kernel(x.div_ceil(XBLOCK as usize) as u32, kernel.signature())?;
    // SAFETY: program p reads rows [32 p, 32 p + 32) ∩ [0, x) of A and B and writes them in C.
    unsafe { common::launch_once::<B>(dev, &loaded, &cfg, &args)? };
    if !time {
        common::check_sum(&dc.to_vec()?, &ha, &hb, y)?;
        return Ok((0.0, 0.0));
    }
    common::time_against_d2d::<B>(dev, &loaded, &cfg, &args, x * y * 6)
}
