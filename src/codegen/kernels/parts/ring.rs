//! A ring of shared-memory stages filled by TMA (or by threads' stores, [`TmaRing::written_by`]):
//! one "full" mbarrier per stage (its bytes landed), optionally one "empty" mbarrier per stage (every consumer is done with it), and the
//! stage and phase arithmetic of walking the ring.

use crate::codegen::{KernelBuilder, Result, Value};

/// The barriers and bookkeeping of a `stages`-deep ring whose every stage receives `bytes`.
/// The buffers themselves are the caller's (`alloc_shared_buffers`, one ring per operand), so
/// they can be laid out and allocated in any order.
#[derive(Debug, Clone, Copy)]
pub struct TmaRing {
    stages: u32,
    bytes: u32,
    full: Value,
    /// Index in `full` of the ring's first full barrier (the ones before it are the caller's,
    /// [`with_lead_barriers`](Self::with_lead_barriers)).
    first: u32,
    empty: Option<Value>,
    /// Filled by threads' stores, not TMA ([`written_by`](Self::written_by)).
    written: bool,
    /// CTAs of the cluster whose producers write into each stage ([`shared_by`](Self::shared_by)).
    ctas: u32,
}

impl TmaRing {
    /// Allocates one "full" mbarrier per stage (one arrival: the thread that expects the
    /// bytes), and, with `empty_arrivals`, one "empty" mbarrier per stage that many threads
    /// arrive on when they are done with it.
    pub fn new(
        kb: &mut KernelBuilder<'_>,
        stages: u32,
        bytes: u32,
        empty_arrivals: Option<u32>,
    ) -> Result<TmaRing> {
        TmaRing::alloc(kb, 0, stages, bytes, 1, empty_arrivals)
    }

    /// [`new`](Self::new), with `lead` more one-arrival barriers for the caller in front of
    /// the ring's full ones, in one allocation: the kernel initialises them all in one block,
    /// behind one CTA barrier, where a barrier of its own (a Q tile's, say) would cost a second.
    /// Returns the whole array (barriers `0..lead` are the caller's: pick one with
    /// [`mbarrier_at`](KernelBuilder::mbarrier_at)) and the ring.
    pub fn with_lead_barriers(
        kb: &mut KernelBuilder<'_>,
        lead: u32,
        stages: u32,
        bytes: u32,
        empty_arrivals: Option<u32>,
    ) -> Result<(Value, TmaRing)> {
        let ring = TmaRing::alloc(kb, lead, stages, bytes, 1, empty_arrivals)?;
        Ok((ring.full, ring))
    }

    /// A ring whose stages `writers` threads fill with their own stores instead of TMA, each
    /// arriving on the stage's full barrier when its part is written
    /// ([`written`](Self::written)); readers wait and release as for TMA's stages. fp8
    /// attention's `Vᵀ`, transposed in shared memory by a warpgroup, is one.
    pub fn written_by(
        kb: &mut KernelBuilder<'_>,
        stages: u32,
        writers: u32,
        empty_arrivals: Option<u32>,
    ) -> Result<TmaRing> {
        let ring = TmaRing::alloc(kb, 0, stages, 0, writers, empty_arrivals)?;
        Ok(TmaRing {
            written: true,
            ..ring
        })
    }

    /// [`new`](Self::new), with `writers` threads also storing part of every stage themselves
    /// (beside the TMA bytes): each waits for the stage to be free
    /// ([`wait_free_all`](Self::wait_free_all)) and arrives on its full barrier when its part is
    /// written ([`written`](Self::written)), so every store is ordered against the readers by the
    /// writer's own barrier operations, not through another thread's. The attention backward's
    /// per-row statistics, stored beside the TMA-loaded queries, are one.
    pub fn with_writers(
        kb: &mut KernelBuilder<'_>,
        stages: u32,
        bytes: u32,
        writers: u32,
        empty_arrivals: Option<u32>,
    ) -> Result<TmaRing> {
        let arrivals = writers.checked_add(1).ok_or_else(|| {
            crate::codegen::CodegenError::arg("TmaRing::with_writers", "too many writers")
        })?;
        TmaRing::alloc(kb, 0, stages, bytes, arrivals, empty_arrivals)
    }

    /// `lead` barriers and the full ones (`full_arrivals` each), then the empty ones, as
    /// [`new`](Self::new) says.
    fn alloc(
        kb: &mut KernelBuilder<'_>,
        lead: u32,
        stages: u32,
        bytes: u32,
        full_arrivals: u32,
        empty_arrivals: Option<u32>,
    ) -> Result<TmaRing> {
        let total = lead.checked_add(stages).ok_or_else(|| {
            crate::codegen::CodegenError::arg(
                "TmaRing",
                format!("{lead} lead barriers and {stages} stages: too many barriers"),
            )
        })?;
        let full = kb.alloc_mbarriers(total, full_arrivals)?;
        let empty = match empty_arrivals {
            Some(n) => Some(kb.alloc_mbarriers(stages, n)?),
            None => None,
        };
        Ok(TmaRing {
            stages,
            bytes,
            full,
            first: lead,
            empty,
            written: false,
            ctas: 1,
        })
    }

