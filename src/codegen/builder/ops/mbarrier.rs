//! mbarriers: barriers in shared memory that count arrivals and bytes (sm_80+; byte counts for
//! TMA need sm_90), and the fences that order generic-proxy writes before async-proxy reads.
//!
//! A barrier completes a *phase* when its expected arrivals have arrived and the bytes it was
//! told to expect have landed; the phase bit then flips. A waiter passes the parity of the phase
//! it waits for (0 for the first), so a ring of barriers is driven by a counter: stage `i % S`,
//! parity `(i / S) & 1`. This is Gluon's `mbarrier` module.
//!
//! [`alloc_mbarriers`](KernelBuilder::alloc_mbarriers) allocates and initialises an array of
//! barriers; [`mbarrier_at`](KernelBuilder::mbarrier_at) picks one (by a run-time index);
//! [`mbarrier_expect`](KernelBuilder::mbarrier_expect), [`mbarrier_arrive`](KernelBuilder::mbarrier_arrive)
//! and [`mbarrier_wait`](KernelBuilder::mbarrier_wait) drive it.

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind};
use crate::codegen::lower::values::{Value, ValueData, ValueKind};
use crate::codegen::target::nvptx::mbarrier::MBARRIER_BYTES;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::{DType, Type};
use crate::target::Feature;

impl<'ctx> KernelBuilder<'ctx> {
    /// Allocates `count` mbarriers, each expecting `arrivals` arrivals per phase, and initialises
    /// them (thread 0 writes them; a fence and a CTA barrier make them visible to every thread and
    /// to the async proxy). Call it where every thread of the CTA arrives, like
    /// [`barrier`](Self::barrier). Returns the array (pick one with
    /// [`mbarrier_at`](Self::mbarrier_at); an array of one is a barrier itself).
    #[track_caller]
    pub fn alloc_mbarriers(&mut self, count: u32, arrivals: u32) -> Result<Value> {
        self.record_checked(OpKind::AllocMbarriers { count, arrivals }, vec![], |kb| {
            kb.alloc_mbarriers_checked(count, arrivals)
        })
    }

