//! Gluon tutorial 08 ("Warp Specialization") in weft. Its Hopper kernel is `C = A + B` split
//! into three partitions that meet only at mbarriers: a one-warp load partition issuing TMA
//! loads into a ring of A and B buffers, a four-warp compute partition adding them into a C
//! buffer, and a one-warp store partition issuing the TMA stores. The same split, applied to the
//! persistent matmul, is the warp-specialised GEMM: a producer warpgroup (40 registers a thread)
//! that only loads, and two consumer warpgroups (232 registers) that wait for full stages, issue
//! wgmma, hand each stage back through its "empty" mbarrier and run the epilogue.
//!
//! Line counts (no blank or comment lines; weft's after rustfmt, Gluon's as copied into
//! `scripts/anchors/gluon_tutorials.py`): `add_ws_kernel` 84 (twelve closing-brace lines)
//! against 97 for Gluon's `elementwise_add_warp_specialized_kernel` with its three partitions;
//! `ws_matmul_kernel` 20, from `kernels::parts` (`gemm_mainloop_ws` holds the two partitions;
//! the tutorial writes its warp-specialised matmul for Blackwell, with `tcgen05`, so no Hopper
//! kernel is counted against it).
//!
//! ```sh
//! cargo run --release --features llvm,cuda --example tutorial_08_warp_specialization [-- sm_90a]
//! ```
//! On a GPU: the add at the tutorial's 32768² f32 (64 × 128 blocks, 3 load buffers, 1 store
//! buffer) against a device-to-device copy moving the same bytes, and the matmul at 8192 × 8192 ×
//! 16384 f16 against the shipped GEMM, in the same run (`scripts/anchors/gluon_tutorials.py
//! warp_specialization` times Gluon's add). Without one: the add on a ragged 100 × 332 matrix
//! and the matmul on 100 × 264 × 80 in the interpreter (the partitions run as cooperating
//! tasks), checked against the host.
mod common;

use common::Result;
use weft::codegen::kernels::parts::{self, ceil_div, TmaRing};
use weft::codegen::kernels::{alloc_buffers, declare_params, GemmConfig};
use weft::codegen::DType::F32;
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target, Value, WarpRole};
use weft::layout::encoding::{Blocked, SwizzledShared};

/// `c = a + b` over `[xnumel, ynumel]` f32 tensor maps with `[x, y]` boxes: a load, a compute
/// and a store partition, `bufs` = (load buffers, store buffers).
fn add_ws_kernel(
    ctx: &Context,
    t: Target,
    [x, y]: [u32; 2],
    bufs: (u32, u32),
) -> weft::codegen::Result<Kernel<'_>> {
    let layout = Blocked::new(&[1, 1], &[1, 32], &[1, 4], &[1, 0]);
    let plain = SwizzledShared::new(1, 1, 1, &[1, 0]);
    let mut kb = KernelBuilder::new(ctx, t, "elementwise_add_ws", 6)?;
    let (a, b) = (
        kb.arg_tensor_map("a", F32, &[x, y], 0)?,
        kb.arg_tensor_map("b", F32, &[x, y], 0)?,
    );
    let c = kb.arg_tensor_map("c", F32, &[x, y], 0)?;
    let (ynumel, pid) = (kb.arg_i32("ynumel", 4)?, kb.program_id(0)?);
    let roles = kb.warp_roles(&[WarpRole::new(4), WarpRole::new(1), WarpRole::new(1)])?;
    let (xoff, blocks) = (kb.mul(pid, x as i32)?, ceil_div(&mut kb, ynumel, y as i32)?);
    let shape = [u64::from(x), u64::from(y)];
    let a_bufs = kb.alloc_shared_buffers(F32, u64::from(bufs.0), &shape, &plain)?;
    let b_bufs = kb.alloc_shared_buffers(F32, u64::from(bufs.0), &shape, &plain)?;
    let c_bufs = kb.alloc_shared_buffers(F32, u64::from(bufs.1), &shape, &plain)?;
    let loads = TmaRing::new(&mut kb, bufs.0, 2 * x * y * 4, Some(128))?;
    let (c_ready, c_empty) = (
        kb.alloc_mbarriers(bufs.1, 128)?,
        kb.alloc_mbarriers(bufs.1, 32)?,
    );
    // The C buffer of block `i`, and the parity of its round.
    let c_stage = |kb: &mut KernelBuilder<'_>, i: Value| -> weft::codegen::Result<(Value, Value)> {
        let s = bufs.1 as i32;
        Ok((kb.expr(|e| e.of(i) % s)?, kb.expr(|e| (e.of(i) / s) & 1)?))
    };
    kb.in_role(roles[1], |kb| {
        kb.for_range(0, blocks, 1, &[], |kb, i, _| {
            let (st, phase) = loads.stage_of(kb, i)?;
            loads.wait_free(kb, st, phase)?;
            let yoff = kb.mul(i, y as i32)?;
            loads.load(
                kb,
                st,
                &[(a, &[xoff, yoff], a_bufs), (b, &[xoff, yoff], b_bufs)],
                None,
            )?;
            Ok(vec![])
        })?;
        Ok(())
    })?;
    kb.in_role(roles[0], |kb| {
        kb.for_range(0, blocks, 1, &[], |kb, i, _| {
            let (st, phase) = loads.stage_of(kb, i)?;
            let ab = loads.wait(kb, st, phase, &[a_bufs, b_bufs])?;
            let (va, vb) = (
                kb.load_shared(ab[0], layout.clone())?,
                kb.load_shared(ab[1], layout.clone())?,
            );
            kb.fence_async_shared()?;
            loads.release(kb, st)?;
            let sum = kb.add(va, vb)?;
            let (cs, round) = c_stage(kb, i)?;
            let (empty, free) = (kb.mbarrier_at(c_empty, cs)?, kb.expr(|e| e.of(round) ^ 1)?);
            kb.mbarrier_wait(empty, free)?;
            let cb = kb.index_shared(c_bufs, cs)?;
            kb.store_shared(cb, sum)?;
            kb.fence_async_shared()?;
            let ready = kb.mbarrier_at(c_ready, cs)?;
            kb.mbarrier_arrive(ready)?;
            Ok(vec![])
        })?;
        Ok(())
    })?;
    kb.in_role(roles[2], |kb| {
        kb.for_range(0, blocks, 1, &[], |kb, i, _| {
            let (cs, round) = c_stage(kb, i)?;
            let ready = kb.mbarrier_at(c_ready, cs)?;
            kb.mbarrier_wait(ready, round)?;
            let (cb, yoff) = (kb.index_shared(c_bufs, cs)?, kb.mul(i, y as i32)?);
            kb.tma_store(c, &[xoff, yoff], cb)?;
            kb.tma_store_wait(0)?;
            let empty = kb.mbarrier_at(c_empty, cs)?;
            kb.mbarrier_arrive(empty)?;
            Ok(vec![])
        })?;
        Ok(())
    })?;
    kb.finish()
}

