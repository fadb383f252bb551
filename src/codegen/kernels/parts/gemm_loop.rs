//! The Hopper GEMM main loops: TMA loads into a [`TmaRing`], wgmma from it with one group in
//! flight, the accumulator handed to an [`Epilogue`] per tile. One loop per schedule: in step
//! (every warp loads and computes; the ring refilled behind a CTA barrier), and warp-specialised
//! (a producer role loads, consumer roles compute and release stages through empty barriers).

use crate::codegen::{DType, KernelBuilder, Result, Role, Value};
use crate::layout::encoding::NvidiaMma;

use super::{Epilogue, TileGrid, TmaRing};

/// Work on each K block's accumulator right after its wgmma is issued (`acc`, the K block's
/// index `kt`; returns the accumulator the loop carries on): scales, dequantisation, a second
/// accumulator.
pub type KBlockHook<'h> = &'h mut dyn FnMut(&mut KernelBuilder<'_>, Value, Value) -> Result<Value>;

/// What a GEMM main loop reads: A `[M, K]` and B (`[K, N]`, or `[N, K]` when `b_transposed`)
/// through their tensor maps into the rings, tile by tile of `grid`, `k_tiles` K blocks each.
#[derive(Debug, Clone, Copy)]
pub struct GemmLoop {
    /// A's tensor map (box `[block_m, block_k]`).
    pub a_map: Value,
    /// B's tensor map (box `[block_k, …]`, or `[block_n, block_k]` when transposed).
    pub b_map: Value,
    /// A's stages (`alloc_shared_buffers`, `[block_m, block_k]` each).
    pub a_ring: Value,
    /// B's stages.
    pub b_ring: Value,
    /// The barriers of the stages.
    pub ring: TmaRing,
    /// The output tiles.
    pub grid: TileGrid,
    /// K blocks per tile (an `i32` scalar).
    pub k_tiles: Value,
    /// `[block_m, block_n, block_k]`.
    pub block: [u32; 3],
    /// Warps that hold the accumulator (one or two warpgroups along M).
    pub warps: u32,
    /// B is stored `[N, K]`.
    pub b_transposed: bool,
    /// The first column of K the loop reads (an `i32` scalar; `None`: 0). A split-K program
    /// reads its own range of K blocks from here.
    pub k_first: Option<Value>,
    /// This CTA's rank (an `i32` scalar) in a cluster of CTAs along M that share B's tile: each
    /// loads its part of B's stage (B's map box is one part) and multicasts it to all, so B is
    /// read from L2 once per cluster. The ring must be [`shared_by`](TmaRing::shared_by) the
    /// cluster. `None`: every CTA loads its own B.
    pub cluster_rank: Option<Value>,
    /// Per-K-block scales copied into each stage next to A and B (`None`: none).
    pub scales: Option<StagedScales>,
}

/// The scales of a block-scaled GEMM as its producer copies them into each stage: for K block
/// `kt` of the tile at (`om`, `on`), A's `[1, block_m]` box at `[kt, om]` of its M-major scales
/// and B's box at `[kt, (on / 128) · b_spread]` of its N-major ones (`[⌈K/128⌉, rows]` each). The ring's
/// stage bytes must count both boxes.
#[derive(Debug, Clone, Copy)]
pub struct StagedScales {
    /// A's scales' tensor map (box `[1, block_m]`).
    pub a_map: Value,
    /// A's scales' stages (`[1, block_m]` f32 each).
    pub a_ring: Value,
    /// B's scales' tensor map.
    pub b_map: Value,
    /// B's scales' stages (one box each).
    pub b_ring: Value,
    /// Columns of K, and rows of B, one scale covers.
    pub block: i32,
    /// Columns between one N block's scale and the next's in B's scales: a multiple of 16 bytes
    /// of f32 (4), as a TMA box's innermost coordinate must be.
    pub b_spread: i32,
}

/// The accumulator after the hook, if there is one.
fn run_hook(
    hook: &mut Option<KBlockHook<'_>>,
    kb: &mut KernelBuilder<'_>,
    acc: Value,
    kt: Value,
) -> Result<Value> {
    match hook {
        Some(h) => h(kb, acc, kt),
        None => Ok(acc),
    }
}

impl GemmLoop {
    /// The coordinates of B's box for K offset `kk` and column `on`.
    fn b_at(&self, on: Value, kk: Value) -> [Value; 2] {
        if self.b_transposed {
            [on, kk]
        } else {
            [kk, on]
        }
    }

    /// Loads K block `kk` of the tile at (`om`, `on`) into stage `st`.
    pub(super) fn load(
        &self,
        kb: &mut KernelBuilder<'_>,
        st: Value,
        [om, on, kk]: [Value; 3],
        pred: Option<Value>,
    ) -> Result<()> {
        let kk = match self.k_first {
            Some(k0) => kb.add(kk, k0)?,
            None => kk,
        };
        // A's tile, then the scales' boxes: what this CTA loads for itself.
        let a_at = [om, kk];
        let scale_at = match self.scales {
            Some(s) => {
                let kt = kb.div(kk, s.block)?;
                let nb = kb.div(on, s.block)?;
                let nb = kb.mul(nb, s.b_spread)?;
                Some([kt, om, kt, nb])
            }
            None => None,
        };
        let mut own = vec![(self.a_map, &a_at[..], self.a_ring)];
        if let (Some(s), Some(at)) = (self.scales, &scale_at) {
            own.push((s.a_map, &at[..2], s.a_ring));
            own.push((s.b_map, &at[2..], s.b_ring));
        }
        if let Some(rank) = self.cluster_rank {
            let part = (self.block[1] / self.ring.ctas()) as i32;
            let first = kb.mul(rank, part)?;
            let on = kb.add(on, first)?;
            let b_at = self.b_at(on, kk);
            // B's stage is `[N, K]` (split its rows) or `[K, N]` (its columns).
            let dim = usize::from(!self.b_transposed);
            return self.ring.load_split(
                kb,
                st,
                &own,
                (self.b_map, &b_at[..], self.b_ring),
                (rank, dim),
                pred,
            );
        }
        let b_at = self.b_at(on, kk);
        own.insert(1, (self.b_map, &b_at[..], self.b_ring));
        self.ring.load(kb, st, &own, pred)
    }

    /// Waits for stage `st` and returns A's and B's buffers as wgmma reads them (B permuted to
    /// `[K, N]` when it is stored `[N, K]`).
    pub(super) fn wait(
        &self,
        kb: &mut KernelBuilder<'_>,
        st: Value,
        phase: Value,
    ) -> Result<(Value, Value)> {
        let bufs = self.ring.wait(kb, st, phase, &[self.a_ring, self.b_ring])?;
        let b_t = if self.b_transposed {
            kb.permute_shared(bufs[1], &[1, 0])?
        } else {
            bufs[1]
        };
        Ok((bufs[0], b_t))
    }

    /// A zero accumulator in wgmma's layout.
    pub(super) fn zeros(&self, kb: &mut KernelBuilder<'_>) -> Result<Value> {
        let [bm, bn, _] = self.block;
        let layout = NvidiaMma::hopper(&[self.warps, 1], bn, 16);
        kb.zeros((&layout, [u64::from(bm), u64::from(bn)]), DType::F32)
    }
}

/// The in-step main loop of program `pid`: every warp waits for a stage, issues its wgmma, and
/// after a CTA barrier refills the stage before it with the K block `stages - 1` ahead. With
/// `persistent`, the program walks tiles `pid, pid + programs, …` in one loop over (tile, K
/// block), storing each tile as its last K block completes, and carries where it computes and
/// loads from one iteration to the next (no integer division in the loop: the next tile's
/// origin is computed once, when the loads reach it); else it computes the tile `pid`. Every
/// tile ends in `epilogue`. Leaves TMA stores in flight (wait for them before the kernel ends).
pub fn gemm_mainloop(
    kb: &mut KernelBuilder<'_>,
    lp: &GemmLoop,
    pid: Value,
    persistent: bool,
    mut hook: Option<KBlockHook<'_>>,
    epilogue: &dyn Epilogue,
) -> Result<()> {
    let s = lp.ring.stages() as i32;
    let bk = lp.block[2] as i32;
    let k_tiles = lp.k_tiles;
    // The iterations of this program: its K blocks, or, persistent, (tile, K block) pairs of
    // the tiles pid, pid + programs, … flattened into one count.
    let walk = if persistent {
        Some(Walk::new(kb, lp, pid)?)
    } else {
        None
    };
    let fixed = match walk {
        Some(_) => None,
        None => Some(lp.grid.origin(kb, pid)?),
    };
    let total = match &walk {
        Some(w) => {
            let mine = lp.grid.tiles_of(kb, pid, w.programs)?;
            kb.mul(mine, k_tiles)?
        }
        None => k_tiles,
    };
    // Loads iteration `it` into stage `st` when `it < total`: at K block `it` of the fixed
    // tile, or where the persistent walk's loads are, `ahead` (which this moves on by one).
    let load = |kb: &mut KernelBuilder<'_>, it, st, ahead: &mut Vec<Value>| -> Result<()> {
        let pred = kb.lt(it, total)?;
        let at = match (&walk, fixed) {
            (Some(w), _) => {
                let at = [ahead[2], ahead[3], kb.mul(ahead[1], bk)?];
                *ahead = w.step(kb, ahead)?;
                at
            }
            (None, Some((om, on))) => [om, on, kb.mul(it, bk)?],
            (None, None) => unreachable!("one of the two is set"),
        };
        lp.load(kb, st, at, Some(pred))
    };
    let mut ahead = match &walk {
        Some(w) => w.start(kb)?,
        None => vec![],
    };
    for i in 0..s - 1 {
        let it = kb.i32(i)?;
        load(kb, it, it, &mut ahead)?;
    }

    // The loop carries the accumulator, the stage it reads and that stage's phase parity (and,
    // persistent, the tile and K block it computes and where its loads are).
    let acc0 = lp.zeros(kb)?;
    let zero = kb.i32(0)?;
    let mut init = vec![acc0, zero, zero];
    if walk.is_some() {
        init.extend([zero, zero]);
        init.extend(&ahead);
    }
    let out = kb.for_range(0, total, 1, &init, |kb, it, carried| {
        let (acc, st, phase) = (carried[0], carried[1], carried[2]);
        let (a_t, b_t) = lp.wait(kb, st, phase)?;
        // A persistent loop starts each tile by ignoring the accumulator (scale-d = 0) rather
        // than zeroing registers a wgmma may still be writing.
        let (acc, kt) = match walk {
            Some(_) => {
                let kt = carried[4];
                let use_acc = kb.ne(kt, 0)?;
                (kb.wgmma_with(a_t, b_t, acc, Some(use_acc))?, kt)
            }
            None => (kb.wgmma(a_t, b_t, acc)?, it),
        };
        let acc = run_hook(&mut hook, kb, acc, kt)?;
        kb.wgmma_wait(1, &[])?;
        // Every warpgroup's wgmma of the previous iteration is done: its stage, the one before
        // `st`, may be refilled with the iteration `stages - 1` ahead.
        kb.barrier()?;
        let prev = lp.ring.previous(kb, st)?;
        let next = kb.add(it, s - 1)?;
        let mut ahead = carried.get(5..).unwrap_or_default().to_vec();
        load(kb, next, prev, &mut ahead)?;
        let mut tile = vec![];
        if let Some(w) = &walk {
            // The tile's last K block: store it (the next tile's first wgmma ignores the
            // accumulator).
            let local = carried[3];
            let k_last = kb.sub(k_tiles, 1)?;
            let last = kb.eq(kt, k_last)?;
            kb.if_then(last, |kb| {
                let done = kb.wgmma_wait(0, &[acc])?[0];
                let (om, on) = w.origin(kb, local)?;
                epilogue.store(kb, done, [om, on])
            })?;
            let kt1 = kb.add(kt, 1)?;
            let local1 = kb.add(local, 1)?;
            tile = vec![kb.where_(last, local1, local)?, kb.where_(last, 0, kt1)?];
        }
        let (st_next, phase_next) = lp.ring.advance(kb, st, phase)?;
        Ok([vec![acc, st_next, phase_next], tile, ahead].concat())
    })?;
    // Nothing may leave the kernel with a wgmma in flight.
    let acc = kb.wgmma_wait(0, &[out[0]])?[0];
    if let Some((om, on)) = fixed {
        epilogue.store(kb, acc, [om, on])?;
    }
    Ok(())
}

