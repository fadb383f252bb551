//! A report row around the lowering of one recorded op: the figures lowering adds while it runs
//! become the op's row (the builder opens rows the same way around the ops its methods lower).

use crate::codegen::error::Result;
use crate::codegen::ir::Loc;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::values::ValueData;
use crate::codegen::report::{RowStart, Subject};

impl<'ctx> LowerCtx<'ctx> {
    /// Runs `f`, the lowering of op `op` called at `at` on `subject`, and records its figures as
    /// one row when no row is open around it and it succeeds.
    pub(crate) fn report_row<T>(
        &mut self,
        op: &'static str,
        at: Loc,
        subject: Option<&ValueData<'ctx>>,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        let start = self.report.open().then(|| RowStart {
            op,
            at,
            subject: subject.map(Subject::of),
        });
        let r = f(self);
        let warps = self.num_warps;
        self.report.close(start, r.is_ok(), warps);
        r
    }
}
