//! Emitting the barrier of an op's thread domain (the CTA's, or a warp role's own), which the
//! op's method chose when it recorded the op.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::scratch::DomainBarrier;
use crate::codegen::target::LlvmTarget;

impl<'ctx> LowerCtx<'ctx> {
    /// Emits `b`, counted in the report as one barrier of the op being lowered.
    pub(crate) fn domain_barrier(&mut self, b: DomainBarrier<'ctx>) -> Result<()> {
        self.ensure_body()?;
        self.report.barrier();
        match b {
            DomainBarrier::Cta => self.target.lowering().barrier(&self.em),
            DomainBarrier::Role {
                first,
                replica,
                threads,
            } => self.bar_from("sync", first, replica, threads),
        }
    }
}
