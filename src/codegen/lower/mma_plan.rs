//! What a `dot`'s checks decide for its lowering: the `mma.sync` instruction (the PTX ISA's
//! fragment layout) and which registers feed each instruction. Pure.

use crate::codegen::types::DType;

/// One `mma.sync` shape and type: the PTX ISA's fragment layout.
#[derive(Debug)]
pub(crate) struct MmaInstr {
    /// The instruction's name.
    pub name: &'static str,
    /// Operand element type.
    pub elem: DType,
    /// K per instruction.
    pub k: u64,
    /// Elements per 32-bit operand register (2 for 16-bit types, 1 for tf32).
    pub per_reg: usize,
    /// Lane bits 0..5 → (m, k) of A.
    pub a_lane: [(u64, u64); 5],
    /// A's fragment positions (m, k), in register order.
    pub a_frag: &'static [(u64, u64)],
    /// Lane bits → (k, n) of B.
    pub b_lane: [(u64, u64); 5],
    /// B's fragment positions (k, n).
    pub b_frag: &'static [(u64, u64)],
}

/// Which registers feed each instruction: for every K step and instruction tile, the register
/// indices of A's, B's and the accumulator's fragments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MmaSchedule {
    /// One entry per instruction, in issue order (K steps outermost).
    pub steps: Vec<MmaStep>,
    /// For each accumulator register, the register holding the same element that the
    /// instructions compute (itself unless the layout holds copies).
    pub acc_source: Vec<usize>,
}

/// One `mma.sync`: register indices of its operands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MmaStep {
    pub a: Vec<usize>,
    pub b: Vec<usize>,
    pub c: Vec<usize>,
}

/// What a `dot`'s checks decided: the instruction and which registers feed each.
#[derive(Debug)]
pub(crate) struct DotPlan {
    pub instr: MmaInstr,
    pub sched: MmaSchedule,
}
