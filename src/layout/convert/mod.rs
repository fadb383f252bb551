//! Conversion planning: how to move a tensor from one distributed layout to another, and what it costs.
//!
//! [`plan_conversion`] strips what both layouts agree on ([`classify`]), then picks the cheapest way to move
//! the rest: nothing, a register permutation, warp shuffles ([`plan_shuffle`]) or a round trip through a
//! bank-conflict-minimising shared-memory layout ([`plan_shared`]) using the widest instructions the target
//! has ([`tiles_for`]). [`bank_conflicts`] counts the conflicts of any (register layout, shared layout) pair,
//! and [`simulate`] checks every one of these answers by brute force.
//!
//! ```
//! use weft::layout::convert::{plan_conversion, ConversionKind, Target};
//! use weft::layout::LinearLayout;
//!
//! // One warp, 4×8 f32: register bit 0 and lane bit 0 trade places.
//! let ll = |reg: Vec<Vec<u64>>, lane: Vec<Vec<u64>>| {
//!     LinearLayout::from_bases([("register", reg), ("lane", lane)], [("dim0", 4), ("dim1", 8)], true)
//! };
//! let src = ll(vec![vec![0, 1]], vec![vec![0, 2], vec![0, 4], vec![1, 0], vec![2, 0]])?;
//! let dst = ll(vec![vec![0, 2]], vec![vec![0, 1], vec![0, 4], vec![1, 0], vec![2, 0]])?;
//! let plan = plan_conversion(&src, &dst, 32, Target::SM80)?;
//! assert_eq!(plan.kind, ConversionKind::WarpShuffle);
//! assert_eq!(plan.shuffles(), 1); // half the registers cross lanes
//! plan.verify()?; // executed on the host: the destination placement comes out
//! println!("{plan}"); // a table; with feature `serde`, `plan.to_json()` is the JSON of design.md
//! # Ok::<(), weft::layout::LayoutError>(())
//! ```

#![forbid(unsafe_code)]

mod bank_conflicts;
mod classify;
mod cost;
mod cta_local;
mod hw;
mod plan;
#[cfg(feature = "serde")]
mod plan_json;
mod shuffle;
pub mod simulate;
mod swizzle;
mod tiles;

pub use bank_conflicts::{bank_conflicts, bank_conflicts_detail, BankConflicts};
pub use classify::{classify, minimal_conversion, Classification, ConversionKind, Level};
pub use cost::{cross_cta_cost, shared_cost, shuffle_cost, Cost};
pub use plan::{element_bits, plan_conversion, ConversionPlan, Target};
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub use plan_json::{
    Access, Alternative, CostSummary, PlanSummary, ReadWrite, SharedSummary, ShuffleSummary,
    Swizzle,
};
pub use shuffle::{plan_shuffle, ShufflePlan};
pub use swizzle::{plan_shared, plan_shared_ld_st, SharedPlan};
pub use tiles::{tiles_for, Instruction, Tile};
