//! The report's rows as the facade opens and closes them: one row per outermost reported call,
//! named by the caller's line or a [`label`](KernelBuilder::label), given to the recorded op
//! it was made for (`record.rs`). The figures themselves are added by lowering, through the
//! context's report sink; which rows are the kernel's, and in which body, the program says.

use crate::codegen::builder::KernelBuilder;

impl<'ctx> KernelBuilder<'ctx> {
    /// Names the next recorded op in the [report](crate::codegen::Kernel::report) (instead of
    /// its Rust source location): `kb.label("load Q"); let q = kb.load(...)?;`.
    pub fn label(&mut self, name: &str) {
        // The label is for the next op: ops recorded before it are lowered (their rows made)
        // first. An error lowering one is kept and returned by the next call.
        // Inside a body lowered with its loop or branch, the label reaches the report when
        // its op is lowered (`lower/program_control.rs` reads it from the program).
        if !self.rec.in_deferred_body() {
            let _ = self.lower_recorded();
            self.lx.report.set_label(name);
        }
        self.rec.pending_label = Some(name.to_string());
    }

}
