//! Early return: `return_if(cond)` and `ret()` leave the kernel, as Triton's `return` inside an
//! `if`. The condition is a scalar, the same in every thread of the CTA, so the whole CTA leaves
//! together and no barrier is left waiting for threads that are gone. The verifier refuses a
//! return where that does not hold: inside a warp role (the other roles would wait for its
//! warps at their barriers) or inside a reduction's or scan's combine function.

use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::values::Value;
use crate::codegen::types::{DType, Type};

impl KernelBuilder<'_> {
    /// Leaves the kernel where the scalar `cond` (an `i1`) is true; the code after it runs
    /// where it is false.
    #[track_caller]
    pub fn return_if(&mut self, cond: Value) -> Result<()> {
        self.record_checked(OpKind::Return, vec![cond.into()], |kb| {
            kb.return_check(Some(cond))
        })
    }

    /// Leaves the kernel (inside an `if_` or `if_then` body: the code after it in the body
    /// never runs).
    #[track_caller]
    pub fn ret(&mut self) -> Result<()> {
        self.record_checked(OpKind::Return, vec![], |kb| kb.return_check(None))
    }

    fn return_check(&mut self, cond: Option<Value>) -> Result<()> {
        if let Some(c) = cond {
            let d = self.get("return_if", c)?;
            if d.ty != Type::Scalar(DType::I1) || d.layout.is_some() {
                return Err(CodegenError::InvalidType {
                    op: "return_if",
                    expected: "a scalar i1 condition (every thread of the CTA must agree)".into(),
                    value: d.describe(),
                });
            }
        }
        Ok(())
    }
}
