//! Gluon tutorial 07 ("Persistent Kernels") in weft: the pipelined matmul made persistent. A grid
//! of at most one program per SM walks the output tiles (`pid, pid + programs, …`) in one loop
//! over (tile, K block), so the TMA ring keeps loading the next tile's first K blocks while the
//! current tile's last wgmma and its epilogue (a TMA store through shared memory, waited for
//! only before the staging buffer is reused) finish.
//!
//! Line counts (no blank or comment lines; weft's after rustfmt, Gluon's as copied into
//! `scripts/anchors/gluon_tutorials.py`): `persistent_matmul_kernel` 17, from `kernels::parts`
//! (the tile grid, the ring, the main loop, the TMA-store epilogue), against 40 for Gluon's
//! `persistent_matmul_kernel` (58 with its `issue_loads` and `issue_mma`; the anchors' copy
//! inlines the tile scheduler and the WGMMA wrapper, and carries the accumulator type newer
//! Tritons ask for in one line more).
//!
//! ```sh
//! cargo run --release --features llvm,cuda --example tutorial_07_persistence [-- sm_90a]
//! ```
//! On a GPU: the tutorial's 8192 × 8192 × 16384 f16 (128 × 256 × 64 tiles, 3 buffers, 8 warps),
//! timed with the shipped (non-persistent) GEMM in the same run (`scripts/anchors/
//! gluon_tutorials.py persistence` times Gluon's); `group_m=G` sets the tile order's group (8).
//! Without one: a ragged 300 × 520 × 200 problem (9 tiles of 4 K blocks) on 3 programs, each
//! walking 3 tiles, in the interpreter, checked against the host.
mod common;

use common::Result;
use weft::codegen::kernels::parts::{self, TmaRing};
use weft::codegen::kernels::{alloc_buffers, declare_params, GemmConfig};
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target};

/// Gluon's `persistent_matmul_kernel` (WGMMA, row-major tile order replaced by weft's grouped
/// order, which shares B columns in L2).
fn persistent_matmul_kernel(
    ctx: &Context,
    t: Target,
    c: GemmConfig,
) -> weft::codegen::Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, t, "persistent_matmul", c.num_warps)?;
    let [a_desc, b_desc, c_desc, m, n, k] = declare_params(&mut kb, &c)?;
    let pid = kb.program_id(0)?;
    let (tiles, k_tiles) = c.tiles(&mut kb, [m, n, k])?;
    let [a_bufs, b_bufs, c_smem] = alloc_buffers(&mut kb, &c)?;
    let ring = TmaRing::new(&mut kb, c.stages, c.stage_bytes(), None)?;
    let lp = c.mainloop([a_desc, b_desc, a_bufs, b_bufs], ring, tiles, k_tiles);
    let store = c.tma_store(c_smem, c_desc, true);
    parts::gemm_mainloop(&mut kb, &lp, pid, true, None, &store)?;
    kb.tma_store_wait(0)?;
    kb.finish()
}

fn main() -> Result<()> {
    let target = common::target_arg_or(Target::SM90A)?;
    let ctx = Context::new();
    // `group_m=G`: row tiles per group of the tile order (8; 64 or more at 8192 rows walks
    // whole columns of tiles, M fastest, as Gluon's `PersistentTileScheduler` delinearises).
    let group_m = match std::env::args().find_map(|a| a.strip_prefix("group_m=").map(str::to_owned))
    {
        Some(g) => g
            .parse()
            .map_err(|_| format!("group_m={g}: a positive integer"))?,
        None => 8,
    };
    let cfg = GemmConfig {
        persistent: true,
        group_m,
        ..GemmConfig::new(DType::F16)
    };
    let kernel = persistent_matmul_kernel(&ctx, target, cfg)?;
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        let what = ("07_gemm_persistent", "tutorial 07 persistent_matmul");
        let size = (8192, 8192, 16384);
        return common::gemm_tutorial::on_gpu(&dev, &ctx, target, (&kernel, &cfg), what, size);
    }
    common::gemm_tutorial::in_interpreter(target, &kernel, &cfg, "persistent_matmul (f16)")
}
