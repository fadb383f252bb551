//! fp8 GEMM with fine-grained block scales, as DeepSeek-V3 quantises: `C = (sa ⊙ A) · (sb ⊙ B)ᵀ`
//! with A e4m3 `[M, K]` scaled per row and per 128 columns of K (`sa`, f32 `[M, ⌈K/128⌉]`), B e4m3
//! `[N, K]` scaled per 128 × 128 block (`sb`, f32 `[⌈N/128⌉, ⌈K/128⌉]`), C bf16 `[M, N]`.
//!
//! A scale changes every 128 of K, so each K block's product must be scaled on its own before it
//! is summed: the K block's wgmma writes a fresh f32 partial, and the previous block's partial is
//! multiplied by `sa[row, kb] · sb[n / 128, kb]` and added into the main accumulator while this
//! block's wgmma runs ([`parts::gemm_mainloop_ws_scaled`]). The schedule is the warp-specialised
//! persistent one of [`gemm_kernel`](super::gemm_kernel): a producer warpgroup loads A and B by
//! TMA into the ring, two consumer warpgroups compute; the scales are read from global memory (L2)
//! by the consumers right after each wgmma is issued, or ([`ScaleLoads::Staged`], as DeepGEMM
//! does) copied by the producer's TMA into each stage next to A and B and read from shared memory.
//!
//! Parameters: `a_map`, `b_map`, `c_map` (as [`gemm_kernel`](super::gemm_kernel) with B `[N, K]`),
//! `m, n, k: i32`, then `a_scales: ptr<f32>`, `b_scales: ptr<f32>`; staged, `a_scales_map`,
//! `b_scales_map` instead (tensor maps of the scales made M- and N-major by [`scales_mn_major`],
//! boxes [`GemmConfig::a_scales_box`] and [`GemmConfig::b_scales_box`], no swizzle). Grid:
//! [`GemmConfig::grid_persistent`] (or [`GemmConfig::grid`]: one tile per program).

use crate::layout::encoding::{Blocked, NvidiaMma, NvmmaShared, Slice};

use super::super::{
    CodegenError, Context, DType, Kernel, KernelBuilder, ReduceOp, Result, Target, Value, WarpRole,
};
use super::gemm::reference_output;
use super::gemm_config::{alloc_buffers, declare_params, GemmConfig};
use super::parts::{self, BlockScale, StagedScales};

/// Columns of K (and rows of B) one scale covers.
pub const SCALE_BLOCK: usize = 128;

impl GemmConfig {
    /// The block-scaled fp8 GEMM's configuration: e4m3 in, bf16 out, 128 × 128 tiles (one B
    /// scale per tile and K block), 5 stages, two consumer warpgroups, warp-specialised and
    /// persistent.
    pub fn block_scaled() -> GemmConfig {
        GemmConfig {
            block_n: 128,
            stages: 5,
            persistent: true,
            warp_specialized: true,
            ..GemmConfig::new(DType::F8E4M3)
        }
    }
}

impl GemmConfig {
    /// [`block_scaled`](Self::block_scaled) fitted to an `m × n` output on `sms` SMs: 64-row
    /// tiles over one consumer warpgroup when M ≤ 64 (a 128-row tile would be half padding), and
    /// 64-column tiles when 128-column ones leave SMs without a tile.
    pub fn block_scaled_for(m: u64, n: u64, sms: u32) -> GemmConfig {
        let mut c = GemmConfig::block_scaled();
        if m <= 64 {
            c.block_m = 64;
            c.num_warps = 4;
        }
        if c.grid(m, n).0 < sms {
            c.block_n = 64;
        }
        c
    }
}

/// When the block-scaled main loop loads a K block's scales (`sa[rows, kt]`, `sb[n / 128, kt]`)
/// from global memory.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScaleLoads {
    /// Right after the block's own wgmma is issued (as shipped). ptxas hoists the scales'
    /// product above the block's last wgmma, so that wgmma waits for these loads from L2.
    #[default]
    WithTheBlock,
    /// A block ahead (block `kt + 1`'s after block `kt`'s wgmma): whatever ptxas hoists waits
    /// only for loads issued a whole block earlier. Two more registers a thread.
    OneBlockAhead,
    /// By the producer's TMA, into each ring stage beside A's and B's tiles (counted in the
    /// stage's expected bytes): the block's `[block_m]` column of A's scales from M-major scales
    /// (one 16-byte aligned row a K block, [`scales_mn_major`]) and B's scale from N-major ones
    /// spread [`B_SCALES_SPREAD`] apart (a TMA box starts 16-byte aligned);
    /// each consumer thread reads its rows' scales from the stage (`ld.shared`) after the stage's
    /// full barrier. The kernel then takes the scales as two tensor maps, not pointers.
    Staged,
}

