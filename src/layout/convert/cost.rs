//! A cost per plan: instructions per thread and an estimate of cycles per warp, enough to order plans.
//!
//! Model (per warp, issue-bound, numbers of the order of NVIDIA's and AMD's published throughputs):
//! a select or byte permute costs 1 cycle, a shuffle 4 (it goes through the same crossbar as shared memory);
//! a shared-memory access costs 2 cycles per wavefront; every repetition of a round trip pays two CTA
//! barriers and the store-to-load latency, about 40 cycles together.

use super::shuffle::ShufflePlan;
use super::swizzle::SharedPlan;

/// Cycles of one select or byte permute.
pub const SELECT_CYCLES: u64 = 1;
/// Cycles of one warp shuffle.
pub const SHUFFLE_CYCLES: u64 = 4;
/// Cycles of one shared-memory wavefront.
pub const WAVEFRONT_CYCLES: u64 = 2;
/// Cycles of the barriers and latency of one store/load repetition.
pub const REPETITION_CYCLES: u64 = 40;
/// Cycles of a cluster barrier and a remote (distributed shared memory) round trip.
pub const CLUSTER_CYCLES: u64 = 1000;

/// The cost of a plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cost {
    /// Estimated cycles per warp (the primary key when ordering plans).
    pub cycles: u64,
    /// Instructions per thread.
    pub instructions: u64,
}

/// Cost of a warp-shuffle plan.
pub fn shuffle_cost(p: &ShufflePlan) -> Cost {
    Cost {
        cycles: p.shuffles as u64 * SHUFFLE_CYCLES + p.selects as u64 * SELECT_CYCLES,
        instructions: p.instructions() as u64,
    }
}

/// Wavefronts of `count` accesses of `vector` elements each, with `conflicts` extra wavefronts per phase.
fn wavefronts(count: u64, vector: u64, bits: u32, lanes: u64, conflicts: u64) -> u64 {
    let bytes = vector * bits as u64 / 8 * lanes;
    let phases = bytes.div_ceil(128).max(1);
    count * phases * (1 + conflicts)
}

/// Cost of a shared-memory round trip.
pub fn shared_cost(p: &SharedPlan) -> Cost {
    let lanes = p.src.num_lanes();
    let w = wavefronts(
        p.stores,
        p.store_vector,
        p.element_bits,
        lanes,
        p.write_conflicts,
    ) + wavefronts(
        p.loads,
        p.load_vector,
        p.element_bits,
        p.dst.num_lanes(),
        p.read_conflicts,
    );
    let reps = p.repetitions();
    Cost {
        cycles: w * WAVEFRONT_CYCLES + reps * REPETITION_CYCLES,
        instructions: p.stores + p.loads + 2 * reps,
    }
}

/// Rough cost of a cross-CTA conversion through distributed shared memory: every element stored once
/// (remote) and loaded once, two cluster barriers. Only its order relative to the other kinds matters.
pub fn cross_cta_cost(elements_per_thread: u64) -> Cost {
    Cost {
        cycles: CLUSTER_CYCLES + 4 * elements_per_thread,
        instructions: 2 * elements_per_thread + 4,
    }
}
