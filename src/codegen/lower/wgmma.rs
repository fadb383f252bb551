//! Lowering of wgmma operands: shared-memory matrix descriptors (fixed fields, k-step starts),
//! the warpgroup's rows of A, and A fragments held in registers.

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::values::ValueData;
use crate::layout::encoding::NvidiaMma;
use inkwell::values::IntValue;

use crate::codegen::lower::wgmma_plan::Operand2d;

/// Operand A of every instruction: shared-memory descriptors, or register fragments.
pub(crate) enum AOperand<'ctx> {
    /// The descriptor of each (64-row block, k-step), in that order, at warpgroup g's rows.
    Shared(Vec<IntValue<'ctx>>),
    /// Four 32-bit registers per (64-row block, k-step), in that order.
    Regs(Vec<Vec<IntValue<'ctx>>>),
}

impl<'ctx> LowerCtx<'ctx> {
    /// The descriptor `desc` moved on by each byte offset (its start address field counts 16
    /// bytes).
    pub(crate) fn descs_at(
        &mut self,
        desc: IntValue<'ctx>,
        offsets: impl Iterator<Item = u64>,
    ) -> Result<Vec<IntValue<'ctx>>> {
        let i64t = self.em.ctx.i64_type();
        offsets
            .map(|off| {
                let off = i64t.const_int(off >> 4, false);
                Ok(self.em.b.build_int_add(desc, off, "")?)
            })
            .collect()
    }

    /// A in registers (16-bit): the four 32-bit fragment registers of each (64-row block, k-step).
    /// The tile must spread rows and columns over lanes and warps as the accumulator of an
    /// `[M, K]` wgmma does (`NvidiaMma::hopper(&[warps, 1], K, 16)`, so an accumulator converted to
    /// 16 bits feeds the next wgmma directly, as in attention's P·V); its registers may come in
    /// any order, and are placed by the coordinates the layout gives them.
    pub(crate) fn a_fragments(
        &mut self,
        op: &'static str,
        da: &ValueData<'ctx>,
        reps: u64,
        warps: u64,
    ) -> Result<AOperand<'ctx>> {
        let (m, k) = (da.shape[0], da.shape[1]);
        let have = da.layout.clone().expect("a tile has a layout");
        let want_ll = NvidiaMma::hopper(&[self.num_warps, 1], k.min(256) as u32, 16)
            .to_linear_layout(&[m, k])?;
        let want = crate::codegen::analysis::tile_layout::TileLayout::new(
            op,
            &want_ll,
            self.threads_per_warp(),
            self.num_warps,
        )?;
        let bad = || {
            CodegenError::BadLayout {
            op,
            reason: format!(
                "A in registers ({}) must spread rows and columns over lanes and warps as NvidiaMma::hopper(&[{warps}, 1], {k}, 16) does",
                da.describe()
            ),
        }
        };
        if have.lane != want.lane || have.warp != want.warp || have.num_regs() != want.num_regs() {
            return Err(bad());
        }
        // Register (row, col) at lane 0 of warp 0 → (rep, k-step, fragment register, half):
        // fragment register f holds row 8·(f%2), columns 8·(f/2) + (0, 1) of the k-step.
        let ksteps = (k / 16) as usize;
        let mut slot = vec![usize::MAX; reps as usize * ksteps * 8];
        for reg in 0..have.num_regs() {
            let c = have.reg_coord(reg);
            let (row, col) = (c[0], c[1]);
            let r = (row / (16 * warps)) as usize;
            let s = (col / 16) as usize;
            let f = (((col % 16) / 8) * 2 + (row % 16) / 8) as usize;
            let half = (col % 2) as usize;
            let i = ((r * ksteps + s) * 4 + f) * 2 + half;
            if i >= slot.len() || slot[i] != usize::MAX {
                return Err(bad());
            }
            slot[i] = reg;
        }
        if slot.contains(&usize::MAX) {
            return Err(bad());
        }
        let half_ty = da.ty.llvm(self.em.ctx);
        let i32t = self.em.ctx.i32_type();
        let mut frags = Vec::with_capacity(reps as usize * ksteps);
        for chunk in slot.chunks(8) {
            let mut regs = Vec::with_capacity(4);
            for f in 0..4 {
                let halves = [da.regs[chunk[f * 2]], da.regs[chunk[f * 2 + 1]]];
                let v = self.em.pack(&halves, half_ty)?;
                regs.push(self.em.b.build_bit_cast(v, i32t, "")?.into_int_value());
            }
            frags.push(regs);
        }
        Ok(AOperand::Regs(frags))
    }

    /// The 64-bit descriptor of an operand starting at shared address `addr` (LBO, SBO, swizzle
    /// filled in); k-steps add their start offsets to it.
    pub(crate) fn desc_base(
        &mut self,
        addr: IntValue<'ctx>,
        o: &Operand2d,
    ) -> Result<IntValue<'ctx>> {
        let i64t = self.em.ctx.i64_type();
        let a = self.em.b.build_int_z_extend(addr, i64t, "")?;
        let a = self
            .em
            .b
            .build_and(a, i64t.const_int(0x3_FFFF, false), "")?;
        let a = self
            .em
            .b
            .build_right_shift(a, i64t.const_int(4, false), false, "")?;
        let mode: u64 = match o.swizzle {
            128 => 1,
            64 => 2,
            _ => 3,
        };
        let fixed = ((o.lbo >> 4) & 0x3FFF) << 16 | ((o.sbo >> 4) & 0x3FFF) << 32 | mode << 62;
        Ok(self.em.b.build_or(a, i64t.const_int(fixed, false), "")?)
    }

    /// `addr` moved to this thread's warpgroup's rows of operand A: warpgroup bit `j` (of
    /// `tid / 128`) adds `group_offs[j]` bytes, the offsets XOR-ed as the layout's are.
    pub(crate) fn warpgroup_rows_addr(
        &mut self,
        addr: IntValue<'ctx>,
        group_offs: &[u64],
    ) -> Result<IntValue<'ctx>> {
        let i32t = self.em.ctx.i32_type();
        let mut g_off = i32t.const_zero();
        if !group_offs.is_empty() {
            let tid = self.thread_index()?;
            let g = self
                .em
                .b
                .build_right_shift(tid, i32t.const_int(7, false), false, "")?;
            for (j, &off) in group_offs.iter().enumerate() {
                let bit =
                    self.em
                        .b
                        .build_right_shift(g, i32t.const_int(j as u64, false), false, "")?;
                let bit = self.em.b.build_and(bit, i32t.const_int(1, false), "")?;
                let term = self
                    .em
                    .b
                    .build_int_mul(bit, i32t.const_int(off, false), "")?;
                g_off = self.em.b.build_xor(g_off, term, "")?;
            }
        }
        Ok(self.em.b.build_int_add(addr, g_off, "")?)
    }
}
