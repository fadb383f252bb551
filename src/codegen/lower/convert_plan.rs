//! What a conversion's checks decide for its lowering: the route (re-indexed registers, warp
//! shuffles of a plan the lowering runs exactly, or a round trip through scratch) and the
//! figures the report shows.

use std::collections::HashMap;

use crate::codegen::analysis::matrix_plan::MatrixPlan;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::lower::scratch::Scratch;
use crate::codegen::lower::scratch_side::ScratchSide;
use crate::codegen::lower::shuffle_exec::ShuffleExec;
use crate::codegen::report::ConversionFigures;
use crate::layout::convert::ShufflePlan;

/// How a conversion moves its registers.
#[derive(Debug)]
pub(crate) enum ConvertRoute {
    /// Destination register `r` is source register `map[r]` (equal layouts, a no-op or a
    /// register permutation).
    Permute(Vec<usize>),
    /// Warp shuffles of a plan the lowering runs exactly.
    Shuffle(Box<(ShufflePlan, ShuffleExec)>),
    /// A round trip through shared memory.
    Shared(Box<SharedRoute>),
}

/// A round trip through the plan's scratch layout, each half with the instruction the plan
/// picked (a matrix plan with its repetitions' first registers, or plain accesses).
#[derive(Debug)]
pub(crate) struct SharedRoute {
    /// Where the source registers go.
    pub store: ScratchSide,
    /// Where the destination registers come from.
    pub load: ScratchSide,
    /// The `stmatrix` plan, if the store uses it.
    pub store_plan: Option<(MatrixPlan, Vec<usize>)>,
    /// The `ldmatrix` plan, if the load uses it.
    pub load_plan: Option<(MatrixPlan, Vec<usize>)>,
    /// The bytes it goes through.
    pub scratch: Scratch,
}

/// What a conversion's checks decided: the route and the figures the report shows.
#[derive(Debug)]
pub(crate) struct ConvertPlan {
    pub route: ConvertRoute,
    pub figures: ConversionFigures,
}

/// Destination register `r` takes the source register at the same coordinate when both
/// layouts give every thread the same thread part; `None` if one is missing.
pub(crate) fn permute_map(src: &TileLayout, dst: &TileLayout) -> Option<Vec<usize>> {
    if src.lane != dst.lane || src.warp != dst.warp {
        return None;
    }
    let mut at: HashMap<Vec<u64>, usize> = HashMap::new();
    for r in (0..src.num_regs()).rev() {
        at.insert(src.reg_coord(r), r);
    }
    (0..dst.num_regs())
        .map(|r| at.get(&dst.reg_coord(r)).copied())
        .collect()
}
