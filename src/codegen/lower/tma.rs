//! Lowering of TMA operands: a box's shared address and its coordinates.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use inkwell::values::IntValue;

impl<'ctx> LowerCtx<'ctx> {
    /// A box's coordinates, innermost first (as PTX takes them): `coords + origin`.
    pub(crate) fn box_coords(
        &mut self,
        coords: &[IntValue<'ctx>],
        origin: &[u64],
    ) -> Result<Vec<IntValue<'ctx>>> {
        let i32t = self.em.ctx.i32_type();
        let mut out = Vec::with_capacity(coords.len());
        for (c, &o) in coords.iter().zip(origin).rev() {
            out.push(if o == 0 {
                *c
            } else {
                self.em.b.build_int_add(*c, i32t.const_int(o, false), "")?
            });
        }
        Ok(out)
    }

    /// The 32-bit shared address of byte `offset` past `base`.
    pub(crate) fn smem_offset_addr32(
        &mut self,
        base: IntValue<'ctx>,
        offset: u64,
    ) -> Result<IntValue<'ctx>> {
        let off = if offset == 0 {
            base
        } else {
            let c = self.em.ctx.i32_type().const_int(offset, false);
            self.em.b.build_int_add(base, c, "")?
        };
        self.smem_addr32(off)
    }
}
