//! Two-stage `cp.async` staging of row tiles for the persistent row kernels: while a CTA
//! reduces one block of rows, the next block's tiles travel into shared memory, so its loads
//! stay in flight through the reductions' barriers. Where registers leave one or two CTAs an
//! SM (16K-column rows) nothing else would keep HBM busy then.

use crate::layout::encoding::{Blocked, SwizzledShared};

use super::super::{KernelBuilder, Result, Value};
use super::row_config::RowConfig;
use super::row_tile::{tile_mask_offs, tile_rows, to_f32, TileCols, TileRows};

/// Two buffers of a `[rows_per_cta, block_n]` tile of `c.dtype` per source matrix.
pub(super) struct RowStages {
    /// (source matrix, its two buffers).
    sources: Vec<(Value, Value)>,
    layout: Blocked,
    rows_per_cta: u32,
    /// Whether some thread reads an element another copied (threads holding copies of the
    /// tile): then a barrier orders a step's reads before the next step's copies.
    tile_copies: bool,
}

/// The shared-memory bytes of the stages of `sources` matrices of `c`'s tile.
pub(super) fn stage_bytes(c: &RowConfig, sources: u64) -> u64 {
    2 * sources * c.rows_per_cta as u64 * c.block_n as u64 * c.dtype.mem_bytes()
}

impl RowStages {
    /// Allocates the stages of `sources` (matrices of `c.dtype` with rows of `n`), whose tiles
    /// are read back in `layout`.
    pub(super) fn new(
        kb: &mut KernelBuilder<'_>,
        layout: &Blocked,
        c: &RowConfig,
        sources: &[Value],
    ) -> Result<RowStages> {
        let plain = SwizzledShared::new(1, 1, 1, &[1, 0]);
        let shape = [c.rows_per_cta as u64, c.block_n as u64];
        let sources = sources
            .iter()
            .map(|&s| Ok((s, kb.alloc_shared_buffers(c.dtype, 2, &shape, &plain)?)))
            .collect::<Result<Vec<_>>>()?;
        let span = |d: usize| {
            layout.size_per_thread[d] as u64
                * layout.threads_per_warp[d] as u64
                * layout.warps_per_cta[d] as u64
        };
        Ok(RowStages {
            sources,
            layout: layout.clone(),
            rows_per_cta: c.rows_per_cta,
            tile_copies: span(0) > c.rows_per_cta as u64 || span(1) > c.block_n as u64,
        })
    }

    /// Starts copying row block `blk` (rows past `m` and columns past `n` land as zeros and
    /// are not read) of every source into buffer `stage`, as one commit group.
    pub(super) fn copy(
        &self,
        kb: &mut KernelBuilder<'_>,
        cols: &TileCols,
        [blk, stage, m, n]: [Value; 4],
    ) -> Result<()> {
        let rows = tile_rows(kb, &self.layout, self.rows_per_cta, blk, m, n)?;
        let (mask, offs) = tile_mask_offs(kb, &rows, cols)?;
        for &(src, bufs) in &self.sources {
            let p = kb.add(src, offs)?;
            let b = kb.index_shared(bufs, stage)?;
            kb.async_copy_global_to_shared(b, p, Some(mask))?;
        }
        kb.async_commit_group().map(|_| ())
    }

    /// Starts copying the first row block of a persistent CTA `pid` (its block `pid`) into
    /// buffer 0.
    pub(super) fn start(
        &self,
        kb: &mut KernelBuilder<'_>,
        cols: &TileCols,
        [pid, m, n]: [Value; 3],
    ) -> Result<()> {
        let zero = kb.mul(pid, 0)?;
        self.copy(kb, cols, [pid, zero, m, n])
    }

    /// Waits for all but the newest commit group, then reads buffer `stage` of every source as
    /// f32 tiles (a barrier between: the wait completes this thread's copies, the barrier
    /// every thread's).
    pub(super) fn take(&self, kb: &mut KernelBuilder<'_>, stage: Value) -> Result<Vec<Value>> {
        kb.async_wait_group(1)?;
        kb.barrier()?;
        let mut out = vec![];
        for &(_, bufs) in &self.sources {
            let b = kb.index_shared(bufs, stage)?;
            let v = kb.load_shared(b, self.layout.clone())?;
            out.push(to_f32(kb, v)?);
        }
        Ok(out)
    }

    /// Ends a step: where threads share the tile's elements, a barrier so that every read of
    /// this step's buffer comes before the next step's copies overwrite it.
    pub(super) fn end_step(&self, kb: &mut KernelBuilder<'_>) -> Result<()> {
        if self.tile_copies {
            kb.barrier()?;
        }
        Ok(())
    }

    /// Step `i` of a persistent CTA, at row block `blk`: starts copying block `blk + grid` into
    /// the other buffer (`(i + 1) & 1`), then takes block `blk`'s tiles from buffer `i & 1`.
    pub(super) fn step(
        &self,
        kb: &mut KernelBuilder<'_>,
        cols: &TileCols,
        [i, blk, grid, m, n]: [Value; 5],
    ) -> Result<Vec<Value>> {
        let now = kb.expr(|e| e.of(i) & 1i32)?;
        let next_stage = kb.expr(|e| (e.of(i) + 1i32) & 1i32)?;
        let next = kb.add(blk, grid)?;
        self.copy(kb, cols, [next, next_stage, m, n])?;
        self.take(kb, now)
    }
}

/// The row blocks of a persistent CTA `pid` of `grid`: `blocks = ⌈m / rows_per_cta⌉`, and how
/// many of `pid, pid + grid, …` are below it.
pub(super) fn persistent_blocks(
    kb: &mut KernelBuilder<'_>,
    rows_per_cta: u32,
    [m, pid, grid]: [Value; 3],
) -> Result<(Value, Value)> {
    let rpc = rows_per_cta as i32;
    let blocks = kb.expr(|e| (e.of(m) + (rpc - 1)) / rpc)?;
    let iters = kb.expr(|e| (e.of(blocks) - e.of(pid) + e.of(grid) - 1) / e.of(grid))?;
    Ok((blocks, iters))
}

/// Step `i` of persistent CTA `pid`'s walk over `grid`: its row block `blk = i · grid + pid`,
/// the block's rows, and the mask and offsets of its tile over `cols`. The block index records
/// the caller's line, the kernel's.
#[track_caller]
pub(super) fn walk_block(
    kb: &mut KernelBuilder<'_>,
    layout: &Blocked,
    rows_per_cta: u32,
    cols: &TileCols,
    [i, pid, grid, m, n]: [Value; 5],
) -> Result<(Value, TileRows, Value, Value)> {
    let blk = kb.expr(|e| e.of(i) * e.of(grid) + e.of(pid))?;
    let rows = tile_rows(kb, layout, rows_per_cta, blk, m, n)?;
    let (mask, offs) = tile_mask_offs(kb, &rows, cols)?;
    Ok((blk, rows, mask, offs))
}

/// The mask of a per-column vector (`w`) loaded inside a walk: `cols.ok1` and `blk < blocks`.
/// The second always holds; it makes each load depend on the iteration, so that it stays in
/// the loop (and is not merged with another across barriers) rather than held in registers.
/// Its ops record the caller's line, the kernel's.
#[track_caller]
pub(super) fn walk_col_mask(
    kb: &mut KernelBuilder<'_>,
    cols: &TileCols,
    blk: Value,
    blocks: Value,
) -> Result<Value> {
    let in_walk = kb.lt(blk, blocks)?;
    kb.and(cols.ok1, in_walk)
}
