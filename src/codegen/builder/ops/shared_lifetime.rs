//! How long shared memory lives: `free_shared` (a user gives a buffer's bytes back), the
//! scratch of ops (a conversion's round trip, a reduction's and a scan's partials: taken when
//! the op starts, given back when it returns), and the barriers reuse owes.
//!
//! The allocator ([`SharedMemory`](crate::codegen::builder::shared_mem::SharedMemory)) decides
//! where bytes go and whether reusing them owes a barrier; this file is where the builder asks it
//! and emits that barrier. A buffer's barrier is emitted when it is allocated (before anything
//! can write it); an op's scratch reports the debt and the op folds it into the barrier it
//! already emits before its first write (inside a loop body, where the previous iteration's
//! reads of the same scratch need one anyway), so reuse never adds a second barrier in a row.

use crate::codegen::builder::shared_mem::SharedAlloc;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::placement::Placement;
use crate::codegen::lower::scratch::Scratch;
use crate::codegen::lower::values::Value;

impl<'ctx> KernelBuilder<'ctx> {
    /// Gives the bytes of the buffer `desc` back to the allocator: later buffers and op scratch
    /// may reuse them, so the kernel's `shared_bytes` is the peak of what is live at once, not
    /// the sum. `desc` must be the descriptor [`alloc_shared`](Self::alloc_shared) (or
    /// [`alloc_shared_buffers`](Self::alloc_shared_buffers)) returned, freed in the loop or
    /// branch body (and warp role) it was allocated in; afterwards it and every view of it are
    /// [`CodegenError::FreedShared`] in any op.
    ///
    /// The next user of the bytes synchronises with this one's readers by itself (a barrier
    /// before its first write, emitted only where no barrier has passed since the free). Inside
    /// a loop body the bytes serve only after the loop (the next iteration writes the buffer
    /// again). Asynchronous writes into the buffer (`cp.async`, TMA) must have completed before
    /// the free: wait on their group or mbarrier first, as before reading them.
    #[track_caller]
    pub fn free_shared(&mut self, desc: Value) -> Result<()> {
        self.record_checked(OpKind::FreeShared, vec![desc.into()], |kb| {
            kb.free_shared_checked(desc)
        })
    }

    /// Gives the bytes back (allocator bookkeeping only: the op emits nothing).
    fn free_shared_checked(&mut self, desc: Value) -> Result<()> {
        const OP: &str = "free_shared";
        let d = self.shared_desc(OP, desc)?;
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        if buf.view {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "{} is a view (index, slice, permute, reshape or reinterpret): free the \
                     descriptor alloc_shared returned",
                    d.describe()
                ),
            ));
        }
        let scope = self.lx.values.scope();
        self.smem.free(OP, buf.alloc, scope, &d.describe(), true)
    }

    /// Bytes for a buffer (or mbarriers) of `op`, and where its lowering finds them: when
    /// reusing them owes a barrier, the barrier is taken here (its ids, the bytes it fences)
    /// and emitted by the allocation's lowering, reported at the allocation's line.
    pub(crate) fn buffer_alloc(
        &mut self,
        op: &'static str,
        bytes: u64,
        align: u64,
    ) -> Result<(SharedAlloc, Placement)> {
        let a = self.smem.alloc(op, bytes, align, self.lx.values.scope())?;
        let fence = if a.fence {
            self.barrier_checked()?;
            Some(self.rec.caller())
        } else {
            None
        };
        let place = Placement {
            offset: a.offset,
            fence,
        };
        Ok((a, place))
    }

    /// Scratch for `op`: the caller emits a barrier before its first write if `fence` is set
    /// (or it is inside a loop body), and gives the scratch back with
    /// [`scratch_free`](Self::scratch_free) once its last read is emitted.
    pub(crate) fn scratch_alloc(
        &mut self,
        op: &'static str,
        bytes: u64,
        align: u64,
    ) -> Result<SharedAlloc> {
        self.smem.alloc(op, bytes, align, self.lx.values.scope())
    }

    /// Scratch of `bytes` for `op`, an op lowered from its record whose lowering emits at least
    /// one barrier of the current domain while the scratch is live (and one before its first
    /// write when [`Scratch::fence_first`] says so). The allocator sees all of it now, as if
    /// the op were lowered here: the bytes taken, the op's barrier, and, when `give_back`, the
    /// bytes returned.
    pub(crate) fn place_scratch(
        &mut self,
        op: &'static str,
        bytes: u64,
        align: u64,
        give_back: bool,
    ) -> Result<Scratch> {
        let a = self.scratch_alloc(op, bytes, align)?;
        // Inside a warp role, the op's barrier is the role's: its ids are taken now.
        self.take_role_barrier()?;
        let scratch = Scratch {
            offset: a.offset,
            bytes,
            fence_first: a.fence || self.lx.values.scope() != 0,
            replica_stride: self.smem.replica_stride(a.offset),
        };
        self.note_barrier();
        if give_back {
            self.scratch_free(op, a)?;
        }
        Ok(scratch)
    }

    /// Gives `op`'s scratch back: the next op may reuse it (after a barrier).
    pub(crate) fn scratch_free(&mut self, op: &'static str, a: SharedAlloc) -> Result<()> {
        let scope = self.lx.values.scope();
        self.smem.free(op, a.id, scope, "the op's scratch", false)
    }

    /// Records that a barrier of the current domain (the CTA's, or the warp role's) was just
    /// emitted: freed bytes it orders become reusable without another.
    pub(crate) fn note_barrier(&mut self) {
        let scope = self.lx.values.scope();
        let values = &self.lx.values;
        self.smem.fenced(scope, |s| !values.is_open(s));
    }

    /// Fails if `desc`'s allocation has been freed.
    pub(crate) fn check_live(
        &self,
        op: &'static str,
        d: &crate::codegen::lower::values::ValueData<'ctx>,
    ) -> Result<()> {
        match &d.shared {
            Some(buf) if self.smem.is_freed(buf.alloc) => Err(CodegenError::FreedShared {
                op,
                value: d.describe(),
            }),
            _ => Ok(()),
        }
    }
}
