//! Warp specialisation: a kernel's warps split into *roles* that run different code (a producer
//! warpgroup issuing TMA copies, consumer warpgroups issuing wgmma), each with its own register
//! budget (`setmaxnreg`) and its own barriers; and named barriers, which let roles hand turns to
//! each other (FlashAttention-3's ping-pong of two consumer warpgroups).
//!
//! [`warp_roles`](KernelBuilder::warp_roles) declares the split once: roles take consecutive
//! warps, in order, and together every warp of the kernel. [`in_role`](KernelBuilder::in_role)
//! emits a role's code, run by its warps only. Inside, the role is the CTA as far as the builder
//! is concerned: [`num_warps`](KernelBuilder::num_warps) is the role's, tile layouts distribute
//! over the role's warps (its first warp is warp 0), the issuing thread of TMA copies and
//! mbarrier set-ups is the role's first thread, and [`barrier`](KernelBuilder::barrier) (also
//! inside `convert_layout` and cross-warp reductions) synchronises the role's threads only
//! (`bar.sync id, n` with an id of its own). A role may be *replicated*: `k` copies of `w` warps
//! run the same code (emitted once), each laying out its tiles over its own `w` warps;
//! [`role_replica`](KernelBuilder::role_replica) says which copy runs. Shared memory allocated
//! inside a replicated role (buffers, and the scratch of conversions, reductions and scans) has
//! a copy per replica, so replicas running side by side never share it.
//!
//! A kernel whose warp count is not a power of two (12 warps: a producer warpgroup and two
//! consumers) lays out tiles only inside roles, whose warp counts are powers of two.
//!
//! Register budgets: the launch gives every thread the same count, at most
//! `⌊65536 / threads⌋` rounded down to 8 (168 for 384 threads); a role with `max_regs` moves its
//! warpgroups to that count at entry (`setmaxnreg.dec` below the launch count, `.inc` above), so
//! a producer at 24 frees registers for consumers at 240. The roles' budgets must fit the
//! register file.

use crate::codegen::builder::roles::ActiveRole;
pub use crate::codegen::builder::roles::{NamedBarriers, Role};
pub use crate::codegen::ir::attrs::WarpRole;
use crate::codegen::lower::role_view::RolePlan;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::values::Value;
use crate::codegen::target::{Feature, LlvmTarget};
use crate::codegen::types::DType;

/// Registers per SM (and so per CTA at most) on every NVIDIA target the builder knows.
const REGISTER_FILE: u32 = 65536;

impl<'ctx> KernelBuilder<'ctx> {
    /// Splits the kernel's warps into `roles`, in order: the first role takes warps
    /// `0..w₀·k₀`, the next the following ones, and together they take every warp. Returns a
    /// handle per role. Checked here: each role's warps a power of two, replicas ≥ 1, roles
    /// of whole warpgroups (4 warps per replica) starting on a warpgroup; register budgets on
    /// sm_90a, whole warpgroups, 24 to 256 in steps of 8, and all of them within the register
    /// file. NVIDIA only (roles synchronise through named barriers). Declared once per kernel.
    #[track_caller]
    pub fn warp_roles(&mut self, roles: &[WarpRole]) -> Result<Vec<Role>> {
        self.record_checked(OpKind::WarpRoles(roles.to_vec()), vec![], |kb| {
            kb.warp_roles_impl(roles)
        })
    }

