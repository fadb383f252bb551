//! What a task is: its values, its stack of open bodies (each with what happens when it ends),
//! its warps, and what one step of it did. Running tasks is `tasks.rs`.

use crate::codegen::interp::val::Val;
use crate::codegen::ir::{OpId, RegionId};
use crate::codegen::types::Type;

/// What happens when a body ends.
#[derive(Debug, Clone)]
pub(crate) enum Cont {
    /// The task is done.
    End,
    /// A loop iteration ended: run the next, or give the loop its results.
    Loop {
        op: OpId,
        i: i64,
        hi: i64,
        step: i64,
        it: Type,
    },
    /// A branch ended: its yields are the op's results.
    Branch(OpId),
    /// A combine function ended: hand its yields to the caller.
    Return,
}

/// An open body.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    pub region: RegionId,
    pub pc: usize,
    pub cont: Cont,
}

/// A thread of control: the kernel body or one replica of a warp role.
#[derive(Debug, Clone)]
pub(crate) struct Task {
    /// Values by id.
    pub vals: Vec<Option<Val>>,
    pub frames: Vec<Frame>,
    /// Warps it runs in.
    pub warps: u32,
    /// Its first warp in the CTA.
    pub first_warp: u32,
    /// Its replica number.
    pub replica: u32,
    /// The named barrier (id, generation) it arrived at and waits on.
    pub named_wait: Option<(i64, u64)>,
    /// The `wgmma_wait` op it last yielded at before retiring groups (it runs on its next turn).
    pub wgmma_yield: Option<u32>,
    /// The cluster barrier generation it arrived in and has not waited for yet.
    pub cluster_arrived: Option<u64>,
}

impl Task {
    pub fn new(vals: Vec<Option<Val>>, warps: u32, first_warp: u32, replica: u32) -> Task {
        Task {
            vals,
            frames: Vec::new(),
            warps,
            first_warp,
            replica,
            named_wait: None,
            wgmma_yield: None,
            cluster_arrived: None,
        }
    }
}

/// What one step did.
pub(crate) enum Step {
    /// An op ran or a body ended.
    Progress,
    /// The next op waits for another task (what it waits for).
    Blocked(String),
    /// The next op waits for the hardware (a `wgmma_wait` retiring groups): other tasks run
    /// first, as warps do meanwhile on the GPU; the op runs when this task is picked again.
    Yield,
    /// The task ended.
    Finished,
    /// A combine function ended with these yields.
    Returned(Vec<Val>),
}
