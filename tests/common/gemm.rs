//! Shared by the Hopper GEMM suites (GPU and interpreter): the TMA round-trip kernel and the
//! GEMM's exact inputs.

use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target};
use weft::layout::encoding::{Blocked, NvmmaShared};

use super::rng::Rng;

/// A kernel that TMA-loads the `[64, 64]` f16 tile at (`r0`, `c0`) of a tensor into shared memory
/// (two boxes of `[64, 32]`, 64-byte swizzle, waited on through a two-stage barrier ring, loaded
/// twice so the second wait is on phase 1), copies it out to a dense `[64, 64]` output, and
/// TMA-stores the same tile at (`r0`, `c0`) of a second tensor.
pub fn tma_roundtrip_kernel(ctx: &Context) -> Kernel<'_> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "tma_roundtrip", 4).unwrap();
    let src = kb.arg_tensor_map("src", DType::F16, &[64, 32], 64).unwrap();
    let dst = kb.arg_tensor_map("dst", DType::F16, &[64, 32], 64).unwrap();
    let out = kb.arg_ptr("out", DType::F16, 16).unwrap();
    let r0 = kb.arg_i32("r0", 1).unwrap();
    let c0 = kb.arg_i32("c0", 1).unwrap();
    let layout = NvmmaShared::new(64, 16, 2, false);
    let ring = kb
        .alloc_shared_buffers(DType::F16, 2, &[64, 64], &layout)
        .unwrap();
    let bars = kb.alloc_mbarriers(2, 1).unwrap();
    let bytes = {
        let b0 = kb.index_shared(ring, 0).unwrap();
        kb.tma_bytes(b0).unwrap()
    };
    let mut tile = None;
    for round in 0..2 {
        for stage in 0..2 {
            let buf = kb.index_shared(ring, stage).unwrap();
            let bar = kb.mbarrier_at(bars, stage).unwrap();
            kb.mbarrier_expect(bar, bytes, None).unwrap();
            kb.tma_load(src, &[r0, c0], buf, bar, None).unwrap();
            kb.mbarrier_wait(bar, round).unwrap();
            let blocked = Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]);
            let t = kb.load_shared(buf, (&blocked, [64u64, 64])).unwrap();
            tile = Some(t);
            kb.barrier().unwrap();
        }
    }
    let t = tile.unwrap();
    let blocked = Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]);
    let rows = kb
        .arange(
            0,
            64,
            weft::layout::encoding::Slice::new(1, blocked.clone().into()),
        )
        .unwrap();
    let cols = kb
        .arange(
            0,
            64,
            weft::layout::encoding::Slice::new(0, blocked.clone().into()),
        )
        .unwrap();
    let rows = kb.expand_dims(rows, 1).unwrap();
    let rows = kb.mul(rows, 64).unwrap();
    let cols = kb.expand_dims(cols, 0).unwrap();
    let offs = kb.add(rows, cols).unwrap();
    let ptrs = kb.add(out, offs).unwrap();
    kb.store(ptrs, t, None).unwrap();
    let buf = kb.index_shared(ring, 1).unwrap();
    kb.fence_async_shared().unwrap();
    kb.barrier().unwrap();
    kb.tma_store(dst, &[r0, c0], buf).unwrap();
    kb.tma_store_wait(0).unwrap();
    kb.mbarrier_invalidate(bars).unwrap();
    kb.finish().unwrap()
}

/// `n` multiples of 1/4 in [-2, 2): exact in f16, bf16, fp8 (e4m3 and e5m2) and tf32, so an
/// f32 accumulation of their products is exact and only C's final rounding errs.
pub fn quarters(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| ((rng.next_u64() % 16) as f32 - 8.0) / 4.0)
        .collect()
}
