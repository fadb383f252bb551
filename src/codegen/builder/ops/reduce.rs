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

use inkwell::values::{BasicValueEnum, IntValue};

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::body_once::BodyOnce;
use crate::codegen::builder::ops::shared::scalar_dtype;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::values::{Value, ValueData, ValueKind};
use crate::codegen::types::{DType, Type};
use crate::layout::encoding::{Encoding, Slice};

const OP: &str = "reduce";

impl<'ctx> KernelBuilder<'ctx> {
    /// Reduces `tile` along `axis` with `op`; see the [module docs](self) for the stages and the
    /// result's layout. Mask first (`where_`) to leave elements out.
    #[track_caller]
    pub fn reduce(&mut self, tile: Value, axis: usize, op: ReduceOp) -> Result<Value> {
        self.record(OpKind::Reduce { axis, op }, vec![tile.into()], |kb| {
            kb.reduce_impl(tile, axis, op)
        })
    }

    fn reduce_impl(&mut self, tile: Value, axis: usize, op: ReduceOp) -> Result<Value> {
        self.reduce_with(tile, axis, |kb, a, b| match op {
            ReduceOp::Sum => kb.add(a, b),
            ReduceOp::Max => kb.max(a, b),
            ReduceOp::Min => kb.min(a, b),
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
        let l = t.layout.clone().expect("a tile has a layout");
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
        self.record(OpKind::ArgMax(axis), vec![tile.into()], |kb| {
            kb.argmax_impl(tile, axis)
        })
    }

    fn argmax_impl(&mut self, tile: Value, axis: usize) -> Result<Value> {
        let at = self.rec.caller();
        self.reported("argmax", at, Some(tile), |kb| {
            kb.arg_reduce("argmax", tile, axis, true)
        })
    }

    /// The index (`i32`) of the smallest element of `tile` along `axis`, the lowest one on ties
    /// (the key's low word is the index itself; see [`argmax`](Self::argmax)).
    #[track_caller]
    pub fn argmin(&mut self, tile: Value, axis: usize) -> Result<Value> {
        self.record(OpKind::ArgMin(axis), vec![tile.into()], |kb| {
            kb.argmin_impl(tile, axis)
        })
    }

    fn argmin_impl(&mut self, tile: Value, axis: usize) -> Result<Value> {
        let at = self.rec.caller();
        self.reported("argmin", at, Some(tile), |kb| {
            kb.arg_reduce("argmin", tile, axis, false)
        })
    }

    fn arg_reduce(
        &mut self,
        op: &'static str,
        tile: Value,
        axis: usize,
        max: bool,
    ) -> Result<Value> {
        let (t, l) = self.axis_operand(op, tile, axis)?;
        let elem = match t.ty {
            Type::Scalar(
                d @ (DType::F16 | DType::BF16 | DType::F32 | DType::I8 | DType::I16 | DType::I32),
            ) => d,
            _ => {
                return Err(CodegenError::InvalidType {
                    op,
                    expected: "a tile of f16, bf16, f32, i8, i16 or i32".into(),
                    value: t.describe(),
                })
            }
        };
        let index = self.lx.dim_coords(&l, axis)?;
        let keys = self.lx.arg_reduce_keys(&t.regs, &index, elem, max)?;
        let key_tile = self.lx.values.new_value(
            Type::Scalar(DType::I64),
            t.shape.clone(),
            t.layout.clone(),
            keys,
            AxisInfo::unknown(&t.shape),
        );
        let best = self.reduce(
            key_tile,
            axis,
            if max { ReduceOp::Max } else { ReduceOp::Min },
        )?;
        let d = self.get(op, best)?;
        let out = self.lx.arg_reduce_indices(&d.regs, max)?;
        let info = if d.shape.is_empty() {
            AxisInfo::scalar(1)
        } else {
            AxisInfo::unknown(&d.shape)
        };
        Ok(self.lx.values.new_value(
            Type::Scalar(DType::I32),
            d.shape.clone(),
            d.layout.clone(),
            out,
            info,
        ))
    }

    /// Reduces `tile` along `axis` with `combine(kb, a, b)`, which gets two scalars of the tile's
    /// element type and returns one (it should be associative and commutative: the order of
    /// combination follows the layout). `combine` runs once, recorded as the op's combine
    /// region; every combination the reduction makes lowers that record.
    #[track_caller]
    pub fn reduce_with(
        &mut self,
        tile: Value,
        axis: usize,
        combine: impl FnMut(&mut Self, Value, Value) -> Result<Value>,
    ) -> Result<Value> {
        let mut combine = combine;
        self.record_with_regions(
            OpKind::ReduceWith(axis),
            vec![tile.into()],
            1,
            |kb, bodies| {
                let mut once = BodyOnce::new(bodies.get(0));
                kb.reduce_with_impl(tile, axis, |kb, a, b| {
                    once.lower_one(kb, &[a, b], |kb| combine(kb, a, b))
                })
            },
        )
    }

    fn reduce_with_impl(
        &mut self,
        tile: Value,
        axis: usize,
        combine: impl FnMut(&mut Self, Value, Value) -> Result<Value>,
    ) -> Result<Value> {
        let at = self.rec.caller();
        self.reported(OP, at, Some(tile), |kb| {
            kb.reduce_with_inner(tile, axis, combine)
        })
    }

    fn reduce_with_inner(
        &mut self,
        tile: Value,
        axis: usize,
        mut combine: impl FnMut(&mut Self, Value, Value) -> Result<Value>,
    ) -> Result<Value> {
        let (t, l) = self.axis_operand(OP, tile, axis)?;
        if let Type::Ptr(..) = t.ty {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "a tile of numbers".into(),
                value: t.describe(),
            });
        }
        let along = |b: &Vec<u64>| b[axis] != 0;
        for (name, bases) in [("register", &l.reg), ("lane", &l.lane), ("warp", &l.warp)] {
            if let Some((i, b)) = bases
                .iter()
                .enumerate()
                .find(|(_, b)| along(b) && b.iter().enumerate().any(|(d, &x)| d != axis && x != 0))
            {
                return Err(CodegenError::BadLayout {
                    op: OP,
                    reason: format!(
                        "{name} bit {i} moves the axis and another dim at once ({b:?}) in {}: \
                         convert_layout to a layout without such bases first",
                        t.describe()
                    ),
                });
            }
        }
        let elem = scalar_dtype(t.ty);
        let (reg_free, lane_free, warp_free) = l.free_masks();
        // The result's layout.
        let drop = |b: &Vec<u64>| -> Vec<u64> {
            b.iter()
                .enumerate()
                .filter(|(d, _)| *d != axis)
                .map(|(_, &x)| x)
                .collect()
        };
        let kept: Vec<usize> = (0..l.reg.len())
            .filter(|&i| drop(&l.reg[i]).iter().any(|&x| x != 0))
            .collect();
        let out_shape: Vec<u64> = drop(&l.shape);
        let out_layout = if out_shape.is_empty() {
            None
        } else {
            let mut o = TileLayout::from_bases(
                OP,
                &out_shape,
                kept.iter().map(|&i| drop(&l.reg[i])).collect(),
                l.lane.iter().map(drop).collect(),
                l.warp.iter().map(drop).collect(),
            )?;
            if let Some(enc) = &l.encoding {
                let s: Encoding = Slice::new(axis as u32, (**enc).clone()).into();
                if let Ok(sl) = s.to_linear_layout(&out_shape) {
                    if TileLayout::new(OP, &sl, self.lx.threads_per_warp(), self.lx.num_warps)
                        .is_ok_and(|x| x == o)
                    {
                        o.ll = sl;
                        o.encoding = Some(Arc::new(s));
                    }
                }
            }
            Some(Arc::new(o))
        };
        // 1. In each thread.
        let kmask: u64 = kept.iter().map(|&i| 1u64 << i).sum();
        let n_out = 1usize << kept.len();
        let mut vals: Vec<BasicValueEnum<'ctx>> = Vec::with_capacity(n_out);
        for ro in 0..n_out as u64 {
            let base: u64 = kept
                .iter()
                .enumerate()
                .fold(0, |a, (b, &i)| a | (ro >> b & 1) << i);
            let mut seen: Vec<Vec<u64>> = Vec::new();
            let mut acc: Option<BasicValueEnum> = None;
            for r in 0..l.num_regs() as u64 {
                if r & kmask != base {
                    continue;
                }
                let c = l.reg_coord(r as usize);
                if seen.contains(&c) {
                    continue;
                }
                seen.push(c);
                let v = t.regs[r as usize];
                acc = Some(match acc {
                    None => v,
                    Some(a) => self.combine_regs(&mut combine, elem, a, v)?,
                });
            }
            vals.push(acc.expect("every group holds a register"));
        }
        let _ = reg_free;
        // 2. Across lanes.
        let lane = self.lx.lane_id()?;
        for j in 0..l.lane.len() {
            if !along(&l.lane[j]) || lane_free >> j & 1 == 1 {
                continue;
            }
            for v in vals.iter_mut() {
                let other = self.lx.shuffle_xor_value(*v, elem, 1 << j, lane)?;
                *v = self.combine_regs(&mut combine, elem, *v, other)?;
            }
        }
        // 3. Across warps.
        let wp: Vec<usize> = (0..l.warp.len())
            .filter(|&j| along(&l.warp[j]) && warp_free >> j & 1 == 0)
            .collect();
        if !wp.is_empty() {
            vals =
                self.reduce_across_warps(&mut combine, elem, &wp, out_layout.as_deref(), vals)?;
        }
        Ok(match out_layout {
            None => self
                .lx
                .values
                .new_value(t.ty, vec![], None, vals, AxisInfo::scalar(1)),
            Some(o) => {
                let info = AxisInfo::unknown(&out_shape);
                self.lx
                    .values
                    .new_value(t.ty, out_shape, Some(o), vals, info)
            }
        })
    }

