//! What the one-pass row kernels ([`super::softmax_kernel`], [`super::layernorm_kernel`]) share:
//! whole rows of an `m × n` f32 matrix per CTA, in a `[rows_per_cta, block_n]` tile held in
//! registers and laid out as Triton's `BlockedEncodingAttr::get` would.

use crate::layout::encoding::helpers::blocked_for;
use crate::layout::encoding::{Blocked, Slice};

use super::super::{CodegenError, DType, KernelBuilder, Operand, Result, Target, Type, Value};
use super::check_pow2;

/// `(block_n, n_divisibility)` for rows of `n` columns: the next power of two `≥ n`, and the
/// largest power of two `≤ 16` that divides `n`.
pub(super) fn for_n(n: u32) -> (u32, u32) {
    (n.max(1).next_power_of_two(), 1 << n.trailing_zeros().min(4))
}

/// The grid for `m` rows: `m.div_ceil(rows_per_cta)` CTAs.
pub(super) fn grid(m: usize, rows_per_cta: u32) -> u32 {
    m.div_ceil(rows_per_cta.max(1) as usize) as u32
}

/// Whether a kernel for rows of at most `block_n` columns, promising `n` a multiple of
/// `n_divisibility`, covers an `m × n` matrix: `n ≤ block_n`, the promise kept, `m * n < 2^31`
/// (offsets are i32), and at least one row and column. `op` names the kernel in errors.
pub(super) fn check_shape(
    op: &'static str,
    block_n: u32,
    n_divisibility: u32,
    m: usize,
    n: usize,
) -> Result<()> {
    if m == 0 || n == 0 {
        return Err(CodegenError::arg(op, format!("{m} × {n}: an empty matrix")));
    }
    if n > block_n as usize {
        return Err(CodegenError::arg(
            op,
            format!(
                "n = {n} > block_n = {block_n}: a row must fit in one tile (block_n = {})",
                n.next_power_of_two()
            ),
        ));
    }
    if !n.is_multiple_of(n_divisibility.max(1) as usize) {
        return Err(CodegenError::arg(
            op,
            format!("n = {n} is not a multiple of n_divisibility = {n_divisibility}"),
        ));
    }
    if m.checked_mul(n).is_none_or(|e| e > i32::MAX as usize) {
        return Err(CodegenError::arg(
            op,
            format!("{m} × {n} elements: offsets are i32, at most 2^31 - 1 elements"),
        ));
    }
    Ok(())
}

/// The parameters of a row tile, checked: every size a power of two in range, and `per_thread`
/// within the row.
pub(super) fn check_params(
    op: &'static str,
    block_n: u32,
    rows_per_cta: u32,
    per_thread: u32,
    num_warps: u32,
    n_divisibility: u32,
) -> Result<()> {
    check_pow2(op, "block_n", block_n as u64, 1, 1 << 16)?;
    check_pow2(op, "rows_per_cta", rows_per_cta as u64, 1, 1 << 10)?;
    check_pow2(op, "per_thread", per_thread as u64, 1, 16)?;
    check_pow2(op, "num_warps", num_warps as u64, 1, 32)?;
    check_pow2(op, "n_divisibility", n_divisibility as u64, 1, 16)?;
    if per_thread > block_n {
        return Err(CodegenError::arg(
            op,
            format!("per_thread = {per_thread} is more than the row tile block_n = {block_n}"),
        ));
    }
    Ok(())
}

/// The `Blocked` layout of the `[rows_per_cta, block_n]` tile ([`blocked_for`]): `per_thread`
/// consecutive columns per thread, lanes along the columns first, then warps along the columns
/// until they cover the row, the rest of the warps (and lanes) along the rows.
pub(super) fn layout(
    target: Target,
    block_n: u32,
    rows_per_cta: u32,
    per_thread: u32,
    num_warps: u32,
) -> Result<Blocked> {
    Ok(blocked_for(
        &[rows_per_cta as u64, block_n as u64],
        &[1, per_thread],
        num_warps,
        target.warp_size(),
    )?)
}

/// [`check_params`], then the tile's [`layout`]: `[block_n, rows_per_cta, per_thread,
/// num_warps, n_divisibility]`.
pub(super) fn checked_layout(op: &'static str, target: Target, p: [u32; 5]) -> Result<Blocked> {
    let [block_n, rows_per_cta, per_thread, num_warps, n_divisibility] = p;
    check_params(
        op,
        block_n,
        rows_per_cta,
        per_thread,
        num_warps,
        n_divisibility,
    )?;
    layout(target, block_n, rows_per_cta, per_thread, num_warps)
}

/// Elements a thread holds of a `shape` tile in `l`, along the rows and along the columns: its
/// block, repeated where the CTA's threads cover less than the tile (copies, where they cover
/// more, hold their block all the same).
pub(super) fn held(l: &Blocked, shape: [u64; 2]) -> (u64, u64) {
    let along = |d: usize| {
        let spt = l.size_per_thread[d] as u64;
        let covered = spt * l.threads_per_warp[d] as u64 * l.warps_per_cta[d] as u64;
        spt * (shape[d] / covered).max(1)
    };
    (along(0), along(1))
}

