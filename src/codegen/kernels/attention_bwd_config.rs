//! The attention backward's shapes, tiles and engine ([`AttentionBwdConfig`]), shared by both
//! engines' kernels: the checks, grids and tensor-map boxes a caller needs before building one.

use super::super::{CodegenError, DType, Result};
use super::check_pow2;

/// Resident rows of each consumer warpgroup of the `Wgmma` engine (one wgmma M block).
pub(super) const ROWS_PER_CONSUMER: u32 = 64;

/// Shapes and tiles of the backward kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttentionBwdConfig {
    /// Q, K, V, O, dO and the gradients: f16 or bf16 (f32 accumulation).
    pub dtype: DType,
    /// Head dimension (64 or 128).
    pub head_dim: u32,
    /// Query heads per KV head (1: multi-head attention).
    pub group: u32,
    /// Only keys at or before the query.
    pub causal: bool,
    /// Query rows per block (a power of two, 16..=128). `Wgmma`: the rows each step streams
    /// (queries for dK/dV, keys for dQ), 64 or 128.
    pub block_m: u32,
    /// Keys per block (a power of two, 16..=128). `Wgmma`: the rows a CTA keeps in shared
    /// memory (keys for dK/dV, queries for dQ), 64 per consumer warpgroup: 64 or 128.
    pub block_n: u32,
    /// Warps per CTA. `Wgmma`: a producer warpgroup and one consumer warpgroup per 64 rows of
    /// `block_n` (8 or 12).
    pub num_warps: u32,
    /// Which tensor-core instructions and copies the gradient kernels use.
    pub engine: BwdEngine,
}

/// The machinery of the two gradient kernels (the delta pre-pass is the same for both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BwdEngine {
    /// `mma.sync` with a `cp.async` ring, every warp alike (sm_80 and later); Q, K, V and dO
    /// passed as pointers.
    MmaSync,
    /// wgmma with TMA copies, a producer warpgroup and consumer warpgroups (sm_90a); Q, K, V and
    /// dO passed as tensor maps (box [`tma_box`](AttentionBwdConfig::tma_box)).
    Wgmma,
}

/// The swizzle of the `Wgmma` engine's tensor maps and buffers (one 64-element row of 16-bit
/// values).
pub(super) const BWD_SWIZZLE: u16 = 128;

/// The op name in errors.
const OP: &str = "attention_bwd";

impl AttentionBwdConfig {
    /// 64 × 64 blocks; 4 warps at D 64, 8 at D 128 (fewer registers a thread for the `[keys, D]`
    /// accumulators and operands: both passes fit without spilling).
    pub fn new(dtype: DType, head_dim: u32, group: u32, causal: bool) -> AttentionBwdConfig {
        AttentionBwdConfig {
            dtype,
            head_dim,
            group,
            causal,
            block_m: 64,
            block_n: 64,
            num_warps: if head_dim > 64 { 8 } else { 4 },
            engine: BwdEngine::MmaSync,
        }
    }

    /// The Hopper configuration ([`BwdEngine::Wgmma`]), FlashAttention-3's tiles: 128 resident
    /// rows over two consumer warpgroups (12 warps); 64 streamed rows a step at D128, 128 at
    /// D64 (the most that fit the dK/dV consumers' 240 registers: dK, dV, S and dP).
    pub fn hopper(dtype: DType, head_dim: u32, group: u32, causal: bool) -> AttentionBwdConfig {
        AttentionBwdConfig {
            block_m: if head_dim > 64 { 64 } else { 128 },
            block_n: 128,
            num_warps: 12,
            engine: BwdEngine::Wgmma,
            ..AttentionBwdConfig::new(dtype, head_dim, group, causal)
        }
    }

    /// The TMA box of every tensor map of the `Wgmma` engine: `[min(block_m, 64), 64]`, rows of
    /// one swizzle width; a larger buffer is filled box by box.
    pub fn tma_box(&self) -> [u32; 2] {
        [self.block_m.min(64), 64]
    }

    /// The swizzle of every tensor map of the `Wgmma` engine, in bytes.
    pub fn swizzle(&self) -> u16 {
        BWD_SWIZZLE
    }

    /// The grid of the dK/dV kernel: `(⌈seq / block_n⌉, batch · heads_kv)`.
    pub fn dkdv_grid(&self, seq: u64, batch_heads_kv: u64) -> (u32, u32, u32) {
        (
            seq.div_ceil(u64::from(self.block_n)) as u32,
            batch_heads_kv as u32,
            1,
        )
    }

    /// The grid of the dQ kernel: `(⌈seq / block_m⌉, batch · heads_q)` (`Wgmma`: `block_n`
    /// query rows a CTA).
    pub fn dq_grid(&self, seq: u64, batch_heads_q: u64) -> (u32, u32, u32) {
        let rows = match self.engine {
            BwdEngine::MmaSync => self.block_m,
            BwdEngine::Wgmma => self.block_n,
        };
        (
            seq.div_ceil(u64::from(rows)) as u32,
            batch_heads_q as u32,
            1,
        )
    }

    pub(super) fn check(&self) -> Result<()> {
        let bad = |reason: String| CodegenError::arg(OP, reason);
        if !matches!(self.dtype, DType::F16 | DType::BF16) {
            return Err(bad(format!("dtype {}: f16 or bf16", self.dtype)));
        }
        if !matches!(self.head_dim, 64 | 128) {
            return Err(bad(format!("head_dim {}: 64 or 128", self.head_dim)));
        }
        if !(1..=64).contains(&self.group) {
            return Err(bad(format!("group {}: 1..=64", self.group)));
        }
        if self.engine == BwdEngine::Wgmma {
            return self.check_wgmma();
        }
        check_pow2(OP, "block_m", u64::from(self.block_m), 16, 128)?;
        check_pow2(OP, "block_n", u64::from(self.block_n), 16, 128)?;
        check_pow2(OP, "num_warps", u64::from(self.num_warps), 1, 8)
    }

    /// The `Wgmma` engine's tiles: 64 or 128 rows each way, a producer warpgroup and a consumer
    /// warpgroup per 64 resident rows.
    fn check_wgmma(&self) -> Result<()> {
        let bad = |reason: String| CodegenError::arg(OP, reason);
        if !matches!(self.block_m, 32 | 64 | 128) {
            return Err(bad(format!(
                "block_m {}: 32, 64 or 128 with the wgmma engine",
                self.block_m
            )));
        }
        if !matches!(self.block_n, 64 | 128) {
            return Err(bad(format!(
                "block_n {}: 64 or 128 with the wgmma engine",
                self.block_n
            )));
        }
        let warps = 4 + 4 * self.block_n / ROWS_PER_CONSUMER;
        if self.num_warps != warps {
            return Err(bad(format!(
                "num_warps {}: {warps} with the wgmma engine and block_n {} (a producer \
                 warpgroup and one consumer warpgroup per 64 rows)",
                self.num_warps, self.block_n
            )));
        }
        Ok(())
    }
}
