//! Ready-made kernels and layout helpers, shared by the examples, the tests, the compile-time
//! benchmark and the GPU benchmark.
//!
//! Each `*_kernel` function builds one kernel for a configuration and returns it as a verified
//! [`Kernel`], ready to emit. The `examples/` programs are thin commented wrappers around these,
//! the snapshot tests and the compile benchmark use them, and a GPU benchmark can build the same
//! kernels for its sizes.
//!
//! Layouts come from [`crate::layout::encoding`]: [`tile_layout`] is a `Blocked` encoding, its
//! rows and columns are `Slice`s of it, and the builder lays each out for its tile's shape.

mod attention;
mod attention_bwd;
mod attention_bwd_config;
mod attention_bwd_rows;
mod attention_bwd_wgmma;
mod attention_config;
mod attention_decode;
mod attention_fp8;
mod attention_fp8_config;
mod attention_varlen;
mod attention_ws;
mod catalogue;
mod col_sum;
mod cross_entropy;
mod cumsum;
mod decode_config;
mod gemm;
mod gemm_blockscaled;
mod gemm_config;
mod gemm_grouped;
mod gemm_skinny;
mod gemm_sm80;
mod gemm_w4;
mod gemm_ws;
mod layernorm;
mod layouts;
mod norm_backward;
pub mod parts;
mod rmsnorm;
mod rope;
mod row_config;
mod row_stages;
mod row_sum;
mod row_tile;
#[cfg(feature = "autotune")]
mod row_tuning;
mod smem_round_trip;
mod softmax;
mod softmax_backward;
mod softmax_split;
mod split_kv_combine;
mod transpose_smem;

pub use attention::{attention_kernel, attention_reference};
pub use attention_bwd::{
    attention_bwd_delta_kernel, attention_bwd_dkdv_kernel, attention_bwd_dq_kernel,
    attention_bwd_reference, delta_grid,
};
pub use attention_bwd_config::{AttentionBwdConfig, BwdEngine};
pub use attention_config::{AttentionConfig, AttentionSchedule};
pub use attention_decode::{attention_decode_kernel, decode_reference, PagedKv};
pub use attention_fp8::attention_fp8_kernel;
pub use attention_fp8_config::Fp8AttentionConfig;
pub use attention_varlen::{attention_varlen_reference, VarlenShape};
pub use catalogue::{example_kernel, EXAMPLE_KERNELS};
pub use col_sum::{col_sum_kernel, ColSumConfig};
pub use cross_entropy::{
    cross_entropy_bwd_grid, cross_entropy_bwd_kernel, cross_entropy_bwd_reference,
    cross_entropy_check_shape, cross_entropy_fwd_kernel, cross_entropy_reference,
};
pub use cumsum::{
    cumsum_grid, cumsum_kernel, cumsum_kernel_for_shape, cumsum_reference, CUMSUM_TILES,
};
pub use decode_config::{DecodeBuffers, DecodeConfig, MERGE_MAX_ROWS};
pub use gemm::{gemm_kernel, gemm_kernel_with, gemm_reference};
pub use gemm_blockscaled::{
    gemm_blockscaled_error_bound, gemm_blockscaled_kernel, gemm_blockscaled_kernel_with,
    gemm_blockscaled_reference, mn_major_stride, scales_mn_major, ScaleLoads, B_SCALES_SPREAD,
    FP8_SUM_LOSS, SCALE_BLOCK,
};
pub use gemm_config::{alloc_buffers, declare_params, GemmConfig};
pub use gemm_grouped::{
    gemm_grouped_kernel, gemm_grouped_kernel_with, gemm_grouped_reference, GroupedLayout,
};
pub use gemm_skinny::{gemm_skinny_kernel, gemm_skinny_reduce_kernel, SkinnyConfig};
pub use gemm_sm80::{
    gemm_sm80_kernel, gemm_sm80_kernel_for_shape, GemmSm80Config, GEMM_SM80_CONFIGS,
};
pub use gemm_w4::{gemm_w4_kernel, gemm_w4_reference, k_in_memory, W4Config, W4_GROUP};
pub use layernorm::{
    layernorm_kernel, layernorm_reference, layernorm_rows_kernel, LayernormConfig,
    LAYERNORM_MAX_PER_THREAD,
};
use layouts::block_offsets;
pub use layouts::{blocked_1d, tile_coords, tile_layout};
pub use norm_backward::{
    norm_bwd_grid, norm_bwd_kernel, norm_bwd_reference, norm_bwd_shared_bytes,
    norm_bwd_staged_kernel, Norm,
};
pub use parts::FINISH_MAX_TOKENS;
pub use rmsnorm::{
    fp8_row_scales_reference, rmsnorm_kernel, rmsnorm_looped_kernel, rmsnorm_reference,
    rmsnorm_staged_kernel, rmsnorm_staged_shared_bytes, RmsNormOptions, RmsNormOutput,
    FP8_E4M3_MAX,
};
pub use rope::{rope_kernel, rope_reference, RopeStyle};
pub use row_config::{RowConfig, ROW_MAX_PER_THREAD};
pub use row_sum::{row_sum_grid, row_sum_kernel, row_sum_kernel_for_shape, ROW_SUM_TILES};
#[cfg(feature = "autotune")]
pub use row_tuning::RowKernel;
pub use smem_round_trip::{smem_read_layout, smem_round_trip_kernel};
pub use softmax::{
    softmax_kernel, softmax_reference, softmax_rows_kernel, SoftmaxConfig, SOFTMAX_MAX_PER_THREAD,
};
pub use softmax_backward::{softmax_bwd_kernel, softmax_bwd_reference};
pub use softmax_split::{
    softmax_split_apply_kernel, softmax_split_grid, softmax_split_stats_kernel,
};
pub use split_kv_combine::{split_kv_combine_kernel, CombineConfig};
pub use transpose_smem::{
    size_divisibility, transpose_load_layout, transpose_smem_kernel,
    transpose_smem_kernel_for_shape, transpose_staging_layouts, transpose_store_layout,
    TransposeConfig, TRANSPOSE_CONFIGS,
};