    /// Stages in the ring.
    pub fn stages(&self) -> u32 {
        self.stages
    }

    /// The ring of one CTA of a cluster of `ctas` CTAs that fill part of each other's stages
    /// ([`load_split`](Self::load_split)): a producer may refill a stage only when the consumers
    /// of every CTA it writes into are done with it, so each consumer warp releases the stage to
    /// all `ctas` CTAs (lane 0 arriving for the warp). Make the ring with `empty_arrivals` of
    /// the consumer warps times `ctas`.
    pub fn shared_by(self, ctas: u32) -> TmaRing {
        TmaRing { ctas, ..self }
    }

    /// CTAs that write into each stage (1 unless [`shared_by`](Self::shared_by)).
    pub fn ctas(&self) -> u32 {
        self.ctas
    }

    /// [`load`](Self::load) of `own` into stage `st`, and of part `rank` (an `i32` scalar) of
    /// the `ctas` equal parts along dim `dim` (0 or 1) of `split`'s 2-D stage, multicast into
    /// the same part of every CTA of the cluster: `split` is `(map, coordinates of this CTA's
    /// part, ring)`, and a part is a whole number of the map's boxes (along dim 1, each part
    /// must be whole 128-byte swizzle columns: contiguous bytes). The stage's full barrier
    /// expects the whole stage, its other parts multicast by the peers.
    pub fn load_split(
        &self,
        kb: &mut KernelBuilder<'_>,
        st: Value,
        own: &[(Value, &[Value], Value)],
        (map, at, ring): (Value, &[Value], Value),
        (rank, dim): (Value, usize),
        pred: Option<Value>,
    ) -> Result<()> {
        let bar = self.fill(kb, st, own, pred)?;
        let stage = kb.index_shared(ring, st)?;
        let [rows, cols] = <[u64; 2]>::try_from(kb.shape(stage)?).map_err(|s| {
            crate::codegen::CodegenError::arg(
                "TmaRing::load_split",
                format!("a stage of {s:?}: 2-D"),
            )
        })?;
        let ctas = u64::from(self.ctas);
        // The parts as the outermost dim of a view, then this CTA's.
        let parts = if dim == 0 {
            kb.reshape_shared(stage, &[ctas, rows / ctas, cols])?
        } else {
            let split = kb.reshape_shared(stage, &[rows, ctas, cols / ctas])?;
            kb.permute_shared(split, &[1, 0, 2])?
        };
        let mine = kb.index_shared(parts, rank)?;
        let everyone = (1i64 << self.ctas) - 1;
        kb.tma_load_multicast(map, at, mine, bar, everyone, pred)
    }

    /// Expects the stage's bytes on its full barrier and issues one TMA load per
    /// `(map, coordinates, ring)` into stage `st` of each ring, all predicated on `pred`.
    pub fn load(
        &self,
        kb: &mut KernelBuilder<'_>,
        st: Value,
        loads: &[(Value, &[Value], Value)],
        pred: Option<Value>,
    ) -> Result<()> {
        self.fill(kb, st, loads, pred).map(|_| ())
    }

    /// Expects the stage's bytes on stage `st`'s full barrier and issues `loads` into it, as
    /// [`load`](Self::load) says; returns the barrier.
    fn fill(
        &self,
        kb: &mut KernelBuilder<'_>,
        st: Value,
        loads: &[(Value, &[Value], Value)],
        pred: Option<Value>,
    ) -> Result<Value> {
        if self.written {
            return Err(crate::codegen::CodegenError::arg(
                "TmaRing::load",
                "this ring is filled by threads' stores (written_by), not by TMA",
            ));
        }
        let bar = self.full_at(kb, st)?;
        kb.mbarrier_expect(bar, self.bytes, pred)?;
        for &(map, at, ring) in loads {
            let dst = kb.index_shared(ring, st)?;
            kb.tma_load(map, at, dst, bar, pred)?;
        }
        Ok(bar)
    }

    /// Waits until stage `st` is full (phase parity `phase`) and returns its buffer in each of
    /// `rings`.
    pub fn wait(
        &self,
        kb: &mut KernelBuilder<'_>,
        st: Value,
        phase: Value,
        rings: &[Value],
    ) -> Result<Vec<Value>> {
        let bar = self.full_at(kb, st)?;
        kb.mbarrier_wait(bar, phase)?;
        rings.iter().map(|&r| kb.index_shared(r, st)).collect()
    }

    /// The producer's wait until stage `st` is free in round `phase` (one thread polls; a fresh
    /// barrier passes parity 1, so the first round does not wait). Needs the empty barriers.
    pub fn wait_free(&self, kb: &mut KernelBuilder<'_>, st: Value, phase: Value) -> Result<()> {
        let free = kb.xor(phase, 1)?;
        let e = kb.mbarrier_at(self.empty_barriers()?, st)?;
        kb.mbarrier_wait_issuer(e, free)
    }

