//! Lowering of `cp.async` copies from global to shared memory: one copy of `bytes` per vector
//! of registers this thread owns, a masked-off vector copying zero bytes (so its destination is
//! zero-filled). Where fewer than 4 consecutive bytes are known, a load and a shared store.

use inkwell::values::{BasicValueEnum, IntValue};

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::CacheHint;
use crate::codegen::ir::{Op, OpKind};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::elementwise::unify_plan;
use crate::codegen::lower::shared_ops::desc_buf;
use crate::codegen::lower::values::ValueData;
use crate::codegen::target::nvptx::cp_async as ptx;

/// The width (registers per copy) of a `cp.async` copy: the global vector plan's, the shared
/// contiguity's (`shared_vec`) and, in a padded buffer, at most the smallest padding (a copy's
/// shared address must be aligned to its size; padding of fewer elements than the vector would
/// shift the vectors after it).
pub(crate) fn copy_width(global_vec: usize, shared_vec: usize, padding: &[(u64, u64)]) -> usize {
    let pad_align = padding
        .iter()
        .map(|&(_, pad)| 1usize << pad.trailing_zeros())
        .min()
        .unwrap_or(usize::MAX);
    global_vec.min(shared_vec).min(pad_align)
}

impl<'ctx> LowerCtx<'ctx> {
    /// Lowers a recorded `async_copy_global_to_shared` (operands `[desc, ptrs, mask?]`): one
    /// `cp.async` per vector, or, where fewer than 4 consecutive bytes are known, a load and a
    /// shared store (the method's docs).
    pub(crate) fn lower_async_copy(&mut self, op: &Op, has_mask: bool) -> Result<()> {
        const OP: &str = "async_copy_global_to_shared";
        let d = self.op_operand(op, 0)?;
        let p = self.op_operand(op, 1)?;
        let m = has_mask.then(|| self.op_operand(op, 2)).transpose()?;
        let elem = p
            .ty
            .pointee()
            .ok_or_else(|| CodegenError::arg(OP, format!("{} is not a pointer", p.describe())))?;
        self.report_row(OP, op.loc, Some(&p), |lx| {
            let mut ds: Vec<&ValueData> = vec![&p];
            ds.extend(m.as_deref());
            let u = unify_plan(OP, &ds, lx.threads_per_warp(), lx.num_warps)?;
            let layout = u
                .layout
                .clone()
                .ok_or_else(|| CodegenError::arg(OP, "a copy of scalars"))?;
            let buf = desc_buf(&d)?;
            let offsets = lx.buffer_offsets(OP, &layout, &buf.layout)?;
            let acc = lx.desc_access_at(offsets, &d)?;
            let plan = lx.plan(&layout, &u.infos[0], m.as_ref().map(|_| &u.infos[1]), elem);
            let vec = copy_width(plan.vec, acc.vec, &buf.padding);
            let bytes = vec as u64 * elem.mem_bytes();
            if bytes < 4 {
                // Too narrow for cp.async: a load and a shared store, done when the op is.
                let load = Op {
                    kind: OpKind::Load {
                        hint: CacheHint::Default,
                        has_mask,
                        has_other: false,
                    },
                    args: op.args[1..].to_vec(),
                    results: Vec::new(),
                    loc: op.loc,
                    regions: Vec::new(),
                };
                let regs = lx.lower_load(&load)?;
                return lx.store_tile(&d, &layout, &regs);
            }
            let pick = |v: &ValueData<'ctx>, plan: &[usize]| -> Vec<BasicValueEnum<'ctx>> {
                plan.iter().map(|&i| v.regs[i]).collect()
            };
            let src = pick(&p, &u.plans[0]);
            let mask_regs = m.as_ref().map(|v| pick(v, &u.plans[1]));
            let (reg_free, _, _) = layout.free_masks();
            let copies = (0..layout.num_regs())
                .step_by(vec)
                .filter(|&g| g as u64 & reg_free == 0)
                .count() as u64;
            lx.report
                .global(vec as u64, elem.mem_bytes(), copies, mask_regs.is_some());
            lx.cp_async_copies(&src, &acc.addrs, mask_regs.as_deref(), vec, &layout, bytes)
        })
    }

    /// A `cp.async` of `bytes` from `src[g]` to shared byte offset `dst[g]` for every `vec`-th
    /// register `g` of `layout` that is not a copy of another, sized by `mask[g]` when masked,
    /// issued only by the first of the threads holding the same elements (as Triton).
    pub(crate) fn cp_async_copies(
        &mut self,
        src: &[BasicValueEnum<'ctx>],
        dst: &[IntValue<'ctx>],
        mask: Option<&[BasicValueEnum<'ctx>]>,
        vec: usize,
        layout: &TileLayout,
        bytes: u64,
    ) -> Result<()> {
        let (reg_free, _, _) = layout.free_masks();
        let rep = self.representative(layout)?;
        for g in (0..src.len()).step_by(vec) {
            if g as u64 & reg_free != 0 {
                continue; // a copy of an element this thread copies from another register
            }
            let to = self.smem_at(dst[g])?;
            let size = match mask {
                None => None,
                Some(regs) => Some(ptx::masked_size(&self.em, regs[g].into_int_value(), bytes)?),
            };
            ptx::copy(&self.em, to, src[g], bytes, size, rep)?;
        }
        Ok(())
    }
}
