//! A tile through a shared buffer of a chosen layout and back: the bank conflicts that
//! `weft bank-conflicts` computes for a (register layout, shared layout) pair, as a kernel whose
//! [report](crate::codegen::Kernel::report) predicts them and whose launch (under Nsight Compute)
//! measures them. `examples/report_check.rs` runs it with an unswizzled buffer (conflicts) and a
//! swizzled one.

use crate::layout::encoding::{Blocked, SwizzledShared};

use super::super::{DType, Kernel, KernelBuilder, Result, Target};
use super::{check_pow2, tile_indices, tile_layout, Context, Tile2d};

/// The layout the tile is read back in: `t.per_thread` consecutive rows per thread, lanes down
/// the rows first, warps across the columns (the transpose of [`tile_layout`]'s thread order,
/// so a row-major buffer without swizzling puts a warp's lanes on few banks).
pub fn smem_read_layout(target: Target, t: Tile2d) -> Result<Blocked> {
    check_pow2("smem_read_layout", "rows", t.rows as u64, 1, 1 << 16)?;
    check_pow2("smem_read_layout", "cols", t.cols as u64, 1, 1 << 16)?;
    check_pow2(
        "smem_read_layout",
        "per_thread",
        t.per_thread as u64,
        1,
        1 << 12,
    )?;
    check_pow2("smem_read_layout", "num_warps", t.num_warps as u64, 1, 32)?;
    let tpw = target.warp_size();
    let lanes_r = (t.rows / t.per_thread).clamp(1, tpw);
    let lanes_c = tpw / lanes_r;
    Ok(Blocked::new(
        &[t.per_thread, 1],
        &[lanes_r, lanes_c],
        &[1, t.num_warps],
        &[0, 1],
    ))
}

/// `y = x` for row-major `m × n` f32 matrices, each `t.rows × t.cols` tile loaded in
/// [`tile_layout`], written to a shared buffer laid out by `shared`, read back after a barrier
/// in [`smem_read_layout`] and stored from there. Parameters: `x, y: ptr<f32>` (16-byte
/// aligned), `m, n: i32` (`n` a multiple of 16; edge tiles are masked). Grid: `(n / t.cols,
/// m / t.rows)`, rounded up.
pub fn smem_round_trip_kernel(
    ctx: &Context,
    target: Target,
    t: Tile2d,
    shared: SwizzledShared,
) -> Result<Kernel<'_>> {
    let write_l = tile_layout(target, t)?;
    let read_l = smem_read_layout(target, t)?;
    let mut kb = KernelBuilder::new(ctx, target, "smem_round_trip", t.num_warps)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", 16)?;
    let buf = kb.alloc_shared(DType::F32, &[t.rows as u64, t.cols as u64], &shared)?;
    let (off, mask) = offsets_and_mask(&mut kb, &write_l, t, m, n)?;
    let src = kb.add(x, off)?;
    let v = kb.load(src, Some(mask), None)?;
    kb.store_shared(buf, v)?;
    kb.barrier()?;
    let v = kb.load_shared(buf, &read_l)?;
    let (off, mask) = offsets_and_mask(&mut kb, &read_l, t, m, n)?;
    let dst = kb.add(y, off)?;
    kb.store(dst, v, Some(mask))?;
    kb.finish()
}

/// This CTA's tile in `layout`: each element's offset `row * n + col` and whether it is inside
/// the `m × n` matrix.
fn offsets_and_mask(
    kb: &mut KernelBuilder<'_>,
    layout: &Blocked,
    t: Tile2d,
    m: crate::codegen::Value,
    n: crate::codegen::Value,
) -> Result<(crate::codegen::Value, crate::codegen::Value)> {
    let pid_c = kb.program_id(0)?;
    let pid_r = kb.program_id(1)?;
    let (rows, cols) = tile_indices(kb, layout, t, pid_r, pid_c)?;
    let mr = kb.lt(rows, m)?;
    let mc = kb.lt(cols, n)?;
    let mask = kb.and(mr, mc)?;
    let off = kb.mul(rows, n)?;
    Ok((kb.add(off, cols)?, mask))
}
