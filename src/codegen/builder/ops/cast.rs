//! Casts among i1, i8, i16, i32, i64, f16, bf16, f32, f64, and fp8 e4m3 / e5m2 (sm_90).
//!
//! Integers are signed (i1 is unsigned: true is 1). Float to integer truncates toward zero; to
//! i1 tests `!= 0`. f16 ↔ bf16 goes through f32. fp8 conversions use the PTX `cvt` instructions
//! for e4m3x2/e5m2x2 pairs (round to nearest, saturating to the finite range), one element per
//! pair.

use crate::codegen::analysis::operand_feeds::{cast_info, check_cast};
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::values::Value;
use crate::codegen::types::{DType, Type};

impl<'ctx> KernelBuilder<'ctx> {
    /// `x` converted to `to` elementwise.
    #[track_caller]
    pub fn cast(&mut self, x: Value, to: DType) -> Result<Value> {
        self.record_checked(OpKind::Cast(to), vec![x.into()], |kb| kb.cast_impl(x, to))
    }

    fn cast_impl(&mut self, x: Value, to: DType) -> Result<Value> {
        let d = self.get("cast", x)?;
        let Type::Scalar(from) = d.ty else {
            return Err(CodegenError::InvalidType {
                op: "cast",
                expected: "a number (pointers cannot be cast)".into(),
                value: d.describe(),
            });
        };
        check_cast(self.lx.target, from, to)?;
        let info = cast_info(&d.info, from, to);
        Ok(self.lx.values.new_value(
            Type::Scalar(to),
            d.shape.clone(),
            d.layout.clone(),
            vec![],
            info,
        ))
    }
}
