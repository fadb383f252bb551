//! An op's shared-memory scratch as its checks placed it (a conversion's round trip, a
//! reduction's or a scan's partials), and the barrier of the thread domain the op runs in.
//!
//! Where scratch goes, whether reusing it owes a barrier, and which hardware barrier a warp role
//! synchronises on are the builder's bookkeeping (the allocator, the roles): the op's method
//! decides them when it records the op and hands them to lowering here, so lowering never asks
//! the builder.

use inkwell::values::IntValue;

use crate::codegen::lower::replica::Replica;

/// The barrier that orders shared-memory accesses of every thread running an op.
#[derive(Debug, Clone, Copy)]
pub(crate) enum DomainBarrier<'ctx> {
    /// The CTA's barrier 0.
    Cta,
    /// A warp role's own hardware barrier (`first`, plus the replica when the role has
    /// several), completing when `threads` threads arrive.
    Role {
        first: u32,
        replica: Option<IntValue<'ctx>>,
        threads: u32,
    },
}

/// Scratch bytes an op was given.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scratch<'ctx> {
    /// Byte offset in the kernel's shared memory.
    pub offset: u64,
    /// Bytes.
    pub bytes: u64,
    /// Whether a barrier must come before the first write (the bytes were read by an earlier
    /// op, or the op sits in a loop body whose previous iteration reads them).
    pub fence_first: bool,
    /// This thread's copy of the bytes (inside a replicated warp role).
    pub replica: Replica<'ctx>,
    /// The barrier between writing and reading them.
    pub barrier: DomainBarrier<'ctx>,
}
