//! Lowering structured control flow from its record: a loop's or branch's blocks and phis, with
//! the ops of its regions lowered in between, and the early return.
//!
//! The builder checked the op and made its region's parameters and its results (types, layouts,
//! the loop's fixpoint facts) without registers; here the parameters get the phis, the region's
//! ops are lowered in program order (nested control flow recursively), and the results get the
//! phis of the header or the join.

use inkwell::values::BasicValueEnum;

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, Op, OpId, OpKind, Program, RegionId, ValueId};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::program::lower_op;
use crate::codegen::lower::role_view::RoleView;
use crate::codegen::lower::values::Value;
use crate::codegen::target::nvptx::roles::set_max_registers;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::{DType, Type};

const OP: &str = "lower";

/// Emits `op`, a control-flow op with its regions, or any other op.
pub(crate) fn lower_op_in<'ctx>(lx: &mut LowerCtx<'ctx>, prog: &Program, op: &Op) -> Result<()> {
    match &op.kind {
        OpKind::For { step } => lower_for(lx, prog, op, *step),
        OpKind::If => lower_if(lx, prog, op, true),
        OpKind::IfThen => lower_if(lx, prog, op, false),
        OpKind::Return => lower_return(lx, op),
        OpKind::WarpRoles(_) => lx.ensure_body(),
        OpKind::InRole(index) => lower_in_role(lx, prog, op, *index),
        OpKind::RoleReplica => {
            // A role of one replica is replica 0.
            let zero = lx.em.ctx.i32_type().const_zero();
            let r = lx.role.and_then(|r| r.replica).unwrap_or(zero);
            let id = *op.results.first().ok_or_else(|| no_region(op))?;
            set(lx, id, vec![r.into()]);
            Ok(())
        }
        _ => lower_op(lx, op),
    }
}

/// Lowers the program: the ops of its body, in program order, the kernel's function made just
/// before `body_op` (the first op that needs it).
pub(crate) fn lower_body<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    prog: &Program,
    body_op: Option<OpId>,
) -> Result<()> {
    lx.body_op = body_op;
    lower_region(lx, prog, prog.body)
}

/// Lowers the ops of `region`, in program order.
fn lower_region<'ctx>(lx: &mut LowerCtx<'ctx>, prog: &Program, region: RegionId) -> Result<()> {
    for &id in &prog.region(region).ops {
        let op = prog.op(id);
        if lx.body_op == Some(id) {
            lx.ensure_body()?;
        }
        if let Some(label) = prog.label_before(id) {
            lx.report.set_label(label);
        }
        let rows = lx.report.mark();
        lower_op_in(lx, prog, op).map_err(|e| e.at(op.loc))?;
        lx.report.claim(rows, id);
    }
    Ok(())
}

