//! Lowering of global-memory ops: the vector plan, loads and stores in vectors (predicated or
//! behind a branch where masked, cache-hinted where asked), each element stored once. (Atomics
//! are in `atomic.rs`.)

use std::collections::HashMap;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::CacheHint;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::emitter::vec_of;
use crate::codegen::target::GlobalAccess;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::DType;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValue, PointerValue};
use inkwell::values::{BasicValueEnum, IntValue};

/// How one access is split into vectors.
pub(crate) struct Plan {
    /// Elements per vector.
    pub vec: usize,
}

impl<'ctx> LowerCtx<'ctx> {
    /// Chooses the vector width (see the module docs).
    pub(crate) fn plan(
        &self,
        l: &TileLayout,
        ptr: &AxisInfo,
        mask: Option<&AxisInfo>,
        elem: DType,
    ) -> Plan {
        let e = elem.mem_bytes();
        let mut best = 1u64;
        for d in 0..l.rank() {
            let align = if ptr.divisibility[d] >= e {
                ptr.divisibility[d] / e
            } else {
                1
            };
            let mut v = l
                .contiguous_regs(d)
                .min(ptr.contiguity[d])
                .min(align)
                .min(16 / e);
            if let Some(m) = mask {
                v = v.min(m.constancy[d]);
            }
            // Only powers of two (all inputs are; keep it explicit).
            v = 1 << (63 - v.max(1).leading_zeros());
            best = best.max(v);
        }
        Plan { vec: best as usize }
    }

