//! The operands of a recorded elementwise op as lowering feeds them: the casts and constants
//! [`pair_feeds`](crate::codegen::analysis::operand_feeds::pair_feeds) names (the builder
//! checked the op with the same feeds), then each broadcast to the result's layout.

use std::rc::Rc;

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::operand_feeds::{fed_type, pair_feeds, Feed, Given};
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, Op};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::values::{Literal, Value, ValueData, ValueKind};
use crate::codegen::types::{DType, Type};

impl<'ctx> LowerCtx<'ctx> {
    /// Operand `i` of `op`, a value.
    pub(crate) fn op_operand(&self, op: &Op, i: usize) -> Result<Rc<ValueData<'ctx>>> {
        match op.args.get(i) {
            Some(Arg::Value(v)) => self
                .values
                .peek(
                    "lower",
                    Value {
                        kernel: self.values.kernel_id(),
                        index: v.0,
                    },
                )
                .cloned(),
            other => Err(CodegenError::arg(
                "lower",
                format!("{:?}: operand {i} is {other:?}, not a value", op.kind),
            )),
        }
    }

    /// Result 0 of `op`, as the builder made it (types, layout, facts).
    pub(crate) fn op_result(&self, op: &Op) -> Result<Rc<ValueData<'ctx>>> {
        let id = op
            .results
            .first()
            .ok_or_else(|| CodegenError::arg("lower", format!("{:?} has no result", op.kind)))?;
        self.values
            .peek(
                "lower",
                Value {
                    kernel: self.values.kernel_id(),
                    index: id.0,
                },
            )
            .cloned()
    }

    /// Operands `i` and `i + 1` of `op` (an op named `name`) fed as the builder checked them.
    pub(crate) fn fed_pair(
        &mut self,
        name: &'static str,
        op: &Op,
        i: usize,
    ) -> Result<[Rc<ValueData<'ctx>>; 2]> {
        let (ga, gb) = (self.given(op, i)?, self.given(op, i + 1)?);
        let feeds = pair_feeds(name, self.target, ga, gb)?;
        Ok([self.fed(op, i, feeds[0])?, self.fed(op, i + 1, feeds[1])?])
    }

    /// The registers of `d` in the shape and layout of `like` (an op's result).
    pub(crate) fn regs_as(
        &mut self,
        name: &'static str,
        d: &ValueData<'ctx>,
        like: &ValueData<'ctx>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        match &like.layout {
            Some(l) => Ok(self.broadcast_regs(name, d, &like.shape, l)?.0),
            None => Ok(d.regs.clone()),
        }
    }

    fn given(&self, op: &Op, i: usize) -> Result<Given> {
        Ok(match op.args.get(i) {
            Some(Arg::Int(v)) => Given::Lit(Literal::Int(*v)),
            Some(Arg::Float(x)) => Given::Lit(Literal::Float(*x)),
            _ => {
                let d = self.op_operand(op, i)?;
                Given::Value {
                    ty: d.ty,
                    literal: d.literal.filter(|_| d.is_scalar()),
                }
            }
        })
    }

    /// Operand `i` fed by `feed`: the value, its registers cast, or a constant.
    fn fed(&mut self, op: &Op, i: usize, feed: Feed) -> Result<Rc<ValueData<'ctx>>> {
        match feed {
            Feed::Value(None) => self.op_operand(op, i),
            Feed::Value(Some(to)) => {
                let d = self.op_operand(op, i)?;
                let Type::Scalar(from) = d.ty else {
                    return Err(CodegenError::arg(
                        "lower",
                        format!("{:?}: a cast of {}", op.kind, d.describe()),
                    ));
                };
                let mut c = ValueData::clone(&d);
                c.regs = self.cast_regs(&d.regs, from, to)?;
                c.ty = fed_type(d.ty, feed);
                Ok(Rc::new(c))
            }
            Feed::Const { lit, dtype } => Ok(self.const_value(lit, dtype)),
        }
    }

    /// A scalar constant of `dtype` holding `lit` (a literal operand as the builder made it).
    pub(crate) fn const_value(&self, lit: Literal, dtype: DType) -> Rc<ValueData<'ctx>> {
        let reg = match lit {
            Literal::Int(v) => self.const_int_reg(dtype, v),
            Literal::Float(x) => self.const_float_reg(dtype, x),
        };
        Rc::new(ValueData {
            kind: ValueKind::Scalar,
            ty: Type::Scalar(dtype),
            shape: Vec::new(),
            layout: None,
            regs: vec![reg],
            info: crate::codegen::analysis::axis_info::AxisInfo::scalar(1),
            scope: self.values.scope(),
            literal: Some(lit),
            shared: None,
        })
    }
}
