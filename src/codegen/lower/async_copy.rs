//! Lowering of `cp.async` copies from global to shared memory: one copy of `bytes` per vector
//! of registers this thread owns, a masked-off vector copying zero bytes (so its destination is
//! zero-filled).

use inkwell::values::{BasicValueEnum, IntValue};

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::target::nvptx::cp_async as ptx;

impl<'ctx> LowerCtx<'ctx> {
    /// A `cp.async` of `bytes` from `src[g]` to shared byte offset `dst[g]` for every `vec`-th
    /// register `g` of `layout` that is not a copy of another, sized by `mask[g]` when masked,
    /// issued only by the first of the threads holding the same elements (as Triton).
    pub(crate) fn cp_async_copies(
        &mut self,
        src: &[BasicValueEnum<'ctx>],
        dst: &[IntValue<'ctx>],
        mask: Option<&[BasicValueEnum<'ctx>]>,
        vec: usize,
        layout: &TileLayout,
        bytes: u64,
    ) -> Result<()> {
        let (reg_free, _, _) = layout.free_masks();
        let rep = self.representative(layout)?;
        for g in (0..src.len()).step_by(vec) {
            if g as u64 & reg_free != 0 {
                continue; // a copy of an element this thread copies from another register
            }
            let to = self.smem_at(dst[g])?;
            let size = match mask {
                None => None,
                Some(regs) => Some(ptx::masked_size(&self.em, regs[g].into_int_value(), bytes)?),
            };
            ptx::copy(&self.em, to, src[g], bytes, size, rep)?;
        }
        Ok(())
    }
}