/// Where a persistent program's loads are, carried from one load to the next instead of
/// divided out of the iteration count (no integer division in the main loop): `[tile (0 for
/// the program's first), K block, row offset, column offset]`.
struct Walk<'a> {
    lp: &'a GemmLoop,
    pid: Value,
    programs: Value,
}

impl<'a> Walk<'a> {
    fn new(kb: &mut KernelBuilder<'_>, lp: &'a GemmLoop, pid: Value) -> Result<Walk<'a>> {
        let programs = kb.num_programs(0)?;
        Ok(Walk { lp, pid, programs })
    }

    /// K block 0 of the program's first tile.
    fn start(&self, kb: &mut KernelBuilder<'_>) -> Result<Vec<Value>> {
        let zero = kb.i32(0)?;
        let (om, on) = self.origin(kb, zero)?;
        Ok(vec![zero, zero, om, on])
    }

    /// The origin of the program's `local`-th tile.
    fn origin(&self, kb: &mut KernelBuilder<'_>, local: Value) -> Result<(Value, Value)> {
        self.lp
            .grid
            .persistent_origin(kb, self.pid, self.programs, local)
    }

    /// The K block after `at`, the next tile's first (and its origin) after the last.
    fn step(&self, kb: &mut KernelBuilder<'_>, at: &[Value]) -> Result<Vec<Value>> {
        let (local, kt) = (at[0], at[1]);
        let kt1 = kb.add(kt, 1)?;
        let wraps = kb.eq(kt1, self.lp.k_tiles)?;
        kb.if_(
            wraps,
            |kb| {
                let local1 = kb.add(local, 1)?;
                let (om, on) = self.origin(kb, local1)?;
                Ok(vec![local1, kb.i32(0)?, om, on])
            },
            |_| Ok(vec![local, kt1, at[2], at[3]]),
        )
    }
}

