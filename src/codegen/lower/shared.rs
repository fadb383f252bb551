//! Lowering of shared-memory access: the dynamic shared array, the addresses of a tile's
//! registers in a (padded, replicated) buffer, loads and stores in vectors with their
//! bank-conflict figures, and the form `i1` elements take in memory.

use crate::codegen::analysis::shared_offsets::plain_vector;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::CodegenError;
use crate::codegen::error::Result;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::emitter::vec_of;
pub(crate) use crate::codegen::lower::replica::Replica;
use crate::codegen::types::DType;
use crate::layout::convert::simulate::{warp_access, AccessStats};
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValue;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use inkwell::AddressSpace;

/// The module-level array every shared buffer lives in.
pub(crate) const SMEM_SYMBOL: &str = "weft_smem";

/// Where one tile's registers go in a shared buffer.
pub(crate) struct SharedAccess<'ctx> {
    /// (register, lane, warp) → element offset, as a one-dim tile layout.
    pub offsets: TileLayout,
    /// The byte address of every register (relative to `weft_smem`).
    pub addrs: Vec<IntValue<'ctx>>,
    /// Registers moved per vector access.
    pub vec: usize,
    /// The buffer's padding ((interval, pad) in elements), for the report's bank model.
    pub padding: Vec<(u64, u64)>,
}

/// `o` plus the padding inserted before it.
pub(crate) fn padded(o: u64, padding: &[(u64, u64)]) -> u64 {
    o + padding
        .iter()
        .map(|&(interval, pad)| (o / interval) * pad)
        .sum::<u64>()
}

