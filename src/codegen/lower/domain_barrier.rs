//! The barrier between writing an op's scratch and reading it: the barrier of the thread domain
//! being lowered (the CTA's, or a warp role's own, `LowerCtx::domain_barrier`).

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;

impl LowerCtx<'_> {
    /// The current domain's barrier, counted in the report as one barrier of the op being
    /// lowered.
    pub(crate) fn scratch_barrier(&mut self) -> Result<()> {
        self.ensure_body()?;
        self.report.barrier();
        self.domain_barrier()
    }
}