/// The width of B's scale box when staged ([`GemmConfig::b_scales_box`]): 32 f32, 128 bytes, so
/// that every stage's copy lands 128-byte aligned; the tile's scale is its first element.
const B_SCALES_BOX: u32 = 32;

impl GemmConfig {
    /// The TMA box of A's M-major scales when staged: `[1, block_m]` (one K block's column of
    /// a row tile).
    pub fn a_scales_box(&self) -> [u32; 2] {
        [1, self.block_m]
    }

    /// The TMA box of B's N-major scales when staged: `[1, 32]` (the tile's scale first).
    pub fn b_scales_box(&self) -> [u32; 2] {
        [1, B_SCALES_BOX]
    }
}

/// Columns between one N block's scale and the next's in B's staged scales
/// ([`scales_mn_major`]'s `spread` for B): 4 f32, 16 bytes. A TMA box must start 16-byte aligned
/// in global memory (its innermost coordinate times the element size a multiple of 16, or the
/// GPU faults with an illegal instruction), and B's box starts at its tile's N block.
pub const B_SCALES_SPREAD: usize = 4;

/// The row stride of [`scales_mn_major`]'s result for `rows` columns: `rows` rounded up to 4 f32
/// (TMA's strides are multiples of 16 bytes).
pub fn mn_major_stride(rows: usize) -> usize {
    rows.div_ceil(4).saturating_mul(4)
}

/// Row-major scales `[rows, k_blocks]` (A's `[M, ⌈K/128⌉]` or B's `[⌈N/128⌉, ⌈K/128⌉]`, as the
/// pointer path reads them) transposed for [`ScaleLoads::Staged`]: `[max(k_blocks, 1),
/// mn_major_stride(rows · spread)]` with row `r`'s scale at column `r · spread` (A: 1, B:
/// [`B_SCALES_SPREAD`]), zero elsewhere (and the one row when `k_blocks` is 0, so a map of it is
/// never empty). Fails when `spread` is 0, `scales` is shorter than `rows × k_blocks` or the
/// result would not fit in memory.
pub fn scales_mn_major(
    scales: &[f32],
    rows: usize,
    k_blocks: usize,
    spread: usize,
) -> Result<Vec<f32>> {
    let bad = |reason: String| Err(CodegenError::arg("scales_mn_major", reason));
    let Some(need) = rows.checked_mul(k_blocks) else {
        return bad(format!("{rows} × {k_blocks} scales overflow"));
    };
    if scales.len() < need {
        return bad(format!(
            "{} scales, fewer than {rows} rows × {k_blocks} K blocks",
            scales.len()
        ));
    }
    if spread == 0 {
        return bad("spread 0: rows would overlap".into());
    }
    let Some(cols) = rows.checked_mul(spread) else {
        return bad(format!("{rows} rows spread {spread} apart overflow"));
    };
    let stride = mn_major_stride(cols);
    let len = match stride.checked_mul(k_blocks.max(1)) {
        Some(l) if l <= isize::MAX as usize / 4 => l,
        _ => return bad(format!("{rows} × {k_blocks} scales: too large")),
    };
    let mut out = Vec::new();
    if out.try_reserve_exact(len).is_err() {
        return bad(format!("{len} scales: cannot allocate"));
    }
    out.resize(len, 0.0);
    for r in 0..rows {
        for kt in 0..k_blocks {
            out[kt * stride + r * spread] = scales[r * k_blocks + kt];
        }
    }
    Ok(out)
}

/// A block-scaled kernel's two scale parameters as `loads` reads them: `a_scales_map`,
/// `b_scales_map` (tensor maps, boxes [`GemmConfig::a_scales_box`] and
/// [`GemmConfig::b_scales_box`]) when staged, else `a_scales`, `b_scales` (pointers).
pub(super) fn scale_params(
    kb: &mut KernelBuilder<'_>,
    c: &GemmConfig,
    loads: ScaleLoads,
) -> Result<[Value; 2]> {
    if loads == ScaleLoads::Staged {
        return Ok([
            kb.arg_tensor_map("a_scales_map", DType::F32, &c.a_scales_box(), 0)?,
            kb.arg_tensor_map("b_scales_map", DType::F32, &c.b_scales_box(), 0)?,
        ]);
    }
    Ok([
        kb.arg_ptr("a_scales", DType::F32, 4)?,
        kb.arg_ptr("b_scales", DType::F32, 4)?,
    ])
}

