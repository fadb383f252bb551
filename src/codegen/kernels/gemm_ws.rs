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

use crate::layout::encoding::NvidiaMma;

use super::super::{Context, DType, Kernel, KernelBuilder, Result, Target, Value, WarpRole};
use super::gemm::{
    alloc_buffers, declare_params, program_tiles, store_c_tile, tile_origin, wait_stage, GemmConfig,
};

/// Builds the warp-specialised GEMM (`c.warp_specialized`, checked by the caller).
pub(super) fn gemm_ws_kernel(ctx: &Context, target: Target, c: GemmConfig) -> Result<Kernel<'_>> {
    let name = if c.b_transposed {
        "gemm_nt_ws"
    } else {
        "gemm_nn_ws"
    };
    let mut kb = KernelBuilder::new(ctx, target, name, c.num_warps + 4)?;
    let [a_map, b_map, c_map, m, n, k] = declare_params(&mut kb, &c)?;
    let (bm, bn, bk, s) = (
        c.block_m as i32,
        c.block_n as i32,
        c.block_k as i32,
        c.stages as i32,
    );
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

    let pid = kb.program_id(0)?;
    let programs = kb.num_programs(0)?;
    let m1 = kb.add(m, bm - 1)?;
    let num_m = kb.div(m1, bm)?;
    let n1 = kb.add(n, bn - 1)?;
    let num_n = kb.div(n1, bn)?;
    let k1 = kb.add(k, bk - 1)?;
    let k_tiles = kb.div(k1, bk)?;
    // This program's tiles: pid, pid + programs, …
    let mine = program_tiles(&mut kb, num_m, num_n, pid, programs)?;

    let [a_ring, b_ring, c_smem] = alloc_buffers(&mut kb, &c)?;
    let consumer_threads = c.num_warps * kb.threads_per_warp();
    let full = kb.alloc_mbarriers(c.stages, 1)?;
    let empty = kb.alloc_mbarriers(c.stages, consumer_threads)?;
    let stage_bytes = (c.block_m * c.block_k + c.block_k * c.block_n) * (c.dtype.bits() / 8);

    // The origin of this program's `local`-th tile.
    let origin = |kb: &mut KernelBuilder<'_>, local: Value| -> Result<(Value, Value)> {
        let step = kb.mul(local, programs)?;
        let tile = kb.add(pid, step)?;
        tile_origin(kb, &c, tile, num_m, num_n)
    };
    // Stage and phase parity of the `it`-th k-tile of the program (counted across its tiles).
    let stage = |kb: &mut KernelBuilder<'_>, it: Value| -> Result<(Value, Value)> {
        let st = kb.rem(it, s)?;
        let round = kb.div(it, s)?;
        Ok((st, kb.and(round, 1)?))
    };
    let zero = kb.i32(0)?;

    // Both roles walk (tile, k-tile) in two loops, carrying the running k-tile count `it`.
    kb.in_role(roles[0], |kb| {
        kb.for_range(0, mine, 1, &[zero], |kb, local, carried| {
            let (om, on) = origin(kb, local)?;
            kb.for_range(0, k_tiles, 1, carried, |kb, kt, carried| {
                let it = carried[0];
                let (st, ph) = stage(kb, it)?;
                // A fresh barrier passes parity 1: the first round does not wait.
                let free = kb.xor(ph, 1)?;
                let e = kb.mbarrier_at(empty, st)?;
                kb.mbarrier_wait_issuer(e, free)?;
                let kk = kb.mul(kt, bk)?;
                let bar = kb.mbarrier_at(full, st)?;
                kb.mbarrier_expect(bar, stage_bytes, None)?;
                let a_dst = kb.index_shared(a_ring, st)?;
                kb.tma_load(a_map, &[om, kk], a_dst, bar, None)?;
                let b_dst = kb.index_shared(b_ring, st)?;
                let b_at = if c.b_transposed { [on, kk] } else { [kk, on] };
                kb.tma_load(b_map, &b_at, b_dst, bar, None)?;
                Ok(vec![kb.add(it, 1)?])
            })
        })?;
        Ok(())
    })?;

    kb.in_role(roles[1], |kb| {
        let acc_layout = NvidiaMma::hopper(&[c.num_warps, 1], c.block_n, 16);
        let acc0 = kb.zeros((&acc_layout, [bm as u64, bn as u64]), DType::F32)?;
        let out = kb.for_range(0, mine, 1, &[acc0, zero], |kb, local, carried| {
            let inner = kb.for_range(0, k_tiles, 1, carried, |kb, kt, carried| {
                let (acc, it) = (carried[0], carried[1]);
                let (st, ph) = stage(kb, it)?;
                let (a_t, b_t) = wait_stage(kb, &c, [a_ring, b_ring, full], st, ph)?;
                // Each tile starts by ignoring the accumulator (scale-d = 0) rather than zeroing
                // registers a wgmma may still be writing.
                let use_acc = kb.ne(kt, 0)?;
                let acc = kb.wgmma_with(a_t, b_t, acc, Some(use_acc))?;
                kb.wgmma_wait(1, &[])?;
                // The previous k-tile's wgmma is complete: its stage is free.
                let started = kb.ge(it, 1)?;
                kb.if_then(started, |kb| {
                    let prev = kb.sub(it, 1)?;
                    let (pst, _) = stage(kb, prev)?;
                    let e = kb.mbarrier_at(empty, pst)?;
                    kb.mbarrier_arrive(e)
                })?;
                Ok(vec![acc, kb.add(it, 1)?])
            })?;
            let (acc, it) = (inner[0], inner[1]);
            let done = kb.wgmma_wait(0, &[acc])?[0];
            let (om, on) = origin(kb, local)?;
            // The previous tile's store has read the staging buffer first.
            store_c_tile(kb, &c, done, [c_smem, c_map], [om, on], true)?;
            Ok(vec![acc, it])
        })?;
        // Nothing may leave the kernel with a wgmma in flight or a store reading shared memory.
        kb.wgmma_wait(0, &[out[0]])?;
        kb.tma_store_wait(0)
    })?;
    kb.finish()
}
