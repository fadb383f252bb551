//! `y[i, j] = Σ_{k ≤ j} x[i, k]`: cumulative sums along the rows of a row-major f32 matrix. Each
//! CTA owns `rows` rows and walks along them one `rows × cols` tile at a time (a `for_range`
//! loop): each tile is scanned along its columns (`associative_scan(Sum, 1)`), the running
//! total of each row carried from the tiles before it is added, and the tile's row totals
//! (a `reduce(Sum, 1)` broadcast back to the tile) are added to the carry.

use super::super::{DType, Kernel, KernelBuilder, ReduceOp, Result, ScanOp, Target};
use super::{check_pow2, tile_indices, tile_layout, Context, Tile2d};

/// The tiles the example and the tests try (4 f32 per thread and access): 4 × 1024, 8 × 512
/// and 16 × 256, with 4 warps.
pub const CUMSUM_TILES: [Tile2d; 3] = [tile(4, 1024, 4), tile(8, 512, 4), tile(16, 256, 4)];

const fn tile(rows: u32, cols: u32, num_warps: u32) -> Tile2d {
    Tile2d {
        rows,
        cols,
        per_thread: 4,
        num_warps,
    }
}

/// The launch grid of [`cumsum_kernel`] for `m` rows: `m / t.rows`, rounded up.
pub fn cumsum_grid(t: Tile2d, m: u64) -> (u32, u32, u32) {
    (m.div_ceil(t.rows as u64) as u32, 1, 1)
}

/// `y[i, j] = Σ_{k ≤ j} x[i, k]` for row-major `m × n` f32 matrices `x`, `y`. The tile
/// `t.rows × t.cols` is laid out by [`tile_layout`]; rows past `m` and columns past `n` are
/// masked. Parameters: `x, y: ptr<f32>` (16-byte aligned), `m, n: i32`, `n` a multiple of 16
/// (any `n`: [`cumsum_kernel_for_shape`]). Grid: [`cumsum_grid`].
pub fn cumsum_kernel(ctx: &Context, target: Target, t: Tile2d) -> Result<Kernel<'_>> {
    build(ctx, target, t, 16)
}

/// [`cumsum_kernel`] with `n` declared divisible by the largest power of two up to 16 that
/// divides it (see [`size_divisibility`](super::size_divisibility)).
pub fn cumsum_kernel_for_shape(
    ctx: &Context,
    target: Target,
    t: Tile2d,
    n: u64,
) -> Result<Kernel<'_>> {
    build(ctx, target, t, super::size_divisibility(n))
}

fn build(ctx: &Context, target: Target, t: Tile2d, div_n: u64) -> Result<Kernel<'_>> {
    const OP: &str = "cumsum_kernel";
    check_pow2(OP, "rows", t.rows as u64, 1, 1 << 16)?;
    check_pow2(OP, "cols", t.cols as u64, 1, 1 << 16)?;
    let layout = tile_layout(target, t)?;
    let shape = [t.rows as u64, t.cols as u64];
    let mut kb = KernelBuilder::new(ctx, target, "cumsum", t.num_warps)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", div_n)?;
    let pid = kb.program_id(0)?;
    let zero = kb.i32(0)?;
    let (rows, cols) = tile_indices(&mut kb, &layout, t, pid, zero)?;
    let row_ok = kb.lt(rows, m)?;
    let row_off = kb.mul(rows, n)?;
    // The running total of each row, held by every element of the row.
    let carry = kb.zeros((&layout, shape), DType::F32)?;
    kb.for_range(0, n, t.cols, &[carry], |kb, c0, carried| {
        let carry = carried[0];
        let c = kb.add(cols, c0)?;
        let col_ok = kb.lt(c, n)?;
        let mask = kb.and(row_ok, col_ok)?;
        let off = kb.add(row_off, c)?;
        let src = kb.add(x, off)?;
        let v = kb.load(src, Some(mask), None)?;
        let s = kb.associative_scan(v, 1, ScanOp::Sum)?;
        let s = kb.add(s, carry)?;
        let dst = kb.add(y, off)?;
        kb.store(dst, s, Some(mask))?;
        let tot = kb.reduce(v, 1, ReduceOp::Sum)?;
        let tot = kb.expand_dims(tot, 1)?;
        let tot = kb.broadcast_to(tot, (&layout, shape))?;
        Ok(vec![kb.add(carry, tot)?])
    })?;
    kb.finish()
}

/// The host reference: cumulative sums along the rows of the row-major `m × n` `x`, in f64.
pub fn cumsum_reference(x: &[f32], m: usize, n: usize) -> Vec<f64> {
    let mut y = vec![0f64; m * n];
    for i in 0..m {
        let mut acc = 0f64;
        for j in 0..n {
            acc += x[i * n + j] as f64;
            y[i * n + j] = acc;
        }
    }
    y
}
