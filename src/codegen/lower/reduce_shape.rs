//! What the operand's layout makes of a reduction along one axis (the result's layout and which
//! bits combine in which stage), and what a reduction's checks decide for its lowering. Pure.

use std::sync::Arc;

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::{BinaryOp, ReduceOp};
use crate::codegen::lower::combine_body::CombineBody;
use crate::codegen::lower::scratch::Scratch;
use crate::codegen::types::DType;
use crate::layout::encoding::{Encoding, Slice};

/// What the operand's layout makes of a reduction along `axis`.
#[derive(Debug, Clone)]
pub(crate) struct ReduceShape {
    /// The axis.
    pub axis: usize,
    /// The register bits that do not step along the axis (the result's registers).
    pub kept: Vec<usize>,
    /// The warp bits that step along the axis (the partials through shared memory).
    pub warps: Vec<usize>,
    /// The result's shape (empty: a scalar).
    pub out_shape: Vec<u64>,
    /// The result's layout (`None`: a scalar).
    pub out: Option<Arc<TileLayout>>,
    /// Whether any two elements are combined (some stage has work).
    pub combines: bool,
}

/// What a reduction's checks decided for its lowering.
#[derive(Debug)]
pub(crate) struct ReducePlan {
    /// The stages.
    pub shape: ReduceShape,
    /// The partials' scratch, when warps combine.
    pub scratch: Option<Scratch>,
    /// The user's combine function (`reduce_with`), else the op's own.
    pub body: Option<CombineBody>,
}

/// The binary op a built-in reduction combines with.
pub(crate) fn reduce_binary(op: ReduceOp) -> BinaryOp {
    match op {
        ReduceOp::Sum => BinaryOp::Add,
        ReduceOp::Max => BinaryOp::Max,
        ReduceOp::Min => BinaryOp::Min,
    }
}

impl ReduceShape {
    /// The shape of reducing a tile in `l` (named `what` in errors) along `axis` (in range),
    /// with `tpw` threads per warp and `nw` warps.
    pub fn new(
        op: &'static str,
        what: &str,
        l: &TileLayout,
        axis: usize,
        tpw: u32,
        nw: u32,
    ) -> Result<ReduceShape> {
        let along = |b: &Vec<u64>| b[axis] != 0;
        for (name, bases) in [("register", &l.reg), ("lane", &l.lane), ("warp", &l.warp)] {
            if let Some((i, b)) = bases
                .iter()
                .enumerate()
                .find(|(_, b)| along(b) && b.iter().enumerate().any(|(d, &x)| d != axis && x != 0))
            {
                return Err(CodegenError::BadLayout {
                    op,
                    reason: format!(
                        "{name} bit {i} moves the axis and another dim at once ({b:?}) in {what}: \
                         convert_layout to a layout without such bases first"
                    ),
                });
            }
        }
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
        let out = if out_shape.is_empty() {
            None
        } else {
            let mut o = TileLayout::from_bases(
                op,
                &out_shape,
                kept.iter().map(|&i| drop(&l.reg[i])).collect(),
                l.lane.iter().map(drop).collect(),
                l.warp.iter().map(drop).collect(),
            )?;
            if let Some(enc) = &l.encoding {
                let s: Encoding = Slice::new(axis as u32, (**enc).clone()).into();
                if let Ok(sl) = s.to_linear_layout(&out_shape) {
                    if TileLayout::new(op, &sl, tpw, nw).is_ok_and(|x| x == o) {
                        o.ll = sl;
                        o.encoding = Some(Arc::new(s));
                    }
                }
            }
            Some(Arc::new(o))
        };
        let (_, lane_free, warp_free) = l.free_masks();
        let warps: Vec<usize> = (0..l.warp.len())
            .filter(|&j| along(&l.warp[j]) && warp_free >> j & 1 == 0)
            .collect();
        let in_thread = (0..l.reg.len()).any(|j| !kept.contains(&j) && along(&l.reg[j]));
        let in_warp = (0..l.lane.len()).any(|j| along(&l.lane[j]) && lane_free >> j & 1 == 0);
        Ok(ReduceShape {
            axis,
            kept,
            combines: in_thread || in_warp || !warps.is_empty(),
            warps,
            out_shape,
            out,
        })
    }

    /// The scratch of the partials across warps of `elem` elements, if there are any: its
    /// bytes, and whether the reduction gives it back (one to a single value per CTA, read
    /// in vectors, keeps it).
    pub fn scratch(&self, elem: DType) -> Option<(u64, bool)> {
        if self.warps.is_empty() {
            return None;
        }
        let eb = elem.mem_bytes();
        let size = self.size();
        let parts = 1u64 << self.warps.len();
        Some((parts * size * eb, self.chunk(elem) == 1))
    }

    /// Elements of the result.
    pub fn size(&self) -> u64 {
        self.out.as_ref().map_or(1, |o| o.shape.iter().product())
    }

    /// Partials read per load: side by side when the result is one value per CTA.
    pub fn chunk(&self, elem: DType) -> u64 {
        let parts = 1u64 << self.warps.len();
        if self.size() == 1 && elem != DType::I1 {
            parts.min(16 / elem.mem_bytes()).max(1)
        } else {
            1
        }
    }
}
