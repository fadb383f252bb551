//! Gluon tutorial 05 ("WGMMA") in weft: the blocked matmul `C = A · B` (f16 in, f32 out), each
//! program one `BLOCK_M × BLOCK_N` tile of C, its K loop loading A and B tiles with TMA onto an
//! mbarrier and multiplying them with asynchronous `wgmma`, the tile stored through shared
//! memory with a TMA store. Gluon's `blocked_mma_kernel` waits for each load before its wgmma;
//! weft's main loop part keeps three stages so the next loads are in flight during the wgmma (its
//! `OVERLAP_MMA` taken further: with the f32 C tile in shared memory only one CTA fits on an SM,
//! and two stages left the tensor cores waiting on loads).
//!
//! Line counts (no blank or comment lines; weft's after rustfmt, Gluon's as copied into
//! `scripts/anchors/gluon_tutorials.py`): `blocked_mma_kernel` 17, built from `kernels::parts`,
//! against 42 for Gluon's `blocked_mma_kernel` (70 with the three layout helpers it calls; the
//! anchors' copy has two lines more, carrying the accumulator type newer Tritons ask for).
//!
//! ```sh
//! cargo run --release --features llvm,cuda --example tutorial_05_wgmma [-- sm_90a]
//! ```
//! On a GPU: 8192³, timed with the shipped GEMM in the same run (`scripts/anchors/
//! gluon_tutorials.py wgmma` times Gluon's kernel at the same size). Without one: a ragged
//! 100 × 264 × 80 problem in the interpreter, checked against the host.
mod common;

use common::Result;
use weft::codegen::kernels::parts::{self, TmaRing};
use weft::codegen::kernels::{alloc_buffers, declare_params, GemmConfig};
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target};

/// Gluon's `blocked_mma_kernel` with `BLOCK_M = BLOCK_N = 128`, `BLOCK_K = 64`, 4 warps, C in f32.
fn blocked_mma_kernel(
    ctx: &Context,
    t: Target,
    c: GemmConfig,
) -> weft::codegen::Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, t, "blocked_mma", c.num_warps)?;
    let [a_desc, b_desc, c_desc, m, n, k] = declare_params(&mut kb, &c)?;
    let pid = kb.program_id(0)?;
    let (grid, k_tiles) = c.tiles(&mut kb, [m, n, k])?;
    let [a_smem, b_smem, c_smem] = alloc_buffers(&mut kb, &c)?;
    let ring = TmaRing::new(&mut kb, c.stages, c.stage_bytes(), None)?;
    let lp = c.mainloop([a_desc, b_desc, a_smem, b_smem], ring, grid, k_tiles);
    let store = c.tma_store(c_smem, c_desc, false);
    parts::gemm_mainloop(&mut kb, &lp, pid, false, None, &store)?;
    kb.tma_store_wait(0)?;
    kb.finish()
}

fn config() -> GemmConfig {
    GemmConfig {
        out_dtype: DType::F32,
        block_n: 128,
        stages: 3,
        num_warps: 4,
        ..GemmConfig::new(DType::F16)
    }
}

fn main() -> Result<()> {
    let target = common::target_arg_or(Target::SM90A)?;
    let ctx = Context::new();
    let cfg = config();
    let kernel = blocked_mma_kernel(&ctx, target, cfg)?;
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        let what = ("05_gemm", "tutorial 05 blocked_mma");
        let size = (8192, 8192, 8192);
        return common::gemm_tutorial::on_gpu(&dev, &ctx, target, (&kernel, &cfg), what, size);
    }
    common::gemm_tutorial::in_interpreter(target, &kernel, &cfg, "blocked_mma (f16 → f32)")
}
