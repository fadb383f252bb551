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

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::ops::elementwise::{IntoOperand, Operand, Unified};
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind};
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

    /// The operands `ds` (the pointer first) and the optional `mask` after them, brought to one
    /// shape and layout; with the mask's registers.
    fn unify_masked(
        &mut self,
        op: &'static str,
        ds: &[&ValueData<'ctx>],
        mask: Option<Value>,
    ) -> Result<(Unified<'ctx>, Option<Vec<BasicValueEnum<'ctx>>>)> {
        let m = self.mask_operand(op, mask)?;
        let mut ops = ds.to_vec();
        ops.extend(m.iter().map(|d| &**d));
        let u = self.unify(op, &ops)?;
        let mask_regs = m.map(|_| u.regs[ds.len()].clone());
        Ok((u, mask_regs))
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
            Some(o) => Some(self.element_operand("load", &p, elem, o)?),
            None => None,
        };
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
        let Some(layout) = u.layout.clone() else {
            // A scalar load.
            let ptr0 = u.regs[0][0].into_pointer_value();
            let pred = mask_regs.as_ref().map(|r| r[0].into_int_value());
            let other0 = other_regs.as_ref().map(|o| o[0]);
            let v = self.lx.load_scalar(ptr0, pred, other0, elem, hint)?;
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
        let regs = self.lx.load_regs(
            &layout,
            plan.vec,
            &u.regs[0],
            mask_regs.as_deref(),
            other_regs.as_deref(),
            elem,
            hint,
        )?;
        let mut info = AxisInfo::unknown(&u.shape);
        info.constancy = u.infos[0].constancy.clone();
        Ok(self
            .lx
            .values
            .new_value(Type::Scalar(elem), u.shape, Some(layout), regs, info))
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
        let v = self.element_operand("store", &p, elem, value)?;
        let (u, mask_regs) = self.unify_masked("store", &[&p, &v], mask)?;
        let Some(layout) = u.layout.clone() else {
            // A scalar store: one thread writes (Triton's rule), under the mask if there is one.
            let ptr0 = u.regs[0][0].into_pointer_value();
            let first = self.lx.first_thread()?;
            let mask = mask_regs.as_ref().map(|r| r[0].into_int_value());
            self.lx
                .report
                .global(1, elem.mem_bytes(), 1, mask.is_some());
            let pred = self.lx.and_pred(mask, Some(first))?;
            return self
                .lx
                .guarded_store(ptr0, elem, &[u.regs[1][0]], hint, pred);
        };
        let mask_info = mask_regs.as_ref().map(|_| &u.infos[2]);
        let plan = self.lx.plan(&layout, &u.infos[0], mask_info, elem);
        self.lx.store_regs(
            &layout,
            plan.vec,
            &u.regs[0],
            &u.regs[1],
            mask_regs.as_deref(),
            elem,
            hint,
        )
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
        let (u, mask_regs) = self.unify_masked("atomic_rmw", &[&p, &v], mask)?;
        self.lx
            .atomic_rmw_regs(
                op,
                elem,
                &u.layout,
                &u.regs[0],
                &u.regs[1],
                mask_regs.as_deref(),
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
        let c = self.element_operand("atomic_cas", &p, elem, cmp.into_operand())?;
        let v = self.element_operand("atomic_cas", &p, elem, value.into_operand())?;
        let (u, mask_regs) = self.unify_masked("atomic_cas", &[&p, &c, &v], mask)?;
        self.lx
            .atomic_cas_regs(
                elem,
                &u.layout,
                &u.regs[0],
                &u.regs[1],
                &u.regs[2],
                mask_regs.as_deref(),
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
}
