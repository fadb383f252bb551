//! Lowering of `ldmatrix` / `stmatrix`: the plans for a tile and buffer, the row addresses, and
//! the elements packed into and out of 32-bit matrix registers.

use crate::codegen::analysis::matrix_plan::{plan_matrix, MatrixPlan};
use crate::codegen::analysis::shared_offsets::{offset_layout, plain_vector};
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::Op;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::emitter::vec_of;
use crate::codegen::lower::shared_ops::elem_of;
use crate::codegen::lower::values::ValueData;
use crate::codegen::target::nvptx::ldmatrix as ptx;
use crate::codegen::target::Feature;
use crate::codegen::types::DType;
use inkwell::values::{BasicValueEnum, IntValue};
use std::collections::HashMap;

impl<'ctx> LowerCtx<'ctx> {
    /// The registers of the result of `op`, a recorded `ldmatrix` of a buffer.
    pub(crate) fn lower_ldmatrix(&mut self, op: &Op) -> Result<Vec<BasicValueEnum<'ctx>>> {
        const OP: &str = "ldmatrix";
        let p = self.staged.ldmatrix.take(OP, op)?;
        let d = self.op_operand(op, 0)?;
        let elem = elem_of(d.ty);
        // The tile's addresses in the buffer (a view's run-time base included).
        let access = |lx: &mut Self, offsets: TileLayout| lx.desc_access_at(offsets, &d);
        self.report_row(OP, op.loc, Some(&d), |lx| match &p.plan {
            Some(plan) => {
                let addr_layout = lx.matrix_addresses(OP, plan)?;
                let acc = access(lx, addr_layout)?;
                let mut out = vec![None; p.offsets.num_regs()];
                lx.emit_ldmatrix(plan, &acc.addrs, 0, elem, &mut out)?;
                fill_copies(OP, &p.offsets, out)
            }
            None => {
                let acc = access(lx, p.offsets.clone())?;
                fill_copies(OP, &p.offsets, lx.shared_load(&acc, elem, |_| true)?)
            }
        })
    }

    /// The `stmatrix` plan for [`store_shared`](crate::codegen::KernelBuilder::store_shared) of a tile in `layout` into
    /// the buffer of `d`: when the target has `stmatrix`, every register, lane and warp holds
    /// elements of its own (no copies to skip), and the plan moves more bytes per lane and
    /// instruction than the widest plain `st.shared` the layouts allow. An MMA accumulator cast
    /// to 16 bits then goes out as one `stmatrix.x4` per 16 bytes instead of four 4-byte stores
    /// (the GEMM and attention epilogues), which also shrinks the IR a compile must process.
    pub(crate) fn stmatrix_plan(
        &self,
        op: &'static str,
        layout: &TileLayout,
        d: &ValueData<'ctx>,
        elem: DType,
    ) -> Result<Option<MatrixPlan>> {
        let usable = self.target.supports(Feature::StMatrix) && layout.free_masks() == (0, 0, 0);
        if !usable {
            return Ok(None);
        }
        let buf = d.shared.clone().expect("a descriptor has a buffer");
        let offsets = offset_layout(
            op,
            layout,
            &buf.layout,
            self.threads_per_warp(),
            self.num_warps,
        )?;
        let bits = (elem.mem_bytes() * 8) as u32;
        let Some(plan) = plan_matrix(&offsets, bits, false, &buf.padding)
            .or_else(|| plan_matrix(&offsets, bits, true, &buf.padding))
        else {
            return Ok(None);
        };
        let plain = plain_vector(&offsets, &buf.padding, elem);
        // Bytes per lane and instruction: 4 per matrix against the plain vector's.
        Ok((plan.matrices as u64 * 4 > plain * elem.mem_bytes()).then_some(plan))
    }

    /// The row addresses of `plan` as a tile layout (one register per instruction).
    pub(crate) fn matrix_addresses(
        &self,
        op: &'static str,
        plan: &MatrixPlan,
    ) -> Result<TileLayout> {
        TileLayout::new(op, &plan.addresses, self.threads_per_warp(), self.num_warps)
    }

    /// `elems` (of `elem`, lowest first, in their shared-memory form) in one 32-bit register.
    pub(crate) fn pack_word(
        &mut self,
        elems: &[BasicValueEnum<'ctx>],
        elem: DType,
    ) -> Result<IntValue<'ctx>> {
        let i32t = self.em.ctx.i32_type();
        let mem: Vec<BasicValueEnum> = elems
            .iter()
            .map(|&v| self.in_mem_form(v, elem))
            .collect::<Result<_>>()?;
        let word = self.em.pack(&mem, elem.llvm_mem(self.em.ctx))?;
        Ok(self.em.b.build_bit_cast(word, i32t, "")?.into_int_value())
    }

    /// The `n` elements (of `elem`, lowest first) of one 32-bit register.
    pub(crate) fn unpack_word(
        &mut self,
        word: IntValue<'ctx>,
        elem: DType,
        n: usize,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let i32t = self.em.ctx.i32_type();
        let mem = elem.llvm_mem(self.em.ctx);
        if n == 1 {
            let v = self.em.b.build_bit_cast(word, mem, "")?;
            return Ok(vec![self.out_of_mem_form(v, elem)?]);
        }
        let v = self
            .em
            .b
            .build_bit_cast(word, vec_of(mem, n as u32), "")?
            .into_vector_value();
        (0..n)
            .map(|i| {
                let at = i32t.const_int(i as u64, false);
                let x = self.em.b.build_extract_element(v, at, "")?;
                self.out_of_mem_form(x, elem)
            })
            .collect()
    }

    /// `ldmatrix` of `plan` at `addrs` (one byte address per instruction, relative to
    /// `weft_smem`): writes register `base | plan.register(..)` of `out` for every element moved.
    pub(crate) fn emit_ldmatrix(
        &mut self,
        plan: &MatrixPlan,
        addrs: &[IntValue<'ctx>],
        base: usize,
        elem: DType,
        out: &mut [Option<BasicValueEnum<'ctx>>],
    ) -> Result<()> {
        for (n, &addr) in addrs.iter().enumerate().take(plan.instructions()) {
            let ptr = self.smem_at(addr)?;
            let words = ptx::ldmatrix(&self.em, plan.matrices, plan.trans, ptr)?;
            for (i, word) in words.into_iter().enumerate() {
                let elems = self.unpack_word(word.into_int_value(), elem, plan.per_word())?;
                for (q, v) in elems.into_iter().enumerate() {
                    out[base | plan.register(n, i, q)] = Some(v);
                }
            }
        }
        Ok(())
    }

    /// `stmatrix` of `plan` at `addrs` (one byte address per instruction): stores register
    /// `base | plan.register(..)` of `regs` for every element moved.
    pub(crate) fn emit_stmatrix(
        &mut self,
        plan: &MatrixPlan,
        addrs: &[IntValue<'ctx>],
        base: usize,
        elem: DType,
        regs: &[BasicValueEnum<'ctx>],
    ) -> Result<()> {
        for (n, &addr) in addrs.iter().enumerate().take(plan.instructions()) {
            let ptr = self.smem_at(addr)?;
            let mut words = Vec::with_capacity(plan.matrices);
            for i in 0..plan.matrices {
                let elems: Vec<BasicValueEnum> = (0..plan.per_word())
                    .map(|q| regs[base | plan.register(n, i, q)])
                    .collect();
                words.push(self.pack_word(&elems, elem)?);
            }
            ptx::stmatrix(&self.em, plan.trans, ptr, &words)?;
        }
        Ok(())
    }
}

/// The registers of a tile at `offsets` from the loaded ones in `out`: a register not loaded
/// takes the value of a loaded one at the same offset (a copy); every offset must be loaded.
pub(crate) fn fill_copies<'ctx>(
    op: &'static str,
    offsets: &TileLayout,
    out: Vec<Option<BasicValueEnum<'ctx>>>,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let mut at: HashMap<u64, BasicValueEnum<'ctx>> = HashMap::new();
    for (r, v) in out.iter().enumerate() {
        if let Some(v) = v {
            at.entry(offsets.reg_coord(r)[0]).or_insert(*v);
        }
    }
    out.into_iter()
        .enumerate()
        .map(|(r, v)| {
            let key = offsets.reg_coord(r)[0];
            v.or_else(|| at.get(&key).copied())
                .ok_or_else(|| CodegenError::BadLayout {
                    op,
                    reason: format!(
                        "internal: register {r} (offset {key}) of {offsets} is never loaded"
                    ),
                })
        })
        .collect()
}