use crate::layout::encoding::{Blocked, Slice};

use super::{CodegenError, Context, DType, Kernel, KernelBuilder, Result, Target, Value};

/// `y[i] = x[i]` for `i < n`: each CTA copies `block` f32, each thread `per_thread` consecutive
/// ones at a time. With `per_thread = 4` every access is one 16-byte vector
/// (`ld.global.v4` / `st.global.v4`). Parameters: `x: ptr<f32>, y: ptr<f32>, n: i32`; `x`, `y`
/// 16-byte aligned and `n` a multiple of 16 (the masked tail still vectorises). Grid:
/// `n.div_ceil(block)` CTAs.
pub fn memcpy_kernel(
    ctx: &Context,
    target: Target,
    block: u32,
    per_thread: u32,
    num_warps: u32,
) -> Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, target, "memcpy", num_warps)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let n = kb.arg_i32("n", 16)?;
    let layout = blocked_1d(target, per_thread, num_warps, block)?;
    let (offs, mask) = block_offsets(&mut kb, &layout, block, n)?;
    let src = kb.add(x, offs)?;
    let v = kb.load(src, Some(mask), None)?;
    let dst = kb.add(y, offs)?;
    kb.store(dst, v, Some(mask))?;
    kb.finish()
}

/// `z[i] = x[i] + y[i]` for `i < n` (f32), laid out like [`memcpy_kernel`]. Parameters:
/// `x, y, z: ptr<f32>, n: i32`.
pub fn add_kernel(
    ctx: &Context,
    target: Target,
    block: u32,
    per_thread: u32,
    num_warps: u32,
) -> Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, target, "add", num_warps)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let z = kb.arg_ptr("z", DType::F32, 16)?;
    let n = kb.arg_i32("n", 16)?;
    let layout = blocked_1d(target, per_thread, num_warps, block)?;
    let (offs, mask) = block_offsets(&mut kb, &layout, block, n)?;
    let px = kb.add(x, offs)?;
    let py = kb.add(y, offs)?;
    let a = kb.load(px, Some(mask), None)?;
    let b = kb.load(py, Some(mask), None)?;
    let s = kb.add(a, b)?;
    let pz = kb.add(z, offs)?;
    kb.store(pz, s, Some(mask))?;
    kb.finish()
}

/// Tile sizes of [`copy_2d_kernel`] and [`transpose_kernel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tile2d {
    /// Rows per CTA.
    pub rows: u32,
    /// Columns per CTA.
    pub cols: u32,
    /// Consecutive columns per thread (4 f32 = one 16-byte vector).
    pub per_thread: u32,
    /// Warps per CTA.
    pub num_warps: u32,
}

