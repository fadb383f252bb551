//! Lowering of the shared-memory ops from their record: a buffer's allocation (the barrier its
//! reuse owes), a buffer of a ring, a tile written to or read from a buffer, and the barrier.
//!
//! The builder's methods placed the buffers (the allocator runs when an op is recorded, so
//! offsets never depend on the order of emission) and checked the operands; what is left here
//! is the addresses and the moves. A descriptor's start is its allocation's offset, this
//! thread's copy of it inside a replicated warp role, or the run-time offset a view holds.

use inkwell::values::IntValue;

use crate::codegen::analysis::shared_offsets::offset_layout;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, Loc, Op};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::placement::Placement;
use crate::codegen::lower::shared::{padded, Replica, SharedAccess};
use crate::codegen::lower::values::{SharedBuf, ValueData};
use crate::codegen::types::{DType, Type};

impl<'ctx> LowerCtx<'ctx> {
    /// A barrier of the current domain (the CTA's, or the warp role's), reported as a
    /// `barrier` row at `at`.
    pub(crate) fn lower_barrier(&mut self, at: Loc) -> Result<()> {
        self.report_row("barrier", at, None, |lx| {
            lx.ensure_body()?;
            lx.report.barrier();
            lx.domain_barrier()
        })
    }

    /// The barrier an allocation (result 0 of `op`) owes before its first write, if its bytes
    /// were freed with no barrier since; returns where the allocator put it.
    pub(crate) fn lower_alloc(&mut self, op: &Op) -> Result<Placement> {
        let id = op.results.first().ok_or_else(|| no_result(op))?;
        let place = self.placements.get(&id.0).copied().ok_or_else(|| {
            CodegenError::arg(
                "lower",
                format!("{:?}: the allocation was not placed", op.kind),
            )
        })?;
        if let Some(at) = place.fence {
            self.lower_barrier(at)?;
        }
        Ok(place)
    }

