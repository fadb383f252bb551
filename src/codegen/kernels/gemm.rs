//! `C = A · B` (or `A · Bᵀ`) on Hopper, as Gluon's tutorials 04–06 build it: TMA loads into a
//! multi-stage shared-memory ring guarded by mbarriers, `wgmma` from the ring with one group kept
//! in flight, and an epilogue through shared memory and a TMA store. This file only composes
//! [`parts`](super::parts): the ring, the tile grid, the main loop and the epilogue.
//!
//! Each CTA computes one `block_m × block_n` tile of C (grouped ordering: `group_m` row-tiles
//! share their B columns in L2). The k-loop waits for stage `k % stages`, issues its wgmma, waits
//! until only that wgmma is in flight (so the previous stage is free), and refills the previous
//! stage with the tile `stages - 1` ahead. TMA zero-fills loads past the matrix and clips the
//! store, so any M, N, K work (rows of 16-byte multiples: K and N multiples of 8 for 16-bit).
//!
//! Parameters: `a_map`, `b_map`, `c_map` (tensor maps: A `[M, K]` with box
//! `[block_m, block_k]`; B `[K, N]` with box `[block_k, 64]`, or `[N, K]` with box
//! `[block_n, block_k]` when `b_transposed`; C `[M, N]` with box `[block_m, 64]`, all with a
//! 128-byte swizzle), then `m, n, k: i32`.

use super::super::{CodegenError, Context, Kernel, KernelBuilder, Result, Target};
use super::gemm_config::{alloc_buffers, declare_params, GemmConfig};
use super::parts::{self, Epilogue, TmaRing, TmaStore};

/// Builds the GEMM for `target` (sm_90a: wgmma and TMA). See the module docs.
pub fn gemm_kernel(ctx: &Context, target: Target, c: GemmConfig) -> Result<Kernel<'_>> {
    let name = match (c.b_transposed, c.warp_specialized, c.cluster_m > 1) {
        (false, false, _) => "gemm_nn",
        (true, false, _) => "gemm_nt",
        (false, true, false) => "gemm_nn_ws",
        (true, true, false) => "gemm_nt_ws",
        (false, true, true) => "gemm_nn_ws_c2",
        (true, true, true) => "gemm_nt_ws_c2",
    };
    gemm_kernel_with(ctx, target, c, name, |_| Ok(|store| store))
}

/// The GEMM of [`gemm_kernel`] (any schedule of `c`: one tile per CTA, persistent or
/// warp-specialised) with the user's epilogue in place of the plain TMA store. `params` runs
/// right after the GEMM's own parameters (`a_map, b_map, c_map, m, n, k`), declares the
/// epilogue's (a bias pointer, scales, …) and returns what wraps the shipped [`TmaStore`] into
/// the epilogue: so a fused GEMM is its epilogue and one call, whatever the schedule.
///
/// ```
/// use weft::codegen::kernels::{gemm_kernel_with, GemmConfig};
/// use weft::codegen::kernels::parts::{Epilogue, TmaStore};
/// use weft::codegen::{Context, DType, KernelBuilder, Result, Target, Value};
///
/// /// `relu(acc) * scale`, then the plain store.
/// struct ReluScale { scale: Value, store: TmaStore }
/// impl Epilogue for ReluScale {
///     fn store(&self, kb: &mut KernelBuilder<'_>, acc: Value, at: [Value; 2]) -> Result<()> {
///         let y = kb.max(acc, 0.0)?;
///         let y = kb.mul(y, self.scale)?;
///         self.store.store(kb, y, at)
///     }
/// }
///
/// let ctx = Context::new();
/// let mut cfg = GemmConfig::new(DType::F16);
/// cfg.warp_specialized = true;
/// let k = gemm_kernel_with(&ctx, Target::SM90A, cfg, "gemm_relu", |kb| {
///     let scale = kb.arg_f32("scale")?;
///     Ok(move |store| ReluScale { scale, store })
/// })?;
/// assert!(k.ptx()?.contains("wgmma.mma_async"));
/// # Ok::<(), weft::codegen::CodegenError>(())
/// ```
pub fn gemm_kernel_with<'c, E, W>(
    ctx: &'c Context,
    target: Target,
    c: GemmConfig,
    name: &str,
    params: impl FnOnce(&mut KernelBuilder<'c>) -> Result<W>,
) -> Result<Kernel<'c>>
where
    E: Epilogue,
    W: FnOnce(TmaStore) -> E,
{
    c.check()?;
    if c.warp_specialized {
        return super::gemm_ws::gemm_ws_kernel(ctx, target, c, name, params);
    }
    let mut kb = KernelBuilder::new(ctx, target, name, c.num_warps)?;
    let [a_map, b_map, c_map, m, n, k] = declare_params(&mut kb, &c)?;
    let wrap = params(&mut kb)?;
    let pid = kb.program_id(0)?;
    let (grid, k_tiles) = c.tiles(&mut kb, [m, n, k])?;
    let [a_ring, b_ring, c_smem] = alloc_buffers(&mut kb, &c)?;
    let ring = TmaRing::new(&mut kb, c.stages, c.stage_bytes(), None)?;
    let lp = c.mainloop([a_map, b_map, a_ring, b_ring], ring, grid, k_tiles);
    let epilogue = wrap(c.tma_store(c_smem, c_map, c.persistent));
    parts::gemm_mainloop(&mut kb, &lp, pid, c.persistent, None, &epilogue)?;
    kb.tma_store_wait(0)?;
    kb.finish()
}

/// `C = A · B` (or `A · Bᵀ` with B given as `[N, K]`) on the host, accumulated in f64 and rounded
/// to f32, from row-major f32 copies of the inputs: the reference the tests and examples compare
/// with (for every kernel and target).
pub fn gemm_reference(
    a: &[f32],
    b: &[f32],
    m: usize,
    n: usize,
    k: usize,
    b_transposed: bool,
) -> Vec<f32> {
    let mut c = vec![0f64; m * n];
    for i in 0..m {
        for p in 0..k {
            let x = f64::from(a[i * k + p]);
            if x == 0.0 {
                continue;
            }
            let row = &mut c[i * n..(i + 1) * n];
            if b_transposed {
                for (j, r) in row.iter_mut().enumerate() {
                    *r += x * f64::from(b[j * k + p]);
                }
            } else {
                for (r, y) in row.iter_mut().zip(&b[p * n..(p + 1) * n]) {
                    *r += x * f64::from(*y);
                }
            }
        }
    }
    c.into_iter().map(|v| v as f32).collect()
}

/// A zeroed `rows × cols` output for the host reference `op`, or a typed error when it cannot be
/// allocated (too large for memory, rather than an abort).
pub(super) fn reference_output(op: &'static str, rows: usize, cols: usize) -> Result<Vec<f32>> {
    let too_large = || CodegenError::arg(op, format!("an output of {rows} × {cols} is too large"));
    let len = rows.checked_mul(cols).ok_or_else(too_large)?;
    let mut c = Vec::new();
    c.try_reserve_exact(len).map_err(|_| too_large())?;
    c.resize(len, 0f32);
    Ok(c)
}