/// The warp-specialised main loop of program `pid` of `programs`, which walks `tiles` tiles
/// (`pid, pid + programs, …`): the `producer` role waits for free stages and issues every TMA
/// load; the `consumer` role waits for full stages, issues wgmma, releases each stage once its
/// wgmma is complete, and ends each tile in `epilogue` (which must expect its staging buffer to
/// be reused). The ring needs empty barriers for the consumer's threads. Waits for the last
/// stores before it returns.
#[allow(clippy::too_many_arguments)]
pub fn gemm_mainloop_ws(
    kb: &mut KernelBuilder<'_>,
    lp: &GemmLoop,
    [producer, consumer]: [Role; 2],
    [pid, programs, tiles]: [Value; 3],
    mut hook: Option<KBlockHook<'_>>,
    epilogue: &dyn Epilogue,
) -> Result<()> {
    let k_tiles = lp.k_tiles;
    let zero = kb.i32(0)?;
    // Both roles walk (tile, K block) in two loops, carrying the running K block count `it`.
    produce(kb, lp, producer, [pid, programs, tiles])?;

    kb.in_role(consumer, |kb| {
        let acc0 = lp.zeros(kb)?;
        let out = kb.for_range(0, tiles, 1, &[acc0, zero], |kb, local, carried| {
            let inner = kb.for_range(0, k_tiles, 1, carried, |kb, kt, carried| {
                let (acc, it) = (carried[0], carried[1]);
                let (st, ph) = lp.ring.stage_of(kb, it)?;
                let (a_t, b_t) = lp.wait(kb, st, ph)?;
                // Each tile starts by ignoring the accumulator (scale-d = 0) rather than zeroing
                // registers a wgmma may still be writing.
                let use_acc = kb.ne(kt, 0)?;
                let acc = kb.wgmma_with(a_t, b_t, acc, Some(use_acc))?;
                let acc = run_hook(&mut hook, kb, acc, kt)?;
                kb.wgmma_wait(1, &[])?;
                // The previous K block's wgmma is complete: its stage is free.
                let started = kb.ge(it, 1)?;
                kb.if_then(started, |kb| {
                    let prev = kb.sub(it, 1)?;
                    let (pst, _) = lp.ring.stage_of(kb, prev)?;
                    lp.ring.release(kb, pst)
                })?;
                Ok(vec![acc, kb.add(it, 1)?])
            })?;
            let (acc, it) = (inner[0], inner[1]);
            let done = kb.wgmma_wait(0, &[acc])?[0];
            let (om, on) = lp.grid.persistent_origin(kb, pid, programs, local)?;
            epilogue.store(kb, done, [om, on])?;
            Ok(vec![acc, it])
        })?;
        // Nothing may leave the kernel with a wgmma in flight or a store reading shared memory.
        kb.wgmma_wait(0, &[out[0]])?;
        kb.tma_store_wait(0)
    })
}

/// The producer of a warp-specialised main loop: in role `producer`, walks the `tiles` tiles of
/// program `pid` of `programs` and their K blocks, waiting for each stage to be free before it
/// loads the next K block into it. The consumers count fills the same way (one running `it`).
pub(super) fn produce(
    kb: &mut KernelBuilder<'_>,
    lp: &GemmLoop,
    producer: Role,
    [pid, programs, tiles]: [Value; 3],
) -> Result<()> {
    let bk = lp.block[2] as i32;
    let zero = kb.i32(0)?;
    kb.in_role(producer, |kb| {
        kb.for_range(0, tiles, 1, &[zero], |kb, local, carried| {
            let (om, on) = lp.grid.persistent_origin(kb, pid, programs, local)?;
            kb.for_range(0, lp.k_tiles, 1, carried, |kb, kt, carried| {
                let it = carried[0];
                let (st, ph) = lp.ring.stage_of(kb, it)?;
                lp.ring.wait_free(kb, st, ph)?;
                let kk = kb.mul(kt, bk)?;
                lp.load(kb, st, [om, on, kk], None)?;
                Ok(vec![kb.add(it, 1)?])
            })
        })?;
        Ok(())
    })
}
