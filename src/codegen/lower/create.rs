//! Lowering of tile creation: the registers of an `arange`, scalar constants.

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::types::DType;

impl<'ctx> LowerCtx<'ctx> {
    /// The registers of `start, start + 1, …` in the 1-D layout `l`: each register's coordinate
    /// plus `start`, one add per distinct coordinate.
    pub(crate) fn arange_regs(
        &mut self,
        l: &TileLayout,
        start: i32,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let coords = self.dim_coords(l, 0)?;
        let i32t = self.em.ctx.i32_type();
        let mut regs: Vec<BasicValueEnum> = Vec::with_capacity(coords.len());
        let mut seen = std::collections::HashMap::new();
        for c in coords {
            let v = if start == 0 {
                c
            } else if let Some(v) = seen.get(&c) {
                *v
            } else {
                let v = self.int_add(c, i32t.const_int(start as u64, true))?;
                seen.insert(c, v);
                v
            };
            regs.push(v.into());
        }
        Ok(regs)
    }

    /// The register of integer constant `value` of `dtype` (checked to fit by the caller).
    pub(crate) fn const_int_reg(&self, dtype: DType, value: i64) -> BasicValueEnum<'ctx> {
        dtype
            .llvm(self.em.ctx)
            .into_int_type()
            .const_int(value as u64, dtype.bits() > 1)
            .into()
    }

    /// The register of float constant `value` of `dtype`.
    pub(crate) fn const_float_reg(&self, dtype: DType, value: f64) -> BasicValueEnum<'ctx> {
        dtype
            .llvm(self.em.ctx)
            .into_float_type()
            .const_float(value)
            .into()
    }
}
