//! Lowering of global atomics: a read-modify-write or compare-and-swap per element this thread
//! owns (copies take the value of the register they repeat), under the mask, acquire-release
//! at device scope; each returns the old values. A scalar atomic is performed once, by the
//! first thread of the CTA (or warp role), and its old value handed to every thread.

use std::sync::Arc;

use inkwell::values::{BasicValueEnum, PointerValue};
use inkwell::AtomicOrdering;
use llvm_sys::LLVMAtomicOrdering as Ordering;
use llvm_sys::LLVMAtomicRMWBinOp as Bin;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::Result;
use crate::codegen::ir::attrs::AtomicOp;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::scratch::Scratch;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::DType;

impl<'ctx> LowerCtx<'ctx> {
    /// `op` of `vals` into `*ptrs` (elements of `elem`, in `layout`; `None` for a scalar)
    /// where `mask` holds; the old values (zero where masked off).
    pub(crate) fn atomic_rmw_regs(
        &mut self,
        op: AtomicOp,
        elem: DType,
        layout: &Option<Arc<TileLayout>>,
        ptrs: &[BasicValueEnum<'ctx>],
        vals: &[BasicValueEnum<'ctx>],
        mask: Option<&[BasicValueEnum<'ctx>]>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let bin = match (op, elem.is_float()) {
            (AtomicOp::Add, false) => Bin::LLVMAtomicRMWBinOpAdd,
            (AtomicOp::Add, true) => Bin::LLVMAtomicRMWBinOpFAdd,
            (AtomicOp::Min, false) => Bin::LLVMAtomicRMWBinOpMin,
            (AtomicOp::Min, true) => Bin::LLVMAtomicRMWBinOpFMin,
            (AtomicOp::Max, false) => Bin::LLVMAtomicRMWBinOpMax,
            (AtomicOp::Max, true) => Bin::LLVMAtomicRMWBinOpFMax,
            (AtomicOp::And, _) => Bin::LLVMAtomicRMWBinOpAnd,
            (AtomicOp::Or, _) => Bin::LLVMAtomicRMWBinOpOr,
            (AtomicOp::Xor, _) => Bin::LLVMAtomicRMWBinOpXor,
            (AtomicOp::Xchg, _) => Bin::LLVMAtomicRMWBinOpXchg,
        };
        let zero = elem.llvm(self.em.ctx).const_zero();
        // Where the back end would drop the ordering, the thread's accesses before the op are
        // released and those after it acquire, by a fence on each side.
        let fences = self.target.lowering().fences_read_modify_write();
        let ssid = self.device_scope();
        if fences {
            self.em.fence(Ordering::LLVMAtomicOrderingRelease, ssid);
        }
        let old = self.per_element_atomic(layout, ptrs, mask, zero, |lx, i, ptr| {
            // `vals[i]` has the pointee's type (the op method checked it).
            Ok(lx.em.atomic_rmw_acq_rel(bin, ptr, vals[i], ssid))
        })?;
        if fences {
            self.em.fence(Ordering::LLVMAtomicOrderingAcquire, ssid);
        }
        Ok(old)
    }

    /// `*ptrs = (*ptrs == cmps) ? vals : *ptrs` (integers of `elem`, in `layout`) where `mask`
    /// holds; the old values (zero where masked off).
    pub(crate) fn atomic_cas_regs(
        &mut self,
        elem: DType,
        layout: &Option<Arc<TileLayout>>,
        ptrs: &[BasicValueEnum<'ctx>],
        cmps: &[BasicValueEnum<'ctx>],
        vals: &[BasicValueEnum<'ctx>],
        mask: Option<&[BasicValueEnum<'ctx>]>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let zero = elem.llvm(self.em.ctx).const_zero();
        self.per_element_atomic(layout, ptrs, mask, zero, |lx, i, ptr| {
            let r = lx.em.b.build_cmpxchg(
                ptr,
                cmps[i].into_int_value(),
                vals[i].into_int_value(),
                AtomicOrdering::AcquireRelease,
                AtomicOrdering::Monotonic,
            )?;
            let ssid = lx.device_scope();
            lx.em.set_sync_scope(r, ssid);
            Ok(lx.em.b.build_extract_value(r, 0, "")?)
        })
    }

    /// `v`, which the first thread (of the CTA, or of the warp role) alone holds, in every
    /// thread: written to `slot` by that thread and read back by all after a barrier.
    pub(crate) fn broadcast_first_thread(
        &mut self,
        v: BasicValueEnum<'ctx>,
        elem: DType,
        slot: Scratch,
    ) -> Result<BasicValueEnum<'ctx>> {
        self.report.scratch(slot.bytes);
        if slot.fence_first {
            self.scratch_barrier()?;
        }
        let rep = self.replica_at(slot.replica_stride);
        let at = self.smem_offset_in(slot.offset, rep)?;
        let ptr = self.smem_at(at)?;
        let first = self.first_thread()?;
        let mv = self.in_mem_form(v, elem)?;
        self.guarded(Some(first), None, |lx| {
            lx.em.b.build_store(ptr, mv)?;
            Ok(None)
        })?;
        self.scratch_barrier()?;
        let x = self.em.b.build_load(elem.llvm_mem(self.em.ctx), ptr, "")?;
        self.out_of_mem_form(x, elem)
    }

    /// Runs `emit` once per element this thread owns (skipping copies), under the mask.
    fn per_element_atomic(
        &mut self,
        layout: &Option<Arc<TileLayout>>,
        ptrs: &[BasicValueEnum<'ctx>],
        mask: Option<&[BasicValueEnum<'ctx>]>,
        zero: BasicValueEnum<'ctx>,
        mut emit: impl FnMut(
            &mut LowerCtx<'ctx>,
            usize,
            PointerValue<'ctx>,
        ) -> Result<BasicValueEnum<'ctx>>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let (reg_free, rep) = match layout {
            Some(l) => (l.free_masks().0, self.representative(l)?),
            None => (0, None),
        };
        let mut out: Vec<BasicValueEnum> = Vec::with_capacity(ptrs.len());
        for i in 0..ptrs.len() {
            if i as u64 & reg_free != 0 {
                // A copy within this thread: take the value of the register it repeats, when
                // that register holds the same element (a zero basis), else zero.
                let l = layout.as_ref().expect("tile");
                let c = l.reg_coord(i);
                let same = (0..i).find(|&j| l.reg_coord(j) == c && j as u64 & reg_free == 0);
                out.push(same.map(|j| out[j]).unwrap_or(zero));
                continue;
            }
            let ptr = ptrs[i].into_pointer_value();
            let pred = self.and_pred(mask.map(|m| m[i].into_int_value()), rep)?;
            let v = self
                .guarded(pred, Some(zero), |lx| emit(lx, i, ptr).map(Some))?
                .expect("atomic yields");
            out.push(v);
        }
        Ok(out)
    }
}
