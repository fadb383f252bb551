//! Kernels of the shared-memory reuse tests (CPU: peak bytes, barriers, ptxas; GPU: results under
//! racecheck): back-to-back conversions and reductions whose scratch shares bytes, a buffer freed
//! and its bytes given to another, and a replicated warp role reusing its own scratch.

use weft::codegen::{
    Context, DType, Kernel, KernelBuilder, ReduceOp, Result, Target, Value, WarpRole,
};
use weft::layout::encoding::{Blocked, Encoding, SwizzledShared};
use weft::layout::LinearLayout;

use super::kernels::flat;

/// 64×64 over 4 warps of `target`: rows of 4 contiguous elements per thread (a warp spans
/// `lanes / 16` rows).
pub fn rows(target: Target) -> LinearLayout {
    let lanes = target.warp_size();
    let b = Blocked::new(&[1, 4], &[lanes / 16, 16], &[4, 1], &[1, 0]);
    flat(&Encoding::from(b).to_linear_layout(&[64, 64]).unwrap())
}

/// The transpose of [`rows`]: 4 contiguous elements per thread down the columns.
pub fn cols(target: Target) -> LinearLayout {
    let lanes = target.warp_size();
    let b = Blocked::new(&[4, 1], &[16, lanes / 16], &[1, 4], &[0, 1]);
    flat(&Encoding::from(b).to_linear_layout(&[64, 64]).unwrap())
}

/// `y[i] = x[i] + iters` for 4096 `f32`: the tile goes rows → cols → rows → cols (`hops`
/// conversions through shared memory, back to back), then, `iters` times in a loop, cols → rows
/// → cols plus one. Parameters `x, y: *f32`.
pub fn chain_kernel(ctx: &Context, target: Target, hops: usize, iters: i32) -> Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, target, "convert_chain", 4)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let (r, c) = (rows(target), cols(target));
    let offs = kb.arange(0, 4096, &r)?;
    let px = kb.add(x, offs)?;
    let mut v = kb.load(px, None, None)?;
    for h in 0..hops {
        v = kb.convert_layout(v, if h % 2 == 0 { &c } else { &r })?;
    }
    let last = if hops % 2 == 1 { &c } else { &r };
    if iters > 0 {
        let out = kb.for_range(0, iters, 1, &[v], |kb, _, carried| {
            let t = kb.convert_layout(carried[0], if hops % 2 == 1 { &r } else { &c })?;
            let t = kb.convert_layout(t, last)?;
            Ok(vec![kb.add(t, 1.0)?])
        })?;
        v = out[0];
    }
    let offs = kb.arange(0, 4096, last)?;
    let py = kb.add(y, offs)?;
    kb.store(py, v, None)?;
    kb.finish()
}

/// The 64×64 row-major `f32` tile at `x` in [`rows`]'s blocked layout (over the current 4
/// warps), and the column indices (in its slice layout along dim 0).
fn load_tile(kb: &mut KernelBuilder<'_>, x: Value) -> Result<(Value, Value)> {
    use weft::layout::encoding::Slice;
    let enc: Encoding = Blocked::new(&[1, 4], &[2, 16], &[4, 1], &[1, 0]).into();
    let rr = kb.arange(0, 64, Slice::new(1, enc.clone()))?;
    let cc = kb.arange(0, 64, Slice::new(0, enc))?;
    let r2 = kb.expand_dims(rr, 1)?;
    let r2 = kb.mul(r2, 64)?;
    let c2 = kb.expand_dims(cc, 0)?;
    let offs = kb.add(r2, c2)?;
    let px = kb.add(x, offs)?;
    Ok((kb.load(px, None, None)?, cc))
}

/// Reduces the columns of `v` with each of `ops` in turn (back to back, across the 4 warps),
/// storing op `i`'s 64 results at `y + 64 i`.
fn column_reductions(
    kb: &mut KernelBuilder<'_>,
    v: Value,
    cols: Value,
    y: Value,
    ops: &[ReduceOp],
) -> Result<()> {
    for (i, &op) in ops.iter().enumerate() {
        let s = kb.reduce(v, 0, op)?;
        let at = kb.add(cols, 64 * i as i32)?;
        let py = kb.add(y, at)?;
        kb.store(py, s, None)?;
    }
    Ok(())
}

/// 64×64 row-major `f32`: `y[0..64)` the column sums, `y[64..128)` the column maxima,
/// `y[128..192)` the column minima (three reductions across the 4 warps, back to back).
/// Parameters `x, y: *f32`.
pub fn column_stats_kernel(ctx: &Context, target: Target) -> Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, target, "column_stats", 4)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let (v, cols) = load_tile(&mut kb, x)?;
    column_reductions(
        &mut kb,
        v,
        cols,
        y,
        &[ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min],
    )?;
    kb.finish()
}

/// `y = 2·x` for 4096 `f32` through two buffers on the same bytes: `x` stored into a swizzled
/// buffer, read back in [`cols`], the buffer freed, the doubled tile stored into a row-major
/// buffer that takes its bytes, read back in [`rows`]. Parameters `x, y: *f32`.
pub fn free_reuse_kernel(ctx: &Context, target: Target) -> Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, target, "free_reuse", 4)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let (r, c) = (rows(target), cols(target));
    let offs = kb.arange(0, 4096, &r)?;
    let px = kb.add(x, offs)?;
    let v = kb.load(px, None, None)?;
    let a = kb.alloc_shared(DType::F32, &[4096], SwizzledShared::new(4, 1, 8, &[0]))?;
    kb.store_shared(a, v)?;
    kb.barrier()?;
    let t = kb.load_shared(a, &c)?;
    kb.free_shared(a)?;
    let t = kb.mul(t, 2.0)?;
    let b = kb.alloc_shared(DType::F32, &[4096], SwizzledShared::new(1, 1, 1, &[0]))?;
    kb.store_shared(b, t)?;
    kb.barrier()?;
    let u = kb.load_shared(b, &r)?;
    kb.free_shared(b)?;
    let py = kb.add(y, offs)?;
    kb.store(py, u, None)?;
    kb.finish()
}

/// 8 warps as one role of two replicated warpgroups: replica `q` reads the 64×64 tile at
/// `x + 4096 q` and writes its column sums to `y[128 q .. 128 q + 64)` and its column maxima to
/// the next 64 (two reductions across its 4 warps, the second reusing the first's scratch in
/// the replica's own copy). Parameters `x, y: *f32`.
pub fn replica_stats_kernel(ctx: &Context) -> Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, Target::SM90A, "replica_stats", 8)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let roles = kb.warp_roles(&[WarpRole::new(4).replicas(2)])?;
    kb.in_role(roles[0], |kb| {
        let q = kb.role_replica()?;
        let xo = kb.mul(q, 4096)?;
        let xq = kb.add(x, xo)?;
        let yo = kb.mul(q, 128)?;
        let yq = kb.add(y, yo)?;
        let (v, cols) = load_tile(kb, xq)?;
        column_reductions(kb, v, cols, yq, &[ReduceOp::Sum, ReduceOp::Max])
    })?;
    kb.finish()
}
