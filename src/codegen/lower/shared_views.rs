//! Lowering of shared-memory views: a view descriptor in the value map, and the byte offset a
//! view (a buffer of a ring, a slice, an mbarrier of an array) starts at.

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::values::{Value, ValueData, ValueKind};
use crate::codegen::types::Type;
use inkwell::values::IntValue;
use std::sync::Arc;

impl<'ctx> LowerCtx<'ctx> {
    /// A view descriptor in the current scope.
    pub(crate) fn push_view(
        &mut self,
        ty: Type,
        shape: Vec<u64>,
        regs: Vec<inkwell::values::BasicValueEnum<'ctx>>,
        buf: crate::codegen::lower::values::SharedBuf,
    ) -> Value {
        let scope = self.values.scope();
        self.values.push(ValueData {
            kind: ValueKind::SharedDesc,
            ty,
            shape,
            layout: None,
            regs,
            info: AxisInfo::scalar(1),
            scope,
            literal: None,
            shared: Some(Arc::new(buf)),
        })
    }

    /// `base + index * stride`: the byte offset of element `index` of an array of `stride`-byte
    /// elements at `base` (a buffer of a ring, an mbarrier of an array).
    pub(crate) fn element_offset(
        &mut self,
        base: IntValue<'ctx>,
        index: IntValue<'ctx>,
        stride: u64,
    ) -> Result<IntValue<'ctx>> {
        let i32t = self.em.ctx.i32_type();
        let off = self
            .em
            .b
            .build_int_mul(index, i32t.const_int(stride, false), "")?;
        Ok(self.em.b.build_int_add(base, off, "")?)
    }

    /// `base + bytes`: the byte offset of a view `bytes` past its parent's start.
    pub(crate) fn offset_by(&mut self, base: IntValue<'ctx>, bytes: u64) -> Result<IntValue<'ctx>> {
        let i32t = self.em.ctx.i32_type();
        Ok(self
            .em
            .b
            .build_int_add(base, i32t.const_int(bytes, false), "")?)
    }
}