    fn warp_roles_impl(&mut self, roles: &[WarpRole]) -> Result<Vec<Role>> {
        const OP: &str = "warp_roles";
        self.start_body()?;
        let bad = |reason: String| CodegenError::arg(OP, reason);
        if !self.lx.target.lowering().has_named_barriers() {
            return Err(CodegenError::Unsupported {
                op: OP,
                target: self.lx.target.to_string(),
                reason:
                    "warp roles synchronise through named barriers (`bar.sync id, n`): NVIDIA only"
                        .into(),
            });
        }
        if !self.roles.declared.is_empty() {
            return Err(bad("the kernel's roles are declared already".into()));
        }
        if self.roles.active.is_some() {
            return Err(bad("called inside a role".into()));
        }
        if roles.is_empty() {
            return Err(bad("no roles".into()));
        }
        let ws = self.lx.threads_per_warp();
        let cap = self.launch_registers();
        let mut first = 0u32;
        let mut budget = 0u64;
        let mut out = Vec::with_capacity(roles.len());
        for (i, r) in roles.iter().enumerate() {
            let at = format!("role {i} ({} warps × {} replicas)", r.warps, r.replicas);
            if r.warps == 0 || !r.warps.is_power_of_two() {
                return Err(bad(format!("{at}: warps must be a power of two")));
            }
            if r.replicas == 0 {
                return Err(bad(format!("{at}: at least one replica")));
            }
            if r.warps.is_multiple_of(4) && !first.is_multiple_of(4) {
                return Err(bad(format!(
                    "{at}: starts at warp {first}; a role of whole warpgroups starts on one"
                )));
            }
            if let Some(n) = r.max_regs {
                self.lx.target.require(Feature::SetMaxNReg, OP)?;
                if r.warps % 4 != 0 {
                    return Err(bad(format!(
                        "{at}: a register budget applies to whole warpgroups (4 warps per replica)"
                    )));
                }
                if !(24..=256).contains(&n) || n % 8 != 0 {
                    return Err(bad(format!(
                        "{at}: max_regs {n} must be 24 to 256 in steps of 8"
                    )));
                }
            }
            let warps = u64::from(r.warps) * u64::from(r.replicas);
            budget += warps * u64::from(ws) * u64::from(r.max_regs.unwrap_or(cap));
            out.push(Role {
                kernel: self.lx.values.kernel_id(),
                index: i,
                first_warp: first,
                spec: *r,
            });
            first = u64::from(first)
                .checked_add(warps)
                .filter(|&w| w <= u64::from(self.lx.kernel_warps))
                .ok_or_else(|| {
                    bad(format!(
                        "the roles take more than the kernel's {} warps",
                        self.lx.kernel_warps
                    ))
                })? as u32;
        }
        if first != self.lx.kernel_warps {
            return Err(bad(format!(
                "the roles take {first} warps, the kernel has {}",
                self.lx.kernel_warps
            )));
        }
        if budget > u64::from(REGISTER_FILE) {
            return Err(bad(format!(
                "the roles' registers ({budget}: threads × max_regs, {cap} per thread where \
                 unset) exceed the register file ({REGISTER_FILE})"
            )));
        }
        self.roles.declared = out.clone();
        self.roles.role_barriers = vec![None; out.len()];
        let launch_registers = self.launch_registers();
        self.lx.role_plans = out
            .iter()
            .map(|r| RolePlan {
                first_warp: r.first_warp,
                spec: r.spec,
                launch_registers,
                barrier: None,
            })
            .collect();
        Ok(out)
    }

    /// Registers per thread the launch gives: the register file over the CTA's threads, rounded
    /// down to 8, at most 255 and at most the kernel's limit (what ptxas assumes at entry of a
    /// kernel using `setmaxnreg`).
    fn launch_registers(&self) -> u32 {
        let per = REGISTER_FILE / (self.lx.kernel_warps * self.lx.threads_per_warp());
        let cap = (per / 8 * 8).min(255);
        self.max_registers.map_or(cap, |m| cap.min(m))
    }

    /// Whether [`warp_roles`](Self::warp_roles) was called.
    pub(crate) fn roles_declared(&self) -> bool {
        !self.roles.declared.is_empty()
    }

    /// Emits `body` as the code of `role`: only the role's warps run it, with the builder's view
    /// narrowed to the role (see the module docs). Values made inside stay inside. Not nested.
    #[track_caller]
    pub fn in_role(
        &mut self,
        role: Role,
        body: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.record_checked_with_regions(OpKind::InRole(role.index), vec![], 1, |kb, bodies| {
            kb.in_role_check(role, |kb| kb.in_region(bodies.get(0), &[], body))
        })
    }

