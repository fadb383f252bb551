//! Shape ops: `expand_dims`, `permute`, `reshape`, `split`, `join` (and `broadcast_to` in
//! `create.rs`). None of them moves data: each rewrites the layout's bases so that every register
//! keeps its value and gets its new coordinate. They are lowered from their record
//! (`lower/shape.rs`).

use std::rc::Rc;
use std::sync::Arc;

use crate::layout::encoding::Encoding;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::OpKind;
use crate::codegen::lower::values::{Value, ValueData};

/// Register, lane and warp bases.
type AllBases = (Vec<Vec<u64>>, Vec<Vec<u64>>, Vec<Vec<u64>>);

/// Maps every basis of a layout through `f`.
fn map_bases(l: &TileLayout, f: impl Fn(&[u64]) -> Vec<u64>) -> AllBases {
    let m = |bs: &Vec<Vec<u64>>| bs.iter().map(|b| f(b)).collect();
    (m(&l.reg), m(&l.lane), m(&l.warp))
}

/// `l`'s bases with a new last dim of `1 << bits` elements held in `bits` new lowest register
/// bits (the first steps it by 1, the next by 2, …): what `join` and a narrowing `bitcast` make.
pub(crate) fn with_new_last_dim(l: &TileLayout, bits: u32) -> AllBases {
    let rank = l.shape.len();
    let mut reg: Vec<Vec<u64>> = (0..bits)
        .map(|i| (0..rank).map(|_| 0).chain([1 << i]).collect())
        .collect();
    let (old, lane, warp) = map_bases(l, |b| b.iter().copied().chain([0]).collect());
    reg.extend(old);
    (reg, lane, warp)
}

impl<'ctx> KernelBuilder<'ctx> {
    fn tile_operand(
        &mut self,
        op: &'static str,
        v: Value,
    ) -> Result<(Rc<ValueData<'ctx>>, Arc<TileLayout>)> {
        let d = self.get(op, v)?;
        match d.layout.clone() {
            Some(l) => Ok((d, l)),
            None => Err(CodegenError::InvalidType {
                op,
                expected: "a tile (splat a scalar first)".into(),
                value: d.describe(),
            }),
        }
    }

    /// Inserts a dim of size 1 at `axis` (0 ..= rank).
    #[track_caller]
    pub fn expand_dims(&mut self, v: Value, axis: usize) -> Result<Value> {
        self.record_checked(OpKind::ExpandDims(axis), vec![v.into()], |kb| {
            kb.expand_dims_impl(v, axis)
        })
    }

    fn expand_dims_impl(&mut self, v: Value, axis: usize) -> Result<Value> {
        let (d, l) = self.tile_operand("expand_dims", v)?;
        if axis > d.shape.len() {
            return Err(CodegenError::arg(
                "expand_dims",
                format!(
                    "axis {axis} is past rank {} of {}",
                    d.shape.len(),
                    d.describe()
                ),
            ));
        }
        let mut shape = d.shape.clone();
        shape.insert(axis, 1);
        let (reg, lane, warp) = map_bases(&l, |b| {
            let mut b = b.to_vec();
            b.insert(axis, 0);
            b
        });
        let mut nl = TileLayout::from_bases("expand_dims", &shape, reg, lane, warp)?;
        // Expanding a tile in `Slice(axis, parent)` along `axis` lands in `parent` (Gluon's rule),
        // which later lets `[M, 1] op [1, N]` broadcast to the parent's full shape.
        if let Some(Encoding::Slice(s)) = l.encoding.as_deref() {
            if s.dim as usize == axis {
                nl.encoding = Some(Arc::new((*s.parent).clone()));
            }
        }
        let info = d.info.expand_dims(axis);
        Ok(self
            .lx
            .values
            .new_value(d.ty, shape, Some(Arc::new(nl)), vec![], info))
    }

    /// Reorders dims: result dim `i` is input dim `perm[i]`.
    #[track_caller]
    pub fn permute(&mut self, v: Value, perm: &[usize]) -> Result<Value> {
        self.record_checked(OpKind::Permute(perm.to_vec()), vec![v.into()], |kb| {
            kb.permute_impl(v, perm)
        })
    }

    fn permute_impl(&mut self, v: Value, perm: &[usize]) -> Result<Value> {
        let (d, l) = self.tile_operand("permute", v)?;
        let rank = d.shape.len();
        let mut seen = vec![false; rank];
        let valid = perm.len() == rank
            && perm
                .iter()
                .all(|&p| p < rank && !std::mem::replace(&mut seen[p], true));
        if !valid {
            return Err(CodegenError::arg(
                "permute",
                format!(
                    "{perm:?} is not a permutation of the {rank} dims of {}",
                    d.describe()
                ),
            ));
        }
        let shape: Vec<u64> = perm.iter().map(|&p| d.shape[p]).collect();
        let (reg, lane, warp) = map_bases(&l, |b| perm.iter().map(|&p| b[p]).collect());
        let nl = TileLayout::from_bases("permute", &shape, reg, lane, warp)?;
        let info = d.info.permute(perm);
        Ok(self
            .lx
            .values
            .new_value(d.ty, shape, Some(Arc::new(nl)), vec![], info))
    }

    /// Reinterprets the elements in row-major order (the last dim fastest) as `shape`. Sizes are
    /// powers of two, so a flat index is the concatenation of the coordinates' bits and the new
    /// layout is the old one with its output bits regrouped.
    #[track_caller]
    pub fn reshape(&mut self, v: Value, shape: &[u64]) -> Result<Value> {
        self.record_checked(OpKind::Reshape, vec![v.into()], |kb| {
            kb.reshape_impl(v, shape)
        })
    }

