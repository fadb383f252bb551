//! Lowering of shape ops (`expand_dims`, `permute`, `reshape`, `split`, `join`): no data moves,
//! each result register is one of the operands' registers.

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};

/// The two halves of a tile whose last dim (of size 2) is stepped by one register basis of `l`:
/// each half keeps the other register bits in order.
pub(crate) fn split_regs<'ctx>(
    l: &TileLayout,
    regs: &[BasicValueEnum<'ctx>],
) -> Result<[Vec<BasicValueEnum<'ctx>>; 2]> {
    let last = l.shape.len().checked_sub(1);
    let bit = last
        .and_then(|last| l.reg.iter().position(|b| b[last] != 0))
        .ok_or_else(|| CodegenError::BadLayout {
            op: "split",
            reason: format!("no register basis steps the last dim of {l}"),
        })?;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (r, v) in regs.iter().enumerate() {
        if r >> bit & 1 == 0 {
            a.push(*v);
        } else {
            b.push(*v);
        }
    }
    Ok([a, b])
}

/// Two tiles' registers joined along a new last dim held in the lowest register bit.
pub(crate) fn join_regs<'ctx>(
    a: &[BasicValueEnum<'ctx>],
    b: &[BasicValueEnum<'ctx>],
) -> Vec<BasicValueEnum<'ctx>> {
    a.iter().zip(b).flat_map(|(p, q)| [*p, *q]).collect()
}
