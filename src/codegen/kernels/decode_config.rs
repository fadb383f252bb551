//! The configuration of paged decode attention (`attention_decode_kernel`): the shapes it serves
//! (head dim, page size, query heads per KV head, query tokens), the KV element type, the key
//! block and pipeline depth, and how many splits of the keys a launch uses.

use super::super::{CodegenError, DType, Result};
use super::check_pow2;

/// Shapes and tiles of [`attention_decode_kernel`](super::attention_decode_kernel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeConfig {
    /// Q and O: f16 or bf16 (f32 softmax and accumulation).
    pub dtype: DType,
    /// The KV cache: `dtype`, or fp8 e4m3 (sm_90; a per-KV-head scale each for K and V).
    pub kv_dtype: DType,
    /// Head dimension (64 or 128).
    pub head_dim: u32,
    /// Keys per page of the cache (a power of two, 8..=256; 16, 64 and 128 are the usual).
    pub page_size: u32,
    /// Query heads per KV head (GQA; 1 is plain multi-head attention). All of them share one
    /// CTA, which is what makes decode read each KV byte once.
    pub group: u32,
    /// Query tokens per sequence (1..=16: 1 is plain decode, more are speculative drafts).
    pub q_len: u32,
    /// Query token `t` of `q_len` sits at position `len - q_len + t` and sees only the keys up to
    /// it (speculative decoding's mask); off: every token sees every key.
    pub causal: bool,
    /// Keys per step of the main loop (a power of two, 16..=128).
    pub block_n: u32,
    /// Shared-memory stages of the K/V ring (2..=4).
    pub stages: u32,
    /// Warps per CTA (a power of two, 1..=8).
    pub num_warps: u32,
    /// Whether the kernel merges its splits itself (one launch, the partials read once more
    /// from L2 by one CTA rather than by a second kernel): every CTA writes its partial, then
    /// takes a ticket of its (sequence, KV head); the CTA that draws the last merges all splits
    /// of its `q_len · group` rows and writes O (Q's type) and the lse; at one split it writes
    /// them directly, with no partials. The parameters `o: *T, lse: *f32, counters: *i32` then
    /// follow `lse_part` (`counters [batch, heads_kv]`, zero before the first launch; the kernel
    /// leaves them zero). Off: [`split_kv_combine_kernel`](super::split_kv_combine_kernel)
    /// merges the partials.
    pub merge_in_kernel: bool,
}

/// Element counts of the buffers of one launch ([`DecodeConfig::buffers`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeBuffers {
    /// O `[batch, q_len, heads_q, D]` and the partials' rows: `batch · q_len · heads_q`.
    pub rows: usize,
    /// `o_part`: `splits · rows · D` (0 when the kernel merges and there is one split: not read).
    pub o_part: usize,
    /// `lse_part`: `splits · rows` (0 as `o_part`).
    pub lse_part: usize,
    /// The merge's tickets: `batch · heads_kv` i32 (0 without [`DecodeConfig::merge_in_kernel`]
    /// or at one split).
    pub counters: usize,
}

/// The op name in errors.
const OP: &str = "attention_decode_kernel";

/// The most query rows (`q_len · group`) whose splits [`DecodeConfig::new`] merges in the
/// kernel: the last CTA of a KV head reads `splits · rows · D` partials alone, so its tail
/// grows with the rows; past this the separate merge's many programs read them sooner
/// (BENCHMARKS: at 33 splits, merged in the kernel is faster at 4 rows and slower at 16).
pub const MERGE_MAX_ROWS: u32 = 4;

impl DecodeConfig {
    /// Head dim 128, 64-key steps over a 3-stage ring, KV in `dtype`; 4 warps, 8 for 64 query
    /// rows (`q_len · group` over 32: ptxas spills at 4); the splits merged in the kernel up to
    /// [`MERGE_MAX_ROWS`] query rows.
    pub fn new(dtype: DType, page_size: u32, group: u32, q_len: u32) -> DecodeConfig {
        let rows = q_len.saturating_mul(group);
        DecodeConfig {
            dtype,
            kv_dtype: dtype,
            head_dim: 128,
            page_size,
            group,
            q_len,
            causal: q_len > 1,
            block_n: 64,
            stages: 3,
            num_warps: if rows > 32 { 8 } else { 4 },
            merge_in_kernel: rows <= MERGE_MAX_ROWS,
        }
    }

    /// This configuration with the splits merged in the kernel (or by the separate merge).
    pub fn with_merge_in_kernel(self, merge_in_kernel: bool) -> DecodeConfig {
        DecodeConfig {
            merge_in_kernel,
            ..self
        }
    }

