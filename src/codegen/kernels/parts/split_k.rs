//! Split-K: a GEMM whose K is cut into ranges that programs compute side by side, each writing
//! an f32 partial, the partials then summed in split order (the same result on every run,
//! whichever program finishes first). [`split_range`] gives a program its K blocks,
//! [`PartialStore`] writes its partial, and [`SplitFinish`] lets the last program of a tile sum
//! the tile's partials itself (a ticket per tile, one scalar atomic) instead of a reduction
//! kernel; [`pick_splits`] chooses how many ranges stream the weights in the least time.
//! The skinny and 4-bit GEMMs (`gemm_skinny_kernel`, `gemm_w4_kernel`) are built from them.

use crate::codegen::{AtomicOp, DType, KernelBuilder, Result, Value};
use crate::layout::encoding::{Encoding, Slice};

use super::Epilogue;

/// What starting a wave of programs costs, in bytes of streaming: about a microsecond of HBM
/// latency at an H100's bandwidth before the first bytes of every program arrive.
const WAVE_BYTES: f64 = 4.0e6;

/// The widest token tile whose sum a program can finish itself ([`SplitFinish`]): the sum and
/// its offsets must fit the registers.
pub const FINISH_MAX_TOKENS: u32 = 64;

/// The split count in `1..=max_splits` with the least modelled time for `tiles` programs a
/// split on `slots` program slots: whole waves of programs, each streaming its `1 / (tiles ·
/// splits)` of `w_bytes` at `1 / slots` of the bandwidth and paying 4 MB of streaming (about a
/// microsecond of memory latency) to start, plus `part_bytes` of partials written and read per
/// split. Ties go to fewer splits.
pub fn pick_splits(tiles: u64, max_splits: u64, slots: u64, w_bytes: u64, part_bytes: u64) -> u32 {
    let (tiles, slots) = (tiles.max(1), slots.max(1));
    let cost = |s: u64| {
        let programs = tiles * s;
        let waves = programs.div_ceil(slots);
        let stream = (waves * slots) as f64 * w_bytes as f64 / programs as f64;
        stream + waves as f64 * WAVE_BYTES + (s * part_bytes) as f64
    };
    let mut best = 1;
    for s in 2..=max_splits.clamp(1, 1024) {
        if cost(s) < cost(best) * 0.999 {
            best = s;
        }
    }
    best as u32
}

/// Output tiles of `block` `[rows, tokens]` over an output of `rows` weight rows and `tokens`
/// tokens (a zero block counts as one; saturating).
pub fn split_tiles(rows: u64, tokens: u64, block: [u32; 2]) -> u64 {
    let r = rows.div_ceil(u64::from(block[0].max(1)));
    r.saturating_mul(tokens.div_ceil(u64::from(block[1].max(1))))
}

/// The grid of a split-K kernel: one program per (tile, split), tiles fastest. A count past
/// `u32` saturates, so that the launch refuses it rather than run a cut grid.
pub fn split_grid(tiles: u64, splits: u32) -> (u32, u32, u32) {
    let programs = tiles.saturating_mul(u64::from(splits));
    (u32::try_from(programs).unwrap_or(u32::MAX), 1, 1)
}

/// Stores a program's f32 partial `[rows, tokens]` (its accumulator, in `layout`) to
/// `part[split, token, row]`, masked to the `m × n` output: an [`Epilogue`] of the GEMM main
/// loops (the skinny GEMMs put the weight's rows on the tensor cores' M side, so a row of the
/// tile is a column of the output).
pub struct PartialStore {
    /// The partials, `splits · m · n` f32 (a `ptr<f32>`).
    pub part: Value,
    /// Output rows (tokens), an `i32` scalar.
    pub m: Value,
    /// Output columns (rows of the weight), an `i32` scalar.
    pub n: Value,
    /// `split · m · n`: where this program's partial starts.
    pub base: Value,
    /// The accumulator's layout.
    pub layout: Encoding,
    /// The tile `[rows, tokens]`.
    pub block: [i32; 2],
}

impl Epilogue for PartialStore {
    fn store(
        &self,
        kb: &mut KernelBuilder<'_>,
        acc: Value,
        [orow, otok]: [Value; 2],
    ) -> Result<()> {
        let (at, mask) = self.offsets(kb, [orow, otok])?;
        let at = kb.add(at, self.base)?;
        let ptrs = kb.add(self.part, at)?;
        kb.store(ptrs, acc, Some(mask))
    }
}

