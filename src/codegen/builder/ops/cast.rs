//! Casts among i1, i8, i16, i32, i64, f16, bf16, f32, f64, and fp8 e4m3 / e5m2 (sm_90).
//!
//! Integers are signed (i1 is unsigned: true is 1). Float to integer truncates toward zero; to
//! i1 tests `!= 0`. f16 ↔ bf16 goes through f32. fp8 conversions use the PTX `cvt` instructions
//! for e4m3x2/e5m2x2 pairs (round to nearest, saturating to the finite range), one element per
//! pair.
//!
//! [`bitcast`](KernelBuilder::bitcast) reads the bits as another type instead, and may change the
//! element width the way a vector bitcast does (the narrower elements of one wide element along a
//! new last dim, little-endian): what unpacking 4-bit weights into f16/bf16 halves needs.

use std::sync::Arc;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::operand_feeds::{cast_info, check_cast};
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::ops::shape::with_new_last_dim;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::values::Value;
use crate::codegen::types::{DType, Type};

impl<'ctx> KernelBuilder<'ctx> {
    /// `x` converted to `to` elementwise.
    #[track_caller]
    pub fn cast(&mut self, x: Value, to: DType) -> Result<Value> {
        self.record_checked(OpKind::Cast(to), vec![x.into()], |kb| kb.cast_impl(x, to))
    }

    fn cast_impl(&mut self, x: Value, to: DType) -> Result<Value> {
        let d = self.get("cast", x)?;
        let Type::Scalar(from) = d.ty else {
            return Err(CodegenError::InvalidType {
                op: "cast",
                expected: "a number (pointers cannot be cast)".into(),
                value: d.describe(),
            });
        };
        check_cast(self.lx.target, from, to)?;
        let info = cast_info(&d.info, from, to);
        Ok(self.lx.values.new_value(
            Type::Scalar(to),
            d.shape.clone(),
            d.layout.clone(),
            vec![],
            info,
        ))
    }

    /// The bits of `x` read as `to` (Triton's `bitcast`). Equal widths: elementwise, same shape
    /// and layout. `to` `r` times narrower (r = 2, 4 or 8): each element becomes `r`, its lowest
    /// bits first, along a new last dim of size `r` held in new lowest register bits (like
    /// [`join`](Self::join)). `to` `r` times wider: the last dim must have size `r` and be held by
    /// the lowest register bits in order (as a narrowing bitcast leaves it); it is folded into
    /// one element, its first entry the lowest bits. i1 and pointers have no bits to read.
    #[track_caller]
    pub fn bitcast(&mut self, x: Value, to: DType) -> Result<Value> {
        self.record_checked(OpKind::Bitcast(to), vec![x.into()], |kb| {
            kb.bitcast_impl(x, to)
        })
    }

    fn bitcast_impl(&mut self, x: Value, to: DType) -> Result<Value> {
        const OP: &str = "bitcast";
        let d = self.get(OP, x)?;
        let from = match d.ty {
            Type::Scalar(f) if f != DType::I1 && to != DType::I1 => f,
            _ => {
                return Err(CodegenError::InvalidType {
                    op: OP,
                    expected: format!("a number other than i1, read as {to} (not i1)"),
                    value: d.describe(),
                })
            }
        };
        let (fb, tb) = (from.bits(), to.bits());
        if fb == tb {
            let info = AxisInfo::unknown(&d.shape);
            let ty = Type::Scalar(to);
            return Ok(self.lx.values.new_value(
                ty,
                d.shape.clone(),
                d.layout.clone(),
                vec![],
                info,
            ));
        }
        let l = d.layout.clone().ok_or_else(|| {
            CodegenError::arg(
                OP,
                format!(
                    "{from} to {to} changes the element count: a tile is needed, not {}",
                    d.describe()
                ),
            )
        })?;
        let rank = d.shape.len();
        let (shape, reg, lane, warp) = if fb > tb {
            let r = u64::from(fb / tb);
            let (reg, lane, warp) = with_new_last_dim(&l, r.trailing_zeros());
            let mut shape = d.shape.clone();
            shape.push(r);
            (shape, reg, lane, warp)
        } else {
            let r = u64::from(tb / fb);
            let bits = r.trailing_zeros() as usize;
            let last = rank - 1;
            let in_order = d.shape[last] == r
                && l.reg.len() >= bits
                && (0..bits).all(|i| {
                    l.reg[i]
                        .iter()
                        .enumerate()
                        .all(|(j, &c)| c == if j == last { 1 << i } else { 0 })
                })
                && l.reg[bits..]
                    .iter()
                    .chain(&l.lane)
                    .chain(&l.warp)
                    .all(|b| b[last] == 0);
            if !in_order || rank < 2 {
                return Err(CodegenError::BadLayout {
                    op: OP,
                    reason: format!(
                        "{from} to {to} folds a last dim of {r} held by the {bits} lowest register bits in order; {} is not",
                        d.describe()
                    ),
                });
            }
            let drop = |b: &Vec<u64>| b[..last].to_vec();
            let reg = l.reg[bits..].iter().map(drop).collect();
            let lane = l.lane.iter().map(drop).collect();
            let warp = l.warp.iter().map(drop).collect();
            (d.shape[..last].to_vec(), reg, lane, warp)
        };
        let nl = TileLayout::from_bases(OP, &shape, reg, lane, warp)?;
        let info = AxisInfo::unknown(&shape);
        Ok(self
            .lx
            .values
            .new_value(Type::Scalar(to), shape, Some(Arc::new(nl)), vec![], info))
    }
}