/// Where the consumers read the scales of [`scale_params`]' `params`, and, staged, the stage
/// buffers the producer copies them into (a `[1, block_m]` and a `[1, 32]` f32 buffer a stage,
/// as unswizzled TMA boxes write them: 1024-byte aligned, so every stage's box lands 128-byte
/// aligned) with the bytes they add to a stage.
pub(super) fn scale_source(
    kb: &mut KernelBuilder<'_>,
    c: &GemmConfig,
    params: [Value; 2],
    loads: ScaleLoads,
) -> Result<(ScaleSource, Option<StagedScales>, u32)> {
    if loads != ScaleLoads::Staged {
        let [a, b] = params;
        return Ok((ScaleSource::Global { a, b }, None, 0));
    }
    let flat = NvmmaShared::new(0, 32, 2, false);
    let stages = u64::from(c.stages);
    let [ab, bb] = [c.a_scales_box(), c.b_scales_box()].map(|b| b.map(u64::from));
    let s = StagedScales {
        a_map: params[0],
        a_ring: kb.alloc_shared_buffers(DType::F32, stages, &ab, flat.clone())?,
        b_map: params[1],
        b_ring: kb.alloc_shared_buffers(DType::F32, stages, &bb, flat)?,
        block: SCALE_BLOCK as i32,
        b_spread: B_SCALES_SPREAD as i32,
    };
    let source = ScaleSource::Staged {
        a_ring: s.a_ring,
        b_ring: s.b_ring,
    };
    Ok((source, Some(s), (c.block_m + B_SCALES_BOX) * 4))
}

/// Where a K block's scales come from.
pub(super) enum ScaleSource {
    /// Pointers to row-major `sa` `[M, ⌈K/128⌉]` and `sb` `[⌈N/128⌉, ⌈K/128⌉]`.
    Global { a: Value, b: Value },
    /// The stages of the ring, `[1, block_m]` and `[1, 32]` each
    /// ([`StagedScales::a_ring`], [`StagedScales::b_ring`]).
    Staged { a_ring: Value, b_ring: Value },
}

/// `sa[rows, kt] · sb[on / 128, kt]` as a `[block_m, 1]` column in the accumulator's layout,
/// zero past M and past the last K block; loaded when `loads` says.
pub(super) struct RowBlockScales {
    pub(super) source: ScaleSource,
    pub(super) m: Value,
    pub(super) k_blocks: Value,
    pub(super) layout: NvidiaMma,
    pub(super) block_m: i32,
    pub(super) loads: ScaleLoads,
}

impl RowBlockScales {
    /// The product from stage `st`: A's scales of this thread's rows and B's scale (its box's
    /// first element, which every thread reads), both written there by TMA (zeros past M).
    fn staged(
        &self,
        kb: &mut KernelBuilder<'_>,
        [a_ring, b_ring]: [Value; 2],
        st: Value,
    ) -> Result<Value> {
        let a = kb.index_shared(a_ring, st)?;
        let a = kb.index_shared(a, 0)?;
        let sa = kb.load_shared(a, Slice::new(1, self.layout.clone().into()))?;
        let b = kb.index_shared(b_ring, st)?;
        let b = kb.index_shared(b, 0)?;
        let b = kb.slice_shared(b, 0, 0, 1)?;
        // One element in every thread: a `[1]` tile reduced to a scalar (no shuffles).
        let warps = self.layout.warps_per_cta.iter().product::<u32>();
        let one = Blocked::new(&[1], &[kb.threads_per_warp()], &[warps], &[0]);
        let sb = kb.load_shared(b, one)?;
        let sb = kb.reduce(sb, 0, ReduceOp::Max)?;
        let s = kb.mul(sa, sb)?;
        kb.expand_dims(s, 1)
    }
}

