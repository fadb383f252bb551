//! Lowering of warp roles: a role's thread index and replica, the register limit `setmaxnreg`
//! needs, and named barriers.

use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::target::nvptx::roles as ptx;
use inkwell::values::IntValue;

impl<'ctx> LowerCtx<'ctx> {
    /// A barrier of the current domain: the role's (replica's) `bar.sync id, n` inside a warp
    /// role, the CTA's otherwise.
    pub(crate) fn domain_barrier(&mut self) -> Result<()> {
        match self.role {
            Some(r) => {
                let first = r.barrier.ok_or_else(|| {
                    crate::codegen::error::CodegenError::arg(
                        "barrier",
                        "the role's barrier ids were not taken",
                    )
                })?;
                self.bar_from("sync", first, r.replica, r.threads)
            }
            None => {
                use crate::codegen::target::LlvmTarget;
                self.target.lowering().barrier(&self.em)
            }
        }
    }

    /// `bar.{kind} id, threads;` (see [`ptx::named_barrier`]).
    pub(crate) fn bar(&mut self, kind: &str, id: IntValue<'ctx>, threads: u32) -> Result<()> {
        ptx::named_barrier(&self.em, kind, id, threads)
    }

    /// [`bar`](Self::bar) at hardware barrier `first + index` (`first` when there is no index):
    /// a barrier of a named-barrier array, or a role replica's own.
    pub(crate) fn bar_from(
        &mut self,
        kind: &str,
        first: u32,
        index: Option<IntValue<'ctx>>,
        threads: u32,
    ) -> Result<()> {
        let first = self.em.ctx.i32_type().const_int(u64::from(first), false);
        let id = match index {
            None => first,
            Some(i) => self.em.b.build_int_add(i, first, "")?,
        };
        self.bar(kind, id, threads)
    }

    /// Whether this thread is in a role whose `span` threads start at thread `first`, its index
    /// in its replica (replicas of `per_replica` threads each) and its replica, computed once in
    /// the prologue (so the role's thread coordinates, also emitted there, can use them).
    pub(crate) fn role_threads(
        &mut self,
        first: u32,
        span: u32,
        per_replica: u32,
        replicas: u32,
    ) -> Result<(IntValue<'ctx>, IntValue<'ctx>, IntValue<'ctx>)> {
        let tid = self.thread_index()?;
        let i32t = self.em.ctx.i32_type();
        let c = |x: u32| i32t.const_int(u64::from(x), false);
        let (inside, rel, replica) = self.in_prologue(|b| {
            let off = if first == 0 {
                tid
            } else {
                b.build_int_sub(tid, c(first), "role.tid")?
            };
            let inside = b.build_int_compare(inkwell::IntPredicate::ULT, off, c(span), "")?;
            let (rel, replica) = if replicas == 1 {
                (off, i32t.const_zero())
            } else {
                let rel = b.build_and(off, c(per_replica - 1), "")?;
                let rep = b.build_right_shift(off, c(per_replica.trailing_zeros()), false, "")?;
                (rel, rep)
            };
            Ok((inside, rel, replica))
        })?;
        self.note_bits(rel, u64::from(per_replica - 1), None);
        Ok((inside, rel, replica))
    }

    /// States the launch's `regs` registers per thread as the kernel's limit: ptxas moves
    /// registers between warpgroups only when it knows the count at entry (otherwise C7508,
    /// "setmaxnreg ignored").
    pub(crate) fn state_register_limit(&mut self, regs: u32) {
        let f = self.em.func();
        f.add_attribute(
            inkwell::attributes::AttributeLoc::Function,
            self.em
                .ctx
                .create_string_attribute("nvvm.maxnreg", &regs.to_string()),
        );
    }
}
