//! What lowering needs of the warp roles: each declared role's plan (decided when it is
//! recorded) and the view of the role being lowered. Data only, so the lowering context can
//! hold it without importing the lowerings that use it.

use inkwell::values::IntValue;

/// What lowering needs of the warp role being built: the replica this thread runs (of a
/// replicated role: its shared allocations have a copy per replica) and the role's barrier.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RoleView<'ctx> {
    /// The replica index, when the role has more than one replica.
    pub replica: Option<IntValue<'ctx>>,
    /// Threads per replica (what the role's barrier waits for).
    pub threads: u32,
    /// The first hardware barrier id of the role's barriers (one per replica), once the
    /// builder took them for a [`barrier`](crate::codegen::KernelBuilder::barrier) in the role.
    pub barrier: Option<u32>,
}

/// What lowering needs of a declared role, decided when it is recorded: where its warps start,
/// its spec, the launch's registers a thread (for `setmaxnreg`), and its barrier ids once a
/// [`barrier`](crate::codegen::KernelBuilder::barrier) in it took them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RolePlan {
    /// The role's first warp in the CTA.
    pub first_warp: u32,
    /// Warps, replicas and register budget.
    pub spec: crate::codegen::ir::attrs::WarpRole,
    /// Registers a thread the launch gives.
    pub launch_registers: u32,
    /// The first of its barrier ids (one per replica).
    pub barrier: Option<u32>,
}
