//! The configuration of the forward attention kernel (`attention_kernel` and its ping-pong
//! schedule): tiles, warps, masking, schedule, grouped KV heads, variable lengths, and the
//! tensor maps' boxes.

use super::super::{CodegenError, DType, Result};

/// Tile and thread configuration of [`attention_kernel`](super::attention_kernel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttentionConfig {
    /// f16 or bf16 inputs and output (f32 softmax and accumulation).
    pub dtype: DType,
    /// Head dimension: 64, 128 or 256 (256 takes a shorter `block_n`: set both with
    /// [`with_head_dim`](Self::with_head_dim)).
    pub head_dim: u32,
    /// Query rows per CTA: 128 (each warpgroup of `Serial` and `Pipelined` owns 64 rows, as
    /// does each of ping-pong's two consumers), or 192 for ping-pong at head dim 64 with three
    /// consumers ([`with_consumers`](Self::with_consumers)).
    pub block_m: u32,
    /// Key/value rows per step: 128 at head dims 64 and 128; 64 at 256 (32 for `Pipelined`,
    /// whose three stages must fit shared memory).
    pub block_n: u32,
    /// Warps per CTA: 8 (two warpgroups), 12 for ping-pong (a producer and two consumers), 16
    /// for ping-pong with three consumers.
    pub num_warps: u32,
    /// Only keys at or before the query (lower-triangular mask).
    pub causal: bool,
    /// How the warps overlap the tensor cores with the softmax.
    pub schedule: AttentionSchedule,
    /// Query heads per KV head (GQA; 1: as many KV heads as query heads; `heads_q`: MQA). Query
    /// head `h` reads KV head `h / kv_group`, as the backward and decode kernels do.
    pub kv_group: u32,
    /// Variable-length batch: sequence lengths from `cu_seqlens_q` / `cu_seqlens_k` over packed
    /// tensors instead of one `seq` for all (the layout is in `attention_kernel`'s docs).
    pub varlen: bool,
    /// Query heads of one KV head that share a CTA's rows (1: one head a CTA). With `n` heads a
    /// CTA holds `block_m / n` query positions of each, so K and V are read once for all of
    /// them and short query sequences still fill the tile; Q and O then go through
    /// three-dimensional tensor maps ([`q_map_shape`](Self::q_map_shape)). A power of two
    /// dividing `kv_group`.
    pub packed_heads: u32,
    /// Causal: the query blocks with the most keys run first (the grid's first axis counted
    /// from its end), so the short blocks fill the machine at the end instead of a long one
    /// running alone (the longest-processing-time-first order of FlashAttention-3's scheduler,
    /// within each head).
    pub longest_first: bool,
}

/// The schedule of [`attention_kernel`](super::attention_kernel)'s main loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttentionSchedule {
    /// 8 warps, each warpgroup waits for every wgmma: S, softmax, P·V in turn; the two
    /// warpgroups drift apart freely, the first thread issues TMA copies.
    Serial,
    /// 8 warps, software-pipelined within each warpgroup: `S` of the next key block is issued
    /// before the softmax of this one; three K/V stages. On the H200 it is 5% slower than
    /// `Serial`, at 245 registers, and ptxas serialises its wgmmas (C7514): P·V of block j stays
    /// in flight across the loop's back edge, where the carried accumulator is copied.
    Pipelined,
    /// 12 warps in roles (FlashAttention-3's schedule): a producer warpgroup (24 registers)
    /// issues every TMA copy, two consumer warpgroups (240 registers) each own 64 query rows and
    /// take turns on the tensor cores through named barriers, one issuing `S_j` and `P_(j-1)·V`
    /// while the other runs its softmax; nothing is in flight across the loop's back edge.
    PingPong,
}

/// The swizzle of every tensor map (one 64-element row of 16-bit values).
pub(super) const SWIZZLE: u16 = 128;
/// Columns per TMA box.
const BOX_INNER: u32 = 64;

