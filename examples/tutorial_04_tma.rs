//! Gluon tutorial 04 ("TMA") in weft: the pipelined `C = A + B` of tutorial 03 with the copies
//! done by the tensor memory accelerator. Each column block of A and B is one TMA box landing in
//! a stage of a shared-memory ring, its arrival counted in bytes on the stage's mbarrier; the sum
//! goes back through a staging buffer and a TMA store, waited for only before the buffer is
//! reused. TMA zero-fills reads past the matrix and clips writes, so no mask is needed.
//!
//! Line counts (no blank or comment lines; weft's after rustfmt, Gluon's as copied into
//! `scripts/anchors/gluon_tutorials.py`): `add_tma_kernel` 42 (five closing-brace lines)
//! against 56 for Gluon's `elementwise_add_tma_kernel` (its prologue and drain loops peeled).
//! The ring ([`TmaRing`]: barriers, expected bytes, stage and phase) and the store
//! ([`TmaStore`]: wait, store, fence, barrier, TMA store) are `kernels::parts`.
//!
//! ```sh
//! cargo run --release --features llvm,cuda --example tutorial_04_tma [-- sm_90]
//! ```
//! On a GPU: the tutorial's 32768² f32 with 32 × 64 blocks and 2 and 3 buffers, and 64 × 128
//! blocks with 3, each timed against a device-to-device copy moving the same bytes in the same
//! run (`scripts/anchors/gluon_tutorials.py tma` times Gluon's). Without one: a ragged 100 × 332
//! matrix in the interpreter, checked bit for bit.
mod common;

use common::Result;
use weft::codegen::kernels::parts::{ceil_div, Epilogue, TmaRing, TmaStore};
use weft::codegen::DType::F32;
use weft::codegen::{Context, Kernel, KernelBuilder, Target, Value};
use weft::layout::encoding::{Blocked, SwizzledShared};

/// `c = a + b` over `[xnumel, ynumel]` f32 tensor maps with `[x, y]` boxes, `stages` buffers.
fn add_tma_kernel(ctx: &Context, t: Target, [x, y]: [u32; 2], stages: u32) -> Result<Kernel<'_>> {
    let layout = Blocked::new(&[1, 1], &[1, 32], &[1, 4], &[1, 0]);
    let plain = SwizzledShared::new(1, 1, 1, &[1, 0]);
    let mut kb = KernelBuilder::new(ctx, t, "elementwise_add_tma", 4)?;
    let mut map = |name| kb.arg_tensor_map(name, F32, &[x, y], 0);
    let (a, b, c) = (map("a")?, map("b")?, map("c")?);
    let (ynumel, pid) = (kb.arg_i32("ynumel", 4)?, kb.program_id(0)?);
    let xoff = kb.mul(pid, x as i32)?;
    let shape = [u64::from(x), u64::from(y)];
    let a_smem = kb.alloc_shared_buffers(F32, u64::from(stages), &shape, &plain)?;
    let b_smem = kb.alloc_shared_buffers(F32, u64::from(stages), &shape, &plain)?;
    let c_smem = kb.alloc_shared(F32, &shape, &plain)?;
    let ring = TmaRing::new(&mut kb, stages, 2 * x * y * 4, None)?;
    let store = TmaStore {
        staging: c_smem,
        map: c,
        out: F32,
        reused: true,
    };
    let blocks = ceil_div(&mut kb, ynumel, y as i32)?;
    // Loads column block `j` into its stage (nothing past the last block).
    let issue = |kb: &mut KernelBuilder<'_>, j: Value| -> weft::codegen::Result<()> {
        let ((st, _), yoff) = (ring.stage_of(kb, j)?, kb.mul(j, y as i32)?);
        let (inside, at) = (kb.lt(j, blocks)?, [xoff, yoff]);
        ring.load(kb, st, &[(a, &at, a_smem), (b, &at, b_smem)], Some(inside))
    };
    for j in 0..stages as i32 - 1 {
        let j = kb.i32(j)?;
        issue(&mut kb, j)?;
    }
    kb.for_range(0, blocks, 1, &[], |kb, j, _| {
        let ahead = kb.add(j, stages as i32 - 1)?;
        issue(kb, ahead)?;
        let (st, phase) = ring.stage_of(kb, j)?;
        let bufs = ring.wait(kb, st, phase, &[a_smem, b_smem])?;
        let [va, vb] = [0, 1].map(|i| kb.load_shared(bufs[i], layout.clone()));
        let (sum, yoff) = (kb.add(va?, vb?)?, kb.mul(j, y as i32)?);
        store.store(kb, sum, [xoff, yoff])?;
        Ok(vec![])
    })?;
    kb.tma_store_wait(0)?;
    Ok(kb.finish()?)
}

fn main() -> Result<()> {
    let target = common::target_arg()?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        let n = 32 * 1024;
        for (block, stages) in [([32, 64], 2), ([32, 64], 3), ([64, 128], 3)] {
            let kernel = add_tma_kernel(&ctx, target, block, stages)?;
            let small = (1000, 3332);
            common::tma_add::run::<weft::runtime::cuda::Cuda>(&dev, &kernel, block, small, false)?;
            let (ms, d2d) = common::tma_add::run::<weft::runtime::cuda::Cuda>(
                &dev,
                &kernel,
                block,
                (n, n),
                true,
            )?;
            let name = format!("04_add_tma_{}x{}x{stages}", block[0], block[1]);
            common::result_line("weft", &name, ms, "32768x32768xf32");
            common::result_line("d2d", &name, d2d, "32768x32768xf32");
            let gbs = |ms: f64| 12.0 * (n * n) as f64 / ms / 1e6;
            println!(
                "tutorial 04 elementwise_add_tma ({n}² f32, {}x{} blocks, {stages} buffers) on {}: \
                 {ms:.3} ms ({:.0} GB/s); device copy moving the same bytes {d2d:.3} ms \
                 ({:.0} GB/s), ratio {:.3}",
                block[0],
                block[1],
                common::gpu::describe(&dev),
                gbs(ms),
                gbs(d2d),
                d2d / ms
            );
        }
        return Ok(());
    }
    let dev = common::interpreter(target)?;
    for stages in [2, 3] {
        let kernel = add_tma_kernel(&ctx, target, [32, 64], stages)?;
        common::tma_add::run::<weft::runtime::cpu::Cpu>(
            &dev,
            &kernel,
            [32, 64],
            (100, 332),
            false,
        )?;
    }
    common::interpreted(
        "elementwise_add_tma of 100 × 332 f32 (2 and 3 buffers): C = A + B bit for bit",
    );
    Ok(())
}
