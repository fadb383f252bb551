//! Lowering of TMA operands: the tensor map's address, a box's shared address and its
//! coordinates.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use inkwell::values::{IntValue, PointerValue};

impl<'ctx> LowerCtx<'ctx> {
    /// The address of tensor-map parameter `map` as a 64-bit integer (the operand the TMA
    /// instructions take).
    pub(crate) fn tensor_map_addr(&mut self, map: PointerValue<'ctx>) -> Result<IntValue<'ctx>> {
        Ok(self
            .em
            .b
            .build_ptr_to_int(map, self.em.ctx.i64_type(), "")?)
    }

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