impl AttentionConfig {
    /// 128 × 128 blocks, head dim 128, 8 warps.
    pub fn new(dtype: DType, causal: bool) -> AttentionConfig {
        AttentionConfig {
            dtype,
            head_dim: 128,
            block_m: 128,
            block_n: 128,
            num_warps: 8,
            causal,
            schedule: AttentionSchedule::Serial,
            kv_group: 1,
            varlen: false,
            packed_heads: 1,
            longest_first: false,
        }
    }

    /// [`new`](Self::new) with the [`PingPong`](AttentionSchedule::PingPong) schedule (12 warps).
    pub fn ping_pong(dtype: DType, causal: bool) -> AttentionConfig {
        AttentionConfig {
            num_warps: 12,
            schedule: AttentionSchedule::PingPong,
            ..AttentionConfig::new(dtype, causal)
        }
    }

    /// `self` at head dim `head_dim` with the key block its schedule takes (set the schedule
    /// first): 128 at 64 and 128; 64 at 256, or 32 for `Pipelined`. At 256, O's
    /// `[64, 256]` f32 accumulator alone is 128 registers a thread of its warpgroup, so the S
    /// tile shrinks to `[64, 64]` (FlashAttention-3 shrinks it to 80 keys; weft's layouts take
    /// powers of two), and Q (64 KB) with two stages of K and V (32 KB each) fits shared memory,
    /// where 128 keys would take 320 KB; `Pipelined`'s three stages fit with 32 keys (160 KB).
    /// Unmasked ping-pong at 64 takes three consumers ([`with_consumers`](Self::with_consumers)),
    /// faster there at every length; causal keeps two (three are slower at short sequences);
    /// other head dims two.
    pub fn with_head_dim(self, head_dim: u32) -> AttentionConfig {
        let block_n = match (head_dim, self.schedule) {
            (256, AttentionSchedule::Pipelined) => 32,
            (256, _) => 64,
            _ => 128,
        };
        let c = AttentionConfig {
            head_dim,
            block_n,
            ..self
        };
        if c.schedule != AttentionSchedule::PingPong {
            return c;
        }
        c.with_consumers(if head_dim == 64 && !c.causal { 3 } else { 2 })
    }

    /// Ping-pong with `consumers` consumer warpgroups of 64 query rows each: 2 (the default), or
    /// 3 at head dim 64 (FlashAttention-3's 192-row tile there: each K/V block serves half as
    /// many rows again, the three consumers at 160 registers each).
    pub fn with_consumers(self, consumers: u32) -> AttentionConfig {
        AttentionConfig {
            block_m: 64 * consumers,
            num_warps: 4 * (consumers + 1),
            ..self
        }
    }

    /// `self` with `kv_group` query heads per KV head, packing as many of them into a CTA as
    /// its schedule allows (set the schedule first): the largest power of two dividing the
    /// group, at most 8 positions of each head a box. Packing lets short query sequences fill
    /// the tile and reads K and V once for the packed heads.
    pub fn with_kv_group(self, kv_group: u32) -> AttentionConfig {
        let limit = (self.q_rows_per_box() / 8).max(1);
        let divisor = 1u32 << kv_group.max(1).trailing_zeros();
        AttentionConfig {
            kv_group,
            packed_heads: divisor.min(limit),
            ..self
        }
    }

    /// Query rows per consumer warpgroup's share of Q: the whole block, or each consumer's 64
    /// rows (ping-pong loads them as separate boxes).
    pub(super) fn q_rows_per_box(&self) -> u32 {
        match self.schedule {
            AttentionSchedule::PingPong => 64,
            _ => self.block_m,
        }
    }

    /// Query positions a box of Q holds of each of its heads: all its rows, or their share
    /// per packed head.
    pub(super) fn positions_per_box(&self) -> u32 {
        self.q_rows_per_box() / self.packed_heads.max(1)
    }

    /// Query positions a CTA covers (of each of its `packed_heads` heads).
    pub fn positions(&self) -> u32 {
        self.block_m / self.packed_heads.max(1)
    }

