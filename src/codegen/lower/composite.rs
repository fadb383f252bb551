//! Lowering of an op weft builds from other ops (`grouped_tile` from integer arithmetic): the
//! parts its method recorded while checking it, each lowered from its record, in order.

use crate::codegen::error::Result;
use crate::codegen::ir::Op;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::program::lower_op;

/// Emits `op`, a recorded composite op named `name`: its results are its parts' results.
pub(crate) fn lower_composite(lx: &mut LowerCtx<'_>, name: &'static str, op: &Op) -> Result<()> {
    let parts = lx.staged.composites.take(name, op)?;
    for part in &parts {
        lower_op(lx, part)?;
    }
    Ok(())
}
