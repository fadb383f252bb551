//! Asynchronous copies from global to shared memory (`cp.async`, sm_80+), as Gluon's tutorial 03:
//! [`async_copy_global_to_shared`](KernelBuilder::async_copy_global_to_shared) starts the copies,
//! [`async_commit_group`](KernelBuilder::async_commit_group) closes the group of copies started
//! since the last commit, and [`async_wait_group`](KernelBuilder::async_wait_group) waits until at
//! most `n` groups of this thread are still in flight. A multi-stage pipeline keeps `stages - 1`
//! groups in flight while it computes on the oldest one.
//!
//! Each thread copies its own registers' elements: the pointer tile's layout says which global
//! addresses a thread reads, the shared layout where they land (`S⁻¹ ∘ R`, as for
//! `store_shared`). Registers `r, …, r+v-1` move as one `cp.async` of `v` elements when they are
//! consecutive in both memories (and the mask is constant over them): the width is the smaller of
//! the global vector plan (`load`'s) and the shared contiguity, at most 16 bytes. A masked-off
//! vector is the zero-fill form (`src-size` 0): nothing is read and zeros land in shared memory,
//! so out-of-bounds rows and columns of a tile read as zeros. `cp.async` moves 4, 8 or 16 bytes;
//! where fewer consecutive bytes are known (an odd row stride of f16), the copy is a plain masked
//! load and shared store instead, complete when the op returns (a later wait is then a no-op for
//! it), so a kernel specialised for any shape stays correct. Registers holding copies of an
//! element are skipped, and of the threads holding copies (a layout broadcast over lanes or
//! warps) only the first copies it, as in Triton: the others see it after the wait and a
//! [`barrier`](KernelBuilder::barrier), like any other thread's copy.

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::shared_offsets::plain_vector;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind};
use crate::codegen::lower::async_copy::copy_width;
use crate::codegen::lower::values::{Value, ValueData, ValueKind};
use crate::codegen::target::{Feature, LlvmTarget};
use crate::codegen::types::{DType, Type};

impl<'ctx> KernelBuilder<'ctx> {
    /// Starts copying `*ptrs` (a tile of global pointers, any distributed layout) into the
    /// shared buffer `desc` of the same shape and element type, elementwise; where `mask` is
    /// false the shared element becomes zero and global memory is not read. The copy is
    /// asynchronous: commit it ([`async_commit_group`](Self::async_commit_group)), wait for it
    /// ([`async_wait_group`](Self::async_wait_group)), then [`barrier`](Self::barrier) before
    /// other threads read the buffer. After the wait alone each thread may read back what it
    /// copied itself: a [`load_shared`](Self::load_shared) in `ptrs`' layout (no element held
    /// twice). Needs sm_80 (see the [module docs](self)).
    #[track_caller]
    pub fn async_copy_global_to_shared(
        &mut self,
        desc: Value,
        ptrs: Value,
        mask: Option<Value>,
    ) -> Result<()> {
        self.record_checked(
            OpKind::AsyncCopy {
                has_mask: mask.is_some(),
            },
            [
                Some(Arg::from(desc)),
                Some(Arg::from(ptrs)),
                mask.map(Arg::from),
            ]
            .into_iter()
            .flatten()
            .collect(),
            |kb| kb.async_copy_checked(desc, ptrs, mask),
        )
    }

    /// Checks a copy (lowered from the record by `lower/async_copy.rs`).
    fn async_copy_checked(&mut self, desc: Value, ptrs: Value, mask: Option<Value>) -> Result<()> {
        const OP: &str = "async_copy_global_to_shared";
        self.lx.target.require(Feature::CpAsync, OP)?;
        let d = self.shared_desc(OP, desc)?;
        let (p, elem) = self.pointer_operand(OP, ptrs)?;
        if p.is_scalar() {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "a tile of global pointers".into(),
                value: p.describe(),
            });
        }
        if p.shape != d.shape {
            return Err(CodegenError::ShapeMismatch {
                op: OP,
                lhs: d.describe(),
                rhs: p.describe(),
            });
        }
        if d.ty != Type::Scalar(elem) {
            return Err(CodegenError::TypeMismatch {
                op: OP,
                lhs: d.describe(),
                rhs: p.describe(),
            });
        }
        if elem == DType::I1 {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "pointers to numbers (i1 is stored as bytes: copy i8)".into(),
                value: p.describe(),
            });
        }
        let m = self.mask_operand(OP, mask)?;
        let mut ops: Vec<&ValueData> = vec![&p];
        ops.extend(m.iter().map(|x| &**x));
        let u = self.unify_plan(OP, &ops)?;
        if u.shape != d.shape {
            return Err(CodegenError::ShapeMismatch {
                op: OP,
                lhs: d.describe(),
                rhs: m.as_ref().map_or_else(|| p.describe(), |x| x.describe()),
            });
        }
        let layout = u.layout.clone().expect("a tile");
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        let offsets = self.lx.buffer_offsets(OP, &layout, &buf.layout)?;
        let plan = self
            .lx
            .plan(&layout, &u.infos[0], m.as_ref().map(|_| &u.infos[1]), elem);
        let shared_vec = plain_vector(&offsets, &buf.padding, elem) as usize;
        let vec = copy_width(plan.vec, shared_vec, &buf.padding);
        if vec as u64 * elem.mem_bytes() < 4 {
            // Too narrow for cp.async: lowered as a load and a shared store (module docs),
            // whose tile the load's checks make.
            self.load_checked(ptrs, mask, None)?;
        }
        Ok(())
    }

    /// Closes the group of asynchronous copies this thread started since the last commit
    /// (`cp.async.commit_group`) and returns a token for it. Needs sm_80.
    #[track_caller]
    pub fn async_commit_group(&mut self) -> Result<Value> {
        self.record_checked(OpKind::AsyncCommitGroup, vec![], |kb| {
            kb.async_commit_group_impl()
        })
    }

    fn async_commit_group_impl(&mut self) -> Result<Value> {
        const OP: &str = "async_commit_group";
        self.lx.target.require(Feature::CpAsync, OP)?;
        self.start_body()?;
        let scope = self.lx.values.scope();
        Ok(self.lx.values.push(ValueData {
            kind: ValueKind::AsyncToken,
            ty: Type::Scalar(DType::I32),
            shape: Vec::new(),
            layout: None,
            regs: Vec::new(),
            info: AxisInfo::scalar(1),
            scope,
            literal: None,
            shared: None,
        }))
    }

    /// Waits until at most `pending` of this thread's committed copy groups are still in flight
    /// (`cp.async.wait_group pending`; 0 waits for all). Other threads' copies are visible only
    /// after a [`barrier`](Self::barrier) that follows the wait. Needs sm_80.
    #[track_caller]
    pub fn async_wait_group(&mut self, pending: u32) -> Result<()> {
        self.record_checked(OpKind::AsyncWaitGroup(pending), vec![], |kb| {
            kb.async_wait_group_impl(pending)
        })
    }

    fn async_wait_group_impl(&mut self, pending: u32) -> Result<()> {
        const OP: &str = "async_wait_group";
        self.lx.target.require(Feature::CpAsync, OP)?;
        // PTX takes the count as an immediate; ptxas accepts 0..=7 groups outstanding.
        if pending > 7 {
            return Err(CodegenError::arg(
                OP,
                format!("pending = {pending}: cp.async.wait_group takes 0..=7"),
            ));
        }
        self.start_body()?;
        Ok(())
    }
}