/// `for iv in (lo..hi).step_by(step)` over region 0, carrying operands 2.. through it.
fn lower_for<'ctx>(lx: &mut LowerCtx<'ctx>, prog: &Program, op: &Op, step: u32) -> Result<()> {
    let region = *op.regions.first().ok_or_else(|| no_region(op))?;
    // Blocks need the function (a loop over literal bounds may be the kernel's first op).
    lx.ensure_body()?;
    let (lo, hi) = loop_bounds(lx, op)?;
    let int_ty = lo.get_type().into_int_type();
    let inits = (2..op.args.len())
        .map(|i| lx.op_operand(op, i))
        .collect::<Result<Vec<_>>>()?;
    let init_regs: Vec<&[BasicValueEnum<'ctx>]> = inits.iter().map(|d| &d.regs[..]).collect();
    let lp = lx.loop_open(int_ty, lo, hi.into_int_value(), &init_regs)?;
    let r = prog.region(region);
    let (iv, carried) = r.params.split_first().ok_or_else(|| no_region(op))?;
    set(lx, *iv, vec![lp.iv.as_basic_value()]);
    for (p, phis) in carried.iter().zip(&lp.carried) {
        set(lx, *p, phis.iter().map(|p| p.as_basic_value()).collect());
    }
    // Work that depends on nothing the loop changes is hoisted to the preheader: values made
    // in the loop's scope or deeper are what it changes.
    let scope = lx.values.peek(OP, value(lx, *iv))?.scope;
    lx.loops.push((scope, lp.pre));
    let body = lower_region(lx, prog, region);
    lx.loops.pop();
    body?;
    let yielded = regs_of(lx, &r.yields)?;
    let yielded: Vec<&[BasicValueEnum<'ctx>]> = yielded.iter().map(|v| &v[..]).collect();
    lx.loop_close(&lp, int_ty, step, &yielded)?;
    lx.em.b.position_at_end(lp.exit);
    for (res, phis) in op.results.iter().zip(&lp.carried) {
        set(lx, *res, phis.iter().map(|p| p.as_basic_value()).collect());
    }
    Ok(())
}

/// The loop's bounds, in the induction variable's type (a literal made in the other bound's
/// type, an `i32` bound widened beside an `i64` one), as the builder checked them.
fn loop_bounds<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    op: &Op,
) -> Result<(BasicValueEnum<'ctx>, BasicValueEnum<'ctx>)> {
    let both_literals = !matches!(op.args.first(), Some(Arg::Value(_)))
        && !matches!(op.args.get(1), Some(Arg::Value(_)));
    if both_literals {
        let ity = literal_bounds_type(op)?;
        let reg = |a: Option<&Arg>| match a {
            Some(Arg::Int(i)) => Ok(lx.const_int_reg(ity, *i)),
            other => Err(CodegenError::arg(
                OP,
                format!("{:?}: bound {other:?}", op.kind),
            )),
        };
        return Ok((reg(op.args.first())?, reg(op.args.get(1))?));
    }
    let [l, h] = lx.fed_pair("for_range", op, 0)?;
    let first = |d: &crate::codegen::lower::values::ValueData<'ctx>| {
        d.regs
            .first()
            .copied()
            .ok_or_else(|| CodegenError::arg(OP, format!("{} has no register", d.describe())))
    };
    Ok((first(&l)?, first(&h)?))
}

/// The type of two literal bounds (the builder checked that both have it): `i32` where the
/// first fits, else `i64`.
fn literal_bounds_type(op: &Op) -> Result<DType> {
    match op.args.first() {
        Some(Arg::Int(i)) if i32::try_from(*i).is_ok() => Ok(DType::I32),
        Some(Arg::Int(_)) => Ok(DType::I64),
        other => Err(CodegenError::arg(
            OP,
            format!("{:?}: bound {other:?}", op.kind),
        )),
    }
}

/// `if` on operand 0 over regions 0 and 1 (`with_else`), or region 0 alone (`if_then`).
fn lower_if<'ctx>(lx: &mut LowerCtx<'ctx>, prog: &Program, op: &Op, with_else: bool) -> Result<()> {
    let cond = lx.op_operand(op, 0)?;
    let c = cond
        .regs
        .first()
        .ok_or_else(|| CodegenError::arg(OP, format!("{} has no register", cond.describe())))?
        .into_int_value();
    lx.ensure_body()?;
    let (then_bb, else_bb, join) = lx.if_open(c)?;
    let then_r = *op.regions.first().ok_or_else(|| no_region(op))?;
    lx.em.b.position_at_end(then_bb);
    lower_region(lx, prog, then_r)?;
    let then_end = lx.arm_close(join)?;
    lx.em.b.position_at_end(else_bb);
    let else_r = match with_else {
        true => Some(*op.regions.get(1).ok_or_else(|| no_region(op))?),
        false => None,
    };
    if let Some(r) = else_r {
        lower_region(lx, prog, r)?;
    }
    let else_end = lx.arm_close(join)?;
    lx.em.b.position_at_end(join);
    let Some(else_r) = else_r else {
        return Ok(());
    };
    let (t, e) = (
        regs_of(lx, &prog.region(then_r).yields)?,
        regs_of(lx, &prog.region(else_r).yields)?,
    );
    for ((res, a), b) in op.results.iter().zip(&t).zip(&e) {
        let regs = lx.join_regs(a, then_end, b, else_end)?;
        set(lx, *res, regs);
    }
    Ok(())
}

