//! The ready-made kernels by name, each at the configuration its example runs first: what
//! `weft report NAME` prints the report of, and what `examples/report_check.rs` can profile.

use crate::codegen::CodegenError;
use crate::layout::encoding::SwizzledShared;

use super::super::{DType, Kernel, Result, Target};
use super::{Context, Tile2d};

/// The names [`example_kernel`] builds.
pub const EXAMPLE_KERNELS: [&str; 19] = [
    "memcpy",
    "add",
    "copy_2d",
    "transpose",
    "transpose_smem",
    "row_sum",
    "softmax",
    "layernorm",
    "cumsum",
    "smem_round_trip",
    "smem_round_trip_swizzled",
    "gemm",
    "gemm_ws",
    "gemm_sm80",
    "attention",
    "attention_pp",
    "rmsnorm",
    "rmsnorm_bwd",
    "softmax_bwd",
];

/// The 32 × 128 tile (4 f32 per thread, 4 warps) of the 2-D copies and of the round trips.
const TILE: Tile2d = Tile2d {
    rows: 32,
    cols: 128,
    per_thread: 4,
    num_warps: 4,
};

/// Ready-made kernel `name` (one of [`EXAMPLE_KERNELS`]) for `target`, at its example's first
/// configuration: memcpy and add of 2048 / 1024 elements per CTA; the 2-D copy and the plain
/// transpose on 32 × 128 and 64 × 64 tiles; `transpose_smem` with `TRANSPOSE_CONFIGS[0]`;
/// `row_sum` and `cumsum` with their first tiles; softmax and layernorm for rows of 16384 (1 row
/// per CTA, 4 per thread, 16 warps); `smem_round_trip` through an unswizzled buffer and
/// `smem_round_trip_swizzled` through a 4-element swizzle over 8 rows; the Hopper GEMMs and
/// attention (sm_90a) at their defaults (f16; the ping-pong schedule for `attention_pp`); the
/// sm_80 GEMM with `GEMM_SM80_CONFIGS[0]` (f16); RMSNorm forward and backward and softmax backward
/// at their defaults (`RowConfig::for_n`) for f16 rows of 16384.
pub fn example_kernel<'c>(ctx: &'c Context, name: &str, target: Target) -> Result<Kernel<'c>> {
    match name {
        "memcpy" => super::memcpy_kernel(ctx, target, 2048, 4, 4),
        "add" => super::add_kernel(ctx, target, 1024, 4, 4),
        "copy_2d" => super::copy_2d_kernel(ctx, target, TILE),
        "transpose" => super::transpose_kernel(
            ctx,
            target,
            Tile2d {
                rows: 64,
                cols: 64,
                ..TILE
            },
        ),
        "transpose_smem" => super::transpose_smem_kernel(ctx, target, super::TRANSPOSE_CONFIGS[0]),
        "row_sum" => super::row_sum_kernel(ctx, target, super::ROW_SUM_TILES[0]),
        "cumsum" => super::cumsum_kernel(ctx, target, super::CUMSUM_TILES[0]),
        "softmax" => {
            super::softmax_kernel(ctx, target, super::SoftmaxConfig::for_n(16384, 1, 4, 16))
        }
        "layernorm" => {
            super::layernorm_kernel(ctx, target, super::LayernormConfig::for_n(16384, 1, 4, 16))
        }
        "smem_round_trip" => {
            super::smem_round_trip_kernel(ctx, target, TILE, SwizzledShared::new(1, 1, 1, &[1, 0]))
        }
        "smem_round_trip_swizzled" => {
            super::smem_round_trip_kernel(ctx, target, TILE, SwizzledShared::new(4, 1, 8, &[1, 0]))
        }
        "gemm" => super::gemm_kernel(ctx, target, super::GemmConfig::new(DType::F16)),
        "gemm_ws" => {
            let mut c = super::GemmConfig::new(DType::F16);
            c.warp_specialized = true;
            super::gemm_kernel(ctx, target, c)
        }
        "gemm_sm80" => {
            super::gemm_sm80_kernel(ctx, target, super::GEMM_SM80_CONFIGS[0], DType::F16)
        }
        "attention" => {
            super::attention_kernel(ctx, target, super::AttentionConfig::new(DType::F16, false))
        }
        "attention_pp" => super::attention_kernel(
            ctx,
            target,
            super::AttentionConfig::ping_pong(DType::F16, false),
        ),
        "rmsnorm" => super::rmsnorm_kernel(
            ctx,
            target,
            super::RowConfig::for_n(16384, DType::F16),
            super::RmsNormOptions::PLAIN,
        ),
        "rmsnorm_bwd" => super::norm_bwd_kernel(
            ctx,
            target,
            super::RowConfig::for_n(16384, DType::F16),
            super::Norm::Rms,
        ),
        "softmax_bwd" => {
            super::softmax_bwd_kernel(ctx, target, super::RowConfig::for_n(16384, DType::F16))
        }
        _ => Err(CodegenError::arg(
            "example_kernel",
            format!(
                "unknown kernel `{}`: one of {}",
                crate::layout::text::excerpt(name),
                EXAMPLE_KERNELS.join(", ")
            ),
        )),
    }
}