    /// The predicate "this thread holds the first copy" for layouts whose lanes or warps repeat
    /// elements; `None` when every thread holds distinct elements.
    pub(crate) fn representative(&mut self, l: &TileLayout) -> Result<Option<IntValue<'ctx>>> {
        let (_, lane_free, warp_free) = l.free_masks();
        if lane_free == 0 && warp_free == 0 {
            return Ok(None);
        }
        // The free bits of tid (`lane + warp · threads_per_warp`) must be clear; when they are
        // all of its bits from `lo` up, that is `tid < 2^lo`.
        let mask = lane_free | warp_free << self.threads_per_warp().trailing_zeros();
        let top = self.threads_per_block() as u64 - 1;
        let lo = mask.trailing_zeros();
        let tid = self.thread_index()?;
        let i32t = self.em.ctx.i32_type();
        self.in_prologue(|b| {
            let rep = if crate::codegen::analysis::tile_layout::reaches_top(mask, top) {
                let bound = i32t.const_int(1 << lo, false);
                b.build_int_compare(inkwell::IntPredicate::ULT, tid, bound, "rep")?
            } else {
                let free = b.build_and(tid, i32t.const_int(mask, false), "")?;
                b.build_int_compare(inkwell::IntPredicate::EQ, free, i32t.const_zero(), "rep")?
            };
            Ok(Some(rep))
        })
    }

    /// The predicate "this is the first thread" (of the CTA, or of the warp role the code runs
    /// in): the one thread that executes a scalar store, as in Triton, instead of every thread
    /// writing the same value.
    pub(crate) fn first_thread(&mut self) -> Result<IntValue<'ctx>> {
        let tid = self.thread_index()?;
        let zero = self.em.ctx.i32_type().const_zero();
        self.in_prologue(|b| {
            Ok(b.build_int_compare(inkwell::IntPredicate::EQ, tid, zero, "first")?)
        })
    }

    pub(crate) fn and_pred(
        &self,
        a: Option<IntValue<'ctx>>,
        b: Option<IntValue<'ctx>>,
    ) -> Result<Option<IntValue<'ctx>>> {
        Ok(match (a, b) {
            (Some(x), Some(y)) => Some(self.em.b.build_and(x, y, "")?),
            (x, None) => x,
            (None, y) => y,
        })
    }

    /// Whether a masked access of `vec` elements of `elem` is one predicated instruction
    /// rather than a branch around a plain one: on NVIDIA, for every access of whole 16-bit
    /// words (inline PTX, `target/nvptx`).
    pub(crate) fn predicated(&self, elem: DType, vec: usize) -> bool {
        self.target.lowering().predicates_access(elem, vec)
    }

    pub(crate) fn mark_nontemporal(
        &self,
        inst: inkwell::values::InstructionValue<'ctx>,
    ) -> Result<()> {
        let kind = self.em.ctx.get_kind_id("nontemporal");
        let one = self.em.ctx.i32_type().const_int(1, false);
        let md = self.em.ctx.metadata_node(&[one.into()]);
        inst.set_metadata(md, kind)
            .map_err(|e| CodegenError::llvm("metadata", e))
    }

    pub(crate) fn unpack(
        &mut self,
        v: BasicValueEnum<'ctx>,
        n: usize,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        if n == 1 {
            return Ok(vec![v]);
        }
        let vv = v.into_vector_value();
        (0..n)
            .map(|i| {
                Ok(self.em.b.build_extract_element(
                    vv,
                    self.em.ctx.i32_type().const_int(i as u64, false),
                    "",
                )?)
            })
            .collect()
    }

    /// The sync scope of atomics: the whole device (`device` on NVPTX, `agent` on AMDGPU), as
    /// Triton's `gpu` scope. System scope would be slower and, on AMD, turn float adds into
    /// compare-and-swap loops.
    pub(crate) fn device_scope(&self) -> u32 {
        self.em
            .sync_scope(self.target.lowering().device_sync_scope())
    }

    /// Loads `vec` elements of `elem` from `ptr` (as a vector when `vec > 1`), honouring `hint`;
    /// with `pred` (only where [`predicated`](Self::predicated)) the load is predicated and
    /// yields zeros where `pred` is false.
    pub(crate) fn emit_load(
        &mut self,
        ptr: PointerValue<'ctx>,
        elem: DType,
        vec: usize,
        hint: CacheHint,
        pred: Option<IntValue<'ctx>>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let mem = elem.llvm_mem(self.em.ctx);
        let align = (elem.mem_bytes() as u32) * vec as u32;
        let access = GlobalAccess {
            ptr,
            elem,
            vec,
            hint,
            store: None,
            pred,
        };
        let raw: Vec<BasicValueEnum> =
            if let Some(r) = self.target.lowering().global_access(&self.em, &access) {
                r?
            } else {
                let ty: BasicTypeEnum = if vec == 1 {
                    mem
                } else {
                    vec_of(mem, vec as u32)
                };
                let v = self.em.b.build_load(ty, ptr, "")?;
                let inst = v.as_instruction_value().expect("load is an instruction");
                inst.set_alignment(align)
                    .map_err(|e| CodegenError::llvm("load", e))?;
                if hint == CacheHint::Streaming {
                    self.mark_nontemporal(inst)?;
                }
                if vec == 1 {
                    vec![v]
                } else {
                    let vv = v.into_vector_value();
                    let mut out = Vec::with_capacity(vec);
                    for i in 0..vec {
                        out.push(self.em.b.build_extract_element(
                            vv,
                            self.em.ctx.i32_type().const_int(i as u64, false),
                            "",
                        )?);
                    }
                    out
                }
            };
        if elem == DType::I1 {
            let mut out = Vec::with_capacity(raw.len());
            for r in raw {
                out.push(
                    self.em
                        .b
                        .build_int_compare(
                            inkwell::IntPredicate::NE,
                            r.into_int_value(),
                            self.em.ctx.i8_type().const_zero(),
                            "",
                        )?
                        .into(),
                );
            }
            return Ok(out);
        }
        Ok(raw)
    }

    /// Stores `vals` (consecutive elements) at `ptr`, as one vector when there are several;
    /// with `pred` (only where [`predicated`](Self::predicated)) the store is predicated.
    pub(crate) fn emit_store(
        &mut self,
        ptr: PointerValue<'ctx>,
        elem: DType,
        vals: &[BasicValueEnum<'ctx>],
        hint: CacheHint,
        pred: Option<IntValue<'ctx>>,
    ) -> Result<()> {
        let mut vals = vals.to_vec();
        if elem == DType::I1 {
            for v in vals.iter_mut() {
                *v = self
                    .em
                    .b
                    .build_int_z_extend(v.into_int_value(), self.em.ctx.i8_type(), "")?
                    .into();
            }
        }
        let access = GlobalAccess {
            ptr,
            elem,
            vec: vals.len(),
            hint,
            store: Some(&vals),
            pred,
        };
        if let Some(r) = self.target.lowering().global_access(&self.em, &access) {
            return r.map(|_| ());
        }
        let mem = elem.llvm_mem(self.em.ctx);
        let value = self.em.pack(&vals, mem)?;
        let inst = self.em.b.build_store(ptr, value)?;
        inst.set_alignment(elem.mem_bytes() as u32 * vals.len() as u32)
            .map_err(|e| CodegenError::llvm("store", e))?;
        if hint == CacheHint::Streaming {
            self.mark_nontemporal(inst)?;
        }
        Ok(())
    }

    /// `pred ? then() : default`, as a branch around `then` (or straight-line without `pred`).
    pub(crate) fn guarded(
        &mut self,
        pred: Option<IntValue<'ctx>>,
        default: Option<BasicValueEnum<'ctx>>,
        then: impl FnOnce(&mut LowerCtx<'ctx>) -> Result<Option<BasicValueEnum<'ctx>>>,
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let Some(pred) = pred else { return then(self) };
        let f = self.em.func();
        let here = self.em.b.get_insert_block().expect("positioned");
        let on = self.em.ctx.append_basic_block(f, "masked");
        let join = self.em.ctx.append_basic_block(f, "join");
        self.em.b.build_conditional_branch(pred, on, join)?;
        self.em.b.position_at_end(on);
        let v = then(self)?;
        let on_end = self.em.b.get_insert_block().expect("positioned");
        self.em.b.build_unconditional_branch(join)?;
        self.em.b.position_at_end(join);
        match (v, default) {
            (Some(v), Some(d)) => {
                let phi = self.em.b.build_phi(v.get_type(), "")?;
                phi.add_incoming(&[(&v, on_end), (&d, here)]);
                Ok(Some(phi.as_basic_value()))
            }
            _ => Ok(None),
        }
    }

    /// Stores `vals` at `ptr` where `pred` holds: predicated where
    /// [`predicated`](Self::predicated), else with a branch around the store.
    pub(crate) fn guarded_store(
        &mut self,
        ptr: PointerValue<'ctx>,
        elem: DType,
        vals: &[BasicValueEnum<'ctx>],
        hint: CacheHint,
        pred: Option<IntValue<'ctx>>,
    ) -> Result<()> {
        if pred.is_none() || self.predicated(elem, vals.len()) {
            return self.emit_store(ptr, elem, vals, hint, pred);
        }
        self.guarded(pred, None, |lx| {
            lx.emit_store(ptr, elem, vals, hint, None)?;
            Ok(None)
        })?;
        Ok(())
    }

    /// A scalar load of `elem` at `ptr` where `pred` holds (zero elsewhere, or `other`).
    pub(crate) fn load_scalar(
        &mut self,
        ptr: PointerValue<'ctx>,
        pred: Option<IntValue<'ctx>>,
        other: Option<BasicValueEnum<'ctx>>,
        elem: DType,
        hint: CacheHint,
    ) -> Result<BasicValueEnum<'ctx>> {
        let zero = elem.llvm(self.em.ctx).const_zero();
        let v = if self.predicated(elem, 1) {
            self.emit_load(ptr, elem, 1, hint, pred)?[0]
        } else {
            self.guarded(pred, Some(zero), |lx| {
                Ok(Some(lx.emit_load(ptr, elem, 1, hint, None)?[0]))
            })?
            .expect("load yields")
        };
        let v = match (other, pred) {
            (Some(o), Some(p)) => self.em.b.build_select(p, v, o, "")?,
            _ => v,
        };
        self.report.global(1, elem.mem_bytes(), 1, pred.is_some());
        Ok(v)
    }

    /// The registers of a tile of `elem` in `layout` loaded from `ptrs` in vectors of `vec`
    /// where `mask` holds (zero elsewhere, or `other`). Registers holding the same elements as an
    /// earlier vector reuse its values.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn load_regs(
        &mut self,
        layout: &TileLayout,
        vec: usize,
        ptrs: &[BasicValueEnum<'ctx>],
        mask: Option<&[BasicValueEnum<'ctx>]>,
        other: Option<&[BasicValueEnum<'ctx>]>,
        elem: DType,
        hint: CacheHint,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let elem_ty = elem.llvm(self.em.ctx);
        let zero = elem_ty.const_zero();
        let n = layout.num_regs();
        let mut out: Vec<Option<BasicValueEnum>> = vec![None; n];
        let mut done: HashMap<Vec<u64>, usize> = HashMap::new();
        let mut accesses = 0u64;
        for g in (0..n).step_by(vec) {
            let key = layout.reg_coord(g);
            if let Some(&g0) = done.get(&key) {
                for i in 0..vec {
                    out[g + i] = out[g0 + i];
                }
                continue;
            }
            done.insert(key, g);
            accesses += 1;
            let ptr = ptrs[g].into_pointer_value();
            let pred = mask.map(|r| r[g].into_int_value());
            let default = if vec == 1 {
                zero
            } else {
                vec_of(elem_ty, vec as u32).const_zero()
            };
            let vals = if pred.is_none() || self.predicated(elem, vec) {
                self.emit_load(ptr, elem, vec, hint, pred)?
            } else {
                let loaded = self
                    .guarded(pred, Some(default), |lx| {
                        let vals = lx.emit_load(ptr, elem, vec, hint, None)?;
                        lx.em.pack(&vals, elem_ty).map(Some)
                    })?
                    .expect("load yields");
                self.unpack(loaded, vec)?
            };
            for (i, v) in vals.into_iter().enumerate() {
                // The plan made the mask constant across the vector: its predicate selects
                // every element (one compare per vector, not per element).
                let v = match (other, pred) {
                    (Some(o), Some(p)) => self.em.b.build_select(p, v, o[g + i], "")?,
                    _ => v,
                };
                out[g + i] = Some(v);
            }
        }
        self.report
            .global(vec as u64, elem.mem_bytes(), accesses, mask.is_some());
        Ok(out
            .into_iter()
            .map(|v| v.expect("every register loaded"))
            .collect())
    }

    /// Stores the registers `vals` of a tile of `elem` in `layout` at `ptrs`, in vectors of
    /// `vec`, where `mask` holds; each element once, by the thread that holds its first copy.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store_regs(
        &mut self,
        layout: &TileLayout,
        vec: usize,
        ptrs: &[BasicValueEnum<'ctx>],
        vals: &[BasicValueEnum<'ctx>],
        mask: Option<&[BasicValueEnum<'ctx>]>,
        elem: DType,
        hint: CacheHint,
    ) -> Result<()> {
        let (reg_free, _, _) = layout.free_masks();
        let rep = self.representative(layout)?;
        let mut accesses = 0u64;
        for g in (0..layout.num_regs()).step_by(vec) {
            if g as u64 & reg_free != 0 {
                continue; // a copy of an element this thread stores from another register
            }
            accesses += 1;
            let ptr = ptrs[g].into_pointer_value();
            let pred = self.and_pred(mask.map(|r| r[g].into_int_value()), rep)?;
            self.guarded_store(ptr, elem, &vals[g..g + vec], hint, pred)?;
        }
        self.report
            .global(vec as u64, elem.mem_bytes(), accesses, mask.is_some());
        Ok(())
    }
}
