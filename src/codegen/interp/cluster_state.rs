//! The state a cluster of CTAs keeps beside the running CTA: the other CTAs' tasks, shared memory
//! and barriers, and the cluster barrier. `cluster.rs` runs the cluster over it.

use crate::codegen::interp::mbar::Mbar;
use crate::codegen::interp::shared::SharedMem;
use crate::codegen::interp::task::Task;
use crate::codegen::ir::Program;

/// What belongs to one CTA of a cluster while another runs (the running CTA's is in `exec::Cta`).
pub(crate) struct CtaState {
    pub(crate) task: Task,
    pub(crate) others: std::collections::VecDeque<Task>,
    pub(crate) roles: Vec<crate::codegen::builder::ops::warp_roles::WarpRole>,
    pub(crate) named: std::collections::HashMap<i64, (u64, u64)>,
    pub(crate) pid: [u64; 3],
    pub(crate) smem: SharedMem,
    pub(crate) mbars: Vec<Mbar>,
    pub(crate) exited: bool,
}

/// A cluster: the CTAs not running now (by rank; `None` for the running one) and the cluster
/// barrier.
pub(crate) struct Cluster {
    pub(crate) peers: Vec<Option<CtaState>>,
    /// CTAs per cluster along x, y, z.
    pub(crate) dims: [u64; 3],
    /// Threads of the cluster arrived in the current generation.
    pub(crate) arrived: u64,
    /// Completed phases of the cluster barrier.
    pub(crate) generation: u64,
    /// Threads per cluster.
    pub(crate) threads: u64,
}

/// The program ids of cluster `id`'s CTAs, by rank (x fastest).
pub(crate) fn programs(id: [u64; 3], dims: [u64; 3]) -> Vec<[u64; 3]> {
    let n = dims[0] * dims[1] * dims[2];
    (0..n)
        .map(|r| {
            let at = [r % dims[0], r / dims[0] % dims[1], r / (dims[0] * dims[1])];
            [
                id[0] * dims[0] + at[0],
                id[1] * dims[1] + at[1],
                id[2] * dims[2] + at[2],
            ]
        })
        .collect()
}

impl Cluster {
    /// A cluster of one CTA (a kernel without clusters).
    pub(crate) fn single() -> Cluster {
        Cluster {
            peers: vec![None],
            dims: [1, 1, 1],
            arrived: 0,
            generation: 0,
            threads: 0,
        }
    }

    /// The cluster of the CTAs `pids` (by rank; rank 0 runs first and is made by the caller),
    /// `threads` threads each.
    pub(crate) fn new(
        prog: &Program,
        pids: &[[u64; 3]],
        shared: u64,
        dims: [u64; 3],
        threads: u64,
    ) -> Cluster {
        let peers = pids
            .iter()
            .enumerate()
            .map(|(r, &pid)| {
                (r > 0).then(|| CtaState {
                    task: Task::new(vec![None; prog.types.len()], prog.num_warps, 0, 0),
                    others: Default::default(),
                    roles: Vec::new(),
                    named: Default::default(),
                    pid,
                    smem: SharedMem::new(shared),
                    mbars: Vec::new(),
                    exited: false,
                })
            })
            .collect();
        Cluster {
            peers,
            dims,
            arrived: 0,
            generation: 0,
            threads: threads * pids.len() as u64,
        }
    }

    pub(crate) fn size(&self) -> u64 {
        self.peers.len() as u64
    }
}
