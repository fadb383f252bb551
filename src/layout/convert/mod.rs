//! Conversion planning: how to move a tensor from one distributed layout to another, and what it costs.
//!
//! [`plan_conversion`] strips what both layouts agree on ([`classify`]), then picks the cheapest way to move
//! the rest: nothing, a register permutation, warp shuffles ([`plan_shuffle`]) or a round trip through a
//! bank-conflict-minimising shared-memory layout ([`plan_shared`]) using the widest instructions the target
//! has ([`tiles_for`]). [`bank_conflicts`] counts the conflicts of any (register layout, shared layout) pair,
//! and [`simulate`] checks every one of these answers by brute force.

mod bank_conflicts;
mod classify;
mod cost;
mod hw;
mod plan;
mod shuffle;
pub mod simulate;
mod swizzle;
mod tiles;

pub use bank_conflicts::{bank_conflicts, bank_conflicts_detail, BankConflicts};
pub use classify::{classify, minimal_conversion, Classification, ConversionKind, Level};
pub use cost::{shared_cost, shuffle_cost, Cost};
pub use plan::{plan_conversion, ConversionPlan, Target};
pub use shuffle::{plan_shuffle, ShufflePlan};
pub use swizzle::{plan_shared, SharedPlan};
pub use tiles::{tiles_for, Instruction, Tile};