    /// The buffers of a launch over `batch` sequences, `heads_kv` KV heads and `splits` splits,
    /// in elements; an error when a count is 0 or a size does not fit `usize` (or its row
    /// count an `i32`, which the kernel indexes with).
    pub fn buffers(&self, batch: u32, heads_kv: u32, splits: u32) -> Result<DecodeBuffers> {
        if batch == 0 || heads_kv == 0 || splits == 0 {
            return Err(CodegenError::arg(
                OP,
                format!("batch {batch}, heads_kv {heads_kv}, splits {splits}: each at least 1"),
            ));
        }
        let too_big = || {
            CodegenError::arg(
                OP,
                format!(
                    "batch {batch} × heads_kv {heads_kv} × {splits} splits: buffers past the \
                     kernel's 32-bit indices"
                ),
            )
        };
        let mul = |a: u64, b: u64| a.checked_mul(b).ok_or_else(too_big);
        let heads_q = mul(u64::from(heads_kv), u64::from(self.group))?;
        let rows = mul(mul(u64::from(batch), u64::from(self.q_len))?, heads_q)?;
        let merged = self.merge_in_kernel && splits == 1;
        let parts = if merged { 0 } else { u64::from(splits) };
        let lse_part = mul(parts, rows)?;
        let o_part = mul(lse_part, u64::from(self.head_dim))?;
        let counters = if self.merge_in_kernel && splits > 1 {
            mul(u64::from(batch), u64::from(heads_kv))?
        } else {
            0
        };
        let elems = mul(mul(u64::from(splits), rows)?, u64::from(self.head_dim))?;
        if elems > i32::MAX as u64 || mul(rows, u64::from(self.head_dim))? > i32::MAX as u64 {
            return Err(too_big());
        }
        let us = |x: u64| usize::try_from(x).map_err(|_| too_big());
        Ok(DecodeBuffers {
            rows: us(rows)?,
            o_part: us(o_part)?,
            lse_part: us(lse_part)?,
            counters: us(counters)?,
        })
    }

    /// This configuration with the KV cache in `kv_dtype`.
    pub fn with_kv_dtype(self, kv_dtype: DType) -> DecodeConfig {
        DecodeConfig { kv_dtype, ..self }
    }

    /// Rows of a CTA's query tile: `q_len · group` (token-major: row `t · group + g` is token
    /// `t` of query head `g`), rounded up to a power of two of at least 16 (one `mma` tile).
    pub fn block_m(&self) -> u32 {
        (self.q_len * self.group).next_power_of_two().max(16)
    }

    /// Whether the KV cache is fp8 (and the kernel takes the scales).
    pub fn fp8_kv(&self) -> bool {
        self.kv_dtype == DType::F8E4M3
    }

    /// The grid for `batch` sequences and `kv_heads` KV heads in `splits` splits of the keys:
    /// `(splits, kv_heads, batch)`.
    pub fn grid(&self, batch: u32, kv_heads: u32, splits: u32) -> (u32, u32, u32) {
        (splits, kv_heads, batch)
    }

    /// How many splits of the keys a launch on `sms` multiprocessors uses for `batch` sequences
    /// of at most `max_len` keys and `kv_heads` KV heads: enough CTAs for two per
    /// multiprocessor, each split at least 4 key blocks long (fewer and the combine's traffic
    /// and each CTA's prologue stop paying for themselves), at most 64; one split when the
    /// sequences alone fill 15/16 of those places (a second split would only square off the
    /// last few, and costs its merge).
    pub fn splits(&self, batch: u32, kv_heads: u32, max_len: u32, sms: u32) -> u32 {
        let ctas = u64::from(batch) * u64::from(kv_heads);
        let places = 2 * u64::from(sms);
        if ctas == 0 || ctas * 16 >= places * 15 {
            return 1;
        }
        let want = places.div_ceil(ctas);
        let blocks = u64::from(max_len).div_ceil(u64::from(self.block_n.max(1)));
        let most = (blocks / 4).clamp(1, 64);
        want.clamp(1, most) as u32
    }