    fn reshape_impl(&mut self, v: Value, shape: &[u64]) -> Result<Value> {
        let (d, l) = self.tile_operand("reshape", v)?;
        let total: u64 = d.shape.iter().product();
        if shape.is_empty()
            || shape.iter().any(|s| *s == 0 || !s.is_power_of_two())
            || shape.iter().try_fold(1u64, |a, &b| a.checked_mul(b)) != Some(total)
        {
            return Err(CodegenError::ShapeMismatch {
                op: "reshape",
                lhs: d.describe(),
                rhs: format!("shape {shape:?} (powers of two, {total} elements)"),
            });
        }
        let old = d.shape.clone();
        let flatten = |c: &[u64]| -> u64 {
            let mut f = 0u64;
            for (i, x) in c.iter().enumerate() {
                f = (f << old[i].trailing_zeros()) | x;
            }
            f
        };
        let unflatten = |mut f: u64| -> Vec<u64> {
            let mut c = vec![0u64; shape.len()];
            for i in (0..shape.len()).rev() {
                c[i] = f & (shape[i] - 1);
                f >>= shape[i].trailing_zeros();
            }
            c
        };
        let (reg, lane, warp) = map_bases(&l, |b| unflatten(flatten(b)));
        let nl = TileLayout::from_bases("reshape", shape, reg, lane, warp)?;
        let info = d.info.reshuffled(shape);
        Ok(self
            .lx
            .values
            .new_value(d.ty, shape.to_vec(), Some(Arc::new(nl)), vec![], info))
    }

    /// Splits a tile whose last dim has size 2 into its two halves (`x[..., 0]`, `x[..., 1]`).
    /// The last dim must be held in registers: one register basis steps it, nothing else does.
    #[track_caller]
    pub fn split(&mut self, v: Value) -> Result<(Value, Value)> {
        self.record_checked(OpKind::Split, vec![v.into()], |kb| kb.split_impl(v))
    }

    fn split_impl(&mut self, v: Value) -> Result<(Value, Value)> {
        let (d, l) = self.tile_operand("split", v)?;
        let rank = d.shape.len();
        if d.shape[rank - 1] != 2 {
            return Err(CodegenError::arg(
                "split",
                format!("the last dim must have size 2: {}", d.describe()),
            ));
        }
        let last = rank - 1;
        let steps: Vec<usize> = (0..l.reg.len()).filter(|&i| l.reg[i][last] != 0).collect();
        let threads_step = l.lane.iter().chain(&l.warp).any(|b| b[last] != 0);
        if steps.len() != 1 || threads_step {
            return Err(CodegenError::BadLayout {
                op: "split",
                reason: format!(
                    "the last dim must be stepped by exactly one register basis and no lane or warp: {}",
                    d.describe()
                ),
            });
        }
        let bit = steps[0];
        let drop = |b: &[u64]| b[..last].to_vec();
        let reg: Vec<Vec<u64>> = l
            .reg
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != bit)
            .map(|(_, b)| drop(b))
            .collect();
        let lane = l.lane.iter().map(|b| drop(b)).collect();
        let warp = l.warp.iter().map(|b| drop(b)).collect();
        let shape = d.shape[..last].to_vec();
        if shape.is_empty() {
            return Err(CodegenError::arg(
                "split",
                "splitting a 1-D tile of 2 would give scalars; extract them instead",
            ));
        }
        let nl = Arc::new(TileLayout::from_bases("split", &shape, reg, lane, warp)?);
        let info = d.info.reshuffled(&shape);
        let va =
            self.lx
                .values
                .new_value(d.ty, shape.clone(), Some(nl.clone()), vec![], info.clone());
        let vb = self
            .lx
            .values
            .new_value(d.ty, shape, Some(nl), vec![], info);
        Ok((va, vb))
    }

    /// Stacks two tiles of one shape, type and layout along a new last dim of size 2, held in a
    /// new lowest register bit (so `join` then `split` gives the operands back).
    #[track_caller]
    pub fn join(&mut self, a: Value, b: Value) -> Result<Value> {
        self.record_checked(OpKind::Join, vec![a.into(), b.into()], |kb| {
            kb.join_impl(a, b)
        })
    }

    fn join_impl(&mut self, a: Value, b: Value) -> Result<Value> {
        let (x, l) = self.tile_operand("join", a)?;
        let (y, ly) = self.tile_operand("join", b)?;
        if x.ty != y.ty {
            return Err(CodegenError::TypeMismatch {
                op: "join",
                lhs: x.describe(),
                rhs: y.describe(),
            });
        }
        if x.shape != y.shape {
            return Err(CodegenError::ShapeMismatch {
                op: "join",
                lhs: x.describe(),
                rhs: y.describe(),
            });
        }
        if l != ly {
            return Err(l.mismatch(&ly, "join", x.describe(), y.describe()));
        }
        let mut shape = x.shape.clone();
        shape.push(2);
        let (reg, lane, warp) = with_new_last_dim(&l, 1);
        let nl = TileLayout::from_bases("join", &shape, reg, lane, warp)?;
        let info = x.info.reshuffled(&shape);
        Ok(self
            .lx
            .values
            .new_value(x.ty, shape, Some(Arc::new(nl)), vec![], info))
    }
}
