//! `y[i] = Σ_j x[i, j]`: row sums of a row-major f32 matrix. Each CTA owns `rows` rows and walks
//! along them one `rows × cols` tile at a time (a `for_range` loop carrying a tile of partial
//! sums, so the loads of an iteration are independent 16-byte vectors and only one reduction
//! runs, after the loop), then `reduce(Sum, 1)` and one store per row.

use super::super::{DType, Kernel, KernelBuilder, ReduceOp, Result, Target, Value};
use super::{check_pow2, tile_indices, tile_layout, Context, Tile2d};
use crate::layout::encoding::Blocked;

/// The tiles the examples, tests and benchmarks try (4 f32 per thread and access): 16 × 256 and
/// 8 × 512 with 4 warps, 32 × 256 with 8, 4 × 1024 with 4.
pub const ROW_SUM_TILES: [Tile2d; 4] = [
    row_tile(16, 256, 4),
    row_tile(8, 512, 4),
    row_tile(32, 256, 8),
    row_tile(4, 1024, 4),
];

/// A tile of `rows × cols` with 4 f32 per thread and access.
pub(super) const fn row_tile(rows: u32, cols: u32, num_warps: u32) -> Tile2d {
    Tile2d {
        rows,
        cols,
        per_thread: 4,
        num_warps,
    }
}

/// The launch grid of [`row_sum_kernel`] for `m` rows: `m / t.rows`, rounded up.
pub fn row_sum_grid(t: Tile2d, m: u64) -> (u32, u32, u32) {
    (m.div_ceil(t.rows as u64) as u32, 1, 1)
}

/// `y[i] = Σ_j x[i, j]` for a row-major `m × n` f32 matrix `x` (`y` has `m` elements). The
/// tile `t.rows × t.cols` is laid out by [`tile_layout`] (`t.per_thread` consecutive columns per
/// thread, lanes along the rows of `x`, warps across them); rows past `m` and columns past `n`
/// are masked. Parameters: `x, y: ptr<f32>` (16-byte aligned), `m, n: i32`, `n` a multiple of
/// 16 (any `n`: [`row_sum_kernel_for_shape`]). Grid: [`row_sum_grid`].
pub fn row_sum_kernel(ctx: &Context, target: Target, t: Tile2d) -> Result<Kernel<'_>> {
    build(ctx, target, t, 16)
}

/// [`row_sum_kernel`] with `n` declared divisible by the largest power of two up to 16 that
/// divides it (see [`size_divisibility`](super::size_divisibility)): 16-byte loads when `n` is
/// a multiple of 4, narrower ones otherwise.
pub fn row_sum_kernel_for_shape(
    ctx: &Context,
    target: Target,
    t: Tile2d,
    n: u64,
) -> Result<Kernel<'_>> {
    build(ctx, target, t, super::size_divisibility(n))
}

/// What the kernels that sweep along rows one column tile at a time share (row sum, cumsum): the
/// checked tile, its `Blocked` layout, the parameters `x, y: ptr<f32>` (16-byte aligned), `m`,
/// `n` (a multiple of `div_n`), and the CTA's row indices, row mask and row offsets.
pub(super) struct RowSweep<'ctx> {
    pub kb: KernelBuilder<'ctx>,
    pub layout: Blocked,
    pub shape: [u64; 2],
    pub x: Value,
    pub y: Value,
    pub m: Value,
    pub pid: Value,
    pub cols: ColumnTiles,
}

/// The masks and offsets of one column tile of a [`RowSweep`] (`Copy`, for loop bodies).
#[derive(Clone, Copy)]
pub(super) struct ColumnTiles {
    n: Value,
    cols: Value,
    row_ok: Value,
    row_off: Value,
}

impl ColumnTiles {
    /// The column count `n`.
    pub fn n(&self) -> Value {
        self.n
    }

    /// The mask and the element offsets (`row * n + col`) of the tile starting at column `c0`.
    pub fn at(&self, kb: &mut KernelBuilder<'_>, c0: Value) -> Result<(Value, Value)> {
        let c = kb.add(self.cols, c0)?;
        let col_ok = kb.lt(c, self.n)?;
        let mask = kb.and(self.row_ok, col_ok)?;
        let off = kb.add(self.row_off, c)?;
        Ok((mask, off))
    }
}

impl<'ctx> RowSweep<'ctx> {
    /// Starts kernel `name` (`op` in errors) for tile `t`.
    pub fn new(
        ctx: &'ctx Context,
        target: Target,
        t: Tile2d,
        name: &str,
        op: &'static str,
        div_n: u64,
    ) -> Result<RowSweep<'ctx>> {
        check_pow2(op, "rows", t.rows as u64, 1, 1 << 16)?;
        check_pow2(op, "cols", t.cols as u64, 1, 1 << 16)?;
        let layout = tile_layout(target, t)?;
        let shape = [t.rows as u64, t.cols as u64];
        let mut kb = KernelBuilder::new(ctx, target, name, t.num_warps)?;
        let x = kb.arg_ptr("x", DType::F32, 16)?;
        let y = kb.arg_ptr("y", DType::F32, 16)?;
        let m = kb.arg_i32("m", 1)?;
        let n = kb.arg_i32("n", div_n)?;
        let pid = kb.program_id(0)?;
        let zero = kb.i32(0)?;
        // The tile's row and column indices at column 0; each loop step adds its start column.
        let (rows, cols) = tile_indices(&mut kb, &layout, t, pid, zero)?;
        let row_ok = kb.lt(rows, m)?;
        let row_off = kb.mul(rows, n)?;
        Ok(RowSweep {
            kb,
            layout,
            shape,
            x,
            y,
            m,
            pid,
            cols: ColumnTiles {
                n,
                cols,
                row_ok,
                row_off,
            },
        })
    }
}

fn build(ctx: &Context, target: Target, t: Tile2d, div_n: u64) -> Result<Kernel<'_>> {
    let RowSweep {
        mut kb,
        layout,
        shape,
        x,
        y,
        m,
        pid,
        cols,
    } = RowSweep::new(ctx, target, t, "row_sum", "row_sum_kernel", div_n)?;
    let acc = kb.zeros((&layout, shape), DType::F32)?;
    let acc = kb.for_range(0, cols.n(), t.cols, &[acc], |kb, c0, carried| {
        let (mask, off) = cols.at(kb, c0)?;
        let src = kb.add(x, off)?;
        let v = kb.load(src, Some(mask), None)?;
        Ok(vec![kb.add(carried[0], v)?])
    })?[0];
    let sums = kb.reduce(acc, 1, ReduceOp::Sum)?;
    // The row indices in the reduction's layout (the slice of the tile's along columns).
    let r0 = kb.mul(pid, t.rows as i32)?;
    let r = kb.arange(
        0,
        t.rows as i32,
        crate::layout::encoding::Slice::new(1, layout.into()),
    )?;
    let r = kb.add(r, r0)?;
    let keep = kb.lt(r, m)?;
    let dst = kb.add(y, r)?;
    kb.store(dst, sums, Some(keep))?;
    kb.finish()
}
