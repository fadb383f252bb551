//! Which bits of a layout step along a scanned axis, by stage, and what a scan's checks decide
//! for its lowering. Pure.

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::{BinaryOp, ScanOp};
use crate::codegen::lower::combine_body::CombineBody;
use crate::codegen::lower::scratch::Scratch;
use crate::codegen::types::DType;

/// The binary op a built-in scan combines with.
pub(crate) fn scan_binary(op: ScanOp) -> BinaryOp {
    match op {
        ScanOp::Sum => BinaryOp::Add,
        ScanOp::Max => BinaryOp::Max,
        ScanOp::Min => BinaryOp::Min,
    }
}

/// Which bits of a layout step along the scanned axis, by stage.
#[derive(Debug, Clone)]
pub(crate) struct ScanShape {
    /// The axis.
    pub axis: usize,
    /// Lane bits along the axis with their steps, by step.
    pub lane: Vec<(usize, u64)>,
    /// Warp bits along the axis with their steps, by step.
    pub warp: Vec<(usize, u64)>,
    /// Register bits stepping below every lane and warp step, by step.
    pub low: Vec<usize>,
    /// Register bits stepping above every lane and warp step, by step.
    pub high: Vec<usize>,
    /// The register indices with the axis bits cleared.
    pub groups: Vec<u64>,
}

/// What a scan's checks decided for its lowering.
#[derive(Debug)]
pub(crate) struct ScanPlan {
    /// The stages.
    pub shape: ScanShape,
    /// The warps' totals' scratch, when warps step along the axis.
    pub scratch: Option<Scratch>,
    /// The user's combine function (`associative_scan_with`), else the op's own.
    pub body: Option<CombineBody>,
}

impl ScanShape {
    /// The stages of scanning a tile in `l` (named `what` in errors) along `axis` (in range);
    /// a layout the stages cannot follow is a [`CodegenError::BadLayout`].
    pub fn new(op: &'static str, what: &str, l: &TileLayout, axis: usize) -> Result<ScanShape> {
        let bad = |reason: String| CodegenError::BadLayout {
            op,
            reason: format!("{reason} in {what}: convert_layout to a blocked layout first"),
        };
        // The bits that step along the axis, with their steps.
        let mut steps: Vec<u64> = Vec::new();
        let mut along = |name: &str, bases: &Vec<Vec<u64>>| -> Result<Vec<(usize, u64)>> {
            let mut out = Vec::new();
            for (i, b) in bases.iter().enumerate() {
                if b[axis] == 0 {
                    continue;
                }
                if b.iter().enumerate().any(|(d, &x)| d != axis && x != 0) {
                    return Err(bad(format!(
                        "{name} bit {i} moves the axis and another dim at once ({b:?})"
                    )));
                }
                if !b[axis].is_power_of_two() || steps.contains(&b[axis]) {
                    return Err(bad(format!(
                        "{name} bit {i} steps the axis by {}, not a new power of two",
                        b[axis]
                    )));
                }
                steps.push(b[axis]);
                out.push((i, b[axis]));
            }
            Ok(out)
        };
        let reg_a = along("register", &l.reg)?;
        let mut lane_a = along("lane", &l.lane)?;
        let mut warp_a = along("warp", &l.warp)?;
        lane_a.sort_by_key(|x| x.1);
        warp_a.sort_by_key(|x| x.1);
        let thread_steps: Vec<u64> = lane_a.iter().chain(&warp_a).map(|x| x.1).collect();
        let tmin = thread_steps.iter().copied().min().unwrap_or(u64::MAX);
        let tmax = thread_steps.iter().copied().max().unwrap_or(0);
        if let (Some(lm), Some(wm)) = (lane_a.last(), warp_a.first()) {
            if lm.1 > wm.1 {
                return Err(bad(
                    "a lane bit steps the axis further than a warp bit".into()
                ));
            }
        }
        for w in lane_a.windows(2) {
            if w[1].0 != w[0].0 + 1 {
                return Err(bad(
                    "the lane bits along the axis are not consecutive and increasing".into(),
                ));
            }
        }
        let mut low: Vec<usize> = Vec::new();
        let mut high: Vec<usize> = Vec::new();
        for &(i, s) in &reg_a {
            if s < tmin {
                low.push(i);
            } else if s > tmax {
                high.push(i);
            } else {
                return Err(bad(format!(
                    "register bit {i} steps the axis between lane or warp steps"
                )));
            }
        }
        // Sort both register lists by step.
        let step_of = |i: &usize| l.reg[*i][axis];
        low.sort_by_key(step_of);
        high.sort_by_key(step_of);
        let amask: u64 = reg_a.iter().map(|&(i, _)| 1u64 << i).sum();
        let groups: Vec<u64> = (0..l.num_regs() as u64)
            .filter(|r| r & amask == 0)
            .collect();
        Ok(ScanShape {
            axis,
            lane: lane_a,
            warp: warp_a,
            low,
            high,
            groups,
        })
    }

    /// Whether any two elements are combined (some stage has work).
    pub fn combines(&self) -> bool {
        !(self.low.is_empty()
            && self.high.is_empty()
            && self.lane.is_empty()
            && self.warp.is_empty())
    }

    /// The scratch bytes of the warps' totals of a tile in `l` of `elem`, if warps step along
    /// the axis.
    pub fn scratch(&self, l: &TileLayout, elem: DType) -> Option<u64> {
        if self.warp.is_empty() {
            return None;
        }
        let size: u64 = (0..l.rank())
            .filter(|&d| d != self.axis)
            .map(|d| l.shape[d])
            .product();
        let plane = size << self.high.len();
        Some((1u64 << self.warp.len()) * plane * elem.mem_bytes())
    }

    /// The register of group `base`, high block `h` and low position `lo`.
    pub fn reg_of(&self, base: u64, h: usize, lo: usize) -> usize {
        let mut r = base;
        for (b, &i) in self.high.iter().enumerate() {
            r |= ((h >> b & 1) as u64) << i;
        }
        for (b, &i) in self.low.iter().enumerate() {
            r |= ((lo >> b & 1) as u64) << i;
        }
        r as usize
    }
}