    /// Every calling thread waits until stage `st` is free in round `phase` (the writers of a
    /// [`written_by`](Self::written_by) or [`with_writers`](Self::with_writers) ring, each of
    /// which stores into the stage). Needs the empty barriers.
    pub fn wait_free_all(&self, kb: &mut KernelBuilder<'_>, st: Value, phase: Value) -> Result<()> {
        let free = kb.xor(phase, 1)?;
        let e = kb.mbarrier_at(self.empty_barriers()?, st)?;
        kb.mbarrier_wait(e, free)
    }

    /// A writer of a [`written_by`](Self::written_by) or [`with_writers`](Self::with_writers)
    /// ring has stored its part of stage `st`: arrives on its full barrier.
    pub fn written(&self, kb: &mut KernelBuilder<'_>, st: Value) -> Result<()> {
        let f = self.full_at(kb, st)?;
        kb.mbarrier_arrive(f)
    }

    /// A consumer is done with stage `st`: arrives on its empty barrier (when the ring is
    /// [`shared_by`](Self::shared_by) several CTAs, on every CTA's, once per warp).
    pub fn release(&self, kb: &mut KernelBuilder<'_>, st: Value) -> Result<()> {
        let e = kb.mbarrier_at(self.empty_barriers()?, st)?;
        if self.ctas == 1 {
            return kb.mbarrier_arrive(e);
        }
        for rank in 0..self.ctas {
            kb.mbarrier_arrive_cluster_per_warp(e, rank as i32)?;
        }
        Ok(())
    }

    /// The stage and phase parity of the `it`-th fill of the ring (`it` ≥ 0): `(it % stages,
    /// (it / stages) & 1)`, the remainder a mask when `stages` is a power of two.
    pub fn stage_of(&self, kb: &mut KernelBuilder<'_>, it: Value) -> Result<(Value, Value)> {
        let s = self.stages as i32;
        let st = if self.stages.is_power_of_two() {
            kb.and(it, s - 1)?
        } else {
            kb.rem(it, s)?
        };
        let round = kb.div(it, s)?;
        Ok((st, kb.and(round, 1)?))
    }

    /// The stage after `st` and its phase parity (flipped on wrapping), for a loop that carries
    /// them instead of counting fills: [`next_stage`](Self::next_stage) and
    /// [`next_phase`](Self::next_phase) (with one wrap test between them when the ring is
    /// deeper than two stages).
    pub fn advance(
        &self,
        kb: &mut KernelBuilder<'_>,
        st: Value,
        phase: Value,
    ) -> Result<(Value, Value)> {
        if self.stages == 2 {
            let st_next = self.next_stage(kb, st)?;
            return Ok((st_next, self.next_phase(kb, st, phase)?));
        }
        let st1 = kb.add(st, 1)?;
        let wraps = kb.eq(st1, self.stages as i32)?;
        let st_next = kb.where_(wraps, 0, st1)?;
        let flipped = kb.xor(phase, 1)?;
        let phase_next = kb.where_(wraps, flipped, phase)?;
        Ok((st_next, phase_next))
    }

    /// The stage after `st`: `st ^ 1` in a ring of two, else `st + 1` wrapped to 0.
    pub fn next_stage(&self, kb: &mut KernelBuilder<'_>, st: Value) -> Result<Value> {
        if self.stages == 2 {
            return kb.xor(st, 1);
        }
        let st1 = kb.add(st, 1)?;
        let wraps = kb.eq(st1, self.stages as i32)?;
        kb.where_(wraps, 0, st1)
    }

    /// The phase parity of the stage after `st` (whose parity is `phase`): flipped when `st` is
    /// the last stage. A loop may compute it apart from [`next_stage`](Self::next_stage), where
    /// it needs it.
    pub fn next_phase(&self, kb: &mut KernelBuilder<'_>, st: Value, phase: Value) -> Result<Value> {
        let flipped = kb.xor(phase, 1)?;
        let wraps = kb.eq(st, self.stages as i32 - 1)?;
        kb.where_(wraps, flipped, phase)
    }

    /// The stage before `st`.
    pub fn previous(&self, kb: &mut KernelBuilder<'_>, st: Value) -> Result<Value> {
        let wraps = kb.eq(st, 0)?;
        let st_m1 = kb.sub(st, 1)?;
        kb.where_(wraps, self.stages as i32 - 1, st_m1)
    }

    /// Stage `st`'s full barrier.
    fn full_at(&self, kb: &mut KernelBuilder<'_>, st: Value) -> Result<Value> {
        if self.first == 0 {
            return kb.mbarrier_at(self.full, st);
        }
        let i = kb.add(st, self.first as i32)?;
        kb.mbarrier_at(self.full, i)
    }

    fn empty_barriers(&self) -> Result<Value> {
        self.empty.ok_or_else(|| {
            crate::codegen::CodegenError::arg(
                "TmaRing",
                "this ring has no empty barriers (made without `empty_arrivals`)",
            )
        })
    }
}
