//! Rows of one head in the attention backward, for both engines: the per-row statistics (lse,
//! delta) loaded as a tile, and a gradient block stored as the input type, rows past the sequence
//! masked.

use crate::layout::encoding::Encoding;

use super::super::{DType, KernelBuilder, Result, Value};
use super::tile_coords;

/// Rows `row0 ..` of one head (its first row `head0` in the whole array) as a `shape` tile: the
/// element pointers' offsets, in `layout`, and which rows are inside the sequence.
pub(super) fn rows_of(
    kb: &mut KernelBuilder<'_>,
    layout: &Encoding,
    shape: [u64; 2],
    (head0, row0, seq): (Value, Value, Value),
) -> Result<(Value, Value)> {
    let (r, cl) = tile_coords(kb, layout, shape, Some(row0), None)?;
    let ok = kb.lt(r, seq)?;
    let r = kb.add(r, head0)?;
    let off = kb.mul(r, shape[1] as i32)?;
    Ok((kb.add(off, cl)?, ok))
}

/// A `[rows]` tile of `ptr` (lse or delta) at rows `row0 ..` of a head, in `layout`; `other` past
/// the sequence.
pub(super) fn row_stat(
    kb: &mut KernelBuilder<'_>,
    ptr: Value,
    layout: impl crate::codegen::IntoLayout,
    rows: u32,
    (head0, row0, seq): (Value, Value, Value),
    other: f32,
) -> Result<Value> {
    let r = kb.arange(0, rows as i32, layout)?;
    let r = kb.add(r, row0)?;
    let ok = kb.lt(r, seq)?;
    let r = kb.add(r, head0)?;
    let p = kb.add(ptr, r)?;
    kb.load(
        p,
        Some(ok),
        Some(crate::codegen::IntoOperand::into_operand(other)),
    )
}

/// Stores `x` (f32 in `layout`) as `dt` at rows `row0 ..` of a head, rows inside the sequence.
pub(super) fn store_rows(
    kb: &mut KernelBuilder<'_>,
    ptr: Value,
    x: Value,
    layout: &Encoding,
    shape: [u64; 2],
    at: (Value, Value, Value),
    dt: DType,
) -> Result<()> {
    let (off, ok) = rows_of(kb, layout, shape, at)?;
    let p = kb.add(ptr, off)?;
    let x = kb.cast(x, dt)?;
    kb.store(p, x, Some(ok))
}