/// The global row and column index of every element of this CTA's `t.rows × t.cols` tile (tile
/// `(pid_r, pid_c)`), both laid out like the tile: `rows[:, None]` and `cols[None, :]` built in
/// the slices of the 2-D layout and broadcast to it.
fn tile_indices(
    kb: &mut KernelBuilder<'_>,
    layout: &Blocked,
    t: Tile2d,
    pid_r: Value,
    pid_c: Value,
) -> Result<(Value, Value)> {
    let r0 = kb.mul(pid_r, t.rows as i32)?;
    let c0 = kb.mul(pid_c, t.cols as i32)?;
    let rows = kb.arange(0, t.rows as i32, Slice::new(1, layout.clone().into()))?;
    let rows = kb.add(rows, r0)?;
    let cols = kb.arange(0, t.cols as i32, Slice::new(0, layout.clone().into()))?;
    let cols = kb.add(cols, c0)?;
    let shape = [t.rows as u64, t.cols as u64];
    let rows2 = kb.expand_dims(rows, 1)?;
    let rows2 = kb.broadcast_to(rows2, (layout, shape))?;
    let cols2 = kb.expand_dims(cols, 0)?;
    let cols2 = kb.broadcast_to(cols2, (layout, shape))?;
    Ok((rows2, cols2))
}

/// `y = x[::2, :]`: `x` is an `m × n` f32 matrix with row stride `stride_x` (elements), `y` the
/// contiguous `(m/2) × n` result. Parameters: `x, y: ptr<f32>, m_out: i32, n: i32, stride_x: i32`
/// (`m_out = m / 2`; `n` and `stride_x` multiples of 16). Grid: `(n / cols, m_out / rows)`,
/// rounded up: column tiles along `x`, so CTAs launched together cover whole rows (consecutive
/// DRAM pages). Walking down the rows first measured 2829 GB/s on an H100 for `x[::2]` of
/// 16K × 32K, against 2966 GB/s for a row-major hand-written copy in the same run.
pub fn copy_2d_kernel(ctx: &Context, target: Target, t: Tile2d) -> Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, target, "copy_2d", t.num_warps)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let m_out = kb.arg_i32("m_out", 1)?;
    let n = kb.arg_i32("n", 16)?;
    let stride_x = kb.arg_i32("stride_x", 16)?;
    let layout = tile_layout(target, t)?;
    let pid_c = kb.program_id(0)?;
    let pid_r = kb.program_id(1)?;
    let (rows2, cols2) = tile_indices(&mut kb, &layout, t, pid_r, pid_c)?;
    let mask_r = kb.lt(rows2, m_out)?;
    let mask_c = kb.lt(cols2, n)?;
    let mask = kb.and(mask_r, mask_c)?;
    // x[2 * r, c] = x + 2 * r * stride_x + c
    let src_row = kb.mul(rows2, 2)?;
    let src_row = kb.mul(src_row, stride_x)?;
    let src_off = kb.add(src_row, cols2)?;
    let src = kb.add(x, src_off)?;
    let v = kb.load(src, Some(mask), None)?;
    // y[r, c] = y + r * n + c
    let dst_row = kb.mul(rows2, n)?;
    let dst_off = kb.add(dst_row, cols2)?;
    let dst = kb.add(y, dst_off)?;
    kb.store(dst, v, Some(mask))?;
    kb.finish()
}

/// `y = xᵀ` for an `n × n` f32 matrix, read and written in one register layout (the store is
/// not coalesced: a layout conversion through shared memory would fix that). Parameters:
/// `x, y: ptr<f32>, n: i32` (`n` a multiple of the tile sizes). Grid: `(n / rows, n / cols)`.
/// Used for compile-time measurements of a transpose-sized kernel.
pub fn transpose_kernel(ctx: &Context, target: Target, t: Tile2d) -> Result<Kernel<'_>> {
    let mut kb = KernelBuilder::new(ctx, target, "transpose", t.num_warps)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let n = kb.arg_i32("n", 16)?;
    let layout = tile_layout(target, t)?;
    let pid_r = kb.program_id(0)?;
    let pid_c = kb.program_id(1)?;
    let (rows2, cols2) = tile_indices(&mut kb, &layout, t, pid_r, pid_c)?;
    let src_row = kb.mul(rows2, n)?;
    let src_off = kb.add(src_row, cols2)?;
    let src = kb.add(x, src_off)?;
    let v = kb.load(src, None, None)?;
    let dst_col = kb.mul(cols2, n)?;
    let dst_off = kb.add(dst_col, rows2)?;
    let dst = kb.add(y, dst_off)?;
    kb.store(dst, v, None)?;
    kb.finish()
}

/// Fails unless `x` is a power of two in `lo..=hi`.
pub(crate) fn check_pow2(op: &'static str, what: &str, x: u64, lo: u64, hi: u64) -> Result<()> {
    if x.is_power_of_two() && (lo..=hi).contains(&x) {
        Ok(())
    } else {
        Err(CodegenError::arg(
            op,
            format!("{what} = {x}: must be a power of two in {lo}..={hi}"),
        ))
    }
}
