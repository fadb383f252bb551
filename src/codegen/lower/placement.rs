//! Where the allocator put an allocation op's result (decided when the op is recorded), as its
//! lowering reads it: data only, so the lowering context can hold it without importing the
//! lowerings that use it.

use crate::codegen::ir::Loc;

/// Where the allocator put an allocation op's result, as its lowering needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placement {
    /// Byte offset in the CTA's shared memory.
    pub offset: u64,
    /// When the bytes were freed by an earlier user with no barrier since: the line the
    /// barrier that must come first is reported at.
    pub fence: Option<Loc>,
}
