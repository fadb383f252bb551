//! Making tiles: `arange`, `full`, `splat`, `zeros`, `broadcast_to`.

use std::sync::Arc;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::ops::elementwise::IntoOperand;
use crate::codegen::builder::ops::layout_arg::IntoLayout;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::elementwise::broadcast_plan;
use crate::codegen::lower::values::Value;
use crate::codegen::types::{DType, Type};

impl<'ctx> KernelBuilder<'ctx> {
    /// Resolves `layout` for a tile of `shape` (`None`: the layout's own) and checks it against
    /// this kernel (lanes, warps, in- and out-dims).
    pub(crate) fn tile_layout(
        &self,
        op: &'static str,
        layout: impl IntoLayout,
        shape: Option<&[u64]>,
    ) -> Result<Arc<TileLayout>> {
        let r = layout.resolve(op, shape)?;
        let mut l = TileLayout::new(op, &r.linear, self.lx.threads_per_warp(), self.lx.num_warps)?;
        l.encoding = r.encoding.map(Arc::new);
        Ok(Arc::new(l))
    }

    /// The 1-D `i32` tile `start, start + 1, …, end - 1` distributed by `layout`: a linear layout
    /// whose single out-dim has size `end - start` (a power of two), or a 1-D encoding such as
    /// `Slice(1, blocked)` (see [`IntoLayout`]).
    #[track_caller]
    pub fn arange(&mut self, start: i32, end: i32, layout: impl IntoLayout) -> Result<Value> {
        self.record_checked(OpKind::Arange { start, end }, vec![], |kb| {
            kb.arange_impl(start, end, layout)
        })
    }

    fn arange_impl(&mut self, start: i32, end: i32, layout: impl IntoLayout) -> Result<Value> {
        self.start_body()?;
        let size = end as i64 - start as i64;
        if size <= 0 || !(size as u64).is_power_of_two() {
            return Err(CodegenError::arg(
                "arange",
                format!("end - start = {size} must be a positive power of two"),
            ));
        }
        let l = self.tile_layout("arange", layout, Some(&[size as u64]))?;
        let info = AxisInfo::arange(start as i64, size as u64);
        Ok(self.lx.values.new_value(
            Type::Scalar(DType::I32),
            vec![size as u64],
            Some(l),
            vec![],
            info,
        ))
    }

    /// A tile of `layout`'s shape with every element `value` (a scalar value or a literal of
    /// type `dtype`). An encoding needs its shape: `(&blocked, [64, 64])`.
    #[track_caller]
    pub fn full(
        &mut self,
        layout: impl IntoLayout,
        dtype: DType,
        value: impl IntoOperand,
    ) -> Result<Value> {
        let value = value.into_operand();
        self.record_checked(OpKind::Full, vec![value.into()], |kb| {
            kb.full_impl(layout, dtype, value)
        })
    }

    fn full_impl(
        &mut self,
        layout: impl IntoLayout,
        dtype: DType,
        value: impl IntoOperand,
    ) -> Result<Value> {
        let s = self.operand("full", value.into_operand(), Some(Type::Scalar(dtype)))?;
        if !s.is_scalar() || s.ty != Type::Scalar(dtype) {
            return Err(CodegenError::InvalidType {
                op: "full",
                expected: format!("a scalar<{dtype}>"),
                value: s.describe(),
            });
        }
        let l = self.tile_layout("full", layout, None)?;
        let shape = l.shape.clone();
        let (_, info) = broadcast_plan("full", &s, &shape, &l)?;
        Ok(self.lx.values.new_value(s.ty, shape, Some(l), vec![], info))
    }

    /// A tile of zeros of `dtype` in `layout`.
    #[track_caller]
    pub fn zeros(&mut self, layout: impl IntoLayout, dtype: DType) -> Result<Value> {
        if dtype.is_float() {
            self.full(layout, dtype, 0.0)
        } else if dtype.is_fp8() {
            Err(CodegenError::InvalidType {
                op: "zeros",
                expected: "a type with arithmetic (make fp8 by casting)".into(),
                value: dtype.to_string(),
            })
        } else {
            self.full(layout, dtype, 0)
        }
    }

    /// A scalar (pointers included) splat to every element of a tile in `layout`.
    #[track_caller]
    pub fn splat(&mut self, scalar: Value, layout: impl IntoLayout) -> Result<Value> {
        self.record_checked(OpKind::Splat, vec![scalar.into()], |kb| {
            kb.splat_impl(scalar, layout)
        })
    }

    fn splat_impl(&mut self, scalar: Value, layout: impl IntoLayout) -> Result<Value> {
        let s = self.get("splat", scalar)?;
        if !s.is_scalar() {
            return Err(CodegenError::InvalidType {
                op: "splat",
                expected: "a scalar".into(),
                value: s.describe(),
            });
        }
        let l = self.tile_layout("splat", layout, None)?;
        let shape = l.shape.clone();
        let (_, info) = broadcast_plan("splat", &s, &shape, &l)?;
        Ok(self.lx.values.new_value(s.ty, shape, Some(l), vec![], info))
    }

    /// `v` broadcast to `layout`'s shape: a scalar is splat; a tile's dims of size 1 are
    /// repeated. The tile's layout must be `layout` with the broadcast dims dropped (what
    /// `expand_dims` of a slice of `layout` gives).
    #[track_caller]
    pub fn broadcast_to(&mut self, v: Value, layout: impl IntoLayout) -> Result<Value> {
        self.record_checked(OpKind::BroadcastTo, vec![v.into()], |kb| {
            kb.broadcast_to_impl(v, layout)
        })
    }

    fn broadcast_to_impl(&mut self, v: Value, layout: impl IntoLayout) -> Result<Value> {
        let d = self.get("broadcast_to", v)?;
        let l = self.tile_layout("broadcast_to", layout, None)?;
        let shape = l.shape.clone();
        let (_, info) = broadcast_plan("broadcast_to", &d, &shape, &l)?;
        Ok(self.lx.values.new_value(d.ty, shape, Some(l), vec![], info))
    }
}
