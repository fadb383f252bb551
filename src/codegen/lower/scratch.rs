//! An op's shared-memory scratch as its checks placed it (a conversion's round trip, a
//! reduction's or a scan's partials).
//!
//! Where scratch goes and whether reusing it owes a barrier are the allocator's bookkeeping: the
//! op's method decides them when it records the op and hands them to lowering here, so lowering
//! never asks the builder. Which copy a replicated warp role's thread uses, and which barrier
//! orders the accesses, are the role being lowered's (`LowerCtx::role`).

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