    /// The grid for `batch_heads` (batch · query heads) heads of `seq` rows: one CTA per query
    /// block and query head (or pack of heads). A KV group's query heads are consecutive along
    /// the second axis, so CTAs that read the same K and V run next to each other and meet in
    /// L2.
    pub fn grid(&self, seq: u64, batch_heads: u64) -> (u32, u32, u32) {
        (
            seq.div_ceil(u64::from(self.positions())) as u32,
            (batch_heads / u64::from(self.packed_heads.max(1))) as u32,
            1,
        )
    }

    /// The grid of a variable-length batch: one CTA per query block of the longest sequence
    /// (`max_seqlen_q`), query head (or pack of heads) and sequence; CTAs past a shorter
    /// sequence's end exit at once. Query heads are the grid's second axis, so the `kv_group`
    /// heads that share K and V run next to each other and their K/V reads meet in L2.
    pub fn varlen_grid(&self, max_seqlen_q: u64, heads_q: u64, batch: u64) -> (u32, u32, u32) {
        (
            max_seqlen_q.div_ceil(u64::from(self.positions())) as u32,
            (heads_q / u64::from(self.packed_heads.max(1))) as u32,
            batch as u32,
        )
    }

    /// The TMA box of Q and O (`[block_m, 64]`; `[64, 64]` for ping-pong, one per consumer); with packed heads `[packed_heads, positions, 64]`, one position range of
    /// each head.
    pub fn q_box(&self) -> Vec<u32> {
        if self.packed_heads > 1 {
            vec![self.packed_heads, self.positions_per_box(), BOX_INNER]
        } else {
            vec![self.q_rows_per_box(), BOX_INNER]
        }
    }

    /// The shape (outermost first) and row strides (elements) of Q's and O's tensor maps over
    /// `heads` heads of `rows_per_head` rows each (`batch · heads_q` and `seq`, or `heads_q`
    /// and `total_q` for a variable-length batch): `[heads · rows_per_head, D]`, or
    /// `[heads, rows_per_head, D]` with packed heads, whose boxes take one position range of
    /// several heads (and stop at a head's end).
    pub fn q_map_shape(&self, heads: u64, rows_per_head: u64) -> (Vec<u64>, Vec<u64>) {
        let d = u64::from(self.head_dim);
        if self.packed_heads > 1 {
            (vec![heads, rows_per_head, d], vec![rows_per_head * d, d])
        } else {
            (vec![heads * rows_per_head, d], vec![d])
        }
    }

    /// The TMA box of K and V (`[block_n, 64]`).
    pub fn kv_box(&self) -> [u32; 2] {
        [self.block_n, BOX_INNER]
    }

    /// The swizzle of every tensor map, in bytes.
    pub fn swizzle(&self) -> u16 {
        SWIZZLE
    }

