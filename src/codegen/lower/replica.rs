//! Where this thread's copy of a shared allocation lies: allocations made inside a replicated
//! warp role have a copy per replica.

use inkwell::values::IntValue;

/// Where a thread's copy of a shared allocation lies: allocations made inside a replicated
/// warp role have a copy per replica, `stride` bytes apart, and `index` is the replica this
/// thread runs (inside a role).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Replica<'ctx> {
    pub stride: Option<u64>,
    pub index: Option<IntValue<'ctx>>,
}
