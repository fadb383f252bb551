//! Grouped GEMM for mixture-of-experts: `C[rows of e] = A[rows of e] · B[e]ᵀ` for every expert
//! `e`, with B `[experts, N, K]` (each expert's weight K-major, stored as `[experts · N, K]`), in
//! two layouts of the token rows ([`GroupRows`]): contiguous (rows sorted by expert and an offsets
//! array) and masked (a padded block of `m_max` rows per expert and a count array). bf16 (or
//! f16), or fp8 e4m3 with DeepSeek's block scales as in
//! [`gemm_blockscaled_kernel`](super::gemm_blockscaled_kernel).
//!
//! One persistent warp-specialised kernel walks every expert's tiles as one list (a program
//! takes tiles `pid, pid + programs, …`), reading the offsets or counts on the device: no host
//! synchronisation, and an expert with no rows costs nothing. Tiles of an expert's last rows
//! read past them (into the next expert's rows, or the block's padding); those rows are never
//! stored: C is written by masked stores, not TMA, so a tile cannot overwrite its neighbour's rows.
//!
//! Parameters: `a_map` (A `[rows, K]`, box `[block_m, block_k]`), `b_map` (B `[experts · N, K]`,
//! box `[block_n, block_k]`), both 128-byte swizzled; `c: ptr<out>` (`[rows, N]`); `rows, n, k,
//! experts: i32` (N a multiple of 16); then `offsets: ptr<i32>` (contiguous) or `counts: ptr<i32>, m_max: i32`
//! (masked); for fp8, `a_scales: ptr<f32>` (`[rows, ⌈K/128⌉]`) and `b_scales: ptr<f32>`
//! (`[experts · N/128, ⌈K/128⌉]`, N a multiple of 128), or with [`ScaleLoads::Staged`] (masked
//! layout only, `m_max` a multiple of 4) their M- and N-major copies as `a_scales_map`,
//! `b_scales_map` (as the block-scaled kernel takes them, B's with `experts · N/128` rows).
//! Grid: at most one program per SM.

use crate::layout::encoding::{NvidiaMma, Slice};

use super::super::{
    CodegenError, Context, DType, Kernel, KernelBuilder, Result, Target, Value, WarpRole,
};
use super::gemm::reference_output;
use super::gemm_blockscaled::{scale_params, scale_source, RowBlockScales, ScaleLoads};
use super::gemm_config::GemmConfig;
use super::parts::{self, ceil_div, Epilogue, GroupRows, Groups, TileGrid, TmaRing};
use crate::layout::encoding::NvmmaShared;

/// Which token layout a grouped kernel reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupedLayout {
    /// Rows sorted by expert, with `experts + 1` offsets.
    Contiguous,
    /// A block of `m_max` rows per expert, with `experts` counts.
    Masked,
}

/// Casts a tile to `out` and stores its rows that belong to the tile's expert (and columns
/// below N) to `c` (`[rows, n]`, row-major).
struct GroupedStore {
    c: Value,
    groups: Groups,
    layout: NvidiaMma,
    out: DType,
    block: [i32; 2],
}

impl Epilogue for GroupedStore {
    fn store(&self, kb: &mut KernelBuilder<'_>, acc: Value, [om, ob]: [Value; 2]) -> Result<()> {
        let (e, on) = self.groups.expert_of(kb, ob)?;
        let (_, end) = self.groups.span(kb, e)?;
        let n = self.groups.n;
        let tile = kb.cast(acc, self.out)?;
        let rows = kb.arange(0, self.block[0], Slice::new(1, self.layout.clone().into()))?;
        let rows = kb.add(rows, om)?;
        let cols = kb.arange(0, self.block[1], Slice::new(0, self.layout.clone().into()))?;
        let cols = kb.add(cols, on)?;
        let rows = kb.expand_dims(rows, 1)?;
        let cols = kb.expand_dims(cols, 0)?;
        let in_rows = kb.lt(rows, end)?;
        let in_cols = kb.lt(cols, n)?;
        let mask = kb.and(in_rows, in_cols)?;
        let at = kb.mul(rows, n)?;
        let at = kb.add(at, cols)?;
        let ptrs = kb.add(self.c, at)?;
        kb.store(ptrs, tile, Some(mask))
    }
}

