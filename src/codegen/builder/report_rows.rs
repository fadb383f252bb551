//! The report's rows as the facade opens and closes them: one row per outermost reported call,
//! named by the caller's line or a [`label`](KernelBuilder::label), given to the recorded op
//! it was made for (`record.rs`). The figures themselves are added by lowering, through the
//! context's report sink; which rows are the kernel's, and in which body, the program says.

use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::Result;
use crate::codegen::ir::Loc;
use crate::codegen::lower::values::Value;
use crate::codegen::report::{RowStart, Subject};

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

    /// Runs `f`, the body of op `op` called at `at` on `subject`, and records its figures as
    /// one row when it is the outermost recorded op and succeeds.
    pub(crate) fn reported<T>(
        &mut self,
        op: &'static str,
        at: Loc,
        subject: Option<Value>,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        let start = self.lx.report.open().then(|| RowStart {
            op,
            at,
            subject: subject.and_then(|v| {
                self.lx
                    .values
                    .peek("report", v)
                    .ok()
                    .map(|d| Subject::of(d))
            }),
        });
        let r = f(self);
        let warps = self.lx.num_warps;
        self.lx.report.close(start, r.is_ok(), warps);
        r
    }
}