/// The rows of a CTA's row tile: `rows = r0 + arange(rows_per_cta)`, `ok1 = rows < m` and the
/// row starts `off1 = rows · n` (in the tile's row slice, for per-row values), `row_ok` and
/// `row_off` the same as `[rows_per_cta, 1]`.
pub(super) struct TileRows {
    pub rows: Value,
    pub ok1: Value,
    pub off1: Value,
    pub row_ok: Value,
    pub row_off: Value,
}

/// [`TileRows`] of program `pid`'s tile: rows `pid · rows_per_cta …`, with i32 row starts.
pub(super) fn tile_rows(
    kb: &mut KernelBuilder<'_>,
    layout: &Blocked,
    rows_per_cta: u32,
    pid: Value,
    m: Value,
    n: Value,
) -> Result<TileRows> {
    tile_rows_with(kb, layout, rows_per_cta, pid, m, n, false)
}

/// [`tile_rows`], with i64 row starts when `wide` (`m · n` may pass 2^31).
pub(super) fn tile_rows_with(
    kb: &mut KernelBuilder<'_>,
    layout: &Blocked,
    rows_per_cta: u32,
    pid: Value,
    m: Value,
    n: Value,
    wide: bool,
) -> Result<TileRows> {
    let r0 = kb.mul(pid, rows_per_cta as i32)?;
    let rows = kb.arange(0, rows_per_cta as i32, Slice::new(1, layout.clone().into()))?;
    let rows = kb.add(rows, r0)?;
    let ok = kb.lt(rows, m)?;
    let off = if wide {
        let r = kb.cast(rows, DType::I64)?;
        kb.mul(r, n)?
    } else {
        kb.mul(rows, n)?
    };
    Ok(TileRows {
        rows,
        ok1: ok,
        off1: off,
        row_ok: kb.expand_dims(ok, 1)?,
        row_off: kb.expand_dims(off, 1)?,
    })
}

/// The columns of a row tile: `cols = c0 + arange(block_n)` and `col_ok = cols < n`, both in the
/// tile's column slice (`[block_n]`, for per-column vectors) and as `[1, block_n]`.
pub(super) struct TileCols {
    pub cols1: Value,
    pub ok1: Value,
    pub cols: Value,
    pub ok: Value,
}

/// [`TileCols`] from column `c0` (0 when `None`).
pub(super) fn tile_cols(
    kb: &mut KernelBuilder<'_>,
    layout: &Blocked,
    block_n: u32,
    c0: Option<Value>,
    n: Value,
) -> Result<TileCols> {
    let cols1 = kb.arange(0, block_n as i32, Slice::new(0, layout.clone().into()))?;
    let cols1 = match c0 {
        Some(c0) => kb.add(cols1, c0)?,
        None => cols1,
    };
    let ok1 = kb.lt(cols1, n)?;
    Ok(TileCols {
        cols1,
        ok1,
        cols: kb.expand_dims(cols1, 0)?,
        ok: kb.expand_dims(ok1, 0)?,
    })
}

/// The mask (`row_ok & col_ok`) and element offsets (`row_off + cols`) of a tile.
pub(super) fn tile_mask_offs(
    kb: &mut KernelBuilder<'_>,
    r: &TileRows,
    c: &TileCols,
) -> Result<(Value, Value)> {
    Ok((kb.and(r.row_ok, c.ok)?, kb.add(r.row_off, c.cols)?))
}

/// `*(base + offs)` where `mask`, `other` elsewhere, widened to f32 (loaded as it is stored).
pub(super) fn load_f32(
    kb: &mut KernelBuilder<'_>,
    base: Value,
    offs: Value,
    mask: Value,
    other: f64,
) -> Result<Value> {
    let p = kb.add(base, offs)?;
    let v = kb.load(p, Some(mask), Some(Operand::Float(other)))?;
    to_f32(kb, v)
}

/// `v` as f32 (itself when it is).
pub(super) fn to_f32(kb: &mut KernelBuilder<'_>, v: Value) -> Result<Value> {
    if kb.ty(v)? == Type::Scalar(DType::F32) {
        Ok(v)
    } else {
        kb.cast(v, DType::F32)
    }
}

/// Stores the f32 `v` at `base + offs` where `mask`, rounded to `dtype` first.
pub(super) fn store_as(
    kb: &mut KernelBuilder<'_>,
    base: Value,
    offs: Value,
    v: Value,
    dtype: DType,
    mask: Value,
) -> Result<()> {
    let v = if dtype == DType::F32 {
        v
    } else {
        kb.cast(v, dtype)?
    };
    let p = kb.add(base, offs)?;
    kb.store(p, v, Some(mask))
}
