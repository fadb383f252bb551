//! Skinny GEMM for decoding: `Y = X · Wᵀ` with few rows of X (M = 1–128 tokens) and a large
//! weight W `[N, K]` (as a linear layer stores it), where the time is reading W once. Two kernels:
//!
//! 1. [`gemm_skinny_kernel`] swaps the operands so the weight fills wgmma's 64-row side: each
//!    program computes `W[rows] · X[tokens]ᵀ` for `block_m` rows of W and `block_n` tokens, over
//!    its own range of K blocks (split-K: `splits` ranges, so N/`block_m` × `splits` programs
//!    stream W at once), W and X loaded by TMA into a ring, and writes its f32 partial to
//!    `part[split, token, row]`.
//! 2. [`gemm_skinny_reduce_kernel`] sums the partials in split order (the same result on every
//!    run: no atomics) and rounds to the output type.
//!
//! Parameters of the first: `w_map` (W `[N, K]`, box `[block_m, block_k]`), `x_map` (X `[M, K]`,
//! box `[block_n, block_k]`), both 128-byte swizzled, `part: ptr<f32>` (`splits · M · N`), then
//! `m, n, k, splits: i32`; grid [`SkinnyConfig::grid`]. Of the second: `part`, `y: ptr<out>`,
//! `len: i32` (`M · N`), `splits: i32`; grid [`SkinnyConfig::reduce_grid`].

use crate::layout::encoding::{NvidiaMma, NvmmaShared};

use super::super::{CodegenError, Context, DType, Kernel, KernelBuilder, Result, Target};
use super::blocked_1d;
use super::layouts::block_offsets;
use super::parts::{
    self, ceil_div, pick_splits, split_grid, split_range, split_tiles, GemmLoop, PartialStore,
    SplitFinish, TileGrid, TmaRing, FINISH_MAX_TOKENS,
};

/// Elements each program of the reduction sums (4 per thread, 4 warps).
const REDUCE_BLOCK: u32 = 512;

/// Shared memory an H100 SM gives its programs (227 KiB).
const SHARED_PER_SM: u64 = 232_448;

/// Tiles and pipeline of the skinny GEMM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkinnyConfig {
    /// Element type of W and X: f16, bf16 or fp8 (e4m3, e5m2).
    pub dtype: DType,
    /// Rows of W per program (64 or 128: one or two wgmma row blocks of the warpgroup).
    pub block_m: u32,
    /// Tokens per program: a power of two from 8 to 256 (wgmma's N), at least M to read W once.
    pub block_n: u32,
    /// Shared-memory stages of the ring (2 to 8).
    pub stages: u32,
    /// Whether the partial-product kernel also finishes the sum ([`SplitFinish`]: the last
    /// program of a tile to arrive adds the partials in split order and writes Y), so no
    /// reduction kernel is launched. Its parameters then go on after `part` with `y: ptr<out>`
    /// and `tickets: ptr<i32>` (one per output tile, zero before the first launch; the kernel
    /// leaves them zero).
    pub finish_in_kernel: bool,
}

impl SkinnyConfig {
    /// 128 rows of W per program, the fewest tokens that cover `m` (at least 16), 6 stages.
    pub fn new(dtype: DType, m: u32) -> SkinnyConfig {
        SkinnyConfig {
            dtype,
            block_m: 128,
            block_n: m.clamp(16, 256).next_power_of_two(),
            stages: 6,
            finish_in_kernel: false,
        }
    }

    /// This configuration with the sum finished in the partial-product kernel (or not).
    pub fn with_finish_in_kernel(self, finish_in_kernel: bool) -> SkinnyConfig {
        SkinnyConfig {
            finish_in_kernel,
            ..self
        }
    }

    /// Output tiles, each with its ticket when the kernel finishes the sum.
    pub fn tiles(&self, m: u64, n: u64) -> u64 {
        split_tiles(n, m, [self.block_m, self.block_n])
    }

    /// The output type: f16 for f16 inputs, else bf16.
    pub fn out_dtype(&self) -> DType {
        if self.dtype == DType::F16 {
            DType::F16
        } else {
            DType::BF16
        }
    }

    /// Elements of K per stage: one 128-byte swizzled row.
    pub fn block_k(&self) -> u32 {
        128 / (self.dtype.bits() / 8)
    }

