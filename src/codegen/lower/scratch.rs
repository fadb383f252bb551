//! An op's shared-memory scratch as its checks placed it (a conversion's round trip, a
//! reduction's or a scan's partials), and the barrier of the thread domain the op runs in.
//!
//! Where scratch goes, whether reusing it owes a barrier, and which hardware barrier a warp role
//! synchronises on are the builder's bookkeeping (the allocator, the roles): the op's method
//! decides them when it records the op and hands them to lowering here, so lowering never asks
//! the builder.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;

/// Scratch bytes an op was given.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scratch {
    /// Byte offset in the kernel's shared memory.
    pub offset: u64,
    /// Bytes.
    pub bytes: u64,
    /// Whether a barrier must come before the first write (the bytes were read by an earlier
    /// op, or the op sits in a loop body whose previous iteration reads them).
    pub fence_first: bool,
    /// Bytes between the replicas' copies (inside a replicated warp role).
    pub replica_stride: Option<u64>,
}

impl LowerCtx<'_> {
    /// The barrier between writing an op's scratch and reading it: the current domain's
    /// (`domain_barrier`), counted in the report as one barrier of the op being lowered.
    pub(crate) fn scratch_barrier(&mut self) -> Result<()> {
        self.ensure_body()?;
        self.report.barrier();
        self.domain_barrier()
    }
}