impl GemmConfig {
    /// A grouped GEMM's configuration: bf16 128 × 256 tiles (fp8: 128 × 128, for the block
    /// scales), B K-major, warp-specialised and persistent.
    pub fn grouped(dtype: DType) -> GemmConfig {
        if matches!(dtype, DType::F8E4M3 | DType::F8E5M2) {
            return GemmConfig {
                dtype,
                ..GemmConfig::block_scaled()
            };
        }
        GemmConfig {
            b_transposed: true,
            stages: 4,
            persistent: true,
            warp_specialized: true,
            ..GemmConfig::new(dtype)
        }
    }
}

/// Builds the grouped GEMM of `c` (warp-specialised, B as `[N, K]`; fp8 with block scales and
/// `block_n` 64 or 128) for `target` (sm_90a) over `layout`. See the module docs.
pub fn gemm_grouped_kernel(
    ctx: &Context,
    target: Target,
    c: GemmConfig,
    layout: GroupedLayout,
) -> Result<Kernel<'_>> {
    gemm_grouped_kernel_with(ctx, target, c, layout, ScaleLoads::default())
}

/// [`gemm_grouped_kernel`] with fp8's block scales loaded when `loads` says (as
/// [`gemm_blockscaled_kernel_with`](super::gemm_blockscaled_kernel_with); bf16 ignores it).
pub fn gemm_grouped_kernel_with(
    ctx: &Context,
    target: Target,
    c: GemmConfig,
    layout: GroupedLayout,
    loads: ScaleLoads,
) -> Result<Kernel<'_>> {
    c.check()?;
    c.no_clusters("gemm_grouped_kernel")?;
    let fp8 = matches!(c.dtype, DType::F8E4M3 | DType::F8E5M2);
    let bad = |reason: String| Err(CodegenError::arg("gemm_grouped_kernel", reason));
    if !c.warp_specialized || !c.b_transposed {
        return bad(
            "a warp-specialised schedule with B as [N, K] (warp_specialized, b_transposed)".into(),
        );
    }
    let staged = fp8 && loads == ScaleLoads::Staged;
    if staged && layout == GroupedLayout::Contiguous {
        // A's scale box starts at the tile's first row, its innermost coordinate: TMA copies a
        // box only from a 16-byte aligned start, and an expert's rows start anywhere.
        return bad(
            "ScaleLoads::Staged with the contiguous layout: an expert's first row is A's scale \
             box's innermost coordinate, which TMA needs 16-byte aligned (a multiple of 4 rows); \
             use the masked layout (m_max a multiple of 4) or global scale loads"
                .into(),
        );
    }
    if fp8 && !matches!(c.block_n, 64 | 128) {
        return bad(format!(
            "fp8 block_n {}: 64 or 128 (one B scale a tile and K block)",
            c.block_n
        ));
    }
    let mut kb = KernelBuilder::new(ctx, target, "gemm_grouped", c.num_warps + 4)?;
    let sw = c.swizzle();
    let a_map = kb.arg_tensor_map("a_map", c.dtype, &c.a_box(), sw)?;
    let b_map = kb.arg_tensor_map("b_map", c.dtype, &c.b_box(), sw)?;
    let c_ptr = kb.arg_ptr("c", c.out_dtype, 16)?;
    let rows = kb.arg_i32("rows", 1)?;
    // N a multiple of 16 (checked at launch): each thread's pair of columns stores as one vector.
    let n = kb.arg_i32("n", 16)?;
    let k = kb.arg_i32("k", 1)?;
    let experts = kb.arg_i32("experts", 1)?;
    let group_rows = match layout {
        GroupedLayout::Contiguous => GroupRows::Contiguous {
            offsets: kb.arg_ptr("offsets", DType::I32, 4)?,
        },
        GroupedLayout::Masked => GroupRows::Masked {
            counts: kb.arg_ptr("counts", DType::I32, 4)?,
            // Staged: each expert's first row starts A's scale box, 16-byte aligned (checked
            // at launch).
            m_max: kb.arg_i32("m_max", if staged { 4 } else { 1 })?,
        },
    };
    let scales = if fp8 {
        Some(scale_params(&mut kb, &c, loads)?)
    } else {
        None
    };
    let roles = if c.num_warps == 8 {
        kb.warp_roles(&[
            WarpRole::new(4).max_regs(40),
            WarpRole::new(c.num_warps).max_regs(232),
        ])?
    } else {
        kb.warp_roles(&[WarpRole::new(4), WarpRole::new(c.num_warps)])?
    };
    let pid = kb.program_id(0)?;
    let programs = kb.num_programs(0)?;
    let groups = Groups {
        rows: group_rows,
        experts,
        n,
    };
    let grid = TileGrid::grouped(&mut kb, groups, [c.block_m, c.block_n], c.group_m)?;
    let k_blocks = ceil_div(&mut kb, k, c.block_k as i32)?;
    let mine = grid.tiles_of(&mut kb, pid, programs)?;
    let swz = NvmmaShared::new(u32::from(sw), c.dtype.bits(), 2, false);
    let (bm, bn, bk) = (
        u64::from(c.block_m),
        u64::from(c.block_n),
        u64::from(c.block_k),
    );
    let stages = u64::from(c.stages);
    let a_ring = kb.alloc_shared_buffers(c.dtype, stages, &[bm, bk], &swz)?;
    let b_ring = kb.alloc_shared_buffers(c.dtype, stages, &[bn, bk], &swz)?;
    let staged = match scales {
        Some(params) => Some(scale_source(&mut kb, &c, params, loads)?),
        None => None,
    };
    let scale_bytes = staged.as_ref().map_or(0, |s| s.2);
    let consumer_threads = c.num_warps * kb.threads_per_warp();
    let ring = TmaRing::new(
        &mut kb,
        c.stages,
        c.stage_bytes() + scale_bytes,
        Some(consumer_threads),
    )?;
    let mma = NvidiaMma::hopper(&[c.num_warps, 1], c.block_n, 16);
    let store = GroupedStore {
        c: c_ptr,
        groups,
        layout: mma.clone(),
        out: c.out_dtype,
        block: [c.block_m as i32, c.block_n as i32],
    };
    let role_pair = [roles[0], roles[1]];
    if let Some((source, staged_scales, _)) = staged {
        // The scaled loop peels a K block: at least one (zero-filled, zero scales) a tile.
        let k_tiles = kb.max(k_blocks, 1)?;
        let mut lp = c.mainloop([a_map, b_map, a_ring, b_ring], ring, grid, k_tiles);
        lp.scales = staged_scales;
        let s = RowBlockScales {
            source,
            m: rows,
            k_blocks,
            layout: mma,
            block_m: c.block_m as i32,
            loads,
        };
        parts::gemm_mainloop_ws_scaled(&mut kb, &lp, role_pair, [pid, programs, mine], &s, &store)?;
    } else {
        let lp = c.mainloop([a_map, b_map, a_ring, b_ring], ring, grid, k_blocks);
        parts::gemm_mainloop_ws(&mut kb, &lp, role_pair, [pid, programs, mine], None, &store)?;
    }
    kb.finish()
}

