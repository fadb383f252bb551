//! Passes over the recorded program that compute what lowering needs, with no LLVM: axis info
//! over a region (`axis_flow.rs`, a loop's carried facts to their fixpoint).

pub(crate) mod axis_flow;
