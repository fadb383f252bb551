//! Global memory: masked `load` (with `other`) and `store`, atomics; all vectorised where the
//! layout and the pointer allow.
//!
//! Vector width along a tile dim `d` is the smallest of: the registers the layout keeps
//! contiguous and aligned along `d` ([`TileLayout::contiguous_regs`]), the pointer's contiguity
//! and its divisibility (in elements), the mask's constancy, and 16 bytes. The dim with the widest
//! vector wins. The mask is uniform over a vector, so a masked memcpy of `n` (a multiple of 16)
//! f32 still emits `ld.global.v4`: on NVIDIA a predicated one (`@p ld.global.v4.b32`, inline
//! PTX, as Triton emits), elsewhere a branch around a plain one.

pub use crate::codegen::ir::attrs::{AtomicOp, CacheHint};
use std::collections::HashMap;
use std::rc::Rc;

use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use inkwell::AtomicOrdering;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::ops::elementwise::{IntoOperand, Operand};
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind};
use crate::codegen::lower::emitter::vec_of;
use crate::codegen::lower::values::{Value, ValueData};
use crate::codegen::types::{AddrSpace, DType, Type};

impl<'ctx> KernelBuilder<'ctx> {
    pub(crate) fn pointer_operand(
        &mut self,
        op: &'static str,
        ptr: Value,
    ) -> Result<(Rc<ValueData<'ctx>>, DType)> {
        let p = self.get(op, ptr)?;
        match p.ty {
            Type::Ptr(d, AddrSpace::Global) => Ok((p, d)),
            _ => Err(CodegenError::InvalidType {
                op,
                expected: "a pointer to global memory (or a tile of them)".into(),
                value: p.describe(),
            }),
        }
    }

