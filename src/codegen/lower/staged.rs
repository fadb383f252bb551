//! What an op's checks decided for its lowering that its record does not say (a conversion's
//! route, where its scratch went), kept for the op until it is lowered, by its first result.

use std::collections::HashMap;

use crate::codegen::analysis::matrix_plan::MatrixPlan;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Op, ValueId};
use crate::codegen::lower::convert_plan::ConvertPlan;
use crate::codegen::lower::mma_plan::DotPlan;
use crate::codegen::lower::reduce_shape::ReducePlan;
use crate::codegen::lower::scan_shape::ScanPlan;
use crate::codegen::lower::scratch::Scratch;

/// Decisions of type `T`, one per recorded op not lowered yet.
#[derive(Debug)]
pub(crate) struct Staged<T>(HashMap<ValueId, T>);

impl<T> Default for Staged<T> {
    fn default() -> Self {
        Staged(HashMap::new())
    }
}

impl<T> Staged<T> {
    /// Keeps `t` for the op whose first result is `result`.
    pub fn put(&mut self, result: ValueId, t: T) {
        self.0.insert(result, t);
    }

    /// What was kept for `op` (`name` names it in the error).
    pub fn take(&mut self, name: &'static str, op: &Op) -> Result<T> {
        let r = op.results.first().copied().unwrap_or(ValueId(u32::MAX));
        self.take_value(name, r)
    }

    /// What was kept for the op whose first result is `result`.
    pub fn take_value(&mut self, name: &'static str, result: ValueId) -> Result<T> {
        self.0.remove(&result).ok_or_else(|| {
            CodegenError::arg(
                name,
                format!(
                    "internal: the op defining %{} has no lowering plan",
                    result.0
                ),
            )
        })
    }
}

/// What the checks of recorded ops decided for their lowering, per family.
#[derive(Debug, Default)]
pub(crate) struct StagedPlans {
    /// `convert_layout`: the route and its figures.
    pub converts: Staged<ConvertPlan>,
    /// Reductions (`argmax`, `argmin` included): their stages, scratch and combine function.
    pub reduces: Staged<ReducePlan>,
    /// Scans: their stages and scratch.
    pub scans: Staged<ScanPlan>,
    /// `dot`: the instruction and its schedule.
    pub dots: Staged<DotPlan>,
    /// `ldmatrix`: its plan and this thread's copy of the buffer.
    pub ldmatrix: Staged<LdmatrixPlan>,
    /// Ops built from other ops (`grouped_tile`): their parts, in order.
    pub composites: Staged<Vec<Op>>,
    /// Scalar atomics: the slot through which the one thread that performs one hands the old
    /// value to the others.
    pub atomics: Staged<Scratch>,
}

/// What an `ldmatrix`'s checks decided: the tile's offsets in the buffer and the matrix plan (or
/// plain loads); which copy of the buffer this thread reads is the lowering's (its warp role).
#[derive(Debug)]
pub(crate) struct LdmatrixPlan {
    pub offsets: TileLayout,
    pub plan: Option<MatrixPlan>,
}
