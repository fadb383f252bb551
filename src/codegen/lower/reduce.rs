//! Lowering of reductions' butterfly step: a value of any element type from lane `lane ^ mask`.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::types::DType;
use inkwell::values::{BasicValueEnum, IntValue};

impl<'ctx> LowerCtx<'ctx> {
    /// `v` of lane `lane ^ mask`, any element type (moved as one or two 32-bit words).
    pub(crate) fn shuffle_xor_value(
        &mut self,
        v: BasicValueEnum<'ctx>,
        elem: DType,
        mask: u32,
        lane: IntValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        self.shuffle_value(v, elem, lane, |(em, lowering), lane, word| {
            lowering.shuffle_xor(em, word, mask, lane)
        })
    }
}
