//! Lowering of elementwise ops: operands broadcast to one layout, and one instruction per
//! distinct register pair (binary, pointer offset, compare, select, unary).

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::{BinaryOp, CmpOp, UnaryOp};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::values::ValueData;
use crate::codegen::types::DType;
use inkwell::values::{BasicValue, BasicValueEnum};
use inkwell::{FloatPredicate, IntPredicate};
use std::collections::HashMap;
use std::sync::Arc;

/// A tile of `shape` in `layout`, as errors name it: `tensor<64x64, …>`.
pub(crate) fn describe_target(shape: &[u64], layout: &TileLayout) -> String {
    let dims: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
    format!("tensor<{}, {}>", dims.join("x"), layout)
}

/// Identity of a pair of LLVM values, to share one instruction among registers that hold copies.
fn key(a: &BasicValueEnum, b: &BasicValueEnum) -> (usize, usize) {
    use inkwell::values::AsValueRef;
    (a.as_value_ref() as usize, b.as_value_ref() as usize)
}

/// Which register of `d` each register of `d` broadcast to `shape` in `layout` takes, and the
/// broadcast's facts: a scalar is splat; a tile must have `layout`'s bases with the broadcast
/// dims dropped (Gluon's rule for broadcasting an `expand_dims` of a slice). Reads no registers,
/// so the builder checks a broadcast with it before lowering.
pub(crate) fn broadcast_plan(
    op: &'static str,
    d: &ValueData<'_>,
    shape: &[u64],
    layout: &Arc<TileLayout>,
) -> Result<(Vec<usize>, AxisInfo)> {
    let Some(src) = &d.layout else {
        return Ok((vec![0; layout.num_regs()], d.info.broadcast_to(&[], shape)));
    };
    if d.shape == shape {
        if **src != **layout {
            return Err(src.mismatch(layout, op, d.describe(), describe_target(shape, layout)));
        }
        return Ok(((0..src.num_regs()).collect(), d.info.clone()));
    }
    let mismatch = || src.mismatch(layout, op, d.describe(), describe_target(shape, layout));
    if d.shape.len() != shape.len()
        || (0..shape.len()).any(|i| d.shape[i] != shape[i] && d.shape[i] != 1)
    {
        return Err(CodegenError::ShapeMismatch {
            op,
            lhs: d.describe(),
            rhs: describe_target(shape, layout),
        });
    }
    let proj = |c: &[u64]| -> Vec<u64> {
        c.iter()
            .enumerate()
            .map(|(i, &x)| if d.shape[i] == 1 { 0 } else { x })
            .collect()
    };
    let same = |a: &Vec<Vec<u64>>, b: &Vec<Vec<u64>>| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| *x == proj(y))
    };
    if !same(&src.lane, &layout.lane) || !same(&src.warp, &layout.warp) {
        return Err(mismatch());
    }
    let mut by_coord: HashMap<Vec<u64>, usize> = HashMap::new();
    for r in 0..src.num_regs() {
        by_coord.entry(src.reg_coord(r)).or_insert(r);
    }
    let mut plan = Vec::with_capacity(layout.num_regs());
    for r in 0..layout.num_regs() {
        let i = *by_coord
            .get(&proj(&layout.reg_coord(r)))
            .ok_or_else(mismatch)?;
        plan.push(i);
    }
    Ok((plan, d.info.broadcast_to(&d.shape, shape)))
}

/// Operands' common shape and layout, planned from their types ([`unify_plan`]).
pub(crate) struct UnifiedPlan {
    pub shape: Vec<u64>,
    pub layout: Option<Arc<TileLayout>>,
    /// For each operand, the operand register each result register takes.
    pub plans: Vec<Vec<usize>>,
    pub infos: Vec<AxisInfo>,
}