    /// W's TMA box.
    pub fn w_box(&self) -> [u32; 2] {
        [self.block_m, self.block_k()]
    }

    /// X's TMA box.
    pub fn x_box(&self) -> [u32; 2] {
        [self.block_n, self.block_k()]
    }

    /// The swizzle of both tensor maps, in bytes.
    pub fn swizzle(&self) -> u16 {
        128
    }

    /// How many K ranges to split `k` into on a device of `sms` SMs: the count that streams W
    /// (and writes and reads the f32 partials) in the least time by [`pick_splits`]'s model,
    /// with as many programs resident on an SM as its shared memory holds, each range at least
    /// 2 K blocks long.
    pub fn splits(&self, m: u64, n: u64, k: u64, sms: u32) -> u32 {
        let tiles = self.tiles(m, n);
        let k_blocks = k.div_ceil(u64::from(self.block_k()));
        let e = u64::from(self.dtype.bits() / 8);
        let smem = u64::from(self.stages) * u64::from(self.block_m + self.block_n) * 128 + 64;
        let per_sm = (SHARED_PER_SM / smem).clamp(1, 8);
        let w_bytes = n * k * e;
        pick_splits(
            tiles,
            k_blocks / 2,
            u64::from(sms) * per_sm,
            w_bytes,
            8 * m * n,
        )
    }

    /// The grid of the partial-product kernel: one program per (tile, split).
    /// A count past `u32` saturates ([`split_grid`]).
    pub fn grid(&self, m: u64, n: u64, splits: u32) -> (u32, u32, u32) {
        split_grid(self.tiles(m, n), splits)
    }

    /// The grid of the reduction over `m · n` outputs (saturating, as [`grid`](Self::grid)).
    pub fn reduce_grid(&self, m: u64, n: u64) -> (u32, u32, u32) {
        let programs = m.saturating_mul(n).div_ceil(u64::from(REDUCE_BLOCK));
        (u32::try_from(programs).unwrap_or(u32::MAX), 1, 1)
    }

    fn check(&self) -> Result<()> {
        let bad = |reason: String| Err(CodegenError::arg("gemm_skinny_kernel", reason));
        if !matches!(
            self.dtype,
            DType::F16 | DType::BF16 | DType::F8E4M3 | DType::F8E5M2
        ) {
            return bad(format!("dtype {}: f16, bf16, f8e4m3 or f8e5m2", self.dtype));
        }
        if !matches!(self.block_m, 64 | 128) {
            return bad(format!("block_m {}: 64 or 128", self.block_m));
        }
        if !self.block_n.is_power_of_two() || !(8..=256).contains(&self.block_n) {
            return bad(format!(
                "block_n {}: a power of two from 8 to 256",
                self.block_n
            ));
        }
        if !(2..=8).contains(&self.stages) {
            return bad(format!("stages {}: 2 to 8", self.stages));
        }
        if self.finish_in_kernel && self.block_n > FINISH_MAX_TOKENS {
            return bad(format!(
                "finish_in_kernel with block_n {}: at most {FINISH_MAX_TOKENS} tokens (the sum and its offsets would not fit the registers)",
                self.block_n
            ));
        }
        Ok(())
    }
}

