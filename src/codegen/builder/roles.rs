//! Warp roles as the builder keeps them: the declared roles (`Copy` handles), the role being
//! built, and the hardware barrier ids handed out (to roles and to named-barrier arrays).

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::WarpRole;

/// Hardware barriers per CTA; id 0 is the CTA-wide [`barrier`](crate::codegen::KernelBuilder::barrier).
pub(crate) const HW_BARRIERS: u32 = 16;

/// A declared role of one kernel: a `Copy` handle for [`in_role`](crate::codegen::KernelBuilder::in_role).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Role {
    pub(crate) kernel: u32,
    pub(crate) index: usize,
    pub(crate) first_warp: u32,
    pub(crate) spec: WarpRole,
}

impl Role {
    /// The role's first warp in the CTA.
    pub fn first_warp(&self) -> u32 {
        self.first_warp
    }

    /// Warps per replica.
    pub fn warps(&self) -> u32 {
        self.spec.warps
    }

    /// Copies of the role.
    pub fn replicas(&self) -> u32 {
        self.spec.replicas
    }
}

/// Hardware barriers `first..first + count`, each completing when `threads` threads have
/// arrived (synced or arrived): a `Copy` handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamedBarriers {
    pub(crate) kernel: u32,
    pub(crate) first: u32,
    pub(crate) count: u32,
    pub(crate) threads: u32,
}

/// The role the builder is inside.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ActiveRole {
    pub(crate) role: Role,
}

/// The kernel's declared roles, the one being built, and the hardware barriers handed out.
#[derive(Debug, Default)]
pub(crate) struct WarpRoles {
    pub(crate) declared: Vec<Role>,
    /// Each declared role's barrier ids for [`barrier`](crate::codegen::KernelBuilder::barrier) (one per
    /// replica), taken on its first use.
    pub(crate) role_barriers: Vec<Option<u32>>,
    pub(crate) active: Option<ActiveRole>,
    /// Ids taken so far (id 0 is the CTA barrier's).
    pub(crate) next_id: u32,
    /// The named-barrier sets handed out, so a loop body recorded again from its record finds
    /// the sets made before the loop.
    pub(crate) named: Vec<NamedBarriers>,
}

impl WarpRoles {
    pub(crate) fn take_ids(&mut self, op: &'static str, count: u32) -> Result<u32> {
        let first = self.next_id.max(1);
        if first + count > HW_BARRIERS {
            return Err(CodegenError::arg(
                op,
                format!(
                    "{count} more barrier ids: a CTA has {} besides barrier 0, {} are taken",
                    HW_BARRIERS - 1,
                    first - 1
                ),
            ));
        }
        self.next_id = first + count;
        Ok(first)
    }
}