    /// Whether `role` is one of this kernel's declared roles, and not inside another.
    fn check_role(&self, role: Role) -> Result<()> {
        const OP: &str = "in_role";
        if role.kernel != self.lx.values.kernel_id()
            || self.roles.declared.get(role.index) != Some(&role)
        {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "role {} was not declared by this kernel's warp_roles",
                    role.index
                ),
            ));
        }
        if self.roles.active.is_some() {
            return Err(CodegenError::arg(OP, "roles do not nest"));
        }
        Ok(())
    }

    /// The checks of a role lowered from its record (`lower/program_control.rs`): its body is
    /// recorded with the builder's view narrowed to the role (its warps lay out its tiles, its
    /// shared allocations have a copy per replica), as the then-arm of a branch only the
    /// role's threads take.
    fn in_role_check(
        &mut self,
        role: Role,
        body: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.check_role(role)?;
        let launch = self.launch_registers();
        if let Some(p) = self.lx.role_plans.get_mut(role.index) {
            p.launch_registers = launch;
        }
        let inside = self.lx.values.new_value(
            crate::codegen::types::Type::Scalar(DType::I1),
            vec![],
            None,
            vec![],
            AxisInfo::scalar(1),
        );
        let then_ = |kb: &mut Self| {
            let outer_warps = std::mem::replace(&mut kb.lx.num_warps, role.spec.warps);
            kb.roles.active = Some(ActiveRole { role });
            kb.smem
                .enter_role(role.index, u64::from(role.spec.replicas));
            let r = body(kb);
            kb.roles.active = None;
            kb.smem.leave_role();
            kb.lx.num_warps = outer_warps;
            r.map(|_| vec![])
        };
        self.if_check(inside, then_, Some(|_: &mut Self| Ok(vec![])))
            .map(|_| ())
    }

    /// Which replica of the current role runs (an `i32` scalar, 0 for a role of one replica).
    #[track_caller]
    pub fn role_replica(&mut self) -> Result<Value> {
        self.record_checked(OpKind::RoleReplica, vec![], |kb| kb.role_replica_impl())
    }

    fn role_replica_impl(&mut self) -> Result<Value> {
        let Some(a) = self.roles.active else {
            return Err(CodegenError::arg(
                "role_replica",
                "only inside a role (in_role)",
            ));
        };
        let mut info = AxisInfo::scalar(1);
        if a.role.spec.replicas == 1 {
            info = AxisInfo::constant(0, &[]);
        }
        Ok(self.lx.values.new_value(
            crate::codegen::types::Type::Scalar(DType::I32),
            vec![],
            None,
            vec![],
            info,
        ))
    }

    /// Whether the builder is inside a role (ops that must see the whole CTA refuse to run there).
    pub(crate) fn in_a_role(&self) -> bool {
        self.roles.active.is_some()
    }

    /// `count` hardware barriers, each completing once `warps` warps' threads have reached it
    /// (by [`named_barrier_sync`](Self::named_barrier_sync) or
    /// [`named_barrier_arrive`](Self::named_barrier_arrive)). A CTA has 15 besides barrier 0;
    /// roles that call [`barrier`](Self::barrier) take one per replica too.
    #[track_caller]
    pub fn alloc_named_barriers(&mut self, count: u32, warps: u32) -> Result<NamedBarriers> {
        self.record_checked(OpKind::AllocNamedBarriers { count, warps }, vec![], |kb| {
            kb.alloc_named_barriers_impl(count, warps)
        })
    }

    fn alloc_named_barriers_impl(&mut self, count: u32, warps: u32) -> Result<NamedBarriers> {
        const OP: &str = "alloc_named_barriers";
        self.start_body()?;
        if !self.lx.target.lowering().has_named_barriers() {
            return Err(CodegenError::Unsupported {
                op: OP,
                target: self.lx.target.to_string(),
                reason: "named barriers (`bar.sync id, n`) are NVIDIA's".into(),
            });
        }
        if count == 0 || warps == 0 || warps > self.lx.kernel_warps {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "count {count}, warps {warps}: at least one barrier of 1 to {} warps",
                    self.lx.kernel_warps
                ),
            ));
        }
        let first = self.roles.take_ids(OP, count)?;
        let bars = NamedBarriers {
            kernel: self.lx.values.kernel_id(),
            first,
            count,
            threads: warps * self.lx.threads_per_warp(),
        };
        self.roles.named.push(bars);
        Ok(bars)
    }

    /// Waits at barrier `index` of `bars` until its thread count has arrived (this warp's
    /// threads included): `bar.sync`.
    #[track_caller]
    pub fn named_barrier_sync(
        &mut self,
        bars: NamedBarriers,
        index: impl crate::codegen::IntoOperand,
    ) -> Result<()> {
        let index = index.into_operand();
        self.record_checked(
            OpKind::NamedBarrierSync {
                first: bars.first,
                threads: bars.threads,
            },
            vec![index.into()],
            |kb| kb.named_barrier_checked("named_barrier_sync", bars, index),
        )
    }

    /// Counts this warp's threads at barrier `index` of `bars` without waiting: `bar.arrive`.
    #[track_caller]
    pub fn named_barrier_arrive(
        &mut self,
        bars: NamedBarriers,
        index: impl crate::codegen::IntoOperand,
    ) -> Result<()> {
        let index = index.into_operand();
        self.record_checked(
            OpKind::NamedBarrierArrive {
                first: bars.first,
                threads: bars.threads,
            },
            vec![index.into()],
            |kb| kb.named_barrier_checked("named_barrier_arrive", bars, index),
        )
    }

    /// Checks a named barrier's set and index (the `bar` is lowered from the record).
    fn named_barrier_checked(
        &mut self,
        op: &'static str,
        bars: NamedBarriers,
        index: impl crate::codegen::IntoOperand,
    ) -> Result<()> {
        self.start_body()?;
        if bars.kernel != self.lx.values.kernel_id() {
            return Err(CodegenError::arg(
                op,
                "the barriers belong to another kernel",
            ));
        }
        let idx = self.i32_checked(op, index.into_operand(), "index")?;
        if let Some(k) = idx.known_int() {
            if k < 0 || k >= i64::from(bars.count) {
                return Err(CodegenError::arg(
                    op,
                    format!("index {k}: the array has {} barriers", bars.count),
                ));
            }
        }
        Ok(())
    }

    /// Takes the current role's barrier ids (one per replica) on its first
    /// [`barrier`](Self::barrier), so the barrier's lowering finds them in the context.
    pub(crate) fn take_role_barrier(&mut self) -> Result<()> {
        let Some(a) = self.roles.active else {
            return Ok(());
        };
        let i = a.role.index;
        let first = match self.roles.role_barriers[i] {
            Some(f) => f,
            None => {
                let f = self.roles.take_ids("barrier", a.role.spec.replicas)?;
                self.roles.role_barriers[i] = Some(f);
                f
            }
        };
        if let Some(r) = self.lx.role.as_mut() {
            r.barrier = Some(first);
        }
        if let Some(p) = self.lx.role_plans.get_mut(i) {
            p.barrier = Some(first);
        }
        Ok(())
    }
}
