//! Lowering of recorded reductions (`reduce`, `reduce_with`, `argmax`, `argmin`) and scans
//! (`associative_scan`, `associative_scan_with`): the stages their checks planned, combining
//! with the op's own binary op or the user's recorded function, and their report row.

use std::rc::Rc;
use std::sync::Arc;

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::BinaryOp;
use crate::codegen::ir::{Op, OpKind, ValueId};
use crate::codegen::lower::combine_body::CombineBody;
use crate::codegen::lower::composite::LowerFn;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::reduce_shape::reduce_binary;
use crate::codegen::lower::reduce_stages::reduce_regs;
use crate::codegen::lower::scan_shape::scan_binary;
use crate::codegen::lower::scan_stages::scan_regs;
use crate::codegen::lower::values::{Value, ValueData};
use crate::codegen::types::{DType, Type};

/// The registers of the result of `op`, a recorded reduction.
pub(crate) fn lower_reduction<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    op: &Op,
    lower: LowerFn,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let (name, combine, arg) = match &op.kind {
        OpKind::Reduce { op: r, .. } => ("reduce", Some(reduce_binary(*r)), None),
        OpKind::ReduceWith(_) => ("reduce", None, None),
        OpKind::ArgMax(axis) => ("argmax", Some(BinaryOp::Max), Some((*axis, true))),
        OpKind::ArgMin(axis) => ("argmin", Some(BinaryOp::Min), Some((*axis, false))),
        k => {
            return Err(CodegenError::arg(
                "lower",
                format!("{k:?} is not a reduction"),
            ))
        }
    };
    let (t, l, elem) = tile_operand(lx, name, op)?;
    let plan = lx.staged.reduces.take(name, op)?;
    let body = plan.body;
    lx.report_row(name, op.loc, Some(&t), |lx| match arg {
        None => reduce_regs(
            lx,
            &l,
            &t.regs,
            elem,
            &plan.shape,
            plan.scratch,
            &mut |lx: &mut LowerCtx<'ctx>, a, b| {
                combine_regs(lx, combine, body.as_ref(), lower, elem, a, b)
            },
        ),
        Some((axis, max)) => {
            // One reduction of 64-bit keys that carry each element's index.
            let index = lx.dim_coords(&l, axis)?;
            let keys = lx.arg_reduce_keys(&t.regs, &index, elem, max)?;
            let best = reduce_regs(
                lx,
                &l,
                &keys,
                DType::I64,
                &plan.shape,
                plan.scratch,
                &mut |lx: &mut LowerCtx<'ctx>, a, b| {
                    combine_regs(lx, combine, None, lower, DType::I64, a, b)
                },
            )?;
            lx.arg_reduce_indices(&best, max)
        }
    })
}

/// The registers of the result of `op`, a recorded `associative_scan`.
pub(crate) fn lower_scan<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    op: &Op,
    lower: LowerFn,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    const NAME: &str = "associative_scan";
    let combine = match &op.kind {
        OpKind::Scan { op: s, .. } => Some(scan_binary(*s)),
        OpKind::ScanWith(_) => None,
        k => return Err(CodegenError::arg("lower", format!("{k:?} is not a scan"))),
    };
    let (t, l, elem) = tile_operand(lx, NAME, op)?;
    let plan = lx.staged.scans.take(NAME, op)?;
    let body = plan.body;
    lx.report_row(NAME, op.loc, Some(&t), |lx| {
        scan_regs(
            lx,
            &l,
            &t.regs,
            elem,
            &plan.shape,
            plan.scratch,
            &mut |lx: &mut LowerCtx<'ctx>, a, b| {
                combine_regs(lx, combine, body.as_ref(), lower, elem, a, b)
            },
        )
    })
}

/// `a` and `b` combined by the op's own binary op, or else by the user's recorded function
/// (its ops lowered with `lower`).
fn combine_regs<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    own: Option<BinaryOp>,
    body: Option<&CombineBody>,
    lower: LowerFn,
    elem: DType,
    a: BasicValueEnum<'ctx>,
    b: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    match (own, body) {
        (Some(bop), _) => Ok(lx.binary_regs(bop, elem, &[a], &[b])?[0]),
        (None, Some(body)) => combine_with(lx, body, lower, a, b),
        (None, None) => Err(CodegenError::arg(
            "lower",
            "internal: a reduction or scan without a combine function",
        )),
    }
}

/// Operand 0 of `op` (named `name`), a register tile: its data, layout and element type.
fn tile_operand<'ctx>(
    lx: &LowerCtx<'ctx>,
    name: &'static str,
    op: &Op,
) -> Result<(Rc<ValueData<'ctx>>, Arc<TileLayout>, DType)> {
    let t = lx.op_operand(op, 0)?;
    let l = t.layout.clone().ok_or_else(|| {
        CodegenError::arg(name, format!("{} is not a register tile", t.describe()))
    })?;
    let elem = match t.ty {
        Type::Scalar(d) => d,
        Type::Ptr(..) => DType::I64,
    };
    Ok((t, l, elem))
}

/// The user's recorded combine function `body` on registers `a` and `b`: its parameters take
/// them, its ops are lowered from their record with `lower`, its yield is the result.
fn combine_with<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    body: &CombineBody,
    lower: LowerFn,
    a: BasicValueEnum<'ctx>,
    b: BasicValueEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    if let Some(e) = &body.refused {
        return Err(e.clone());
    }
    let kernel = lx.values.kernel_id();
    let value = |id: ValueId| Value {
        kernel,
        index: id.0,
    };
    for (p, r) in body.params.iter().zip([a, b]) {
        lx.values.update(value(*p), |d| d.regs = vec![r]);
    }
    for op in &body.ops {
        lower(lx, op).map_err(|e| e.at(op.loc))?;
    }
    let d = lx.values.peek("combine", value(body.yields))?;
    d.regs.first().copied().ok_or_else(|| {
        CodegenError::arg(
            "combine",
            format!(
                "the combine function's result {} has no register",
                d.describe()
            ),
        )
    })
}
