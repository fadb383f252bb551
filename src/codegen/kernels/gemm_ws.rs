//! The warp-specialised schedule of [`gemm_kernel`](super::gemm_kernel) (Gluon's tutorial 08,
//! CUTLASS's "cooperative" kernel): a producer warpgroup issues every TMA load into the ring,
//! the consumer warps (`num_warps`) only wait, issue wgmma and release stages; with two consumer
//! warpgroups the producer gives registers to them (40 and 232).
//!
//! Each stage has a "full" mbarrier (its bytes landed) and an "empty" one (every consumer
//! thread is done with it), so producer and consumers never meet at a CTA barrier: a consumer
//! releases stage `it - 1` as soon as its wgmma is complete (one group kept in flight), and the
//! producer refills it while the next wgmma runs. Tiles are walked as in the persistent kernel
//! (tiles `pid, pid + programs, …`, one loop over (tile, k-tile)), so with the persistent grid the
//! producer loads the next tile while the consumers run the epilogue, whose TMA store then runs
//! under the next tile's mainloop; with one CTA per tile it is the plain kernel.

use super::super::{Context, Kernel, KernelBuilder, Result, Target, WarpRole};
use super::gemm_config::{alloc_buffers, declare_params, GemmConfig};
use super::parts::{self, Epilogue, TmaStore};

/// Builds the warp-specialised GEMM (`c.warp_specialized`, checked by the caller) with the
/// epilogue `params` makes (see [`gemm_kernel_with`](super::gemm_kernel_with)).
pub(super) fn gemm_ws_kernel<'c, E, W>(
    ctx: &'c Context,
    target: Target,
    c: GemmConfig,
    name: &str,
    params: impl FnOnce(&mut KernelBuilder<'c>) -> Result<W>,
) -> Result<Kernel<'c>>
where
    E: Epilogue,
    W: FnOnce(TmaStore) -> E,
{
    let mut kb = KernelBuilder::new(ctx, target, name, c.num_warps + 4)?;
    if c.cluster_m > 1 {
        kb.cluster_dims([c.cluster_m, 1, 1])?;
    }
    let [a_map, b_map, c_map, m, n, k] = declare_params(&mut kb, &c)?;
    let wrap = params(&mut kb)?;
    // With two consumer warpgroups the launch gives 168 registers a thread, fewer than a
    // 128 × 256 accumulator needs beside its addresses: move them from the producer. With one,
    // everybody has 255 already.
    let roles = if c.num_warps == 8 {
        kb.warp_roles(&[
            WarpRole::new(4).max_regs(40),
            WarpRole::new(c.num_warps).max_regs(232),
        ])?
    } else {
        kb.warp_roles(&[WarpRole::new(4), WarpRole::new(c.num_warps)])?
    };
    // With clusters the programs are the clusters, each CTA computing its rows of their tiles.
    let (grid, k_tiles, [pid, programs], rank) = c.placement(&mut kb, [m, n, k])?;
    // This program's tiles: pid, pid + programs, …
    let mine = grid.tiles_of(&mut kb, pid, programs)?;
    let [a_ring, b_ring, c_smem] = alloc_buffers(&mut kb, &c)?;
    let consumer_threads = c.num_warps * kb.threads_per_warp();
    let ring = c.ring(&mut kb, consumer_threads)?;
    let mut lp = c.mainloop([a_map, b_map, a_ring, b_ring], ring, grid, k_tiles);
    lp.cluster_rank = rank;
    // The previous tile's store has read the staging buffer first.
    let epilogue = wrap(c.tma_store(c_smem, c_map, true));
    parts::gemm_mainloop_ws(
        &mut kb,
        &lp,
        [roles[0], roles[1]],
        [pid, programs, mine],
        None,
        &epilogue,
    )?;
    c.leave_cluster(&mut kb)?;
    kb.finish()
}