impl BlockScale for RowBlockScales {
    fn scale(
        &self,
        kb: &mut KernelBuilder<'_>,
        [om, on]: [Value; 2],
        kt: Value,
        stage: Option<Value>,
    ) -> Result<Value> {
        let (a, b) = match (&self.source, stage) {
            (&ScaleSource::Global { a, b }, _) => (a, b),
            (&ScaleSource::Staged { a_ring, b_ring }, Some(st)) => {
                return self.staged(kb, [a_ring, b_ring], st)
            }
            (ScaleSource::Staged { .. }, None) => {
                return Err(CodegenError::arg(
                    "RowBlockScales",
                    "staged scales are read from their block's stage, never a block ahead",
                ))
            }
        };
        let rows = kb.arange(0, self.block_m, Slice::new(1, self.layout.clone().into()))?;
        let rows = kb.add(rows, om)?;
        let in_k = kb.lt(kt, self.k_blocks)?;
        let in_m = kb.lt(rows, self.m)?;
        let mask = kb.and(in_m, in_k)?;
        let at = kb.mul(rows, self.k_blocks)?;
        let at = kb.add(at, kt)?;
        let pa = kb.add(a, at)?;
        let sa = kb.load(pa, Some(mask), None)?;
        let nb = kb.div(on, SCALE_BLOCK as i32)?;
        let at = kb.mul(nb, self.k_blocks)?;
        let at = kb.add(at, kt)?;
        let pb = kb.add(b, at)?;
        let sb = kb.load(pb, Some(in_k), None)?;
        let s = kb.mul(sa, sb)?;
        kb.expand_dims(s, 1)
    }

    fn ahead(&self) -> bool {
        self.loads == ScaleLoads::OneBlockAhead
    }
}

/// Builds the block-scaled fp8 GEMM for `target` (sm_90a). `c` must be fp8 (e4m3 or e5m2) with
/// B as `[N, K]`, warp-specialised, with `block_n` 64 or 128 (one B scale per tile and K block).
/// See the module docs.
pub fn gemm_blockscaled_kernel(ctx: &Context, target: Target, c: GemmConfig) -> Result<Kernel<'_>> {
    gemm_blockscaled_kernel_with(ctx, target, c, ScaleLoads::default())
}

/// [`gemm_blockscaled_kernel`] with the scales loaded when and how `loads` says (a schedule
/// variant: the same grid and result; the same parameters but with [`ScaleLoads::Staged`], whose
/// scales are tensor maps of their M- and N-major copies).
pub fn gemm_blockscaled_kernel_with(
    ctx: &Context,
    target: Target,
    c: GemmConfig,
    loads: ScaleLoads,
) -> Result<Kernel<'_>> {
    c.check()?;
    let bad = |reason: String| Err(CodegenError::arg("gemm_blockscaled_kernel", reason));
    if !matches!(c.dtype, DType::F8E4M3 | DType::F8E5M2) {
        return bad(format!("dtype {}: f8e4m3 or f8e5m2", c.dtype));
    }
    if !matches!(c.block_n, 64 | 128) {
        return bad(format!(
            "block_n {}: 64 or 128 (one B scale per tile and K block)",
            c.block_n
        ));
    }
    if !c.warp_specialized {
        return bad("only the warp-specialised schedule (warp_specialized = true)".into());
    }
    let name = if c.cluster_m > 1 {
        "gemm_blockscaled_c2"
    } else {
        "gemm_blockscaled"
    };
    let mut kb = KernelBuilder::new(ctx, target, name, c.num_warps + 4)?;
    if c.cluster_m > 1 {
        kb.cluster_dims([c.cluster_m, 1, 1])?;
    }
    let [a_map, b_map, c_map, m, n, k] = declare_params(&mut kb, &c)?;
    let scale_args = scale_params(&mut kb, &c, loads)?;
    // Three accumulators (the main one, the partial in flight, the one being promoted) need
    // more than the 168 registers a thread the launch gives: take them from the producer.
    let roles = if c.num_warps == 8 {
        kb.warp_roles(&[
            WarpRole::new(4).max_regs(40),
            WarpRole::new(c.num_warps).max_regs(232),
        ])?
    } else {
        kb.warp_roles(&[WarpRole::new(4), WarpRole::new(c.num_warps)])?
    };
    let (grid, k_blocks, [pid, programs], rank) = c.placement(&mut kb, [m, n, k])?;
    // At least one K block (zero-filled past K, with zero scales), so the consumer's peeled first
    // block always has a fill to wait for.
    let k_tiles = kb.max(k_blocks, 1)?;
    let mine = grid.tiles_of(&mut kb, pid, programs)?;
    let [a_ring, b_ring, c_smem] = alloc_buffers(&mut kb, &c)?;
    let (source, staged_scales, scale_bytes) = scale_source(&mut kb, &c, scale_args, loads)?;
    let consumer_threads = c.num_warps * kb.threads_per_warp();
    let ring = c.ring_with(&mut kb, consumer_threads, scale_bytes)?;
    let mut lp = c.mainloop([a_map, b_map, a_ring, b_ring], ring, grid, k_tiles);
    lp.cluster_rank = rank;
    lp.scales = staged_scales;
    let scales = RowBlockScales {
        source,
        m,
        k_blocks,
        layout: NvidiaMma::hopper(&[c.num_warps, 1], c.block_n, 16),
        block_m: c.block_m as i32,
        loads,
    };
    let store = c.tma_store(c_smem, c_map, true);
    parts::gemm_mainloop_ws_scaled(
        &mut kb,
        &lp,
        [roles[0], roles[1]],
        [pid, programs, mine],
        &scales,
        &store,
    )?;
    c.leave_cluster(&mut kb)?;
    kb.finish()
}

