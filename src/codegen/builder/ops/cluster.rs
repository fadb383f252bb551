//! CTA clusters (sm_90): CTAs launched together on neighbouring SMs that can reach each other's
//! shared memory. A kernel declares its cluster shape ([`cluster_dims`](KernelBuilder::cluster_dims),
//! PTX `.reqnctapercluster`), reads where it is in the cluster, meets its peers at the cluster
//! barrier, arrives on a peer's mbarrier, and loads one TMA box into several CTAs at once
//! ([`tma_load_multicast`](KernelBuilder::tma_load_multicast)), so an operand that neighbouring
//! CTAs share is read from L2 once for all of them.
//!
//! Before a peer may write into this CTA's shared memory (a multicast) or arrive on its
//! barriers, the barriers must be initialised and the CTA running: after
//! [`alloc_mbarriers`](KernelBuilder::alloc_mbarriers), every thread calls
//! [`cluster_arrive`](KernelBuilder::cluster_arrive) and
//! [`cluster_wait`](KernelBuilder::cluster_wait). Symmetrically a CTA must not exit while a peer
//! may still write into it: end with the same pair.

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind};
use crate::codegen::lower::values::Value;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::DType;
use crate::codegen::Operand;
use crate::target::Feature;

/// The most CTAs a cluster may hold without the driver's non-portable opt-in.
pub const MAX_CLUSTER_CTAS: u32 = 8;

impl<'ctx> KernelBuilder<'ctx> {
    /// Runs the kernel in clusters of `dims` CTAs (x, y, z): PTX `.reqnctapercluster` and
    /// `.explicitcluster`. The launch grid must be a multiple of `dims` along each axis (the
    /// launcher checks it). At most [`MAX_CLUSTER_CTAS`] CTAs per cluster; sm_90 or later.
    pub fn cluster_dims(&mut self, dims: [u32; 3]) -> Result<()> {
        const OP: &str = "cluster_dims";
        self.lx.target.require(Feature::Cluster, OP)?;
        let ctas = dims.iter().map(|&d| u64::from(d)).product::<u64>();
        if dims.contains(&0) || ctas > u64::from(MAX_CLUSTER_CTAS) {
            return Err(CodegenError::arg(
                OP,
                format!(
                    "{dims:?}: every extent at least 1, at most {MAX_CLUSTER_CTAS} CTAs in all"
                ),
            ));
        }
        match self.rec.prog.cluster {
            Some(d) if d != dims => Err(CodegenError::arg(
                OP,
                format!("{dims:?}: the kernel already runs in clusters of {d:?}"),
            )),
            _ => {
                self.rec.prog.cluster = Some(dims);
                Ok(())
            }
        }
    }

    /// CTAs per cluster of the kernel (1 without [`cluster_dims`](Self::cluster_dims)).
    pub fn cluster_size(&self) -> u32 {
        self.rec.prog.cluster.map_or(1, |d| d.iter().product())
    }

    fn require_cluster(&self, op: &'static str) -> Result<()> {
        self.lx.target.require(Feature::Cluster, op)?;
        if self.rec.prog.cluster.is_none() {
            return Err(CodegenError::arg(
                op,
                "the kernel has no cluster shape: call cluster_dims first",
            ));
        }
        Ok(())
    }

    /// A cluster special register's value, checked (lowered from the record).
    fn cluster_sreg(&mut self, op: &'static str) -> Result<Value> {
        self.require_cluster(op)?;
        self.start_body()?;
        Ok(self.lx.values.new_value(
            crate::codegen::types::Type::Scalar(DType::I32),
            vec![],
            None,
            vec![],
            AxisInfo::scalar(1),
        ))
    }

    /// This CTA's rank in its cluster (`%cluster_ctarank`, 0 to CTAs per cluster − 1, x fastest),
    /// as an `i32` scalar.
    #[track_caller]
    pub fn cluster_cta_rank(&mut self) -> Result<Value> {
        self.record_checked(OpKind::ClusterCtaRank, vec![], |kb| {
            kb.cluster_sreg("cluster_cta_rank")
        })
    }

