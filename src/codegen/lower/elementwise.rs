//! Lowering of the elementwise ops: what they emit, as methods of the lowering context.

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::BinaryOp;
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::values::ValueData;
use crate::codegen::types::DType;
use inkwell::values::BasicValueEnum;
use std::collections::HashMap;
use std::rc::Rc;

pub(crate) fn describe_target(shape: &[u64], layout: &TileLayout) -> String {
    let dims: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
    format!("tensor<{}, {}>", dims.join("x"), layout)
}

impl<'ctx> LowerCtx<'ctx> {
    /// The registers of `d` broadcast to `shape` in `layout`: a scalar is splat; a tile must have
    /// `layout`'s bases with the broadcast dims dropped (Gluon's rule for broadcasting an
    /// `expand_dims` of a slice).
    pub(crate) fn broadcast_regs(
        &mut self,
        op: &'static str,
        d: &ValueData<'ctx>,
        shape: &[u64],
        layout: &Rc<TileLayout>,
    ) -> Result<(Vec<BasicValueEnum<'ctx>>, AxisInfo)> {
        let Some(src) = &d.layout else {
            return Ok((
                vec![d.regs[0]; layout.num_regs()],
                d.info.broadcast_to(&[], shape),
            ));
        };
        if d.shape == shape {
            if **src != **layout {
                return Err(src.mismatch(layout, op, d.describe(), describe_target(shape, layout)));
            }
            return Ok((d.regs.clone(), d.info.clone()));
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
        let mut regs = Vec::with_capacity(layout.num_regs());
        for r in 0..layout.num_regs() {
            let i = *by_coord
                .get(&proj(&layout.reg_coord(r)))
                .ok_or_else(mismatch)?;
            regs.push(d.regs[i]);
        }
        Ok((regs, d.info.broadcast_to(&d.shape, shape)))
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
                // Index arithmetic, in the form instcombine would give it (`emit/index_cse.rs`).
                BinaryOp::Add => self.int_add(l, r)?,
                BinaryOp::Mul => self.int_mul(l, r)?,
                BinaryOp::Sub => b.build_int_sub(l, r, "")?,
                BinaryOp::Div => b.build_int_signed_div(l, r, "")?,
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
                BinaryOp::Div => b.build_float_div(l, r, "")?,
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
}
