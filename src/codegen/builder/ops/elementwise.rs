//! Elementwise ops: arithmetic, bitwise ops, shifts, comparisons, `where`, pointer offsets.
//!
//! Operands broadcast with Triton's rules: a scalar is splat to the tile; tiles of equal rank
//! broadcast dims of size 1, taking the layout of the operand that already has the full shape
//! (when none does, broadcast one explicitly with [`KernelBuilder::broadcast_to`]). Operands of
//! equal shape must have equal layouts. Rust literals (`2`, `0.5`) and constants made with
//! `const_*` adapt to the other operand's type, as Python literals do in Triton; otherwise element
//! types must match (cast first).

pub use crate::codegen::ir::attrs::{BinaryOp, CmpOp, UnaryOp};
use std::rc::Rc;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::operand_feeds::{
    cast_info, const_info, fed_type, literal_in, pair_feeds, Feed, Given,
};
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::elementwise::{unify_plan, UnifiedPlan};
use crate::codegen::lower::values::{Literal, Value, ValueData, ValueKind};
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::{DType, Type};

pub use crate::codegen::builder::operand::{IntoOperand, Operand};

impl<'ctx> KernelBuilder<'ctx> {
    /// Looks up an operand; a literal becomes a constant of type `like` (or an i32/f32 if `like`
    /// is `None`).
    pub(crate) fn operand(
        &mut self,
        op: &'static str,
        o: Operand,
        like: Option<Type>,
    ) -> Result<Rc<ValueData<'ctx>>> {
        match o {
            Operand::Value(v) => self.get(op, v),
            Operand::Int(i) => {
                let ty = match like {
                    Some(Type::Scalar(d)) if !d.is_fp8() => d,
                    Some(Type::Scalar(d)) => {
                        return Err(CodegenError::InvalidType {
                            op,
                            expected: "a type arithmetic works on (cast fp8 first)".into(),
                            value: d.to_string(),
                        })
                    }
                    _ if i32::try_from(i).is_ok() => DType::I32,
                    _ => DType::I64,
                };
                self.literal_value(op, Literal::Int(i), ty)
            }
            Operand::Float(x) => {
                let ty = match like {
                    Some(Type::Scalar(d)) if d.is_float() => d,
                    Some(t @ Type::Scalar(_)) | Some(t @ Type::Ptr(..)) => {
                        return Err(CodegenError::TypeMismatch {
                            op,
                            lhs: format!("scalar<{t}>"),
                            rhs: format!("float literal {x}"),
                        })
                    }
                    None => DType::F32,
                };
                self.literal_value(op, Literal::Float(x), ty)
            }
        }
    }

    /// Checks that `o` is an `i32` scalar (a value or a Rust integer that fits); `what` names it
    /// in the error.
    pub(crate) fn i32_checked(
        &mut self,
        op: &'static str,
        o: Operand,
        what: &str,
    ) -> Result<Rc<ValueData<'ctx>>> {
        let d = self.operand(op, o, Some(Type::Scalar(DType::I32)))?;
        if !d.is_scalar() || d.ty != Type::Scalar(DType::I32) {
            return Err(CodegenError::InvalidType {
                op,
                expected: format!("an i32 scalar {what}"),
                value: d.describe(),
            });
        }
        Ok(d)
    }

    fn literal_value(
        &mut self,
        op: &'static str,
        lit: Literal,
        ty: DType,
    ) -> Result<Rc<ValueData<'ctx>>> {
        let v = match (lit, ty.is_float()) {
            (Literal::Int(i), false) => self.const_int(ty, i),
            (Literal::Int(i), true) => self.const_float(ty, literal_in(op, i as f64, ty)?),
            (Literal::Float(x), true) => self.const_float(ty, literal_in(op, x, ty)?),
            (Literal::Float(x), false) => {
                return Err(CodegenError::TypeMismatch {
                    op,
                    lhs: format!("scalar<{ty}>"),
                    rhs: format!("float literal {x}"),
                })
            }
        }?;
        self.get(op, v)
    }

    /// Two operands brought to one type as [`operand_pair`](Self::operand_pair) brings them,
    /// from their types alone: what they are once fed (types, layouts, facts; no registers),
    /// for an op lowered from its record, which feeds them again (`lower/program.rs`).
    pub(crate) fn pair_checked(
        &mut self,
        op: &'static str,
        a: Operand,
        b: Operand,
    ) -> Result<[Rc<ValueData<'ctx>>; 2]> {
        let (ga, da) = self.given(op, a)?;
        let (gb, db) = self.given(op, b)?;
        let feeds = pair_feeds(op, self.lx.target, ga, gb)?;
        Ok([self.fed(op, da, feeds[0])?, self.fed(op, db, feeds[1])?])
    }

    /// Operand `o` as [`pair_feeds`] sees it, and its value.
    fn given(
        &mut self,
        op: &'static str,
        o: Operand,
    ) -> Result<(Given, Option<Rc<ValueData<'ctx>>>)> {
        Ok(match o {
            Operand::Value(v) => {
                let d = self.get(op, v)?;
                let g = Given::Value {
                    ty: d.ty,
                    literal: d.literal.filter(|_| d.is_scalar()),
                };
                (g, Some(d))
            }
            Operand::Int(i) => (Given::Lit(Literal::Int(i)), None),
            Operand::Float(x) => (Given::Lit(Literal::Float(x)), None),
        })
    }

    /// An operand once fed: the value, the value cast, or a constant; without registers.
    fn fed(
        &self,
        op: &'static str,
        d: Option<Rc<ValueData<'ctx>>>,
        feed: Feed,
    ) -> Result<Rc<ValueData<'ctx>>> {
        let scope = self.lx.values.scope();
        match (d, feed) {
            (Some(d), Feed::Value(None)) => Ok(d),
            (Some(d), Feed::Value(Some(to))) => {
                let mut c = ValueData::clone(&d);
                if let Type::Scalar(from) = d.ty {
                    c.info = cast_info(&d.info, from, to);
                }
                c.ty = fed_type(d.ty, feed);
                c.regs = Vec::new();
                c.literal = None;
                c.scope = scope;
                Ok(Rc::new(c))
            }
            (_, Feed::Const { lit, dtype }) => Ok(Rc::new(ValueData {
                kind: ValueKind::Scalar,
                ty: Type::Scalar(dtype),
                shape: Vec::new(),
                layout: None,
                regs: Vec::new(),
                info: const_info(lit),
                scope,
                literal: Some(lit),
                shared: None,
            })),
            (None, Feed::Value(_)) => Err(CodegenError::arg(op, "a literal fed as a value")),
        }
    }

    /// The common shape and layout of `ds` ([`unify_plan`]), in this kernel's scope.
    pub(crate) fn unify_plan(
        &self,
        op: &'static str,
        ds: &[&ValueData<'ctx>],
    ) -> Result<UnifiedPlan> {
        unify_plan(op, ds, self.lx.threads_per_warp(), self.lx.num_warps)
    }

    /// `a op b`, elementwise with broadcasting.
    #[track_caller]
    pub fn binary(
        &mut self,
        op: BinaryOp,
        a: impl IntoOperand,
        b: impl IntoOperand,
    ) -> Result<Value> {
        let (a, b) = (a.into_operand(), b.into_operand());
        self.record_checked(OpKind::Binary(op), vec![a.into(), b.into()], |kb| {
            kb.binary_impl(op, a, b)
        })
    }

    fn binary_impl(
        &mut self,
        op: BinaryOp,
        a: impl IntoOperand,
        b: impl IntoOperand,
    ) -> Result<Value> {
        let name = op.name();
        let [mut x, mut y] = self.pair_checked(name, a.into_operand(), b.into_operand())?;
        if op == BinaryOp::Add && y.ty.pointee().is_some() && x.ty.pointee().is_none() {
            std::mem::swap(&mut x, &mut y);
        }
        if let Type::Ptr(pointee, _) = x.ty {
            return self.ptr_add(name, op, &x, &y, pointee);
        }
        if x.ty != y.ty {
            return Err(CodegenError::TypeMismatch {
                op: name,
                lhs: x.describe(),
                rhs: y.describe(),
            });
        }
        let Type::Scalar(dt) = x.ty else {
            unreachable!("pointers handled above")
        };
        self.check_binary_dtype(op, dt, &x)?;
        if op == BinaryOp::Rem && dt == DType::BF16 && self.lx.target.lowering().lacks_bf16_rem() {
            // LLVM's AMDGPU back end has no bf16 fmod and aborts on one; computing it in f32
            // does not help, since InstCombine narrows it back to bf16.
            return Err(CodegenError::Unsupported {
                op: "rem",
                target: self.lx.target.to_string(),
                reason: "bf16 remainder has no AMDGPU lowering; cast to f32 first".into(),
            });
        }
        let u = self.unify_plan(name, &[&x, &y])?;
        let (ia, ib) = (&u.infos[0], &u.infos[1]);
        let info = crate::codegen::passes::axis_flow::binary_facts(op, dt.is_int(), ia, ib);
        Ok(self
            .lx
            .values
            .new_value(x.ty, u.shape, u.layout, vec![], info))
    }

    pub(crate) fn check_binary_dtype(&self, op: BinaryOp, dt: DType, x: &ValueData) -> Result<()> {
        let bitwise = matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor);
        let int_only = matches!(op, BinaryOp::Shl | BinaryOp::Shr) || bitwise;
        let bad = if dt.is_fp8() {
            Some("a type arithmetic works on (cast fp8 to f16/f32 first)")
        } else if op == BinaryOp::DivRn && dt.is_int() {
            Some("a float type (integer division is `div`)")
        } else if int_only && !dt.is_int() {
            Some("an integer type")
        } else if dt == DType::I1 && !bitwise {
            Some("a number type (i1 takes and, or, xor)")
        } else {
            None
        };
        match bad {
            Some(expected) => Err(CodegenError::InvalidType {
                op: op.name(),
                expected: expected.into(),
                value: x.describe(),
            }),
            None => Ok(()),
        }
    }

    fn ptr_add(
        &mut self,
        name: &'static str,
        op: BinaryOp,
        p: &ValueData<'ctx>,
        off: &ValueData<'ctx>,
        pointee: DType,
    ) -> Result<Value> {
        let int_off = matches!(off.ty, Type::Scalar(d) if d.is_int() && d != DType::I1);
        if op != BinaryOp::Add || !int_off {
            return Err(CodegenError::InvalidType {
                op: name,
                expected: "pointer + integer offset (i8..i64)".into(),
                value: format!("{} {} {}", p.describe(), name, off.describe()),
            });
        }
        let u = self.unify_plan(name, &[p, off])?;
        let info = AxisInfo::add(&u.infos[0], &u.infos[1], pointee.mem_bytes());
        Ok(self
            .lx
            .values
            .new_value(p.ty, u.shape, u.layout, vec![], info))
    }

    /// `a + b` (pointer + offset in elements when `a` or `b` is a pointer).
    #[track_caller]
    pub fn add(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Add, a, b)
    }
    /// `a - b`.
    #[track_caller]
    pub fn sub(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Sub, a, b)
    }
    /// `a * b`.
    #[track_caller]
    pub fn mul(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Mul, a, b)
    }
    /// `a / b` as Triton divides: integers rounding toward zero; f32 approximately
    /// (`div.full.f32`, within 2 ulp, cheaper than IEEE division), f16 and bf16 in f32 and
    /// rounded back, f64 exactly. [`div_rn`](Self::div_rn) is the IEEE division.
    #[track_caller]
    pub fn div(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Div, a, b)
    }
    /// `a / b` correctly rounded (IEEE 754 round-to-nearest, PTX's `div.rn`; Triton's
    /// `div_rn`): floats only.
    #[track_caller]
    pub fn div_rn(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::DivRn, a, b)
    }
    /// `a % b`.
    #[track_caller]
    pub fn rem(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Rem, a, b)
    }
    /// `min(a, b)`.
    #[track_caller]
    pub fn min(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Min, a, b)
    }
    /// `max(a, b)`.
    #[track_caller]
    pub fn max(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Max, a, b)
    }
    /// `a & b`.
    #[track_caller]
    pub fn and(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::And, a, b)
    }
    /// `a | b`.
    #[track_caller]
    pub fn or(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Or, a, b)
    }
    /// `a ^ b`.
    #[track_caller]
    pub fn xor(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Xor, a, b)
    }
    /// `a << b`.
    #[track_caller]
    pub fn shl(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Shl, a, b)
    }
    /// `a >> b` (arithmetic).
    #[track_caller]
    pub fn shr(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.binary(BinaryOp::Shr, a, b)
    }

    /// `a <op> b` as an i1 tile (or scalar).
    #[track_caller]
    pub fn cmp(&mut self, op: CmpOp, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        let (a, b) = (a.into_operand(), b.into_operand());
        self.record_checked(OpKind::Cmp(op), vec![a.into(), b.into()], |kb| {
            kb.cmp_impl(op, a, b)
        })
    }

    fn cmp_impl(&mut self, op: CmpOp, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        let [x, y] = self.pair_checked("cmp", a.into_operand(), b.into_operand())?;
        let dt = match (x.ty, y.ty) {
            (Type::Scalar(d), Type::Scalar(e)) if d == e && !d.is_fp8() => d,
            (Type::Scalar(d), Type::Scalar(e)) if d == e => {
                return Err(CodegenError::InvalidType {
                    op: "cmp",
                    expected: "a comparable type (cast fp8 first)".into(),
                    value: x.describe(),
                })
            }
            _ => {
                return Err(CodegenError::TypeMismatch {
                    op: "cmp",
                    lhs: x.describe(),
                    rhs: y.describe(),
                })
            }
        };
        let u = self.unify_plan("cmp", &[&x, &y])?;
        let info = match (op, dt.is_int()) {
            (CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge, true) => {
                // `a < b` with `a` running and `b` aligned, or the mirror image.
                let (run, bound) = if u.infos[0].contiguity.iter().any(|&c| c > 1) {
                    (&u.infos[0], &u.infos[1])
                } else {
                    (&u.infos[1], &u.infos[0])
                };
                AxisInfo::ordered_compare(run, bound)
            }
            _ => AxisInfo::meet_constancy(&u.infos[0], &u.infos[1]),
        };
        Ok(self
            .lx
            .values
            .new_value(Type::Scalar(DType::I1), u.shape, u.layout, vec![], info))
    }

    /// `a == b`.
    #[track_caller]
    pub fn eq(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.cmp(CmpOp::Eq, a, b)
    }
    /// `a != b`.
    #[track_caller]
    pub fn ne(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.cmp(CmpOp::Ne, a, b)
    }
    /// `a < b`.
    #[track_caller]
    pub fn lt(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.cmp(CmpOp::Lt, a, b)
    }
    /// `a <= b`.
    #[track_caller]
    pub fn le(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.cmp(CmpOp::Le, a, b)
    }
    /// `a > b`.
    #[track_caller]
    pub fn gt(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.cmp(CmpOp::Gt, a, b)
    }
    /// `a >= b`.
    #[track_caller]
    pub fn ge(&mut self, a: impl IntoOperand, b: impl IntoOperand) -> Result<Value> {
        self.cmp(CmpOp::Ge, a, b)
    }

    /// `cond ? x : y` elementwise (Triton's `where`); `cond` is i1, `x` and `y` of one type.
    #[track_caller]
    pub fn where_(
        &mut self,
        cond: Value,
        x: impl IntoOperand,
        y: impl IntoOperand,
    ) -> Result<Value> {
        let (x, y) = (x.into_operand(), y.into_operand());
        self.record_checked(OpKind::Where, vec![cond.into(), x.into(), y.into()], |kb| {
            kb.where_impl(cond, x, y)
        })
    }

    fn where_impl(
        &mut self,
        cond: Value,
        x: impl IntoOperand,
        y: impl IntoOperand,
    ) -> Result<Value> {
        let c = self.get("where", cond)?;
        if c.ty != Type::Scalar(DType::I1) {
            return Err(CodegenError::InvalidType {
                op: "where",
                expected: "an i1 condition".into(),
                value: c.describe(),
            });
        }
        let [a, b] = self.pair_checked("where", x.into_operand(), y.into_operand())?;
        if a.ty != b.ty {
            return Err(CodegenError::TypeMismatch {
                op: "where",
                lhs: a.describe(),
                rhs: b.describe(),
            });
        }
        let u = self.unify_plan("where", &[&c, &a, &b])?;
        let info = AxisInfo::select(&u.infos[0], &u.infos[1], &u.infos[2]);
        Ok(self
            .lx
            .values
            .new_value(a.ty, u.shape, u.layout, vec![], info))
    }

    /// A unary op.
    #[track_caller]
    pub fn unary(&mut self, op: UnaryOp, a: Value) -> Result<Value> {
        self.record_checked(OpKind::Unary(op), vec![a.into()], |kb| kb.unary_impl(op, a))
    }

    fn unary_impl(&mut self, op: UnaryOp, a: Value) -> Result<Value> {
        let name = match op {
            UnaryOp::Neg => "neg",
            UnaryOp::Abs => "abs",
            UnaryOp::Not => "not",
        };
        let x = self.get(name, a)?;
        match x.ty {
            Type::Scalar(d)
                if !d.is_fp8()
                    && (op == UnaryOp::Not || d != DType::I1)
                    && (op != UnaryOp::Not || d.is_int()) => {}
            _ => {
                return Err(CodegenError::InvalidType {
                    op: name,
                    expected: if op == UnaryOp::Not {
                        "an integer type"
                    } else {
                        "a number type"
                    }
                    .into(),
                    value: x.describe(),
                })
            }
        };
        let info = AxisInfo::keep_constancy(&x.info);
        Ok(self
            .lx
            .values
            .new_value(x.ty, x.shape.clone(), x.layout.clone(), vec![], info))
    }

    /// `-a`.
    #[track_caller]
    pub fn neg(&mut self, a: Value) -> Result<Value> {
        self.unary(UnaryOp::Neg, a)
    }
    /// `|a|`.
    #[track_caller]
    pub fn abs(&mut self, a: Value) -> Result<Value> {
        self.unary(UnaryOp::Abs, a)
    }
    /// `!a` (bitwise).
    #[track_caller]
    pub fn not(&mut self, a: Value) -> Result<Value> {
        self.unary(UnaryOp::Not, a)
    }
}