    /// The index of this CTA's cluster along grid axis `axis` (0, 1, 2; `%clusterid`), as an
    /// `i32` scalar.
    #[track_caller]
    pub fn cluster_id(&mut self, axis: u32) -> Result<Value> {
        self.record_checked(OpKind::ClusterId(axis), vec![], |kb| {
            crate::codegen::lower::program::grid_axis("cluster_id", axis)?;
            kb.cluster_sreg("cluster_id")
        })
    }

    /// CTAs per cluster (`%cluster_nctarank`), as an `i32` scalar.
    #[track_caller]
    pub fn cluster_num_ctas(&mut self) -> Result<Value> {
        self.record_checked(OpKind::ClusterNumCtas, vec![], |kb| {
            kb.cluster_sreg("cluster_num_ctas")
        })
    }

    /// Every thread that executes it arrives at the cluster barrier, releasing its earlier
    /// memory accesses to the threads that pass the matching [`cluster_wait`](Self::cluster_wait)
    /// (`barrier.cluster.arrive.release`). Every thread of every CTA of the cluster must arrive
    /// once per phase.
    #[track_caller]
    pub fn cluster_arrive(&mut self) -> Result<()> {
        self.record_checked(OpKind::ClusterArrive { relaxed: false }, vec![], |kb| {
            kb.cluster_arrive_impl("cluster_arrive")
        })
    }

    /// [`cluster_arrive`](Self::cluster_arrive) ordering no memory access (`.relaxed`): cheaper
    /// where the barrier only says that every CTA has started (its mbarrier initialisation is
    /// published by the fence `alloc_mbarriers` makes).
    #[track_caller]
    pub fn cluster_arrive_relaxed(&mut self) -> Result<()> {
        self.record_checked(OpKind::ClusterArrive { relaxed: true }, vec![], |kb| {
            kb.cluster_arrive_impl("cluster_arrive_relaxed")
        })
    }

    fn cluster_arrive_impl(&mut self, op: &'static str) -> Result<()> {
        self.require_cluster(op)?;
        self.start_body()
    }

    /// Waits until every thread of the cluster has arrived at the cluster barrier
    /// (`barrier.cluster.wait.acquire`); call it after this thread's own arrive.
    #[track_caller]
    pub fn cluster_wait(&mut self) -> Result<()> {
        self.record_checked(OpKind::ClusterWait, vec![], |kb| {
            kb.require_cluster("cluster_wait")?;
            kb.start_body()
        })
    }

    /// Every thread that executes it arrives once on the mbarrier `bar` of the cluster's CTA
    /// `rank` (an `i32` scalar or integer): the barrier at `bar`'s offset in that CTA's shared
    /// memory (`mapa`, then `mbarrier.arrive.shared::cluster`). A consumer releases a stage that
    /// a peer's multicast fills this way. The arrive orders this thread's earlier accesses at CTA
    /// scope only (PTX's default, no memory barrier): enough for a stage that is only read; a
    /// thread that wrote shared memory a peer will read needs a cluster barrier instead.
    #[track_caller]
    pub fn mbarrier_arrive_cluster(
        &mut self,
        bar: Value,
        rank: impl crate::codegen::IntoOperand,
    ) -> Result<()> {
        let rank = rank.into_operand();
        self.record_checked(
            OpKind::MbarrierArriveRemote { per_warp: false },
            vec![bar.into(), rank.into()],
            |kb| kb.mbarrier_arrive_cluster_checked("mbarrier_arrive_cluster", bar, rank),
        )
    }

