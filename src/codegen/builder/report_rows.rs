//! The report's rows as the facade opens and closes them: one row per outermost reported call,
//! named by the caller's line or a [`label`](KernelBuilder::label), given to the recorded op
//! it was made for (`record.rs`). The figures themselves are added by lowering, through the
//! context's report sink; which rows are the kernel's, and in which body, the program says.

use crate::codegen::builder::KernelBuilder;

impl<'ctx> KernelBuilder<'ctx> {
    /// Names the next recorded op in the [report](crate::codegen::Kernel::report) (instead of
    /// its Rust source location): `kb.label("load Q"); let q = kb.load(...)?;`.
    pub fn label(&mut self, name: &str) {
        // The label is for the next op recorded; it reaches the report when that op is
        // lowered (read from the program).
        self.rec.pending_label = Some(name.to_string());
    }
}