/// A loading warpgroup and `c.num_warps` consumer warps, persistent over the tiles.
fn ws_matmul_kernel(ctx: &Context, t: Target, c: GemmConfig) -> weft::codegen::Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, t, "ws_matmul", c.num_warps + 4)?;
    let [a_desc, b_desc, c_desc, m, n, k] = declare_params(&mut kb, &c)?;
    let (load, mma) = (
        WarpRole::new(4).max_regs(40),
        WarpRole::new(c.num_warps).max_regs(232),
    );
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
    let cfg = GemmConfig {
        persistent: true,
        warp_specialized: true,
        ..GemmConfig::new(DType::F16)
    };
    let kernel = ws_matmul_kernel(&ctx, target, cfg)?;
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        use weft::runtime::cuda::Cuda;
        let n = 32 * 1024;
        let add = add_ws_kernel(&ctx, target, [64, 128], (3, 1))?;
        common::tma_add::run::<Cuda>(&dev, &add, [64, 128], (1000, 3332), false)?;
        let (ms, d2d) = common::tma_add::run::<Cuda>(&dev, &add, [64, 128], (n, n), true)?;
        common::result_line("weft", "08_add_ws", ms, "32768x32768xf32");
        common::result_line("d2d", "08_add_ws", d2d, "32768x32768xf32");
        let gbs = |ms: f64| 12.0 * (n * n) as f64 / ms / 1e6;
        println!(
            "tutorial 08 elementwise_add_warp_specialized ({n}² f32) on {}: {ms:.3} ms \
             ({:.0} GB/s); device copy moving the same bytes {d2d:.3} ms ({:.0} GB/s), ratio {:.3}",
            common::gpu::describe(&dev),
            gbs(ms),
            gbs(d2d),
            d2d / ms
        );
        let what = ("08_gemm_ws", "tutorial 08 warp-specialized matmul");
        let size = (8192, 8192, 16384);
        return common::gemm_tutorial::on_gpu(&dev, &ctx, target, (&kernel, &cfg), what, size);
    }
    let dev = common::interpreter(target)?;
    for bufs in [(2, 2), (3, 1)] {
        let add = add_ws_kernel(&ctx, target, [32, 64], bufs)?;
        common::tma_add::run::<weft::runtime::cpu::Cpu>(&dev, &add, [32, 64], (100, 332), false)?;
    }
    common::interpreted("elementwise_add_warp_specialized of 100 × 332 f32: C = A + B bit for bit");
    common::gemm_tutorial::in_interpreter(target, &kernel, &cfg, "warp-specialized matmul (f16)")
}