    pub(crate) fn mask_operand(
        &mut self,
        op: &'static str,
        mask: Option<Value>,
    ) -> Result<Option<Rc<ValueData<'ctx>>>> {
        let Some(m) = mask else { return Ok(None) };
        let m = self.get(op, m)?;
        if m.ty != Type::Scalar(DType::I1) {
            return Err(CodegenError::InvalidType {
                op,
                expected: "an i1 mask".into(),
                value: m.describe(),
            });
        }
        Ok(Some(m))
    }

    /// `pred ? then() : default`, as a branch around `then` (or straight-line without `pred`).
    fn guarded(
        &mut self,
        pred: Option<IntValue<'ctx>>,
        default: Option<BasicValueEnum<'ctx>>,
        then: impl FnOnce(&mut Self) -> Result<Option<BasicValueEnum<'ctx>>>,
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let Some(pred) = pred else { return then(self) };
        let f = self.lx.em.func();
        let here = self.lx.em.b.get_insert_block().expect("positioned");
        let on = self.lx.em.ctx.append_basic_block(f, "masked");
        let join = self.lx.em.ctx.append_basic_block(f, "join");
        self.lx.em.b.build_conditional_branch(pred, on, join)?;
        self.lx.em.b.position_at_end(on);
        let v = then(self)?;
        let on_end = self.lx.em.b.get_insert_block().expect("positioned");
        self.lx.em.b.build_unconditional_branch(join)?;
        self.lx.em.b.position_at_end(join);
        match (v, default) {
            (Some(v), Some(d)) => {
                let phi = self.lx.em.b.build_phi(v.get_type(), "")?;
                phi.add_incoming(&[(&v, on_end), (&d, here)]);
                Ok(Some(phi.as_basic_value()))
            }
            _ => Ok(None),
        }
    }

    /// `*ptr` elementwise, where `mask` is true; `other` (default zero) elsewhere.
    #[track_caller]
    pub fn load(
        &mut self,
        ptr: Value,
        mask: Option<Value>,
        other: Option<Operand>,
    ) -> Result<Value> {
        self.load_with(ptr, mask, other, CacheHint::Default)
    }

    /// [`load`](Self::load) with a cache hint.
    #[track_caller]
    pub fn load_with(
        &mut self,
        ptr: Value,
        mask: Option<Value>,
        other: Option<Operand>,
        hint: CacheHint,
    ) -> Result<Value> {
        self.record(
            OpKind::Load {
                hint,
                has_mask: mask.is_some(),
                has_other: other.is_some(),
            },
            [
                Some(Arg::from(ptr)),
                mask.map(Arg::from),
                other.map(Arg::from),
            ]
            .into_iter()
            .flatten()
            .collect(),
            |kb| kb.load_with_impl(ptr, mask, other, hint),
        )
    }

    fn load_with_impl(
        &mut self,
        ptr: Value,
        mask: Option<Value>,
        other: Option<Operand>,
        hint: CacheHint,
    ) -> Result<Value> {
        let at = self.rec.caller();
        self.reported("load", at, Some(ptr), |kb| {
            kb.load_inner(ptr, mask, other, hint)
        })
    }

    fn load_inner(
        &mut self,
        ptr: Value,
        mask: Option<Value>,
        other: Option<Operand>,
        hint: CacheHint,
    ) -> Result<Value> {
        let (p, elem) = self.pointer_operand("load", ptr)?;
        let m = self.mask_operand("load", mask)?;
        if other.is_some() && m.is_none() {
            return Err(CodegenError::arg(
                "load",
                "`other` without a mask has no effect",
            ));
        }
        let o = match other {
            Some(o) if elem.is_fp8() => {
                return Err(CodegenError::InvalidType {
                    op: "load",
                    expected: "no `other` for fp8 loads (select after casting)".into(),
                    value: format!("{o:?}"),
                })
            }
            Some(o) => Some(self.operand("load", o.into_operand(), Some(Type::Scalar(elem)))?),
            None => None,
        };
        if let Some(o) = &o {
            if o.ty != Type::Scalar(elem) {
                return Err(CodegenError::TypeMismatch {
                    op: "load",
                    lhs: p.describe(),
                    rhs: o.describe(),
                });
            }
        }
        let mut ops: Vec<&ValueData> = vec![&p];
        ops.extend(m.iter().map(|d| &**d));
        ops.extend(o.iter().map(|d| &**d));
        let u = self.unify("load", &ops)?;
        let mask_regs = m.as_ref().map(|_| u.regs[1].clone());
        // Masked-off elements load as zero already (a predicated load zeroes its registers
        // first, a guarded one yields zero): an `other` of +0 needs no select.
        let zero_other = o.as_ref().is_some_and(|d| {
            matches!(
                d.literal,
                Some(crate::codegen::lower::values::Literal::Int(0))
            ) || matches!(
                d.literal,
                Some(crate::codegen::lower::values::Literal::Float(x)) if x.to_bits() == 0
            )
        });
        let other_regs = o
            .as_ref()
            .filter(|_| !zero_other)
            .map(|_| u.regs[ops.len() - 1].clone());
        let elem_ty = elem.llvm(self.lx.em.ctx);
        let zero = elem_ty.const_zero();
        let Some(layout) = u.layout.clone() else {
            // A scalar load.
            let ptr0 = u.regs[0][0].into_pointer_value();
            let pred = mask_regs.as_ref().map(|r| r[0].into_int_value());
            let v = if self.lx.predicated(elem, 1) {
                self.lx.emit_load(ptr0, elem, 1, hint, pred)?[0]
            } else {
                self.guarded(pred, Some(zero), |kb| {
                    Ok(Some(kb.lx.emit_load(ptr0, elem, 1, hint, None)?[0]))
                })?
                .expect("load yields")
            };
            let v = match (&other_regs, pred) {
                (Some(o), Some(p)) => self.lx.em.b.build_select(p, v, o[0], "")?,
                _ => v,
            };
            self.lx
                .report
                .global(1, elem.mem_bytes(), 1, pred.is_some());
            return Ok(self.lx.values.new_value(
                Type::Scalar(elem),
                vec![],
                None,
                vec![v],
                AxisInfo::scalar(1),
            ));
        };
        let plan = self
            .lx
            .plan(&layout, &u.infos[0], m.as_ref().map(|_| &u.infos[1]), elem);
        let n = layout.num_regs();
        let mut out: Vec<Option<BasicValueEnum>> = vec![None; n];
        let mut done: HashMap<Vec<u64>, usize> = HashMap::new();
        let mut accesses = 0u64;
        for g in (0..n).step_by(plan.vec) {
            // Registers holding the same elements as an earlier vector reuse its values.
            let key = layout.reg_coord(g);
            if let Some(&g0) = done.get(&key) {
                for i in 0..plan.vec {
                    out[g + i] = out[g0 + i];
                }
                continue;
            }
            done.insert(key, g);
            accesses += 1;
            let ptr = u.regs[0][g].into_pointer_value();
            let pred = mask_regs.as_ref().map(|r| r[g].into_int_value());
            let vec = plan.vec;
            let default = if vec == 1 {
                zero
            } else {
                vec_of(elem_ty, vec as u32).const_zero()
            };
            let vals = if pred.is_none() || self.lx.predicated(elem, vec) {
                self.lx.emit_load(ptr, elem, vec, hint, pred)?
            } else {
                let loaded = self
                    .guarded(pred, Some(default), |kb| {
                        let vals = kb.lx.emit_load(ptr, elem, vec, hint, None)?;
                        kb.lx.em.pack(&vals, elem_ty).map(Some)
                    })?
                    .expect("load yields");
                self.lx.unpack(loaded, vec)?
            };
            for (i, v) in vals.into_iter().enumerate() {
                // The plan made the mask constant across the vector: its predicate selects
                // every element (one compare per vector, not per element).
                let v = match (&other_regs, pred) {
                    (Some(o), Some(p)) => self.lx.em.b.build_select(p, v, o[g + i], "")?,
                    _ => v,
                };
                out[g + i] = Some(v);
            }
        }
        let elem_bytes = elem.mem_bytes();
        self.lx
            .report
            .global(plan.vec as u64, elem_bytes, accesses, mask_regs.is_some());
        let regs: Vec<BasicValueEnum> = out
            .into_iter()
            .map(|v| v.expect("every register loaded"))
            .collect();
        let mut info = AxisInfo::unknown(&u.shape);
        info.constancy = u.infos[0].constancy.clone();
        Ok(self
            .lx
            .values
            .new_value(Type::Scalar(elem), u.shape, Some(layout), regs, info))
    }

    /// `*ptr = value` elementwise where `mask` is true. Each element is written once, even when
    /// the layout holds copies of it.
    #[track_caller]
    pub fn store(
        &mut self,
        ptr: Value,
        value: impl IntoOperand,
        mask: Option<Value>,
    ) -> Result<()> {
        self.store_with(ptr, value, mask, CacheHint::Default)
    }

    /// [`store`](Self::store) with a cache hint.
    #[track_caller]
    pub fn store_with(
        &mut self,
        ptr: Value,
        value: impl IntoOperand,
        mask: Option<Value>,
        hint: CacheHint,
    ) -> Result<()> {
        let value = value.into_operand();
        self.record(
            OpKind::Store { hint },
            [
                Some(Arg::from(ptr)),
                Some(value.into()),
                mask.map(Arg::from),
            ]
            .into_iter()
            .flatten()
            .collect(),
            |kb| kb.store_with_impl(ptr, value, mask, hint),
        )
    }

    fn store_with_impl(
        &mut self,
        ptr: Value,
        value: impl IntoOperand,
        mask: Option<Value>,
        hint: CacheHint,
    ) -> Result<()> {
        let at = self.rec.caller();
        let value = value.into_operand();
        self.reported("store", at, Some(ptr), |kb| {
            kb.store_inner(ptr, value, mask, hint)
        })
    }

    fn store_inner(
        &mut self,
        ptr: Value,
        value: Operand,
        mask: Option<Value>,
        hint: CacheHint,
    ) -> Result<()> {
        let (p, elem) = self.pointer_operand("store", ptr)?;
        let v = self.operand("store", value.into_operand(), Some(Type::Scalar(elem)))?;
        if v.ty != Type::Scalar(elem) {
            return Err(CodegenError::TypeMismatch {
                op: "store",
                lhs: p.describe(),
                rhs: v.describe(),
            });
        }
        let m = self.mask_operand("store", mask)?;
        let mut ops: Vec<&ValueData> = vec![&p, &v];
        ops.extend(m.iter().map(|d| &**d));
        let u = self.unify("store", &ops)?;
        let mask_regs = m.as_ref().map(|_| u.regs[2].clone());
        let Some(layout) = u.layout.clone() else {
            let ptr0 = u.regs[0][0].into_pointer_value();
            let val = u.regs[1][0];
            let pred = mask_regs.as_ref().map(|r| r[0].into_int_value());
            self.lx
                .report
                .global(1, elem.mem_bytes(), 1, pred.is_some());
            return self.guarded_store(ptr0, elem, &[val], hint, pred);
        };
        let plan = self
            .lx
            .plan(&layout, &u.infos[0], m.as_ref().map(|_| &u.infos[2]), elem);
        let (reg_free, _, _) = layout.free_masks();
        let rep = self.lx.representative(&layout)?;
        let mut accesses = 0u64;
        for g in (0..layout.num_regs()).step_by(plan.vec) {
            if g as u64 & reg_free != 0 {
                continue; // a copy of an element this thread stores from another register
            }
            accesses += 1;
            let ptr = u.regs[0][g].into_pointer_value();
            let vals: Vec<BasicValueEnum> = u.regs[1][g..g + plan.vec].to_vec();
            let pred = self
                .lx
                .and_pred(mask_regs.as_ref().map(|r| r[g].into_int_value()), rep)?;
            self.guarded_store(ptr, elem, &vals, hint, pred)?;
        }
        self.lx.report.global(
            plan.vec as u64,
            elem.mem_bytes(),
            accesses,
            mask_regs.is_some(),
        );
        Ok(())
    }

    /// Stores `vals` at `ptr` where `pred` holds: predicated where
    /// [`predicated`](Self::predicated), else with a branch around the store.
    fn guarded_store(
        &mut self,
        ptr: PointerValue<'ctx>,
        elem: DType,
        vals: &[BasicValueEnum<'ctx>],
        hint: CacheHint,
        pred: Option<IntValue<'ctx>>,
    ) -> Result<()> {
        if pred.is_none() || self.lx.predicated(elem, vals.len()) {
            return self.lx.emit_store(ptr, elem, vals, hint, pred);
        }
        self.guarded(pred, None, |kb| {
            kb.lx.emit_store(ptr, elem, vals, hint, None)?;
            Ok(None)
        })?;
        Ok(())
    }

    /// Atomically `*ptr = op(*ptr, value)` elementwise where `mask` is true; returns the old
    /// values (zero where masked off or where the layout holds a copy in another thread).
    #[track_caller]
    pub fn atomic_rmw(
        &mut self,
        op: AtomicOp,
        ptr: Value,
        value: impl IntoOperand,
        mask: Option<Value>,
    ) -> Result<Value> {
        let value = value.into_operand();
        self.record(
            OpKind::AtomicRmw(op),
            [
                Some(Arg::from(ptr)),
                Some(value.into()),
                mask.map(Arg::from),
            ]
            .into_iter()
            .flatten()
            .collect(),
            |kb| kb.atomic_rmw_impl(op, ptr, value, mask),
        )
    }

    fn atomic_rmw_impl(
        &mut self,
        op: AtomicOp,
        ptr: Value,
        value: impl IntoOperand,
        mask: Option<Value>,
    ) -> Result<Value> {
        let (p, elem) = self.pointer_operand("atomic_rmw", ptr)?;
        let v = self.operand("atomic_rmw", value.into_operand(), Some(Type::Scalar(elem)))?;
        if v.ty != Type::Scalar(elem) {
            return Err(CodegenError::TypeMismatch {
                op: "atomic_rmw",
                lhs: p.describe(),
                rhs: v.describe(),
            });
        }
        let ok = match op {
            AtomicOp::Add | AtomicOp::Min | AtomicOp::Max => {
                matches!(
                    elem,
                    DType::I32 | DType::I64 | DType::F32 | DType::F64 | DType::F16 | DType::BF16
                )
            }
            AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => matches!(elem, DType::I32 | DType::I64),
            AtomicOp::Xchg => matches!(elem, DType::I32 | DType::I64 | DType::F32 | DType::F64),
        };
        if !ok {
            return Err(CodegenError::InvalidType {
                op: "atomic_rmw",
                expected: format!(
                    "an element type {op:?} supports (i32, i64; floats for add/min/max/xchg)"
                ),
                value: p.describe(),
            });
        }
        let m = self.mask_operand("atomic_rmw", mask)?;
        let mut ops: Vec<&ValueData> = vec![&p, &v];
        ops.extend(m.iter().map(|d| &**d));
        let u = self.unify("atomic_rmw", &ops)?;
        let mask_regs = m.as_ref().map(|_| u.regs[2].clone());
        let is_float = elem.is_float();
        let bin = match (op, is_float) {
            (AtomicOp::Add, false) => llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAdd,
            (AtomicOp::Add, true) => llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFAdd,
            (AtomicOp::Min, false) => llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpMin,
            (AtomicOp::Min, true) => llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFMin,
            (AtomicOp::Max, false) => llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpMax,
            (AtomicOp::Max, true) => llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFMax,
            (AtomicOp::And, _) => llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAnd,
            (AtomicOp::Or, _) => llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpOr,
            (AtomicOp::Xor, _) => llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpXor,
            (AtomicOp::Xchg, _) => llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpXchg,
        };
        let zero = elem.llvm(self.lx.em.ctx).const_zero();
        self.per_element_atomic(
            "atomic_rmw",
            &u.layout,
            &u.regs[0],
            mask_regs.as_deref(),
            zero,
            |kb, i, ptr| {
                let val = u.regs[1][i];
                // `val` has the pointee's type (checked above).
                let ssid = kb.lx.device_scope();
                Ok(kb.lx.em.atomic_rmw_acq_rel(bin, ptr, val, ssid))
            },
        )
        .map(|regs| {
            self.lx.values.new_value(
                Type::Scalar(elem),
                u.shape.clone(),
                u.layout.clone(),
                regs,
                AxisInfo::unknown(&u.shape),
            )
        })
    }

    /// Atomically `*ptr = (*ptr == cmp) ? value : *ptr` elementwise (i32, i64); returns the old
    /// values.
    #[track_caller]
    pub fn atomic_cas(
        &mut self,
        ptr: Value,
        cmp: impl IntoOperand,
        value: impl IntoOperand,
        mask: Option<Value>,
    ) -> Result<Value> {
        let (cmp, value) = (cmp.into_operand(), value.into_operand());
        self.record(
            OpKind::AtomicCas,
            [
                Some(Arg::from(ptr)),
                Some(cmp.into()),
                Some(value.into()),
                mask.map(Arg::from),
            ]
            .into_iter()
            .flatten()
            .collect(),
            |kb| kb.atomic_cas_impl(ptr, cmp, value, mask),
        )
    }

    fn atomic_cas_impl(
        &mut self,
        ptr: Value,
        cmp: impl IntoOperand,
        value: impl IntoOperand,
        mask: Option<Value>,
    ) -> Result<Value> {
        let (p, elem) = self.pointer_operand("atomic_cas", ptr)?;
        if !matches!(elem, DType::I32 | DType::I64) {
            return Err(CodegenError::InvalidType {
                op: "atomic_cas",
                expected: "a pointer to i32 or i64".into(),
                value: p.describe(),
            });
        }
        let c = self.operand("atomic_cas", cmp.into_operand(), Some(Type::Scalar(elem)))?;
        let v = self.operand("atomic_cas", value.into_operand(), Some(Type::Scalar(elem)))?;
        for x in [&c, &v] {
            if x.ty != Type::Scalar(elem) {
                return Err(CodegenError::TypeMismatch {
                    op: "atomic_cas",
                    lhs: p.describe(),
                    rhs: x.describe(),
                });
            }
        }
        let m = self.mask_operand("atomic_cas", mask)?;
        let mut ops: Vec<&ValueData> = vec![&p, &c, &v];
        ops.extend(m.iter().map(|d| &**d));
        let u = self.unify("atomic_cas", &ops)?;
        let mask_regs = m.as_ref().map(|_| u.regs[3].clone());
        let zero = elem.llvm(self.lx.em.ctx).const_zero();
        self.per_element_atomic(
            "atomic_cas",
            &u.layout,
            &u.regs[0],
            mask_regs.as_deref(),
            zero,
            |kb, i, ptr| {
                let r = kb.lx.em.b.build_cmpxchg(
                    ptr,
                    u.regs[1][i].into_int_value(),
                    u.regs[2][i].into_int_value(),
                    AtomicOrdering::AcquireRelease,
                    AtomicOrdering::Monotonic,
                )?;
                let ssid = kb.lx.device_scope();
                kb.lx.em.set_sync_scope(r, ssid);
                Ok(kb.lx.em.b.build_extract_value(r, 0, "")?)
            },
        )
        .map(|regs| {
            self.lx.values.new_value(
                Type::Scalar(elem),
                u.shape.clone(),
                u.layout.clone(),
                regs,
                AxisInfo::unknown(&u.shape),
            )
        })
    }

    /// Runs `emit` once per element this thread owns (skipping copies), under the mask.
    fn per_element_atomic(
        &mut self,
        _op: &'static str,
        layout: &Option<Rc<TileLayout>>,
        ptrs: &[BasicValueEnum<'ctx>],
        mask: Option<&[BasicValueEnum<'ctx>]>,
        zero: BasicValueEnum<'ctx>,
        mut emit: impl FnMut(&mut Self, usize, PointerValue<'ctx>) -> Result<BasicValueEnum<'ctx>>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let (reg_free, rep) = match layout {
            Some(l) => (l.free_masks().0, self.lx.representative(l)?),
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
            let pred = self.lx.and_pred(mask.map(|m| m[i].into_int_value()), rep)?;
            let v = self
                .guarded(pred, Some(zero), |kb| emit(kb, i, ptr).map(Some))?
                .expect("atomic yields");
            out.push(v);
        }
        Ok(out)
    }
}
