//! Index arithmetic as lowering emits it: the context's entry points to its
//! [`IndexCse`](crate::codegen::lower::index_cse::IndexCse) (known bits, shared index
//! instructions).

use inkwell::values::IntValue;

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;

/// The index arithmetic of lowering, through the context's index CSE.
impl<'ctx> LowerCtx<'ctx> {
    /// Records that `v` may set only the bits of `maybe` (and how it splits).
    pub(crate) fn note_bits(
        &mut self,
        v: IntValue<'ctx>,
        maybe: u64,
        split: Option<(IntValue<'ctx>, u64)>,
    ) {
        self.cse.note_bits(v, maybe, split)
    }

    /// Whether `v`'s sign bit is known to be clear.
    pub(crate) fn non_negative(&self, v: IntValue<'ctx>) -> bool {
        self.cse.non_negative(v)
    }

    /// `a + b` (wrapping), as [`IndexCse::int_add`](crate::codegen::lower::index_cse::IndexCse::int_add) emits it.
    pub(crate) fn int_add(
        &mut self,
        a: IntValue<'ctx>,
        b: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        self.cse.int_add(&self.em.b, a, b)
    }

    /// `a * b` (wrapping), as [`IndexCse::int_mul`](crate::codegen::lower::index_cse::IndexCse::int_mul) emits it.
    pub(crate) fn int_mul(
        &mut self,
        a: IntValue<'ctx>,
        b: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        self.cse.int_mul(&self.em.b, a, b)
    }
}
