//! Lowering of the warp roles ops: what they emit, as methods of the lowering context.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::target::nvptx::roles as ptx;
use inkwell::values::IntValue;

impl<'ctx> LowerCtx<'ctx> {
    /// `bar.{kind} id, threads;` (see [`ptx::named_barrier`]).
    pub(crate) fn bar(&mut self, kind: &str, id: IntValue<'ctx>, threads: u32) -> Result<()> {
        ptx::named_barrier(&self.em, kind, id, threads)
    }
}
