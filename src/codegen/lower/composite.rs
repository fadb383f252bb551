//! Lowering of an op weft builds from other ops (`grouped_tile` from integer arithmetic): the
//! parts its method recorded while checking it, each lowered from its record, in order.

use crate::codegen::error::Result;
use crate::codegen::ir::Op;
use crate::codegen::lower::context::LowerCtx;

/// The lowering of one recorded op (`lower::program::lower_op`), handed to the lowerings that
/// lower recorded ops of their own (parts, combine functions).
pub(crate) type LowerFn = for<'a> fn(&mut LowerCtx<'a>, &Op) -> Result<()>;

/// Emits `op`, a recorded composite op named `name`, lowering each part with `lower`: its
/// results are its parts' results.
pub(crate) fn lower_composite(
    lx: &mut LowerCtx<'_>,
    name: &'static str,
    op: &Op,
    lower: LowerFn,
) -> Result<()> {
    let parts = lx.staged.composites.take(name, op)?;
    for part in &parts {
        lower(lx, part)?;
    }
    Ok(())
}