    /// `alloc_mbarriers`: the array (result 0 of `op`) initialised by thread 0 and made
    /// visible to every thread by a CTA barrier; returns its offset, as its descriptor holds it.
    pub(crate) fn lower_alloc_mbarriers(
        &mut self,
        op: &Op,
        count: u32,
        arrivals: u32,
    ) -> Result<IntValue<'ctx>> {
        let place = self.lower_alloc(op)?;
        let base = self.mbarriers_init(place.offset, arrivals, count)?;
        self.lower_barrier(op.loc)?;
        Ok(base)
    }

    /// Where this thread's copy of `buf`'s allocation lies.
    pub(crate) fn replica_of(&self, buf: &SharedBuf) -> Replica<'ctx> {
        self.replica_at(buf.stride)
    }

    /// This thread's copy of an allocation whose replicas lie `stride` bytes apart (inside a
    /// replicated warp role): the role's replica index, from the role being lowered.
    pub(crate) fn replica_at(&self, stride: Option<u64>) -> Replica<'ctx> {
        Replica {
            stride,
            index: self.role.and_then(|r| r.replica),
        }
    }

    /// The byte offset (in `weft_smem`) where descriptor `d`'s buffer starts for this thread:
    /// the allocation's, or the run-time offset of a view.
    pub(crate) fn desc_start(&self, d: &ValueData<'ctx>) -> Result<IntValue<'ctx>> {
        match d.regs.first() {
            Some(r) => Ok(r.into_int_value()),
            None => {
                let buf = desc_buf(d)?;
                self.smem_offset_in(buf.base, self.replica_of(buf))
            }
        }
    }

    /// The addresses of the registers of tile layout `layout` in the buffer of descriptor `d`.
    pub(crate) fn desc_access(
        &mut self,
        op: &'static str,
        layout: &TileLayout,
        d: &ValueData<'ctx>,
    ) -> Result<SharedAccess<'ctx>> {
        let offsets = self.buffer_offsets(op, layout, &desc_buf(d)?.layout)?;
        self.desc_access_at(offsets, d)
    }

    /// (register, lane, warp) → element offset of the registers of a tile in `layout`, over the
    /// scope's warps, in a buffer laid out by `shared` (`S⁻¹ ∘ R`); an error if the two do not
    /// hold the same elements.
    pub(crate) fn buffer_offsets(
        &self,
        op: &'static str,
        layout: &TileLayout,
        shared: &crate::layout::LinearLayout,
    ) -> Result<TileLayout> {
        offset_layout(op, layout, shared, self.threads_per_warp(), self.num_warps)
    }

    /// The addresses of the registers of `offsets` ((register, lane, warp) → element offset) in
    /// the buffer of descriptor `d`, a view's run-time base included.
    pub(crate) fn desc_access_at(
        &mut self,
        offsets: TileLayout,
        d: &ValueData<'ctx>,
    ) -> Result<SharedAccess<'ctx>> {
        let buf = desc_buf(d)?;
        let elem = elem_of(d.ty);
        match d.regs.first() {
            None => {
                let rep = self.replica_of(buf);
                self.shared_access_at(offsets, &buf.padding, buf.base, elem, rep)
            }
            Some(base) => {
                // The view's offset already holds this thread's copy.
                let whole = Replica {
                    stride: None,
                    index: None,
                };
                let mut acc = self.shared_access_at(offsets, &buf.padding, 0, elem, whole)?;
                self.rebase(&mut acc, base.into_int_value())?;
                Ok(acc)
            }
        }
    }

    /// `index_shared`: the byte offset of buffer `index` (operand 1) of the ring `desc`
    /// (operand 0), the view's run-time base.
    pub(crate) fn lower_index_shared(&mut self, op: &Op) -> Result<IntValue<'ctx>> {
        let d = self.op_operand(op, 0)?;
        let buf = desc_buf(&d)?;
        let sub: u64 = d.shape.iter().skip(1).product();
        let stride = padded(sub, &buf.padding) * elem_of(d.ty).mem_bytes();
        let index = self.int_arg(op, 1)?;
        let base = self.desc_start(&d)?;
        self.element_offset(base, index, stride)
    }

    /// `store_shared`: the tile (operand 1) written into the buffer of `desc` (operand 0), each
    /// element once, by `stmatrix` where that moves more per instruction.
    pub(crate) fn lower_store_shared(&mut self, op: &Op) -> Result<()> {
        const OP: &str = "store_shared";
        let d = self.op_operand(op, 0)?;
        let t = self.op_operand(op, 1)?;
        let layout = t.layout.clone().ok_or_else(|| not_a_tile(op, &t))?;
        self.report_row(OP, op.loc, Some(&d), |lx| {
            lx.store_tile(&d, &layout, &t.regs)
        })
    }

    /// The registers `regs` of a tile in `layout` written into the buffer of `d`, each element
    /// once, by `stmatrix` where that moves more per instruction.
    pub(crate) fn store_tile(
        &mut self,
        d: &ValueData<'ctx>,
        layout: &TileLayout,
        regs: &[inkwell::values::BasicValueEnum<'ctx>],
    ) -> Result<()> {
        const OP: &str = "store_shared";
        let elem = elem_of(d.ty);
        if let Some(plan) = self.stmatrix_plan(OP, layout, d, elem)? {
            let addrs = self.matrix_addresses(OP, &plan)?;
            let acc = self.desc_access_at(addrs, d)?;
            return self.emit_stmatrix(&plan, &acc.addrs, 0, elem, regs);
        }
        let acc = self.desc_access(OP, layout, d)?;
        let (reg_free, _, _) = layout.free_masks();
        self.shared_store(&acc, elem, regs, |g| g as u64 & reg_free == 0)
    }

    /// `load_shared`: the buffer of `desc` (operand 0) read into the result's layout.
    pub(crate) fn lower_load_shared(
        &mut self,
        op: &Op,
    ) -> Result<Vec<inkwell::values::BasicValueEnum<'ctx>>> {
        const OP: &str = "load_shared";
        let d = self.op_operand(op, 0)?;
        let r = self.op_result(op)?;
        let layout = r.layout.clone().ok_or_else(|| not_a_tile(op, &r))?;
        self.report_row(OP, op.loc, Some(&d), |lx| {
            let elem = elem_of(d.ty);
            let acc = lx.desc_access(OP, &layout, &d)?;
            lx.shared_load(&acc, elem, |_| true)?
                .into_iter()
                .map(|r| r.ok_or_else(|| CodegenError::arg(OP, "a register was not loaded")))
                .collect()
        })
    }

    /// Operand `i` of `op`, an integer scalar value or an integer literal (an `i32`), as a
    /// register.
    pub(crate) fn int_arg(&self, op: &Op, i: usize) -> Result<IntValue<'ctx>> {
        match op.args.get(i) {
            Some(Arg::Int(k)) => Ok(self.const_int_reg(DType::I32, *k).into_int_value()),
            _ => {
                let d = self.op_operand(op, i)?;
                let r = d.regs.first().ok_or_else(|| {
                    CodegenError::arg("lower", format!("{} has no register", d.describe()))
                })?;
                Ok(r.into_int_value())
            }
        }
    }
}