/// The common shape and layout of `ds` (Triton's broadcasting rules), which register of
/// each operand every result register takes, and each operand's facts once broadcast:
/// reads no registers, so ops lowered from their record check their operands with it.
pub(crate) fn unify_plan(
    op: &'static str,
    ds: &[&ValueData<'_>],
    threads_per_warp: u32,
    num_warps: u32,
) -> Result<UnifiedPlan> {
    let tiles: Vec<&&ValueData<'_>> = ds.iter().filter(|d| !d.is_scalar()).collect();
    let Some(first) = tiles.first() else {
        return Ok(UnifiedPlan {
            shape: vec![],
            layout: None,
            plans: ds
                .iter()
                .map(|d| (0..d.regs.len().max(1)).collect())
                .collect(),
            infos: ds.iter().map(|d| d.info.clone()).collect(),
        });
    };
    let rank = first.shape.len();
    let mut shape = first.shape.clone();
    for t in &tiles[1..] {
        let ok = t.shape.len() == rank
            && (0..rank).all(|i| t.shape[i] == shape[i] || t.shape[i] == 1 || shape[i] == 1);
        if !ok {
            return Err(CodegenError::ShapeMismatch {
                op,
                lhs: first.describe(),
                rhs: t.describe(),
            });
        }
        for (s, &t) in shape.iter_mut().zip(&t.shape) {
            *s = (*s).max(t);
        }
    }
    let full: Vec<&&&ValueData<'_>> = tiles.iter().filter(|t| t.shape == shape).collect();
    let layout = match full.first() {
        Some(owner) => {
            let layout = owner.layout.clone().expect("tile");
            for t in &full[1..] {
                let tl = t.layout.as_deref().expect("tile");
                if *tl != *layout {
                    return Err(layout.mismatch(tl, op, owner.describe(), t.describe()));
                }
            }
            layout
        }
        // No operand has the full shape (`[M, 1] op [1, N]`): when every tile was laid out
        // from one parent encoding (expansions of its slices, as in Gluon), the result is that
        // parent laid out for the full shape.
        None => common_parent(op, &tiles, &shape, threads_per_warp, num_warps)?,
    };
    let mut plans = Vec::with_capacity(ds.len());
    let mut infos = Vec::with_capacity(ds.len());
    for d in ds {
        let (p, i) = broadcast_plan(op, d, &shape, &layout)?;
        plans.push(p);
        infos.push(i);
    }
    Ok(UnifiedPlan {
        shape,
        layout: Some(layout),
        plans,
        infos,
    })
}

/// The parent encoding every tile in `tiles` was laid out from, laid out for `shape`.
fn common_parent(
    op: &'static str,
    tiles: &[&&ValueData<'_>],
    shape: &[u64],
    threads_per_warp: u32,
    num_warps: u32,
) -> Result<Arc<TileLayout>> {
    let unknown = || {
        CodegenError::BadLayout {
        op,
        reason: format!(
            "no operand has the broadcast shape {shape:?} and the operands are not expansions of                  slices of one parent layout, so the result's layout is unknown: broadcast one with                  broadcast_to first ({} vs {})",
            tiles[0].describe(),
            tiles[1].describe()
        ),
    }
    };
    let encoding = |t: &ValueData| t.layout.as_ref().and_then(|l| l.encoding.clone());
    let parent = encoding(tiles[0]).ok_or_else(unknown)?;
    if tiles[1..]
        .iter()
        .any(|t| encoding(t).as_deref() != Some(&*parent))
    {
        return Err(unknown());
    }
    let r =
        crate::codegen::builder::ops::layout_arg::IntoLayout::resolve(&*parent, op, Some(shape))?;
    let mut l = TileLayout::new(op, &r.linear, threads_per_warp, num_warps)?;
    l.encoding = r.encoding.map(Arc::new);
    Ok(Arc::new(l))
}

impl<'ctx> LowerCtx<'ctx> {
    /// The registers of `d` broadcast to `shape` in `layout` ([`broadcast_plan`]).
    pub(crate) fn broadcast_regs(
        &mut self,
        op: &'static str,
        d: &ValueData<'ctx>,
        shape: &[u64],
        layout: &Arc<TileLayout>,
    ) -> Result<(Vec<BasicValueEnum<'ctx>>, AxisInfo)> {
        if d.layout.is_none() {
            return Ok((
                vec![d.regs[0]; layout.num_regs()],
                d.info.broadcast_to(&[], shape),
            ));
        }
        if d.shape == shape && d.layout.as_deref() == Some(&**layout) {
            return Ok((d.regs.clone(), d.info.clone()));
        }
        let (plan, info) = broadcast_plan(op, d, shape, layout)?;
        Ok((plan.into_iter().map(|i| d.regs[i]).collect(), info))
    }

    pub(crate) fn emit_binary(
        &mut self,
        op: BinaryOp,
        dt: DType,
        l: BasicValueEnum<'ctx>,
        r: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        if dt.is_int() {
            let (l, r) = (l.into_int_value(), r.into_int_value());
            let b = &self.em.b;
            let v = match op {
                // Index arithmetic, in the form instcombine would give it (`lower/index_cse.rs`).
                BinaryOp::Add => self.int_add(l, r)?,
                BinaryOp::Mul => self.int_mul(l, r)?,
                BinaryOp::Sub => b.build_int_sub(l, r, "")?,
                BinaryOp::Div | BinaryOp::DivRn => b.build_int_signed_div(l, r, "")?,
                BinaryOp::Rem => b.build_int_signed_rem(l, r, "")?,
                BinaryOp::And => b.build_and(l, r, "")?,
                BinaryOp::Or => b.build_or(l, r, "")?,
                BinaryOp::Xor => b.build_xor(l, r, "")?,
                BinaryOp::Shl => b.build_left_shift(l, r, "")?,
                BinaryOp::Shr => b.build_right_shift(l, r, true, "")?,
                BinaryOp::Min | BinaryOp::Max => {
                    let name = if op == BinaryOp::Min {
                        "llvm.smin"
                    } else {
                        "llvm.smax"
                    };
                    let f = self.em.intrinsic(name, &[l.get_type().into()])?;
                    return self.em.call1(f, &[l.into(), r.into()]);
                }
            };
            Ok(v.into())
        } else {
            let b = &self.em.b;
            let (l, r) = (l.into_float_value(), r.into_float_value());
            let v = match op {
                BinaryOp::Add => b.build_float_add(l, r, "")?,
                BinaryOp::Sub => b.build_float_sub(l, r, "")?,
                BinaryOp::Mul => b.build_float_mul(l, r, "")?,
                BinaryOp::Div => return Ok(self.fast_div(dt, l, r)?.into()),
                BinaryOp::DivRn => b.build_float_div(l, r, "")?,
                BinaryOp::Rem => b.build_float_rem(l, r, "")?,
                BinaryOp::Min | BinaryOp::Max => {
                    let name = if op == BinaryOp::Min {
                        "llvm.minnum"
                    } else {
                        "llvm.maxnum"
                    };
                    let f = self.em.intrinsic(name, &[l.get_type().into()])?;
                    return self.em.call1(f, &[l.into(), r.into()]);
                }
                _ => unreachable!("checked by check_binary_dtype"),
            };
            if self.fp_contract && matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul) {
                if let Some(i) = v.as_instruction() {
                    // Constants fold to no instruction; a flag on a real one cannot fail.
                    let _ = i.set_fast_math_flags(inkwell::values::FastMathFlags::AllowContract);
                }
            }
            Ok(v.into())
        }
    }

    /// `op` on each pair of registers of `a` and `b` (of `dt`); registers holding copies (zero
    /// bases) share one instruction.
    pub(crate) fn binary_regs(
        &mut self,
        op: BinaryOp,
        dt: DType,
        a: &[BasicValueEnum<'ctx>],
        b: &[BasicValueEnum<'ctx>],
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let mut out = Vec::with_capacity(a.len());
        let mut seen = HashMap::new();
        for (l, r) in a.iter().zip(b) {
            if let Some(v) = seen.get(&key(l, r)) {
                out.push(*v);
                continue;
            }
            let v = self.emit_binary(op, dt, *l, *r)?;
            seen.insert(key(l, r), v);
            out.push(v);
        }
        Ok(out)
    }

    /// Each pointer of `ptrs` advanced by the matching offset of `offs`, in `pointee` elements.
    pub(crate) fn offset_regs(
        &mut self,
        pointee: DType,
        ptrs: &[BasicValueEnum<'ctx>],
        offs: &[BasicValueEnum<'ctx>],
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let elem = pointee.llvm_mem(self.em.ctx);
        let mut out = Vec::with_capacity(ptrs.len());
        let mut seen = HashMap::new();
        for (ptr, o) in ptrs.iter().zip(offs) {
            if let Some(v) = seen.get(&key(ptr, o)) {
                out.push(*v);
                continue;
            }
            // SAFETY: a GEP only computes an address; the kernel author vouches for its range
            // (exactly as `ptr + offs` in Triton).
            let g = unsafe {
                self.em
                    .b
                    .build_gep(elem, ptr.into_pointer_value(), &[o.into_int_value()], "")?
            };
            seen.insert(key(ptr, o), g.as_basic_value_enum());
            out.push(g.as_basic_value_enum());
        }
        Ok(out)
    }

    /// `op` on each pair of registers of `a` and `b` (of `dt`), as `i1`s. With `reps`, register
    /// `i` whose representative `reps[i]` comes before it takes that register's result.
    pub(crate) fn compare_regs(
        &mut self,
        op: CmpOp,
        dt: DType,
        a: &[BasicValueEnum<'ctx>],
        b: &[BasicValueEnum<'ctx>],
        reps: Option<&[usize]>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let mut out: Vec<BasicValueEnum<'ctx>> = Vec::with_capacity(a.len());
        let mut seen = HashMap::new();
        for (i, (l, r)) in a.iter().zip(b).enumerate() {
            if let Some(&rep) = reps.and_then(|reps| reps.get(i)) {
                if rep < i {
                    out.push(out[rep]);
                    continue;
                }
            }
            if let Some(v) = seen.get(&key(l, r)) {
                out.push(*v);
                continue;
            }
            let v = if dt.is_int() {
                let p = match op {
                    CmpOp::Eq => IntPredicate::EQ,
                    CmpOp::Ne => IntPredicate::NE,
                    CmpOp::Lt => IntPredicate::SLT,
                    CmpOp::Le => IntPredicate::SLE,
                    CmpOp::Gt => IntPredicate::SGT,
                    CmpOp::Ge => IntPredicate::SGE,
                };
                self.em
                    .b
                    .build_int_compare(p, l.into_int_value(), r.into_int_value(), "")?
            } else {
                let p = match op {
                    CmpOp::Eq => FloatPredicate::OEQ,
                    CmpOp::Ne => FloatPredicate::UNE,
                    CmpOp::Lt => FloatPredicate::OLT,
                    CmpOp::Le => FloatPredicate::OLE,
                    CmpOp::Gt => FloatPredicate::OGT,
                    CmpOp::Ge => FloatPredicate::OGE,
                };
                self.em
                    .b
                    .build_float_compare(p, l.into_float_value(), r.into_float_value(), "")?
            };
            seen.insert(key(l, r), v.into());
            out.push(v.into());
        }
        Ok(out)
    }

    /// Register by register, `cond ? a : b`.
    pub(crate) fn select_regs(
        &mut self,
        cond: &[BasicValueEnum<'ctx>],
        a: &[BasicValueEnum<'ctx>],
        b: &[BasicValueEnum<'ctx>],
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let mut out = Vec::with_capacity(cond.len());
        for i in 0..cond.len() {
            out.push(
                self.em
                    .b
                    .build_select(cond[i].into_int_value(), a[i], b[i], "")?,
            );
        }
        Ok(out)
    }

    /// `op` on each register of `regs` (of `dt`).
    pub(crate) fn unary_regs(
        &mut self,
        op: UnaryOp,
        dt: DType,
        regs: &[BasicValueEnum<'ctx>],
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let mut out = Vec::with_capacity(regs.len());
        for r in regs {
            let v: BasicValueEnum = match (op, dt.is_int()) {
                (UnaryOp::Neg, true) => self.em.b.build_int_neg(r.into_int_value(), "")?.into(),
                (UnaryOp::Neg, false) => {
                    self.em.b.build_float_neg(r.into_float_value(), "")?.into()
                }
                (UnaryOp::Not, _) => self.em.b.build_not(r.into_int_value(), "")?.into(),
                (UnaryOp::Abs, true) => {
                    let f = self.em.intrinsic("llvm.abs", &[r.get_type()])?;
                    let no_poison = self.em.ctx.bool_type().const_zero();
                    self.em.call1(f, &[(*r).into(), no_poison.into()])?
                }
                (UnaryOp::Abs, false) => {
                    let f = self.em.intrinsic("llvm.fabs", &[r.get_type()])?;
                    self.em.call1(f, &[(*r).into()])?
                }
            };
            out.push(v);
        }
        Ok(out)
    }
}