/// The block-scaled GEMM on the host in f64, from f32 copies of the fp8 values: `C[i, j] = Σ_kb
/// sa[i, kb] · sb[j / 128, kb] · Σ_{k in kb} A[i, k] · B[j, k]` (B `[N, K]`), rounded to f32.
/// Fails when a slice is shorter than its shape says.
pub fn gemm_blockscaled_reference(
    ab: [&[f32]; 2],
    scales: [&[f32]; 2],
    mnk: [usize; 3],
) -> Result<Vec<f32>> {
    block_sums("gemm_blockscaled_reference", ab, scales, mnk, |x| x)
}

/// How far the GPU's `C[i, j]` may be from [`gemm_blockscaled_reference`] before rounding to C's
/// type: `2^-11 · Σ_kb |sa · sb| · Σ_{k in kb} |A[i, k] · B[j, k]|`. An fp8 tensor-core
/// instruction keeps about 14 significant bits of its running sum (13 fraction bits, cut towards
/// zero after each 32 products: the interpreter's model, `interp/tensor_core.rs`), so each of a
/// K block's four instructions may lose `2^-13` of the block's magnitude. Add C's own rounding
/// (half an ulp of bf16) to compare. Fails as the reference does.
pub fn gemm_blockscaled_error_bound(
    ab: [&[f32]; 2],
    scales: [&[f32]; 2],
    mnk: [usize; 3],
) -> Result<Vec<f32>> {
    let sums = block_sums("gemm_blockscaled_error_bound", ab, scales, mnk, f64::abs)?;
    Ok(sums.into_iter().map(|s| s * FP8_SUM_LOSS).collect())
}

/// The fraction of a dot product's magnitude an fp8 tensor-core sum over 128 of K may lose on
/// Hopper: four instructions of 32 products, each cutting to 13 fraction bits. A host check of
/// any fp8 GEMM allows this times `Σ|a·b|` beyond C's rounding.
pub const FP8_SUM_LOSS: f32 = 1.0 / 2048.0;

/// `Σ_kb f(sa[i, kb] · sb[j / 128, kb]) · Σ_{k in kb} f(A[i, k] · B[j, k])` for every `(i, j)`,
/// in f64, rounded to f32: the reference with `f` the identity, the magnitude with `f = abs`.
fn block_sums(
    op: &'static str,
    [a, b]: [&[f32]; 2],
    [sa, sb]: [&[f32]; 2],
    [m, n, k]: [usize; 3],
    f: impl Fn(f64) -> f64,
) -> Result<Vec<f32>> {
    let kbs = k.div_ceil(SCALE_BLOCK);
    let need = [
        ("A", a.len(), m.checked_mul(k)),
        ("B", b.len(), n.checked_mul(k)),
        ("sa", sa.len(), m.checked_mul(kbs)),
        ("sb", sb.len(), n.div_ceil(SCALE_BLOCK).checked_mul(kbs)),
    ];
    for (what, have, want) in need {
        if want.is_none_or(|w| have < w) {
            return Err(CodegenError::arg(
                op,
                format!("{what} holds {have} values, fewer than {m}×{n}×{k} needs"),
            ));
        }
    }
    let mut c = reference_output(op, m, n)?;
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0f64;
            for blk in 0..kbs {
                let ks = blk * SCALE_BLOCK..((blk + 1) * SCALE_BLOCK).min(k);
                let part: f64 = ks
                    .map(|p| f(f64::from(a[i * k + p]) * f64::from(b[j * k + p])))
                    .sum();
                let s = f64::from(sa[i * kbs + blk]) * f64::from(sb[(j / SCALE_BLOCK) * kbs + blk]);
                acc += part * f(s);
            }
            c[i * n + j] = acc as f32;
        }
    }
    Ok(c)
}