    pub(super) fn check(&self) -> Result<()> {
        let bad = |reason: String| CodegenError::arg("attention_kernel", reason);
        if !matches!(self.dtype, DType::F16 | DType::BF16) {
            return Err(bad(format!("dtype {}: f16 or bf16", self.dtype)));
        }
        if !matches!(self.head_dim, 64 | 128 | 256) {
            return Err(bad(format!("head_dim {}: 64, 128 or 256", self.head_dim)));
        }
        let wide = self.schedule == AttentionSchedule::PingPong && self.block_m == 192;
        let warps = match self.schedule {
            AttentionSchedule::PingPong => 4 + self.block_m / 16,
            _ => 8,
        };
        if self.num_warps != warps || !(self.block_m == 128 || wide) {
            let rows = if self.schedule == AttentionSchedule::PingPong {
                "128 or 192 rows over 12 or 16 warps"
            } else {
                "128 rows over 8 warps"
            };
            return Err(bad(format!(
                "block_m {} with {} warps: {rows} for {:?}",
                self.block_m, self.num_warps, self.schedule
            )));
        }
        if wide && self.head_dim != 64 {
            return Err(bad(format!(
                "block_m 192 at head_dim {}: three consumers hold O and S in 160 registers \
                 each, which fits head dim 64 only",
                self.head_dim
            )));
        }
        // D256: a smaller S tile, so that O and S fit the registers and Q with the K/V stages
        // shared memory.
        let block_n = self.with_head_dim(self.head_dim).block_n;
        if self.block_n != block_n {
            let why = if self.head_dim == 256 {
                format!(
                    "{block_n} for {:?} at head_dim 256, so that O and S fit the registers and Q \
                     with the K/V stages shared memory (with_head_dim sets it)",
                    self.schedule
                )
            } else {
                "128".to_owned()
            };
            return Err(bad(format!("block_n {}: {why}", self.block_n)));
        }
        if self.head_dim == 256 && self.varlen && self.schedule == AttentionSchedule::PingPong {
            return Err(bad(
                "PingPong with varlen at head_dim 256: a consumer's 240 registers hold O \
                 (128 of them) and the lengths through the loop, and ptxas spills; Serial \
                 takes it"
                    .into(),
            ));
        }
        if !(1..=256).contains(&self.kv_group) {
            return Err(bad(format!("kv_group {}: 1..=256", self.kv_group)));
        }
        let n = self.packed_heads;
        if !n.is_power_of_two() || !self.kv_group.is_multiple_of(n) {
            return Err(bad(format!(
                "packed_heads {n}: a power of two dividing kv_group {}",
                self.kv_group
            )));
        }
        // Each head's positions in a box are at least one 8-row swizzle atom, so the box is
        // the buffer's rows regrouped.
        if n > 1 && self.positions_per_box() < 8 {
            return Err(bad(format!(
                "packed_heads {n}: at most {} ({} rows a box, 8 positions a head at least)",
                self.q_rows_per_box() / 8,
                self.q_rows_per_box()
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `with_kv_group` packs the largest power of two dividing the group that leaves each head
    /// 8 positions of a box, and the result passes the kernel's own check.
    #[test]
    fn with_kv_group_packs_what_the_schedule_allows() {
        let pp = AttentionConfig::ping_pong(DType::BF16, true);
        let serial = AttentionConfig::new(DType::F16, false);
        for (c, group, packed) in [
            (pp, 1, 1),
            (pp, 8, 8),
            (pp, 6, 2),
            (pp, 7, 1),
            (pp, 32, 8),
            (serial, 32, 16),
            (serial, 12, 4),
        ] {
            let c = c.with_kv_group(group);
            assert_eq!((c.kv_group, c.packed_heads), (group, packed), "{c:?}");
            c.check().unwrap();
            assert_eq!(c.positions() * packed, c.block_m);
        }
        // The grid covers every position of every head: 100 positions of 32 heads in CTAs of
        // 16 positions of 8 heads.
        let c = pp.with_kv_group(8);
        assert_eq!(c.grid(100, 32), (7, 4, 1));
        assert_eq!(c.varlen_grid(100, 32, 3), (7, 4, 3));
        assert_eq!(c.q_box(), vec![8, 8, 64]);
        // Head dim 64 unmasked takes three consumers; causal, or back at 128, two.
        let d64 = AttentionConfig::ping_pong(DType::F16, false).with_head_dim(64);
        assert_eq!((d64.block_m, d64.num_warps, d64.block_n), (192, 16, 128));
        d64.check().unwrap();
        let back = d64.with_head_dim(128);
        assert_eq!((back.block_m, back.num_warps), (128, 12));
        assert_eq!(pp.with_head_dim(64).block_m, 128);
        let bad = d64.with_head_dim(128).with_consumers(3);
        assert!(bad
            .check()
            .unwrap_err()
            .to_string()
            .contains("block_m 192 at head_dim 128"));
        assert_eq!(
            c.q_map_shape(32, 100),
            (vec![32, 100, 128], vec![12800, 128])
        );
    }
}