    /// [`mbarrier_arrive_cluster`](Self::mbarrier_arrive_cluster) by lane 0 of each warp only
    /// (allocate the barrier with one arrival per warp): a warp that has waited for its own
    /// work (a `wgmma_wait`, which the warp passes together) releases it with one remote
    /// arrive rather than 32.
    #[track_caller]
    pub fn mbarrier_arrive_cluster_per_warp(
        &mut self,
        bar: Value,
        rank: impl crate::codegen::IntoOperand,
    ) -> Result<()> {
        let rank = rank.into_operand();
        self.record_checked(
            OpKind::MbarrierArriveRemote { per_warp: true },
            vec![bar.into(), rank.into()],
            |kb| kb.mbarrier_arrive_cluster_checked("mbarrier_arrive_cluster_per_warp", bar, rank),
        )
    }

    /// Checks a remote arrive (lowered from the record by `lower/tma_ops.rs`).
    fn mbarrier_arrive_cluster_checked(
        &mut self,
        op: &'static str,
        bar: Value,
        rank: Operand,
    ) -> Result<()> {
        self.require_cluster(op)?;
        self.check_rank(op, rank, self.cluster_size(), "rank")?;
        self.mbarrier_checked(op, bar)?;
        self.i32_checked(op, rank, "rank")?;
        Ok(())
    }

    /// A constant `value` of `what` must be below `limit`.
    fn check_rank(&self, op: &'static str, value: Operand, limit: u32, what: &str) -> Result<()> {
        if let Operand::Int(i) = value {
            if i < 0 || i >= i64::from(limit) {
                return Err(CodegenError::arg(
                    op,
                    format!("{what} {i}: the cluster has CTAs 0 to {}", limit - 1),
                ));
            }
        }
        Ok(())
    }

    /// [`tma_load`](Self::tma_load) into every CTA of the cluster whose rank is set in `mask`
    /// (an `i32` scalar or integer; bit `r` for CTA `r`): one read of global memory, the box
    /// written at `dst`'s offset in each receiving CTA's shared memory, its bytes signalled on
    /// each one's barrier at `bar`'s offset. So each receiving CTA's barrier must expect the
    /// bytes of every multicast it receives (when each CTA of the mask multicasts an equal
    /// share, the mask's CTA count times [`tma_bytes`](Self::tma_bytes) of `dst`), and a
    /// receiving CTA must have released `dst` (see
    /// [`mbarrier_arrive_cluster`](Self::mbarrier_arrive_cluster)) before it is refilled.
    #[track_caller]
    pub fn tma_load_multicast(
        &mut self,
        tmap: Value,
        coords: &[Value],
        dst: Value,
        bar: Value,
        mask: impl crate::codegen::IntoOperand,
        pred: Option<Value>,
    ) -> Result<()> {
        let mask = mask.into_operand();
        self.record_checked(
            OpKind::TmaLoadMulticast {
                has_pred: pred.is_some(),
            },
            [
                Some(Arg::from(tmap)),
                Some(Arg::from(dst)),
                Some(Arg::from(bar)),
                Some(Arg::from(mask)),
                pred.map(Arg::from),
            ]
            .into_iter()
            .flatten()
            .chain(coords.iter().map(|c| Arg::from(*c)))
            .collect(),
            |kb| kb.tma_load_multicast_checked(tmap, coords, dst, bar, mask, pred),
        )
    }

    /// Checks a multicast load (lowered from the record by `lower/tma_ops.rs`).
    fn tma_load_multicast_checked(
        &mut self,
        tmap: Value,
        coords: &[Value],
        dst: Value,
        bar: Value,
        mask: Operand,
        pred: Option<Value>,
    ) -> Result<()> {
        const OP: &str = "tma_load_multicast";
        self.require_cluster(OP)?;
        let ctas = self.cluster_size();
        if let Operand::Int(m) = mask {
            if m <= 0 || m >= 1i64 << ctas {
                return Err(CodegenError::arg(
                    OP,
                    format!(
                        "mask {m:#x}: a non-empty set of the cluster's {ctas} CTAs (bits 0 to {})",
                        ctas - 1
                    ),
                ));
            }
        }
        self.i32_checked(OP, mask, "mask")?;
        self.tma_load_checked(OP, [tmap, dst, bar], coords, pred)
    }
}
