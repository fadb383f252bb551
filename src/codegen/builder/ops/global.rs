//! Global memory: masked `load` (with `other`) and `store`, atomics; all vectorised where the
//! layout and the pointer allow.
//!
//! Vector width along a tile dim `d` is the smallest of: the registers the layout keeps
//! contiguous and aligned along `d` ([`TileLayout::contiguous_regs`](crate::codegen::analysis::tile_layout::TileLayout::contiguous_regs)), the pointer's contiguity
//! and its divisibility (in elements), the mask's constancy, and 16 bytes. The dim with the widest
//! vector wins. The mask is uniform over a vector, so a masked memcpy of `n` (a multiple of 16)
//! f32 still emits `ld.global.v4`: on NVIDIA a predicated one (`@p ld.global.v4.b32`, inline
//! PTX, as Triton emits), elsewhere a branch around a plain one.

pub use crate::codegen::ir::attrs::{AtomicOp, CacheHint};
use std::rc::Rc;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::ops::elementwise::{IntoOperand, Operand};
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind, ValueId};
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

    /// `value` as an operand of `elem`, the element type that `p` points to: of another type,
    /// a mismatch naming both.
    fn element_operand(
        &mut self,
        op: &'static str,
        p: &ValueData<'ctx>,
        elem: DType,
        value: Operand,
    ) -> Result<Rc<ValueData<'ctx>>> {
        let v = self.operand(op, value, Some(Type::Scalar(elem)))?;
        if v.ty != Type::Scalar(elem) {
            return Err(CodegenError::TypeMismatch {
                op,
                lhs: p.describe(),
                rhs: v.describe(),
            });
        }
        Ok(v)
    }

    /// The old values an atomic on operands `ds` (the pointer first) and the optional `mask`
    /// after them returns, in their common shape and layout (lowered from the record by
    /// `lower/global_ops.rs`).
    fn atomic_result(
        &mut self,
        op: &'static str,
        elem: DType,
        ds: &[&ValueData<'ctx>],
        mask: Option<Value>,
    ) -> Result<Value> {
        let m = self.mask_operand(op, mask)?;
        let mut ops = ds.to_vec();
        ops.extend(m.iter().map(|d| &**d));
        let u = self.unify_plan(op, &ops)?;
        let info = AxisInfo::unknown(&u.shape);
        // A scalar atomic is done once (by the CTA's or the warp role's first thread, as Triton
        // does), and its old value reaches the other threads through shared memory.
        let slot = match u.layout {
            None => Some(self.place_scratch(op, elem.mem_bytes(), 8, true)?),
            Some(_) => None,
        };
        let v = self
            .lx
            .values
            .new_value(Type::Scalar(elem), u.shape, u.layout, vec![], info);
        if let Some(s) = slot {
            self.lx.staged.atomics.put(ValueId(v.index), s);
        }
        Ok(v)
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
        self.record_checked(
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
            |kb| kb.load_checked(ptr, mask, other),
        )
    }

    /// Checks a load and makes its result (lowered from the record by `lower/global_ops.rs`).
    pub(crate) fn load_checked(
        &mut self,
        ptr: Value,
        mask: Option<Value>,
        other: Option<Operand>,
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
            Some(o) => Some(self.element_operand("load", &p, elem, o)?),
            None => None,
        };
        let mut ops: Vec<&ValueData> = vec![&p];
        ops.extend(m.iter().map(|d| &**d));
        ops.extend(o.iter().map(|d| &**d));
        let u = self.unify_plan("load", &ops)?;
        if u.layout.is_none() {
            return Ok(self.lx.values.new_value(
                Type::Scalar(elem),
                vec![],
                None,
                vec![],
                AxisInfo::scalar(1),
            ));
        }
        let mut info = AxisInfo::unknown(&u.shape);
        info.constancy = u.infos[0].constancy.clone();
        Ok(self
            .lx
            .values
            .new_value(Type::Scalar(elem), u.shape, u.layout, vec![], info))
    }

    /// `*ptr = value` elementwise where `mask` is true. Each element is written once, even when
    /// the layout holds copies of it; a scalar store (scalar pointer, value and mask) is done by
    /// the first thread of the CTA (of the warp role, inside one), as in Triton.
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
        self.record_checked(
            OpKind::Store { hint },
            [
                Some(Arg::from(ptr)),
                Some(value.into()),
                mask.map(Arg::from),
            ]
            .into_iter()
            .flatten()
            .collect(),
            |kb| kb.store_checked(ptr, value, mask),
        )
    }

    /// Checks a store (lowered from the record by `lower/global_ops.rs`).
    fn store_checked(&mut self, ptr: Value, value: Operand, mask: Option<Value>) -> Result<()> {
        let (p, elem) = self.pointer_operand("store", ptr)?;
        let v = self.element_operand("store", &p, elem, value)?;
        let m = self.mask_operand("store", mask)?;
        let mut ops: Vec<&ValueData> = vec![&p, &v];
        ops.extend(m.iter().map(|d| &**d));
        self.unify_plan("store", &ops)?;
        Ok(())
    }

    /// Atomically `*ptr = op(*ptr, value)` elementwise where `mask` is true; returns the old
    /// values (zero where masked off or where the layout holds a copy in another thread). With
    /// a scalar pointer it happens once per program, as in Triton: the first thread of the CTA
    /// (or of the warp role) performs it and every thread gets the old value (zero when masked
    /// off).
    #[track_caller]
    pub fn atomic_rmw(
        &mut self,
        op: AtomicOp,
        ptr: Value,
        value: impl IntoOperand,
        mask: Option<Value>,
    ) -> Result<Value> {
        let value = value.into_operand();
        self.record_checked(
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
        let v = self.element_operand("atomic_rmw", &p, elem, value.into_operand())?;
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
        self.atomic_result("atomic_rmw", elem, &[&p, &v], mask)
    }

    /// Atomically `*ptr = (*ptr == cmp) ? value : *ptr` elementwise (i32, i64); returns the old
    /// values. A scalar one happens once per program, like a scalar
    /// [`atomic_rmw`](Self::atomic_rmw).
    #[track_caller]
    pub fn atomic_cas(
        &mut self,
        ptr: Value,
        cmp: impl IntoOperand,
        value: impl IntoOperand,
        mask: Option<Value>,
    ) -> Result<Value> {
        let (cmp, value) = (cmp.into_operand(), value.into_operand());
        self.record_checked(
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
        let c = self.element_operand("atomic_cas", &p, elem, cmp.into_operand())?;
        let v = self.element_operand("atomic_cas", &p, elem, value.into_operand())?;
        self.atomic_result("atomic_cas", elem, &[&p, &c, &v], mask)
    }
}