/// Builds the split-K partial-product kernel for `target` (sm_90a). See the module docs.
pub fn gemm_skinny_kernel(ctx: &Context, target: Target, c: SkinnyConfig) -> Result<Kernel<'_>> {
    c.check()?;
    let warps = 4;
    let mut kb = KernelBuilder::new(ctx, target, "gemm_skinny", warps)?;
    let sw = c.swizzle();
    let w_map = kb.arg_tensor_map("w_map", c.dtype, &c.w_box(), sw)?;
    let x_map = kb.arg_tensor_map("x_map", c.dtype, &c.x_box(), sw)?;
    let part = kb.arg_ptr("part", DType::F32, 16)?;
    let finish = match c.finish_in_kernel {
        true => Some((
            kb.arg_ptr("y", c.out_dtype(), 16)?,
            kb.arg_ptr("tickets", DType::I32, 4)?,
        )),
        false => None,
    };
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", 1)?;
    let k = kb.arg_i32("k", 1)?;
    let splits = kb.arg_i32("splits", 1)?;
    let (bm, bn, bk) = (c.block_m, c.block_n, c.block_k());
    // Program pid computes tile `pid % tiles` over split `pid / tiles`.
    let grid = TileGrid::new(&mut kb, [n, m], [bm, bn], 1)?;
    let tiles = kb.mul(grid.num_m, grid.num_n)?;
    let pid = kb.program_id(0)?;
    let tile = kb.rem(pid, tiles)?;
    let split = kb.div(pid, tiles)?;
    let k_blocks = ceil_div(&mut kb, k, bk as i32)?;
    let (first, mine) = split_range(&mut kb, k_blocks, splits, split)?;
    let k_first = kb.mul(first, bk as i32)?;
    let swz = NvmmaShared::new(u32::from(sw), c.dtype.bits(), 2, false);
    let stages = u64::from(c.stages);
    let (bm64, bn64, bk64) = (u64::from(bm), u64::from(bn), u64::from(bk));
    let w_ring = kb.alloc_shared_buffers(c.dtype, stages, &[bm64, bk64], &swz)?;
    let x_ring = kb.alloc_shared_buffers(c.dtype, stages, &[bn64, bk64], &swz)?;
    let bytes = (bm + bn) * bk * (c.dtype.bits() / 8);
    let ring = TmaRing::new(&mut kb, c.stages, bytes, None)?;
    let lp = GemmLoop {
        a_map: w_map,
        b_map: x_map,
        a_ring: w_ring,
        b_ring: x_ring,
        ring,
        grid,
        k_tiles: mine,
        block: [bm, bn, bk],
        warps,
        b_transposed: true,
        k_first: Some(k_first),
        cluster_rank: None,
        scales: None,
    };
    let mn = kb.mul(m, n)?;
    let base = kb.mul(split, mn)?;
    let partial = PartialStore {
        part,
        m,
        n,
        base,
        layout: NvidiaMma::hopper(&[warps, 1], bn, 16).into(),
        block: [bm as i32, bn as i32],
    };
    match finish {
        Some((y, tickets)) => {
            let store = SplitFinish {
                partial,
                y,
                out: c.out_dtype(),
                ticket: kb.add(tickets, tile)?,
                splits: kb.max(splits, 1)?,
            };
            parts::gemm_mainloop(&mut kb, &lp, tile, false, None, &store)?;
        }
        None => parts::gemm_mainloop(&mut kb, &lp, tile, false, None, &partial)?,
    }
    kb.finish()
}

/// Builds the reduction: `y[i] = Σ_s part[s · len + i]` in split order, rounded to `out` (f16,
/// bf16 or f32). See the module docs.
pub fn gemm_skinny_reduce_kernel(ctx: &Context, target: Target, out: DType) -> Result<Kernel<'_>> {
    if !matches!(out, DType::F16 | DType::BF16 | DType::F32) {
        return Err(CodegenError::arg(
            "gemm_skinny_reduce_kernel",
            format!("out {out}: f16, bf16 or f32"),
        ));
    }
    let warps = 4;
    let mut kb = KernelBuilder::new(ctx, target, "gemm_skinny_reduce", warps)?;
    let part = kb.arg_ptr("part", DType::F32, 16)?;
    let y = kb.arg_ptr("y", out, 16)?;
    let len = kb.arg_i32("len", 1)?;
    let splits = kb.arg_i32("splits", 1)?;
    let layout = blocked_1d(target, 4, warps, REDUCE_BLOCK)?;
    let (offs, mask) = block_offsets(&mut kb, &layout, REDUCE_BLOCK, len)?;
    let zeros = kb.zeros((&layout, [u64::from(REDUCE_BLOCK)]), DType::F32)?;
    let sum = kb.for_range(0, splits, 1, &[zeros], |kb, s, acc| {
        let at = kb.mul(s, len)?;
        let at = kb.add(offs, at)?;
        let ptrs = kb.add(part, at)?;
        let v = kb.load(ptrs, Some(mask), None)?;
        Ok(vec![kb.add(acc[0], v)?])
    })?[0];
    let v = if out == DType::F32 {
        sum
    } else {
        kb.cast(sum, out)?
    };
    let ptrs = kb.add(y, offs)?;
    kb.store(ptrs, v, Some(mask))?;
    kb.finish()
}
