//! `y[i, j] = Σ_{k ≤ j} x[i, k]`: cumulative sums along the rows of a row-major f32 matrix. Each
//! CTA owns `rows` rows and walks along them one `rows × cols` tile at a time (a `for_range`
//! loop): each tile is scanned along its columns (`associative_scan(Sum, 1)`), the running
//! total of each row carried from the tiles before it is added, and the tile's row totals
//! (a `reduce(Sum, 1)` broadcast back to the tile) are added to the carry.

use super::super::{DType, Kernel, ReduceOp, Result, ScanOp, Target};
use super::row_sum::{row_tile, RowSweep};
use super::{Context, Tile2d};

/// The tiles the example and the tests try (4 f32 per thread and access): 4 × 1024, 8 × 512
/// and 16 × 256, with 4 warps.
pub const CUMSUM_TILES: [Tile2d; 3] = [
    row_tile(4, 1024, 4),
    row_tile(8, 512, 4),
    row_tile(16, 256, 4),
];

/// The launch grid of [`cumsum_kernel`] for `m` rows: `m / t.rows`, rounded up.
pub fn cumsum_grid(t: Tile2d, m: u64) -> (u32, u32, u32) {
    super::row_sum_grid(t, m)
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
    let RowSweep {
        mut kb,
        layout,
        shape,
        x,
        y,
        cols,
        ..
    } = RowSweep::new(ctx, target, t, "cumsum", "cumsum_kernel", div_n)?;
    // The running total of each row, held by every element of the row.
    let carry = kb.zeros((&layout, shape), DType::F32)?;
    kb.for_range(0, cols.n(), t.cols, &[carry], |kb, c0, carried| {
        let carry = carried[0];
        let (mask, off) = cols.at(kb, c0)?;
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
