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
//! by the consumers right after each wgmma is issued.
//!
//! Parameters: `a_map`, `b_map`, `c_map` (as [`gemm_kernel`](super::gemm_kernel) with B `[N, K]`),
//! `m, n, k: i32`, then `a_scales: ptr<f32>`, `b_scales: ptr<f32>`. Grid:
//! [`GemmConfig::grid_persistent`] (or [`GemmConfig::grid`]: one tile per program).

use crate::layout::encoding::{NvidiaMma, Slice};

use super::super::{
    CodegenError, Context, DType, Kernel, KernelBuilder, Result, Target, Value, WarpRole,
};
use super::gemm::reference_output;
use super::gemm_config::{alloc_buffers, declare_params, GemmConfig};
use super::parts::{self, BlockScale};

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
}

/// `sa[rows, kt] · sb[on / 128, kt]` as a `[block_m, 1]` column in the accumulator's layout,
/// zero past M and past the last K block; loaded when `loads` says.
pub(super) struct RowBlockScales {
    pub(super) a: Value,
    pub(super) b: Value,
    pub(super) m: Value,
    pub(super) k_blocks: Value,
    pub(super) layout: NvidiaMma,
    pub(super) block_m: i32,
    pub(super) loads: ScaleLoads,
}

impl BlockScale for RowBlockScales {
    fn scale(&self, kb: &mut KernelBuilder<'_>, [om, on]: [Value; 2], kt: Value) -> Result<Value> {
        let rows = kb.arange(0, self.block_m, Slice::new(1, self.layout.clone().into()))?;
        let rows = kb.add(rows, om)?;
        let in_k = kb.lt(kt, self.k_blocks)?;
        let in_m = kb.lt(rows, self.m)?;
        let mask = kb.and(in_m, in_k)?;
        let at = kb.mul(rows, self.k_blocks)?;
        let at = kb.add(at, kt)?;
        let pa = kb.add(self.a, at)?;
        let sa = kb.load(pa, Some(mask), None)?;
        let nb = kb.div(on, SCALE_BLOCK as i32)?;
        let at = kb.mul(nb, self.k_blocks)?;
        let at = kb.add(at, kt)?;
        let pb = kb.add(self.b, at)?;
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

/// [`gemm_blockscaled_kernel`] with the scales loaded when `loads` says (a schedule variant:
/// the same parameters, grid and result).
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
    let a_scales = kb.arg_ptr("a_scales", DType::F32, 4)?;
    let b_scales = kb.arg_ptr("b_scales", DType::F32, 4)?;
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
    let consumer_threads = c.num_warps * kb.threads_per_warp();
    let ring = c.ring(&mut kb, consumer_threads)?;
    let mut lp = c.mainloop([a_map, b_map, a_ring, b_ring], ring, grid, k_tiles);
    lp.cluster_rank = rank;
    let scales = RowBlockScales {
        a: a_scales,
        b: b_scales,
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