impl PartialStore {
    /// The tile's shape `[rows of W, tokens]`.
    pub fn shape(&self) -> [u64; 2] {
        [self.block[0] as u64, self.block[1] as u64]
    }

    /// Each element's offset `token · n + row` in an `[m, n]` output, and whether it lies inside.
    pub fn offsets(
        &self,
        kb: &mut KernelBuilder<'_>,
        [orow, otok]: [Value; 2],
    ) -> Result<(Value, Value)> {
        let rows = kb.arange(0, self.block[0], Slice::new(1, self.layout.clone()))?;
        let rows = kb.add(rows, orow)?;
        let toks = kb.arange(0, self.block[1], Slice::new(0, self.layout.clone()))?;
        let toks = kb.add(toks, otok)?;
        let rows = kb.expand_dims(rows, 1)?;
        let toks = kb.expand_dims(toks, 0)?;
        let in_n = kb.lt(rows, self.n)?;
        let in_m = kb.lt(toks, self.m)?;
        let mask = kb.and(in_n, in_m)?;
        let at = kb.mul(toks, self.n)?;
        Ok((kb.add(at, rows)?, mask))
    }
}

/// Finishes split-K inside the kernel: stores this program's partial like [`PartialStore`],
/// then takes a ticket for its tile (one scalar atomic, after a barrier so that every thread's
/// partial is stored); the program that draws the last ticket adds the tile's partials in split
/// order (a reduction kernel's sums, in its order: the result does not depend on which
/// program arrives last), rounds them to `out`, stores Y `[m, n]` and puts the ticket back to
/// zero for the next launch.
pub struct SplitFinish {
    /// Where this program's partial goes.
    pub partial: PartialStore,
    /// The output `[m, n]` (a `ptr<out>`).
    pub y: Value,
    /// The output's element type (f32, or rounded to f16/bf16).
    pub out: DType,
    /// This program's tile's ticket (a `ptr<i32>` scalar).
    pub ticket: Value,
    /// Programs per tile (at least 1).
    pub splits: Value,
}

impl Epilogue for SplitFinish {
    fn store(&self, kb: &mut KernelBuilder<'_>, acc: Value, origin: [Value; 2]) -> Result<()> {
        self.partial.store(kb, acc, origin)?;
        kb.barrier()?;
        let drawn = kb.atomic_rmw(AtomicOp::Add, self.ticket, 1, None)?;
        let last = kb.sub(self.splits, 1)?;
        let last = kb.eq(drawn, last)?;
        kb.if_then(last, |kb| {
            let p = &self.partial;
            let (at, mask) = p.offsets(kb, origin)?;
            let zeros = kb.zeros((&p.layout, p.shape()), DType::F32)?;
            let mn = kb.mul(p.m, p.n)?;
            let sum = kb.for_range(0, self.splits, 1, &[zeros], |kb, s, acc| {
                let base = kb.mul(s, mn)?;
                let at = kb.add(at, base)?;
                let ptrs = kb.add(p.part, at)?;
                let v = kb.load(ptrs, Some(mask), None)?;
                Ok(vec![kb.add(acc[0], v)?])
            })?[0];
            let y = if self.out == DType::F32 {
                sum
            } else {
                kb.cast(sum, self.out)?
            };
            let ptrs = kb.add(self.y, at)?;
            kb.store(ptrs, y, Some(mask))?;
            kb.store(self.ticket, 0, None)
        })
    }
}

/// The K blocks split `split` of `splits` reads: `[s · per, min((s + 1) · per, k_blocks))`
/// with `per = ⌈k_blocks / splits⌉`, as (first block, count); a split past the end reads none
/// (and stores zeros). Fewer than one split counts as one.
pub fn split_range(
    kb: &mut KernelBuilder<'_>,
    k_blocks: Value,
    splits: Value,
    split: Value,
) -> Result<(Value, Value)> {
    let splits = kb.max(splits, 1)?;
    let per = kb.add(k_blocks, splits)?;
    let per = kb.sub(per, 1)?;
    let per = kb.div(per, splits)?;
    let first = kb.mul(split, per)?;
    let left = kb.sub(k_blocks, first)?;
    let left = kb.max(left, 0)?;
    Ok((first, kb.min(left, per)?))
}
