//! Gluon tutorial 08 ("Warp Specialization") in weft: the persistent matmul split into roles. A
//! producer warpgroup (40 registers a thread) only issues TMA loads into the ring; two consumer
//! warpgroups (232 registers) only wait for full stages, issue wgmma, hand each stage back
//! through its "empty" mbarrier and run the epilogue. No CTA-wide barrier is left in the K loop:
//! the roles meet only at the ring's mbarriers.
//!
//! Line counts (without comments): [`ws_matmul_kernel`] 16 lines and a closing brace, from
//! `kernels::parts` (`gemm_mainloop_ws` is the two partitions), against Gluon's
//! `matmul_warp_specialized_kernel` and its two partitions, load and MMA (45 lines).
//!
//! ```sh
//! cargo run --release --features llvm,cuda --example tutorial_08_warp_specialization [-- sm_90a]
//! ```
//! On a GPU: 8192 × 8192 × 16384 f16 (128 × 256 × 64 tiles, 3 buffers), timed with the shipped
//! GEMM in the same run (`scripts/anchors/gluon_tutorials.py warp_specialization` times Gluon's).
//! Without one: a ragged 100 × 264 × 80 problem on 3 programs in the interpreter (the roles run
//! as cooperating tasks), checked against the host.
mod common;

use common::Result;
use weft::codegen::kernels::parts::{self, TmaRing};
use weft::codegen::kernels::{alloc_buffers, declare_params, GemmConfig};
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target, WarpRole};

/// A loading warpgroup and `c.num_warps` consumer warps, persistent over the tiles.
fn ws_matmul_kernel(ctx: &Context, t: Target, c: GemmConfig) -> weft::codegen::Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, t, "ws_matmul", c.num_warps + 4)?;
    let [a_desc, b_desc, c_desc, m, n, k] = declare_params(&mut kb, &c)?;
    let (load, mma) = (WarpRole::new(4).max_regs(40), WarpRole::new(c.num_warps).max_regs(232));
    let roles = kb.warp_roles(&[load, mma])?;
    let (pid, programs) = (kb.program_id(0)?, kb.num_programs(0)?);
    let (tiles, k_tiles) = c.tiles(&mut kb, [m, n, k])?;
    let mine = tiles.tiles_of(&mut kb, pid, programs)?;
    let [a_bufs, b_bufs, c_smem] = alloc_buffers(&mut kb, &c)?;
    let consumers = c.num_warps * kb.threads_per_warp();
    let ring = TmaRing::new(&mut kb, c.stages, c.stage_bytes(), Some(consumers))?;
    let lp = c.mainloop([a_desc, b_desc, a_bufs, b_bufs], ring, tiles, k_tiles);
    let store = c.tma_store(c_smem, c_desc, true);
    let at = [pid, programs, mine];
    parts::gemm_mainloop_ws(&mut kb, &lp, [roles[0], roles[1]], at, None, &store)?;
    kb.finish()
}

fn main() -> Result<()> {
    let target = common::target_arg_or(Target::SM90A)?;
    let ctx = Context::new();
    let cfg = GemmConfig { persistent: true, warp_specialized: true, ..GemmConfig::new(DType::F16) };
    let kernel = ws_matmul_kernel(&ctx, target, cfg)?;
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        let what = "tutorial 08 warp-specialized matmul";
        let size = (8192, 8192, 16384);
        return common::gemm_tutorial::on_gpu(&dev, &ctx, target, (&kernel, &cfg), what, size);
    }
    common::gemm_tutorial::in_interpreter(target, &kernel, &cfg, "warp-specialized matmul (f16)")
}
