//! Reductions along one axis of a tile in any distributed layout: `reduce` (sum, max, min) and
//! `reduce_with` (a combine closure).
//!
//! The layout decides each stage. A basis "steps along the axis" when it moves only the axis
//! coordinate; input bits that only repeat elements other bits reach (Triton's free variables)
//! are skipped, so copies are never counted twice. Then:
//!
//! 1. in each thread, the registers that differ only in axis bits are combined;
//! 2. in each warp, `shfl.sync.bfly` (`ds_bpermute` on AMD) over each lane bit that steps along
//!    the axis;
//! 3. across warps, when warp bits step along the axis: every warp writes its partial results to
//!    shared-memory scratch, a barrier, and every thread combines the partials of all those warps
//!    in the same order (so all threads hold the same result).
//!
//! The result is laid out as the input with the axis removed (Triton's `Slice(axis, parent)`:
//! register bits that only stepped along the axis disappear, lane and warp bits that did become
//! copies). Reducing a 1-D tile gives a scalar. A basis that moves the axis and another dim at
//! once is refused: convert the tile to a layout without one first.

pub use crate::codegen::ir::attrs::ReduceOp;
use std::rc::Rc;
use std::sync::Arc;

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::ops::shared::scalar_dtype;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{OpKind, ValueId};
use crate::codegen::lower::combine_body::CombineBody;
use crate::codegen::lower::reduce_shape::{reduce_binary, ReducePlan, ReduceShape};
use crate::codegen::lower::scratch::Scratch;
use crate::codegen::lower::values::{Value, ValueData, ValueKind};
use crate::codegen::types::{DType, Type};

const OP: &str = "reduce";

impl<'ctx> KernelBuilder<'ctx> {
    /// Reduces `tile` along `axis` with `op`; see the [module docs](self) for the stages and the
    /// result's layout. Mask first (`where_`) to leave elements out.
    #[track_caller]
    pub fn reduce(&mut self, tile: Value, axis: usize, op: ReduceOp) -> Result<Value> {
        self.record_checked(OpKind::Reduce { axis, op }, vec![tile.into()], |kb| {
            let (t, sh) = kb.reduce_checked(OP, tile, axis)?;
            let elem = scalar_dtype(t.ty);
            if sh.combines {
                kb.check_binary_dtype(reduce_binary(op), elem, &t)?;
            }
            kb.reduce_result(&t, sh, elem, None)
        })
    }

    /// The register tile `tile` of an op along `axis` (`reduce`, `associative_scan`), with its
    /// layout; an axis past the tile's rank is a typed error naming the tile.
    pub(crate) fn axis_operand(
        &mut self,
        op: &'static str,
        tile: Value,
        axis: usize,
    ) -> Result<(Rc<ValueData<'ctx>>, Arc<TileLayout>)> {
        let t = self.get_kind(op, tile, &[ValueKind::Tile], "a register tile")?;
        let l = t_layout(&t)?;
        if axis >= l.rank() {
            return Err(CodegenError::arg(
                op,
                format!(
                    "axis {axis} is out of range for {} (rank {})",
                    t.describe(),
                    l.rank()
                ),
            ));
        }
        Ok((t, l))
    }

    /// The index (`i32`) of the largest element of `tile` along `axis`, the lowest one on ties,
    /// in the same slice layout as [`reduce`](Self::reduce). One reduction: each element becomes
    /// an `i64` key, its value mapped to a signed integer of the same order in the high word
    /// (floats: negative ones with their magnitude bits flipped) and `!index` in the low word, so
    /// the key's maximum is the first largest element. Floats of 16 bits widen to f32 first;
    /// NaNs order by their bits (a positive NaN above every number).
    #[track_caller]
    pub fn argmax(&mut self, tile: Value, axis: usize) -> Result<Value> {
        self.record_checked(OpKind::ArgMax(axis), vec![tile.into()], |kb| {
            kb.arg_reduce("argmax", tile, axis)
        })
    }

    /// The index (`i32`) of the smallest element of `tile` along `axis`, the lowest one on ties
    /// (the key's low word is the index itself; see [`argmax`](Self::argmax)).
    #[track_caller]
    pub fn argmin(&mut self, tile: Value, axis: usize) -> Result<Value> {
        self.record_checked(OpKind::ArgMin(axis), vec![tile.into()], |kb| {
            kb.arg_reduce("argmin", tile, axis)
        })
    }