    /// `combine` on two registers, through scalar values.
    pub(crate) fn combine_regs(
        &mut self,
        combine: &mut impl FnMut(&mut Self, Value, Value) -> Result<Value>,
        elem: DType,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let ty = Type::Scalar(elem);
        let va = self
            .lx
            .values
            .new_value(ty, vec![], None, vec![a], AxisInfo::scalar(1));
        let vb = self
            .lx
            .values
            .new_value(ty, vec![], None, vec![b], AxisInfo::scalar(1));
        let r = combine(self, va, vb)?;
        let d = self.get("reduce (combine's result)", r)?;
        if d.ty != ty || !d.is_scalar() {
            return Err(CodegenError::TypeMismatch {
                op: OP,
                lhs: format!("scalar<{elem}>"),
                rhs: d.describe(),
            });
        }
        Ok(d.regs[0])
    }

    /// Stage 3: partials through shared memory, combined by every thread in warp order.
    fn reduce_across_warps(
        &mut self,
        combine: &mut impl FnMut(&mut Self, Value, Value) -> Result<Value>,
        elem: DType,
        wp: &[usize],
        out: Option<&TileLayout>,
        vals: Vec<BasicValueEnum<'ctx>>,
    ) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let i32t = self.lx.em.ctx.i32_type();
        let eb = elem.mem_bytes();
        let size: u64 = out.map_or(1, |o| o.shape.iter().product());
        let parts = 1u64 << wp.len();
        let a = self.scratch_alloc(OP, parts * size * eb, 16)?;
        self.lx.report.scratch(parts * size * eb);
        // This thread's flat (row-major) index of each result register.
        let flat: Vec<IntValue<'ctx>> = match out {
            None => vec![i32t.const_zero()],
            Some(o) => {
                let mut acc: Vec<IntValue> = vec![i32t.const_zero(); o.num_regs()];
                let mut stride = 1u64;
                for d in (0..o.rank()).rev() {
                    let c = self.lx.dim_coords(o, d)?;
                    for (x, cd) in acc.iter_mut().zip(c) {
                        let term =
                            self.lx
                                .em
                                .b
                                .build_int_mul(cd, i32t.const_int(stride, false), "")?;
                        *x = self.lx.em.b.build_int_add(*x, term, "")?;
                    }
                    stride *= o.shape[d];
                }
                acc
            }
        };
        // This warp's index among the partials.
        let my = self.lx.warp_part_index(wp)?;
        let mem = elem.llvm_mem(self.lx.em.ctx);
        let addr =
            |kb: &mut Self, part: IntValue<'ctx>, f: IntValue<'ctx>| -> Result<IntValue<'ctx>> {
                let rep = kb.replica(a.offset);
                kb.lx.scratch_elem_offset(part, size, f, eb, a.offset, rep)
            };
        // Inside a loop body the previous iteration may still read the partials; reused
        // scratch may still be read by its previous op.
        if a.fence || self.lx.values.scope() != 0 {
            self.barrier()?;
        }
        // Lane → flat index of each result register (warp 0, whose partial is part 0).
        let lane_flat = |kb: &Self, r: usize| -> Vec<u64> {
            (0..kb.lx.threads_per_warp() as u64)
                .map(|lane| {
                    out.map_or(0, |o| {
                        crate::codegen::report::lane_flat_index(o, r, lane, None)
                    })
                })
                .collect()
        };
        for (r, (v, f)) in vals.iter().zip(&flat).enumerate() {
            if self.lx.report.active() {
                let lanes: Vec<u64> = lane_flat(self, r).iter().map(|i| i * eb).collect();
                self.lx.report.shared(true, &lanes, eb);
            }
            let at = addr(self, my, *f)?;
            let ptr = self.lx.smem_at(at)?;
            let v = self.lx.in_mem_form(*v, elem)?;
            self.lx.em.b.build_store(ptr, v)?;
        }
        self.barrier()?;
        // A reduction to one value per CTA finds its partials side by side: read them in 16-byte
        // vectors (what ptxas would merge the scalar reads into anyway).
        let chunk = if size == 1 && elem != DType::I1 {
            parts.min(16 / eb).max(1)
        } else {
            1
        };
        if chunk > 1 {
            let mut acc: Option<BasicValueEnum> = None;
            let vty = crate::codegen::lower::emitter::vec_of(mem, chunk as u32).into_vector_type();
            for q0 in (0..parts).step_by(chunk as usize) {
                if self.lx.report.active() {
                    let bytes = vec![q0 * eb; self.lx.threads_per_warp() as usize];
                    self.lx.report.shared(false, &bytes, chunk * eb);
                }
                let at = addr(self, i32t.const_int(q0, false), flat[0])?;
                let ptr = self.lx.smem_at(at)?;
                let v = self.lx.em.b.build_load(vty, ptr, "")?;
                if let Some(inst) = inkwell::values::BasicValue::as_instruction_value(&v) {
                    inst.set_alignment((chunk * eb) as u32)
                        .map_err(|e| CodegenError::llvm(OP, e.to_string()))?;
                }
                for i in 0..chunk {
                    let x = self.lx.em.b.build_extract_element(
                        v.into_vector_value(),
                        i32t.const_int(i, false),
                        "",
                    )?;
                    acc = Some(match acc {
                        None => x,
                        Some(a) => self.combine_regs(combine, elem, a, x)?,
                    });
                }
            }
            // Every result register holds the one value (copies in the result layout).
            let acc = acc.expect("at least one partial");
            return Ok(vec![acc; flat.len()]);
        }
        let mut out_vals = Vec::with_capacity(vals.len());
        for (r, f) in flat.iter().enumerate() {
            let mut acc: Option<BasicValueEnum> = None;
            let lanes = if self.lx.report.active() {
                lane_flat(self, r)
            } else {
                Vec::new()
            };
            for q in 0..parts {
                if self.lx.report.active() {
                    let bytes: Vec<u64> = lanes.iter().map(|i| (q * size + i) * eb).collect();
                    self.lx.report.shared(false, &bytes, eb);
                }
                let at = addr(self, i32t.const_int(q, false), *f)?;
                let ptr = self.lx.smem_at(at)?;
                let x = self.lx.em.b.build_load(mem, ptr, "")?;
                let x = self.lx.out_of_mem_form(x, elem)?;
                acc = Some(match acc {
                    None => x,
                    Some(a) => self.combine_regs(combine, elem, a, x)?,
                });
            }
            out_vals.push(acc.expect("at least one partial"));
        }
        self.scratch_free(OP, a)?;
        Ok(out_vals)
    }
}
