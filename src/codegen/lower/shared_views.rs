//! Lowering of shared-memory views: a view descriptor in the value map.

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::values::{Value, ValueData, ValueKind};
use crate::codegen::types::Type;
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
}