/// The buffer of a shared descriptor.
pub(crate) fn desc_buf<'a>(d: &'a ValueData<'_>) -> Result<&'a SharedBuf> {
    d.shared.as_deref().ok_or_else(|| {
        CodegenError::arg(
            "lower",
            format!("{} is not a shared-memory descriptor", d.describe()),
        )
    })
}

/// The element type of a tile or buffer type.
pub(crate) fn elem_of(ty: Type) -> DType {
    match ty {
        Type::Scalar(d) => d,
        Type::Ptr(..) => DType::I64,
    }
}

fn no_result(op: &Op) -> CodegenError {
    CodegenError::arg("lower", format!("{:?} has no result", op.kind))
}

fn not_a_tile(op: &Op, d: &ValueData<'_>) -> CodegenError {
    CodegenError::arg(
        "lower",
        format!("{:?}: {} is not a register tile", op.kind, d.describe()),
    )
}

#[cfg(test)]
mod tests {
    use crate::codegen::{Context, DType, KernelBuilder, Result, Target, WarpRole};
    use crate::layout::encoding::{Blocked, SwizzledShared};

    /// A ring allocated inside a replicated role (so its first copy starts at byte 0), each
    /// replica writing and reading its own buffer through a run-time index.
    fn replicated_ring(ctx: &Context) -> Result<String> {
        let mut kb = KernelBuilder::new(ctx, Target::SM90A, "ring", 8)?;
        let out = kb.arg_ptr("out", DType::F32, 16)?;
        let roles = kb.warp_roles(&[WarpRole::new(4).replicas(2)])?;
        kb.in_role(roles[0], |kb| {
            let flat = Blocked::new(&[1], &[32], &[4], &[0]);
            let ring =
                kb.alloc_shared_buffers(DType::F32, 2, &[128], SwizzledShared::new(1, 1, 1, &[0]))?;
            let r = kb.role_replica()?;
            let buf = kb.index_shared(ring, r)?;
            let i = kb.arange(0, 128, flat.clone())?;
            let v = kb.cast(i, DType::F32)?;
            kb.store_shared(buf, v)?;
            kb.barrier()?;
            let back = kb.load_shared(buf, flat)?;
            let row = kb.mul(r, 128)?;
            let at = kb.add(i, row)?;
            let p = kb.add(out, at)?;
            kb.store(p, back, None)
        })?;
        Ok(kb.finish()?.llvm_ir())
    }

    #[test]
    fn a_view_of_a_replicated_buffer_moves_to_its_replica_once() {
        let ctx = Context::new();
        let ir = replicated_ring(&ctx).unwrap();
        // Each replica's copy of the 1024-byte ring is `replica · 1024` bytes in: the view's
        // run-time offset holds that once, and the store and the load only add their
        // registers' offsets to it (adding the replica's shift again would put replica 1's
        // buffer past the end of the kernel's shared memory).
        let shifts = ir
            .lines()
            .filter(|l| l.contains(" = mul i32 %") && l.trim_end().ends_with(", 1024"))
            .count();
        assert_eq!(shifts, 1, "{ir}");
    }
}
