//! Lowering of TMA copies and their operands: the tensor map's address, each box's shared
//! address and coordinates, one copy per box.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::target::nvptx::tma::{self as ptx, BoxCopy};
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

    /// One TMA copy in direction `dir` (issued where `issue` holds) per box of `boxes`
    /// (its origin in the tile, its byte offset in the buffer at `base`), through the tensor
    /// map at `map_addr` at `coords`.
    pub(crate) fn copy_boxes(
        &mut self,
        dir: BoxCopy<'ctx>,
        issue: IntValue<'ctx>,
        base: IntValue<'ctx>,
        map_addr: IntValue<'ctx>,
        coords: &[IntValue<'ctx>],
        boxes: &[(Vec<u64>, u64)],
    ) -> Result<()> {
        for (origin, offset) in boxes {
            let smem = self.smem_offset_addr32(base, *offset)?;
            let cs = self.box_coords(coords, origin)?;
            ptx::copy_box(&self.em, dir, issue, smem, map_addr, &cs)?;
        }
        Ok(())
    }
}
