//! A user's combine function (`reduce_with`, `associative_scan_with`) as recorded in its op's
//! region, lowered once per combination: its two parameters take the registers being combined,
//! its ops are lowered from their record in order, and its yield is the combined register.

use inkwell::values::BasicValueEnum;

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Op, ValueId};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::program::lower_op;
use crate::codegen::lower::values::Value;

/// A recorded combine function.
#[derive(Debug, Clone)]
pub(crate) struct CombineBody {
    /// The two scalars combined (`a` first).
    pub params: [ValueId; 2],
    /// Its ops, each lowered from its record.
    pub ops: Vec<Op>,
    /// The scalar it returns.
    pub yields: ValueId,
    /// Why it cannot be lowered from its record (an op in it that is lowered by its builder
    /// method, such as a return), named at that op's line.
    pub refused: Option<CodegenError>,
}

impl<'ctx> LowerCtx<'ctx> {
    /// `body` on registers `a` and `b`.
    pub(crate) fn combine_with(
        &mut self,
        body: &CombineBody,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        if let Some(e) = &body.refused {
            return Err(e.clone());
        }
        let kernel = self.values.kernel_id();
        let value = |id: ValueId| Value {
            kernel,
            index: id.0,
        };
        for (p, r) in body.params.iter().zip([a, b]) {
            self.values.update(value(*p), |d| d.regs = vec![r]);
        }
        for op in &body.ops {
            lower_op(self, op).map_err(|e| e.at(op.loc))?;
        }
        let d = self.values.peek("combine", value(body.yields))?;
        d.regs.first().copied().ok_or_else(|| {
            CodegenError::arg(
                "combine",
                format!(
                    "the combine function's result {} has no register",
                    d.describe()
                ),
            )
        })
    }
}