    /// Checks the request and places the array (initialised when it is lowered, by
    /// `lower/shared_ops.rs`).
    fn alloc_mbarriers_checked(&mut self, count: u32, arrivals: u32) -> Result<Value> {
        const OP: &str = "alloc_mbarriers";
        self.start_body()?;
        self.lx.target.require(Feature::Mbarrier, OP)?;
        if self.in_a_role() {
            return Err(CodegenError::arg(
                OP,
                "inside a warp role: allocate mbarriers before the roles, where every thread of the \
                 CTA sees them initialised",
            ));
        }
        if count == 0 || arrivals == 0 || arrivals >= 1 << 20 {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "count {count}, arrivals {arrivals}: need at least one barrier and 1 to 2^20-1 arrivals"
                ),
            ));
        }
        let (_, place) =
            self.buffer_alloc(OP, u64::from(count) * MBARRIER_BYTES, MBARRIER_BYTES)?;
        // The barrier after the initialisation fences what was freed before it.
        self.barrier_checked()?;
        let scope = self.lx.values.scope();
        let v = self.lx.values.push(ValueData {
            kind: ValueKind::Barrier,
            ty: Type::Scalar(DType::I64),
            shape: vec![u64::from(count)],
            layout: None,
            regs: Vec::new(),
            info: AxisInfo::scalar(1),
            scope,
            literal: None,
            shared: None,
        });
        self.lx.placements.insert(v.index, place);
        Ok(v)
    }

    /// Barrier `index` (an `i32` scalar or a Rust integer) of the array `bars`. Indices past the
    /// array are not checked at run time; a constant one is checked here.
    #[track_caller]
    pub fn mbarrier_at(
        &mut self,
        bars: Value,
        index: impl crate::codegen::IntoOperand,
    ) -> Result<Value> {
        let index = index.into_operand();
        self.record_checked(OpKind::MbarrierAt, vec![bars.into(), index.into()], |kb| {
            kb.mbarrier_at_checked(bars, index)
        })
    }

    /// Checks the array and the index and makes the barrier's descriptor (lowered from the
    /// record by `lower/program.rs`).
    fn mbarrier_at_checked(
        &mut self,
        bars: Value,
        index: impl crate::codegen::IntoOperand,
    ) -> Result<Value> {
        const OP: &str = "mbarrier_at";
        let d = self.get_kind(OP, bars, &[ValueKind::Barrier], "an mbarrier array")?;
        let idx = self.i32_checked(OP, index.into_operand(), "index")?;
        // A constant index (a literal, or a value LLVM folded to one) is checked against the size.
        if let Some(c) = idx.known_int() {
            if c < 0 || c as u64 >= d.shape[0] {
                return Err(CodegenError::arg(
                    OP,
                    format!("index {c} of an array of {} barriers", d.shape[0]),
                ));
            }
        }
        let scope = self.lx.values.scope();
        Ok(self.lx.values.push(ValueData {
            kind: ValueKind::Barrier,
            ty: d.ty,
            shape: vec![1],
            layout: None,
            regs: Vec::new(),
            info: AxisInfo::scalar(1),
            scope,
            literal: None,
            shared: None,
        }))
    }

    /// Checks that `bar` is a single barrier (not an array) on a target with mbarriers.
    pub(crate) fn mbarrier_checked(
        &mut self,
        op: &'static str,
        bar: Value,
    ) -> Result<std::rc::Rc<crate::codegen::lower::values::ValueData<'ctx>>> {
        self.lx.target.require(Feature::Mbarrier, op)?;
        let d = self.get_kind(op, bar, &[ValueKind::Barrier], "an mbarrier")?;
        if d.shape != [1] {
            return Err(CodegenError::arg(
                op,
                format!(
                    "an array of {} barriers: pick one with mbarrier_at",
                    d.shape[0]
                ),
            ));
        }
        Ok(d)
    }

    /// Thread 0 arrives on `bar` and tells it to expect `bytes` more bytes from asynchronous
    /// copies this phase (`mbarrier.arrive.expect_tx`): issue it before the copies that it counts.
    /// `pred` (an `i1` scalar), when given, must also hold.
    #[track_caller]
    pub fn mbarrier_expect(&mut self, bar: Value, bytes: u32, pred: Option<Value>) -> Result<()> {
        self.record_checked(
            OpKind::MbarrierExpect {
                bytes,
                has_pred: pred.is_some(),
            },
            [Some(Arg::from(bar)), pred.map(Arg::from)]
                .into_iter()
                .flatten()
                .collect(),
            |kb| kb.mbarrier_expect_checked(bar, pred),
        )
    }

    fn mbarrier_expect_checked(&mut self, bar: Value, pred: Option<Value>) -> Result<()> {
        const OP: &str = "mbarrier_expect";
        self.lx.target.require(Feature::Tma, OP)?;
        self.mbarrier_checked(OP, bar)?;
        self.issuer_checked(OP, pred)?;
        Ok(())
    }

    /// Checks the optional issue predicate `pred` (an `i1` scalar).
    pub(crate) fn issuer_checked(
        &mut self,
        op: &'static str,
        pred: Option<Value>,
    ) -> Result<Option<std::rc::Rc<crate::codegen::lower::values::ValueData<'ctx>>>> {
        let Some(pred) = pred else {
            return Ok(None);
        };
        let d = self.get_kind(op, pred, &[ValueKind::Scalar], "an i1 scalar predicate")?;
        if d.ty != Type::Scalar(DType::I1) {
            return Err(CodegenError::InvalidType {
                op,
                expected: "an i1 scalar predicate".into(),
                value: d.describe(),
            });
        }
        Ok(Some(d))
    }

    /// Every thread that executes it arrives once on `bar` (so a barrier that every thread of a
    /// warpgroup releases is allocated with 128 arrivals).
    #[track_caller]
    pub fn mbarrier_arrive(&mut self, bar: Value) -> Result<()> {
        self.record_checked(OpKind::MbarrierArrive, vec![bar.into()], |kb| {
            kb.mbarrier_arrive_impl(bar)
        })
    }

    fn mbarrier_arrive_impl(&mut self, bar: Value) -> Result<()> {
        const OP: &str = "mbarrier_arrive";
        self.mbarrier_checked(OP, bar)?;
        Ok(())
    }

    /// Waits until the phase of `bar` with parity `phase` (an `i32` scalar or integer: 0, 1, 0, …)
    /// has completed (`mbarrier.try_wait.parity` in a loop). What the phase's copies wrote to
    /// shared memory is then visible to the waiting threads.
    #[track_caller]
    pub fn mbarrier_wait(
        &mut self,
        bar: Value,
        phase: impl crate::codegen::IntoOperand,
    ) -> Result<()> {
        let phase = phase.into_operand();
        self.record_checked(
            OpKind::MbarrierWait { issuer: false },
            vec![bar.into(), phase.into()],
            |kb| kb.wait_phase("mbarrier_wait", bar, phase),
        )
    }

    /// [`mbarrier_wait`](Self::mbarrier_wait) in thread 0 only, the thread that issues TMA copies:
    /// a producer waits this way for consumers to release a stage (they
    /// [`mbarrier_arrive`](Self::mbarrier_arrive)) before refilling it, and no other thread stalls.
    /// A fresh barrier counts its phase of parity 1 as complete, so a first wait with parity 1
    /// passes at once.
    #[track_caller]
    pub fn mbarrier_wait_issuer(
        &mut self,
        bar: Value,
        phase: impl crate::codegen::IntoOperand,
    ) -> Result<()> {
        let phase = phase.into_operand();
        self.record_checked(
            OpKind::MbarrierWait { issuer: true },
            vec![bar.into(), phase.into()],
            |kb| kb.wait_phase("mbarrier_wait_issuer", bar, phase),
        )
    }

    fn wait_phase(
        &mut self,
        op: &'static str,
        bar: Value,
        phase: impl crate::codegen::IntoOperand,
    ) -> Result<()> {
        self.mbarrier_checked(op, bar)?;
        self.i32_checked(op, phase.into_operand(), "phase parity")?;
        Ok(())
    }

    /// Invalidates every barrier of `bars` (thread 0), so their shared memory may be reused.
    /// Every use must be over: call it after a [`barrier`](Self::barrier).
    #[track_caller]
    pub fn mbarrier_invalidate(&mut self, bars: Value) -> Result<()> {
        self.record_checked(OpKind::MbarrierInvalidate, vec![bars.into()], |kb| {
            kb.mbarrier_invalidate_impl(bars)
        })
    }

    fn mbarrier_invalidate_impl(&mut self, bars: Value) -> Result<()> {
        const OP: &str = "mbarrier_invalidate";
        self.lx.target.require(Feature::Mbarrier, OP)?;
        self.get_kind(OP, bars, &[ValueKind::Barrier], "an mbarrier array")?;
        Ok(())
    }

    /// `fence.proxy.async.shared::cta`: orders this thread's earlier shared-memory writes (and
    /// reads) before later asynchronous-proxy accesses (a TMA store reading a buffer the threads
    /// just wrote, wgmma reading an operand stored with `store_shared`). Follow it with a
    /// [`barrier`](Self::barrier) when other threads wrote the data.
    #[track_caller]
    pub fn fence_async_shared(&mut self) -> Result<()> {
        self.record_checked(OpKind::FenceAsyncShared, vec![], |kb| {
            kb.fence_async_shared_impl()
        })
    }

    fn fence_async_shared_impl(&mut self) -> Result<()> {
        const OP: &str = "fence_async_shared";
        self.start_body()?;
        self.lx.target.require(Feature::Tma, OP)?;
        Ok(())
    }
}