    pub(super) fn check(&self) -> Result<()> {
        let bad = |reason: String| CodegenError::arg(OP, reason);
        if !matches!(self.dtype, DType::F16 | DType::BF16) {
            return Err(bad(format!("dtype {}: f16 or bf16", self.dtype)));
        }
        if self.kv_dtype != self.dtype && self.kv_dtype != DType::F8E4M3 {
            return Err(bad(format!(
                "kv_dtype {}: {} (the query's) or f8e4m3",
                self.kv_dtype, self.dtype
            )));
        }
        if !matches!(self.head_dim, 64 | 128) {
            return Err(bad(format!("head_dim {}: 64 or 128", self.head_dim)));
        }
        check_pow2(OP, "page_size", u64::from(self.page_size), 8, 256)?;
        check_pow2(OP, "block_n", u64::from(self.block_n), 16, 128)?;
        check_pow2(OP, "num_warps", u64::from(self.num_warps), 1, 8)?;
        if !(1..=16).contains(&self.q_len) {
            return Err(bad(format!("q_len {}: 1..=16", self.q_len)));
        }
        if !(1..=16).contains(&self.group) {
            return Err(bad(format!("group {}: 1..=16", self.group)));
        }
        if self.q_len * self.group > 64 {
            return Err(bad(format!(
                "q_len {} × group {} = {} query rows: at most 64 per CTA",
                self.q_len,
                self.group,
                self.q_len * self.group
            )));
        }
        if !(2..=4).contains(&self.stages) {
            return Err(bad(format!("stages {}: 2..=4", self.stages)));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_pad_to_an_mma_tile_and_splits_fill_the_machine() {
        let c = DecodeConfig::new(DType::BF16, 16, 4, 1);
        assert_eq!(c.block_m(), 16);
        assert_eq!(DecodeConfig::new(DType::BF16, 16, 4, 5).block_m(), 32);
        assert_eq!(DecodeConfig::new(DType::BF16, 16, 4, 16).block_m(), 64);
        // Batch 1, 8 KV heads, 32K keys on 132 SMs: 33 splits (264 CTAs), 512 blocks allow it.
        assert_eq!(c.splits(1, 8, 32768, 132), 33);
        // Batch 128 already fills the machine, and batch 32 (256 CTAs of 264 places) nearly.
        assert_eq!(c.splits(128, 8, 8192, 132), 1);
        assert_eq!(c.splits(32, 8, 8192, 132), 1);
        assert_eq!(c.splits(16, 8, 8192, 132), 3);
        // A short sequence is not cut below 4 blocks a split.
        assert_eq!(c.splits(1, 8, 512, 132), 2);
        assert_eq!(c.splits(1, 8, 0, 132), 1);
        assert_eq!(c.splits(0, 8, 100, 132), 1);
        // At most 64 splits.
        assert_eq!(c.splits(1, 1, 1 << 20, 132), 64);
        // Merged in the kernel up to 4 query rows.
        assert!(c.merge_in_kernel);
        assert!(!DecodeConfig::new(DType::BF16, 16, 4, 2).merge_in_kernel);
        assert!(DecodeConfig::new(DType::BF16, 16, 2, 2).merge_in_kernel);
    }

    #[test]
    fn buffers_are_counted_and_refused_when_too_big() {
        let c = DecodeConfig::new(DType::BF16, 16, 4, 2).with_merge_in_kernel(true);
        let b = c.buffers(3, 2, 5).unwrap();
        assert_eq!(
            (b.rows, b.lse_part, b.o_part, b.counters),
            (48, 240, 240 * 128, 6)
        );
        // One split merged in the kernel: no partials, no tickets.
        let b = c.buffers(3, 2, 1).unwrap();
        assert_eq!((b.rows, b.o_part, b.lse_part, b.counters), (48, 0, 0, 0));
        // Merged apart: partials always, no tickets.
        let b = c.with_merge_in_kernel(false).buffers(3, 2, 1).unwrap();
        assert_eq!((b.o_part, b.counters), (48 * 128, 0));
        let e = c.buffers(0, 2, 1).unwrap_err().to_string();
        assert!(e.contains("batch 0"), "{e}");
        let e = c.buffers(1 << 20, 64, 64).unwrap_err().to_string();
        assert!(e.contains("32-bit"), "{e}");
    }

    #[test]
    fn bad_shapes_are_named() {
        let ok = DecodeConfig::new(DType::BF16, 64, 4, 1);
        assert!(ok.check().is_ok());
        let cases = [
            (
                DecodeConfig {
                    page_size: 48,
                    ..ok
                },
                "page_size",
            ),
            (DecodeConfig { q_len: 17, ..ok }, "q_len 17"),
            (DecodeConfig { group: 0, ..ok }, "group 0"),
            (
                DecodeConfig {
                    group: 8,
                    q_len: 16,
                    ..ok
                },
                "128 query rows",
            ),
            (DecodeConfig { head_dim: 96, ..ok }, "head_dim 96"),
            (DecodeConfig { stages: 1, ..ok }, "stages 1"),
            (ok.with_kv_dtype(DType::F16), "kv_dtype f16"),
            (
                DecodeConfig {
                    dtype: DType::F32,
                    ..ok
                },
                "dtype f32",
            ),
        ];
        for (c, want) in cases {
            let e = c.check().unwrap_err().to_string();
            assert!(e.contains(want), "{c:?}: {e}");
        }
    }
}