/// The grouped GEMM on the host in f64 from f32 copies: `C[r] = A[r] · B[e]ᵀ` for each expert
/// `e` and each of its rows `r` given by `spans` (first row, row past the last), with B
/// `[experts, n, k]`; rows of no expert stay zero. Fails when a slice is shorter than the
/// shapes say or a span lies outside A.
pub fn gemm_grouped_reference(
    a: &[f32],
    b: &[f32],
    spans: &[(usize, usize)],
    [rows, n, k]: [usize; 3],
) -> Result<Vec<f32>> {
    let short = |what: &str| {
        Err(CodegenError::arg(
            "gemm_grouped_reference",
            format!(
                "{what} is shorter than {rows} rows × {n} × {k} and {} experts need",
                spans.len()
            ),
        ))
    };
    if rows.checked_mul(k).is_none_or(|len| a.len() < len) {
        return short("A");
    }
    let b_len = n.checked_mul(k).and_then(|nk| nk.checked_mul(spans.len()));
    if b_len.is_none_or(|len| b.len() < len) {
        return short("B");
    }
    let mut c = reference_output("gemm_grouped_reference", rows, n)?;
    for (e, &(first, end)) in spans.iter().enumerate() {
        if first > end || end > rows {
            return short("a span");
        }
        let be = &b[e * n * k..(e + 1) * n * k];
        for r in first..end {
            let ar = &a[r * k..(r + 1) * k];
            for j in 0..n {
                let bj = &be[j * k..(j + 1) * k];
                let s: f64 = ar
                    .iter()
                    .zip(bj)
                    .map(|(&x, &y)| f64::from(x) * f64::from(y))
                    .sum();
                c[r * n + j] = s as f32;
            }
        }
    }
    Ok(c)
}