    /// Checks an `argmax`/`argmin` and makes its result: the `i64` keys reduce like a tile of
    /// them would.
    fn arg_reduce(&mut self, op: &'static str, tile: Value, axis: usize) -> Result<Value> {
        let (t, l) = self.axis_operand(op, tile, axis)?;
        match t.ty {
            Type::Scalar(
                DType::F16 | DType::BF16 | DType::F32 | DType::I8 | DType::I16 | DType::I32,
            ) => {}
            _ => {
                return Err(CodegenError::InvalidType {
                    op,
                    expected: "a tile of f16, bf16, f32, i8, i16 or i32".into(),
                    value: t.describe(),
                })
            }
        }
        let sh = self.reduce_shape(OP, &t, &l, axis)?;
        let best = self.reduce_result(&t, sh, DType::I64, None)?;
        let d = self.lx.values.peek(op, best)?.clone();
        let info = if d.shape.is_empty() {
            AxisInfo::scalar(1)
        } else {
            AxisInfo::unknown(&d.shape)
        };
        // The keys' result stands for the indices: same shape and layout, `i32`.
        let out = self.lx.values.new_value(
            Type::Scalar(DType::I32),
            d.shape.clone(),
            d.layout.clone(),
            vec![],
            info,
        );
        let plan = self.lx.staged.reduces.take_value(op, ValueId(best.index))?;
        self.lx.staged.reduces.put(ValueId(out.index), plan);
        Ok(out)
    }

    /// Reduces `tile` along `axis` with `combine(kb, a, b)`, which gets two scalars of the tile's
    /// element type and returns one (it should be associative and commutative: the order of
    /// combination follows the layout). `combine` runs once, recorded as the op's combine
    /// region; every combination the reduction makes lowers that record (so it may use only
    /// ops lowered from their record: arithmetic, comparisons, `where`, math, casts, loads).
    #[track_caller]
    pub fn reduce_with(
        &mut self,
        tile: Value,
        axis: usize,
        combine: impl FnMut(&mut Self, Value, Value) -> Result<Value>,
    ) -> Result<Value> {
        let mut combine = combine;
        self.record_checked_with_regions(OpKind::ReduceWith(axis), vec![tile.into()], 1, |kb, r| {
            let (t, sh) = kb.reduce_checked(OP, tile, axis)?;
            let elem = scalar_dtype(t.ty);
            let body = kb.record_combine(OP, r.get(0), elem, |kb, a, b| combine(kb, a, b))?;
            kb.reduce_result(&t, sh, elem, Some(body))
        })
    }

    /// Checks a reduction of `tile` along `axis` and finds its shape.
    fn reduce_checked(
        &mut self,
        op: &'static str,
        tile: Value,
        axis: usize,
    ) -> Result<(Rc<ValueData<'ctx>>, ReduceShape)> {
        let (t, l) = self.axis_operand(op, tile, axis)?;
        if let Type::Ptr(..) = t.ty {
            return Err(CodegenError::InvalidType {
                op,
                expected: "a tile of numbers".into(),
                value: t.describe(),
            });
        }
        let sh = self.reduce_shape(op, &t, &l, axis)?;
        Ok((t, sh))
    }

    fn reduce_shape(
        &self,
        op: &'static str,
        t: &ValueData<'ctx>,
        l: &TileLayout,
        axis: usize,
    ) -> Result<ReduceShape> {
        let (tpw, nw) = (self.lx.threads_per_warp(), self.lx.num_warps);
        ReduceShape::new(op, &t.describe(), l, axis, tpw, nw)
    }

    /// The result of reducing `t` (as elements of `elem`) as `sh` says, its partials' scratch
    /// placed, and its plan kept for lowering.
    fn reduce_result(
        &mut self,
        t: &ValueData<'ctx>,
        sh: ReduceShape,
        elem: DType,
        body: Option<CombineBody>,
    ) -> Result<Value> {
        let scratch = self.reduce_scratch(&sh, elem)?;
        let v = self.reduce_value(t.ty, &sh, vec![]);
        let plan = ReducePlan {
            shape: sh,
            scratch,
            body,
        };
        self.lx.staged.reduces.put(ValueId(v.index), plan);
        Ok(v)
    }

    /// The partials' scratch of a reduction of `elem` elements shaped `sh`, if it has any.
    fn reduce_scratch(&mut self, sh: &ReduceShape, elem: DType) -> Result<Option<Scratch>> {
        match sh.scratch(elem) {
            Some((bytes, give_back)) => Ok(Some(self.place_scratch(OP, bytes, 16, give_back)?)),
            None => Ok(None),
        }
    }

    /// The result of a reduction of a tile of `ty` shaped `sh`, holding `regs`.
    fn reduce_value(
        &mut self,
        ty: Type,
        sh: &ReduceShape,
        regs: Vec<BasicValueEnum<'ctx>>,
    ) -> Value {
        match &sh.out {
            None => self
                .lx
                .values
                .new_value(ty, vec![], None, regs, AxisInfo::scalar(1)),
            Some(o) => {
                let info = AxisInfo::unknown(&sh.out_shape);
                self.lx
                    .values
                    .new_value(ty, sh.out_shape.clone(), Some(o.clone()), regs, info)
            }
        }
    }
}

/// The layout of register tile `t`.
fn t_layout(t: &ValueData<'_>) -> Result<Arc<TileLayout>> {
    t.layout.clone().ok_or_else(|| CodegenError::InvalidType {
        op: OP,
        expected: "a register tile with a layout".into(),
        value: t.describe(),
    })
}
