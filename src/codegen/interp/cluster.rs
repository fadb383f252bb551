//! CTA clusters in the interpreter: the CTAs of one cluster run together, their tasks taking
//! turns (a CTA runs until every task of it waits, then the next CTA by rank; under a random
//! schedule also at random points), so one CTA can wait for what a peer does. A multicast TMA load writes each receiving CTA's shared memory and
//! signals its barrier; a remote arrive reaches the peer's barrier; the cluster barrier counts
//! every thread of the cluster. What the GPU would do wrong is an error: an arrive on, or a
//! multicast into, a CTA that has not initialised that barrier yet or has already exited.

use crate::codegen::interp::exec::Cta;
use crate::codegen::interp::mbar::Mbar;
use crate::codegen::interp::num::{self, dtype_of, Num};
use crate::codegen::interp::shared::SharedMem;
use crate::codegen::interp::task::Step;
use crate::codegen::interp::tasks::Turn;
use crate::codegen::interp::val::Val;
use crate::codegen::interp::InterpError;
use crate::codegen::ir::{IrType, Op, OpKind, ValueId};

type R<T> = Result<T, InterpError>;

impl Cta<'_> {
    /// Makes CTA `rank` of the cluster the running one.
    fn switch_to(&mut self, rank: u32) {
        if rank == self.rank {
            return;
        }
        let mut st = self.cluster.peers[rank as usize]
            .take()
            .expect("a CTA that is not running has its state in the cluster");
        std::mem::swap(&mut self.task, &mut st.task);
        std::mem::swap(&mut self.others, &mut st.others);
        std::mem::swap(&mut self.roles, &mut st.roles);
        std::mem::swap(&mut self.named, &mut st.named);
        std::mem::swap(&mut self.pid, &mut st.pid);
        std::mem::swap(&mut self.smem, &mut st.smem);
        std::mem::swap(&mut self.mbars, &mut st.mbars);
        std::mem::swap(&mut self.exited, &mut st.exited);
        self.cluster.peers[self.rank as usize] = Some(st);
        self.rank = rank;
    }

    /// Runs every CTA of the cluster, each with the kernel's `params`, to its end; a deadlock
    /// when no CTA can go on.
    pub(crate) fn run_cluster(&mut self, params: &[(ValueId, Val)]) -> R<()> {
        let n = self.cluster.size() as u32;
        for r in 0..n {
            self.switch_to(r);
            for (v, val) in params {
                self.set(*v, val.clone());
            }
            self.start();
        }
        let mut waits: Vec<Vec<String>> = vec![Vec::new(); n as usize];
        let mut done = vec![false; n as usize];
        let mut idle = 0;
        let mut r = 0;
        while done.iter().any(|d| !d) {
            if !done[r as usize] {
                self.switch_to(r);
                match self.run_turn()? {
                    Turn::Finished => {
                        done[r as usize] = true;
                        self.exited = true;
                        idle = 0;
                    }
                    Turn::Stuck {
                        waits: w,
                        progressed,
                    } => {
                        waits[r as usize] = w;
                        idle = if progressed { 0 } else { idle + 1 };
                    }
                }
                let running = done.iter().filter(|d| !**d).count();
                if idle >= running && running > 0 {
                    return Err(InterpError::Deadlock {
                        waits: stuck(&waits, &done),
                    });
                }
            }
            r = (r + 1) % n;
        }
        Ok(())
    }

    /// Runs a cluster op.
    pub(crate) fn run_cluster_op(&mut self, op: &Op) -> R<Step> {
        let args = &op.args;
        let int = |x: u64| Val::S(Num::I(x as i64));
        match &op.kind {
            OpKind::ClusterCtaRank => self.set(op.results[0], int(u64::from(self.rank))),
            OpKind::ClusterNumCtas => self.set(op.results[0], int(self.cluster.size())),
            OpKind::ClusterId(a) => {
                let a = *a as usize;
                let id = self.pid[a] / self.cluster.dims[a];
                self.set(op.results[0], int(id));
            }
            OpKind::ClusterArrive { .. } => {
                // The body's arrive after warp roles: on the GPU each warp arrives once its own
                // role's body is done, so it counts only when every role task has ended.
                if self.task.warps == self.prog.num_warps && !self.others.is_empty() {
                    return Ok(Step::Blocked(format!(
                        "cluster_arrive at {} in CTA rank {}: waits for the warp roles to end",
                        op.loc, self.rank
                    )));
                }
                if self.task.cluster_arrived.is_some() {
                    return Err(self
                        .err("arrives at the cluster barrier again before waiting for it".into()));
                }
                self.task.cluster_arrived = Some(self.cluster.generation);
                let c = &mut self.cluster;
                c.arrived += u64::from(self.task.warps * self.threads_per_warp);
                if c.arrived >= c.threads {
                    c.arrived = 0;
                    c.generation += 1;
                }
            }
            OpKind::ClusterWait => match self.task.cluster_arrived {
                None => {
                    return Err(self.err(
                        "waits at the cluster barrier without arriving first (it would hang)"
                            .into(),
                    ))
                }
                Some(g) if self.cluster.generation > g => {
                    self.task.cluster_arrived = None;
                    self.smem.barrier();
                }
                Some(_) => {
                    return Ok(Step::Blocked(format!(
                        "cluster_wait at {} in CTA rank {}: {} of the cluster's {} threads arrived",
                        op.loc, self.rank, self.cluster.arrived, self.cluster.threads
                    )))
                }
            },
            OpKind::MbarrierArriveRemote { per_warp } => {
                let i = self.mbar_index(&args[0])?;
                let rank = self.peer_rank(self.int_arg(&args[1])?)?;
                let per = if *per_warp { 1 } else { self.threads_per_warp };
                let count = u64::from(self.task.warps * per);
                self.peer_bar(rank, i)?.arrive(count, 0);
            }
            OpKind::TmaLoadMulticast { has_pred } => {
                if *has_pred && !self.scalar_arg(&args[4], bool_type())?.truthy() {
                    return Ok(Step::Progress);
                }
                let mask = self.int_arg(&args[3])?;
                if mask <= 0 || mask >= 1 << self.cluster.size() {
                    return Err(self.err(format!(
                        "mask {mask:#x} names no CTA or one past the cluster's {}",
                        self.cluster.size()
                    )));
                }
                let first = if *has_pred { 5 } else { 4 };
                let (tile, bytes) = self.tma_tile(&args[0], &args[1], &args[first..])?;
                let (base, t) = self.shared_of(&args[1])?;
                let IrType::Shared { elem, shape, buf } = t else {
                    return Err(self.err("not a shared buffer".into()));
                };
                let d = dtype_of(*elem);
                let offs = self.offsets_of(buf, *elem, shape)?;
                let i = self.mbar_index(&args[2])?;
                let (current, writer) =
                    (self.current, self.task.first_warp * self.threads_per_warp);
                for rank in (0..self.cluster.size() as u32).filter(|r| mask >> r & 1 == 1) {
                    self.peer_bar(rank, i)?;
                    for (k, &o) in offs.iter().enumerate() {
                        let addr = base + o;
                        let bits = num::to_bits(tile.data[k], d);
                        let smem = self.smem_of(rank);
                        smem.write(addr, d.mem_bytes(), bits, writer, current, true)
                            .map_err(|f| self.fault(f, addr))?;
                    }
                    self.peer_bar(rank, i)?.arrive(0, -(bytes as i64));
                }
            }
            _ => return Err(self.err("not a cluster op".into())),
        }
        Ok(Step::Progress)
    }

    /// `r` as a rank of the cluster.
    fn peer_rank(&self, r: i64) -> R<u32> {
        if r < 0 || r as u64 >= self.cluster.size() {
            return Err(self.err(format!(
                "rank {r}: the cluster has CTAs 0 to {}",
                self.cluster.size() - 1
            )));
        }
        Ok(r as u32)
    }

    /// Barrier `i` of CTA `rank`, which must have initialised it and not exited.
    fn peer_bar(&mut self, rank: u32, i: usize) -> R<&mut Mbar> {
        let (exited, count) = match self.cluster.peers[rank as usize].as_ref() {
            Some(p) => (p.exited, p.mbars.len()),
            None => (self.exited, self.mbars.len()),
        };
        if exited {
            return Err(self.err(format!(
                "reaches CTA rank {rank} of the cluster, which has exited (end the kernel with \
                 cluster_arrive and cluster_wait)"
            )));
        }
        if i >= count {
            return Err(self.err(format!(
                "reaches mbarrier {i} of CTA rank {rank}, which has not initialised it yet \
                 (cluster_arrive and cluster_wait after alloc_mbarriers order it)"
            )));
        }
        Ok(match self.cluster.peers[rank as usize].as_mut() {
            Some(p) => &mut p.mbars[i],
            None => &mut self.mbars[i],
        })
    }

    /// The shared memory of CTA `rank`.
    fn smem_of(&mut self, rank: u32) -> &mut SharedMem {
        match self.cluster.peers[rank as usize].as_mut() {
            Some(p) => &mut p.smem,
            None => &mut self.smem,
        }
    }
}

fn bool_type() -> crate::codegen::types::Type {
    crate::codegen::types::Type::Scalar(crate::codegen::types::DType::I1)
}

/// The waits of the CTAs still running, each named by its rank when the cluster has several.
fn stuck(waits: &[Vec<String>], done: &[bool]) -> Vec<String> {
    let several = waits.len() > 1;
    waits
        .iter()
        .zip(done)
        .enumerate()
        .filter(|(_, (_, d))| !**d)
        .flat_map(|(r, (w, _))| {
            w.iter().map(move |w| {
                if several {
                    format!("CTA rank {r}: {w}")
                } else {
                    w.clone()
                }
            })
        })
        .collect()
}
