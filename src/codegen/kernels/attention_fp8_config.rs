//! The fp8 forward attention's shapes ([`Fp8AttentionConfig`]: boxes, swizzles, grid) and its
//! kernel parameters ([`Fp8Params`]), shared by the serial kernel and the ping-pong schedule.

use super::super::{DType, KernelBuilder, Result, Value};
use super::attention_config::AttentionSchedule;
use super::parts::V_CHUNK;

/// Rows of Q and keys of K per block.
pub(super) const BLOCK: u32 = 128;

/// Shapes of [`attention_fp8_kernel`](super::attention_fp8_kernel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fp8AttentionConfig {
    /// Head dimension (64 or 128).
    pub head_dim: u32,
    /// Only keys at or before the query.
    pub causal: bool,
    /// `PingPong` (12 warps) or `Serial` (8 warps); `Pipelined` is not built for fp8.
    pub schedule: AttentionSchedule,
    /// V given as `Vᵀ` `[batch · heads · D, seq]` (required by `Serial`; `PingPong` otherwise
    /// takes V's rows and transposes them itself).
    pub v_transposed: bool,
}

/// The parameters of the fp8 forward, the same for both schedules (see the module docs).
#[derive(Debug, Clone, Copy)]
pub(super) struct Fp8Params {
    pub q_map: Value,
    pub k_map: Value,
    /// V's rows, or `Vᵀ` (`v_rows` false).
    pub v_map: Value,
    /// O `[batch · heads · seq, D]` bf16.
    pub o: Value,
    pub lse: Value,
    pub seq: Value,
    /// The softmax scale times log2(e) times Q's and K's scales.
    pub qk_scale: Value,
    /// V's scale.
    pub v_scale: Value,
    /// `v_map` holds V's rows `[seq, D]` (transposed in the kernel), not `Vᵀ`.
    pub v_rows: bool,
}

impl Fp8Params {
    pub(super) fn declare(kb: &mut KernelBuilder<'_>, c: &Fp8AttentionConfig) -> Result<Fp8Params> {
        let f8 = DType::F8E4M3;
        // `Vᵀ`'s rows are `seq` bytes, a multiple of 16 for TMA.
        let (v_name, seq_multiple) = if c.v_transposed {
            ("vt_map", 16)
        } else {
            ("v_map", 1)
        };
        Ok(Fp8Params {
            q_map: kb.arg_tensor_map("q_map", f8, &c.q_box(), c.qk_swizzle())?,
            k_map: kb.arg_tensor_map("k_map", f8, &c.kv_box(), c.qk_swizzle())?,
            v_map: kb.arg_tensor_map(v_name, f8, &c.v_box(), c.v_swizzle())?,
            o: kb.arg_ptr("o", DType::BF16, 16)?,
            lse: kb.arg_ptr("lse", DType::F32, 4)?,
            seq: kb.arg_i32("seq", seq_multiple)?,
            qk_scale: kb.arg_f32("qk_scale")?,
            v_scale: kb.arg_f32("v_scale")?,
            v_rows: !c.v_transposed,
        })
    }
}

impl Fp8AttentionConfig {
    /// The fast schedule (`PingPong`) for `head_dim` and `causal`, V given as rows.
    pub fn new(head_dim: u32, causal: bool) -> Fp8AttentionConfig {
        Fp8AttentionConfig {
            head_dim,
            causal,
            schedule: AttentionSchedule::PingPong,
            v_transposed: false,
        }
    }

    /// The TMA box of Q: `[128, D]` (`Serial`), `[64, D]` (`PingPong`, one per consumer).
    pub fn q_box(&self) -> [u32; 2] {
        match self.schedule {
            AttentionSchedule::PingPong => [BLOCK / 2, self.head_dim],
            _ => [BLOCK, self.head_dim],
        }
    }

    /// The TMA box of K: `[128, D]`.
    pub fn kv_box(&self) -> [u32; 2] {
        [BLOCK, self.head_dim]
    }

    /// The TMA box of `Vᵀ`: `[D, 128]`.
    pub fn vt_box(&self) -> [u32; 2] {
        [self.head_dim, BLOCK]
    }

    /// The swizzle of the Q and K maps (one D-wide row of bytes: 64 or 128).
    pub fn qk_swizzle(&self) -> u16 {
        self.head_dim as u16
    }

    /// The swizzle of the `Vᵀ` map (128 keys of one byte).
    pub fn vt_swizzle(&self) -> u16 {
        128
    }

    /// The TMA box of the V map: [`vt_box`](Self::vt_box) for `Vᵀ`, else `[128, 32]` (V's rows
    /// land in 32-column boxes, the chunks the kernel transposes).
    pub fn v_box(&self) -> [u32; 2] {
        if self.v_transposed {
            self.vt_box()
        } else {
            [BLOCK, V_CHUNK]
        }
    }

    /// The swizzle of the V map: [`vt_swizzle`](Self::vt_swizzle) for `Vᵀ`, else 32 (one box
    /// row).
    pub fn v_swizzle(&self) -> u16 {
        if self.v_transposed {
            self.vt_swizzle()
        } else {
            V_CHUNK as u16
        }
    }

    /// The grid for `batch_heads` heads of `seq` rows.
    pub fn grid(&self, seq: u64, batch_heads: u64) -> (u32, u32, u32) {
        (seq.div_ceil(u64::from(BLOCK)) as u32, batch_heads as u32, 1)
    }
}