/// Role `index`'s code, region 0: a branch only the role's threads take, inside which the
/// context is narrowed to the role (its thread coordinates, warps, replica and barrier) and
/// its register budget set.
fn lower_in_role<'ctx>(
    lx: &mut LowerCtx<'ctx>,
    prog: &Program,
    op: &Op,
    index: usize,
) -> Result<()> {
    let plan = *lx.role_plans.get(index).ok_or_else(|| {
        CodegenError::arg(OP, format!("role {index} was not declared by warp_roles"))
    })?;
    let region = *op.regions.first().ok_or_else(|| no_region(op))?;
    let spec = plan.spec;
    lx.ensure_body()?;
    let ws = lx.threads_per_warp();
    let (inside, rel, replica) = lx.role_threads(
        plan.first_warp * ws,
        spec.warps * spec.replicas * ws,
        spec.warps * ws,
        spec.replicas,
    )?;
    if spec.max_regs.is_some() {
        lx.state_register_limit(plan.launch_registers);
    }
    let (then_bb, else_bb, join) = lx.if_open(inside)?;
    lx.em.b.position_at_end(then_bb);
    let sreg = lx.target.lowering().thread_index_sreg();
    let outer_threads = lx.threads.for_role(sreg, rel);
    let outer_warps = std::mem::replace(&mut lx.num_warps, spec.warps);
    lx.role = Some(RoleView {
        replica: (spec.replicas > 1).then_some(replica),
        threads: spec.warps * ws,
        barrier: plan.barrier,
    });
    let body = match spec.max_regs {
        Some(n) => set_max_registers(&lx.em, n, plan.launch_registers),
        None => Ok(()),
    }
    .and_then(|_| lower_region(lx, prog, region));
    lx.role = None;
    lx.num_warps = outer_warps;
    lx.threads = outer_threads;
    body?;
    lx.arm_close(join)?;
    lx.em.b.position_at_end(else_bb);
    lx.arm_close(join)?;
    lx.em.b.position_at_end(join);
    Ok(())
}

/// Leaves the kernel where operand 0 holds (always, without one).
fn lower_return<'ctx>(lx: &mut LowerCtx<'ctx>, op: &Op) -> Result<()> {
    let pred = match op.args.first() {
        Some(_) => {
            let d = lx.op_operand(op, 0)?;
            if d.ty != Type::Scalar(DType::I1) {
                return Err(CodegenError::arg(
                    OP,
                    format!("return_if on {}", d.describe()),
                ));
            }
            Some(
                d.regs
                    .first()
                    .ok_or_else(|| {
                        CodegenError::arg(OP, format!("{} has no register", d.describe()))
                    })?
                    .into_int_value(),
            )
        }
        None => None,
    };
    lx.ensure_body()?;
    lx.return_where(pred)
}

/// The registers of each of `ids`.
fn regs_of<'ctx>(lx: &LowerCtx<'ctx>, ids: &[ValueId]) -> Result<Vec<Vec<BasicValueEnum<'ctx>>>> {
    ids.iter()
        .map(|id| Ok(lx.values.peek(OP, value(lx, *id))?.regs.clone()))
        .collect()
}

fn set<'ctx>(lx: &mut LowerCtx<'ctx>, id: ValueId, regs: Vec<BasicValueEnum<'ctx>>) {
    let v = value(lx, id);
    lx.values.update(v, |d| d.regs = regs);
}

fn value(lx: &LowerCtx<'_>, id: ValueId) -> Value {
    Value {
        kernel: lx.values.kernel_id(),
        index: id.0,
    }
}

fn no_region(op: &Op) -> CodegenError {
    CodegenError::arg(OP, format!("{:?}: its region is missing", op.kind))
}