impl<'ctx> LowerCtx<'ctx> {
    /// `weft_smem`, declared on first use.
    pub(crate) fn smem_ptr(&mut self) -> PointerValue<'ctx> {
        if let Some(g) = self.em.module.get_global(SMEM_SYMBOL) {
            return g.as_pointer_value();
        }
        let ty = self.em.ctx.i8_type().array_type(0);
        let g = self
            .em
            .module
            .add_global(ty, Some(AddressSpace::from(3u16)), SMEM_SYMBOL);
        g.set_linkage(inkwell::module::Linkage::External);
        g.set_alignment(1024);
        g.as_pointer_value()
    }

    /// The register addresses of `acc` moved by a view's run-time base (`acc` was made at 0).
    pub(crate) fn rebase(
        &mut self,
        acc: &mut SharedAccess<'ctx>,
        base: IntValue<'ctx>,
    ) -> Result<()> {
        let mut seen: std::collections::HashMap<IntValue<'ctx>, IntValue<'ctx>> =
            std::collections::HashMap::new();
        for a in acc.addrs.iter_mut() {
            if let Some(x) = seen.get(a) {
                *a = *x;
                continue;
            }
            let x = self.em.b.build_int_add(*a, base, "")?;
            seen.insert(*a, x);
            *a = x;
        }
        Ok(())
    }

    /// Records the instruction of register group `g` of `acc` in the report: the bytes each
    /// lane of a warp touches, padding included (a view's run-time base moves every lane alike
    /// by a multiple of 16 bytes, which changes no bank count). Without padding the offsets are
    /// XOR-linear, so every group takes the wavefronts of the first (a group's register offset
    /// XORs every lane's word and bank alike): `seen` keeps them.
    pub(crate) fn note_shared(
        &mut self,
        acc: &SharedAccess<'ctx>,
        g: usize,
        elem: DType,
        store: bool,
        seen: &mut Option<AccessStats>,
    ) {
        if !self.report.active() {
            return;
        }
        let eb = elem.mem_bytes();
        let bytes = eb * acc.vec as u64;
        let stats = match *seen {
            Some(s) if acc.padding.is_empty() => s,
            _ => {
                let lanes = crate::codegen::report::lane_bytes(
                    &acc.offsets,
                    g,
                    self.threads_per_warp(),
                    eb,
                    |o| padded(o, &acc.padding),
                );
                warp_access(&lanes, bytes)
            }
        };
        *seen = Some(stats);
        self.report.shared_stats(store, stats, bytes);
    }

    /// `v` (of `elem`) as shared memory holds it: an `i1` as an `i8` (0 or 1), anything else
    /// unchanged.
    pub(crate) fn in_mem_form(
        &mut self,
        v: BasicValueEnum<'ctx>,
        elem: DType,
    ) -> Result<BasicValueEnum<'ctx>> {
        if elem != DType::I1 {
            return Ok(v);
        }
        let i8t = self.em.ctx.i8_type();
        Ok(self
            .em
            .b
            .build_int_z_extend(v.into_int_value(), i8t, "")?
            .into())
    }

    /// A value read from shared memory back in the form a tile of `elem` holds it: an `i8` as
    /// an `i1` (non-zero), anything else unchanged.
    pub(crate) fn out_of_mem_form(
        &mut self,
        v: BasicValueEnum<'ctx>,
        elem: DType,
    ) -> Result<BasicValueEnum<'ctx>> {
        if elem != DType::I1 {
            return Ok(v);
        }
        let zero = self.em.ctx.i8_type().const_zero();
        Ok(self
            .em
            .b
            .build_int_compare(inkwell::IntPredicate::NE, v.into_int_value(), zero, "")?
            .into())
    }

    pub(crate) fn smem_at(&mut self, addr: IntValue<'ctx>) -> Result<PointerValue<'ctx>> {
        let base = self.smem_ptr();
        let i8t = self.em.ctx.i8_type();
        // SAFETY: an in-bounds byte offset into the dynamic shared array (the allocator keeps
        // every buffer inside the `shared_bytes` the launch reserves).
        Ok(unsafe { self.em.b.build_in_bounds_gep(i8t, base, &[addr], "")? })
    }

    /// Stores `regs` (one per register of the access's layout) where `keep(register)` holds,
    /// `acc.vec` registers per store.
    pub(crate) fn shared_store(
        &mut self,
        acc: &SharedAccess<'ctx>,
        elem: DType,
        regs: &[BasicValueEnum<'ctx>],
        keep: impl Fn(usize) -> bool,
    ) -> Result<()> {
        let mem = elem.llvm_mem(self.em.ctx);
        let mut seen = None;
        for g in (0..regs.len()).step_by(acc.vec) {
            if !keep(g) {
                continue;
            }
            let vals: Vec<BasicValueEnum> = regs[g..g + acc.vec]
                .iter()
                .map(|&v| self.in_mem_form(v, elem))
                .collect::<Result<_>>()?;
            let value = self.em.pack(&vals, mem)?;
            self.note_shared(acc, g, elem, true, &mut seen);
            let ptr = self.smem_at(acc.addrs[g])?;
            let st = self.em.b.build_store(ptr, value)?;
            st.set_alignment((elem.mem_bytes() * acc.vec as u64) as u32)
                .map_err(|e| CodegenError::llvm("store_shared", e))?;
        }
        Ok(())
    }

    /// Loads the registers of the access's layout for which `want(register)` holds (`None` for
    /// the others), `acc.vec` registers per load; registers at an offset already loaded reuse it.
    pub(crate) fn shared_load(
        &mut self,
        acc: &SharedAccess<'ctx>,
        elem: DType,
        want: impl Fn(usize) -> bool,
    ) -> Result<Vec<Option<BasicValueEnum<'ctx>>>> {
        let n = acc.addrs.len();
        let mem = elem.llvm_mem(self.em.ctx);
        let i32t = self.em.ctx.i32_type();
        let mut out: Vec<Option<BasicValueEnum>> = vec![None; n];
        let mut done: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
        let mut seen = None;
        for g in (0..n).step_by(acc.vec) {
            if !want(g) {
                continue;
            }
            let key = acc.offsets.reg_coord(g)[0];
            if let Some(&g0) = done.get(&key) {
                for i in 0..acc.vec {
                    out[g + i] = out[g0 + i];
                }
                continue;
            }
            done.insert(key, g);
            self.note_shared(acc, g, elem, false, &mut seen);
            let ty: BasicTypeEnum = if acc.vec == 1 {
                mem
            } else {
                vec_of(mem, acc.vec as u32)
            };
            let ptr = self.smem_at(acc.addrs[g])?;
            let v = self.em.b.build_load(ty, ptr, "")?;
            v.as_instruction_value()
                .expect("a load")
                .set_alignment((elem.mem_bytes() * acc.vec as u64) as u32)
                .map_err(|e| CodegenError::llvm("load_shared", e))?;
            for i in 0..acc.vec {
                let x = if acc.vec == 1 {
                    v
                } else {
                    self.em.b.build_extract_element(
                        v.into_vector_value(),
                        i32t.const_int(i as u64, false),
                        "",
                    )?
                };
                out[g + i] = Some(self.out_of_mem_form(x, elem)?);
            }
        }
        Ok(out)
    }

    /// Byte `offset` of an allocation as this thread addresses it: inside a replicated warp
    /// role, an allocation made there has a copy per replica, `rep.stride` apart.
    pub(crate) fn smem_offset_in(&self, offset: u64, rep: Replica<'ctx>) -> Result<IntValue<'ctx>> {
        let i32t = self.em.ctx.i32_type();
        let base = i32t.const_int(offset, false);
        match (rep.stride, rep.index) {
            (Some(stride), Some(replica)) => {
                let shift = self
                    .em
                    .b
                    .build_int_mul(replica, i32t.const_int(stride, false), "")?;
                Ok(self.em.b.build_int_add(shift, base, "")?)
            }
            _ => Ok(base),
        }
    }

    /// Byte offset of element `part * plane + idx` (of `eb` bytes) of the scratch allocation at
    /// byte `offset`, this thread's copy of it being `rep`: where a cross-warp reduction or scan
    /// keeps warp `part`'s partial `idx`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn scratch_elem_offset(
        &mut self,
        part: IntValue<'ctx>,
        plane: u64,
        idx: IntValue<'ctx>,
        eb: u64,
        offset: u64,
        rep: Replica<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let i32t = self.em.ctx.i32_type();
        let row = self
            .em
            .b
            .build_int_mul(part, i32t.const_int(plane, false), "")?;
        let i = self.em.b.build_int_add(row, idx, "")?;
        let bytes = self.em.b.build_int_mul(i, i32t.const_int(eb, false), "")?;
        let base = self.smem_offset_in(offset, rep)?;
        Ok(self.em.b.build_int_add(bytes, base, "")?)
    }

    /// The addresses of the registers of `offsets` ((register, lane, warp) → element offset) in
    /// a buffer at byte `base` with `padding`, this thread's copy of it being `rep`.
    pub(crate) fn shared_access_at(
        &mut self,
        offsets: TileLayout,
        padding: &[(u64, u64)],
        base: u64,
        elem: DType,
        rep: Replica<'ctx>,
    ) -> Result<SharedAccess<'ctx>> {
        let coords = self.dim_coords(&offsets, 0)?;
        let eb = elem.mem_bytes();
        let vec = plain_vector(&offsets, padding, elem);
        let i32t = self.em.ctx.i32_type();
        let mut addrs = Vec::with_capacity(coords.len());
        let mut seen: std::collections::HashMap<IntValue<'ctx>, IntValue<'ctx>> =
            std::collections::HashMap::new();
        for c in coords {
            if let Some(a) = seen.get(&c) {
                addrs.push(*a);
                continue;
            }
            let mut o = c;
            for &(interval, pad) in padding {
                let k = interval.trailing_zeros() as u64;
                let p = pad.trailing_zeros() as u64;
                let blocks = self
                    .em
                    .b
                    .build_right_shift(c, i32t.const_int(k, false), false, "")?;
                let extra = self
                    .em
                    .b
                    .build_left_shift(blocks, i32t.const_int(p, false), "")?;
                o = self.em.b.build_int_add(o, extra, "")?;
            }
            let bytes = if eb == 1 {
                o
            } else {
                self.em.b.build_left_shift(
                    o,
                    i32t.const_int(eb.trailing_zeros() as u64, false),
                    "",
                )?
            };
            let a = if base == 0 && rep.stride.is_none() {
                bytes
            } else {
                let b = self.smem_offset_in(base, rep)?;
                self.em.b.build_int_add(bytes, b, "")?
            };
            seen.insert(c, a);
            addrs.push(a);
        }
        Ok(SharedAccess {
            offsets,
            addrs,
            vec: vec as usize,
            padding: padding.to_vec(),
        })
    }
}
