//! The backward passes of RMSNorm and layer norm: `dx` per row, and the weight (and bias)
//! gradients summed deterministically, as per-CTA partial sums that [`super::col_sum_kernel`]
//! then adds in a fixed order. The statistics are recomputed from `x` (the row is in registers
//! anyway), so the forward pass need not save them.

use crate::layout::encoding::{Slice, SwizzledShared};

use super::super::{
    Context, DType, Kernel, KernelBuilder, MathOp, MathPrecision, Result, Target, Value,
};
use super::row_config::RowConfig;
use super::row_stages::{persistent_blocks, stage_bytes, walk_block, walk_col_mask, RowStages};
use super::row_tile::{load_f32, store_as, tile_cols};

/// Which normalisation [`norm_bwd_kernel`] differentiates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Norm {
    /// `y = x · rstd · w`, `rstd = rsqrt(mean(x²) + eps)`.
    Rms,
    /// `y = (x - mean) · rstd · w + b`, `rstd = rsqrt(var + eps)` (biased variance).
    Layer,
}

/// The grid of [`norm_bwd_kernel`]: one CTA per `rows_per_cta` rows up to `max_ctas` (best the
/// SMs times the CTAs one SM holds, [`crate::codegen::occupancy`] of the loaded kernel's
/// registers and shared memory: every CTA then walks as many row blocks, and the partial sums
/// are one row per resident CTA); each walks the row blocks `pid, pid + grid, …` and the
/// partial-sum matrix has this many rows.
pub fn norm_bwd_grid(c: &RowConfig, m: usize, max_ctas: u32) -> u32 {
    c.grid(m).clamp(1, max_ctas.max(1))
}

/// The gradients of [`Norm`] for the `m` rows of an `m × n` matrix of `c.dtype`, given the
/// forward input `x`, the weight `w` and the output gradient `dy`:
/// `x̂ = (x - mean) · rstd` (`x · rstd` for RMSNorm), `g = dy · w`,
/// `dx = rstd · (g - x̂ · mean(g · x̂) - mean(g))` (no `mean(g)` term for RMSNorm), and
/// `dw_part[pid, j] = Σ dy · x̂`, `db_part[pid, j] = Σ dy` (layer norm only) over the rows this
/// CTA took. Each CTA walks row blocks `pid, pid + grid, …`, so its partial
/// sums come in a fixed order; [`super::col_sum_kernel`] over the `grid × n` partials gives
/// `dw` (and `db`).
///
/// Parameters, in order: `x, dy, w, dx: ptr<T>`, `dw_part: ptr<f32>` (`grid × n`),
/// `db_part: ptr<f32>` (layer norm), `m: i32`, `n: i32` (a multiple of `c.n_divisibility`),
/// `eps: f32`. Grid: [`norm_bwd_grid`]. Assumes [`RowConfig::check_shape`].
///
/// The column sums are kept in shared memory (`4 · block_n` bytes each), each thread adding
/// its own columns; barriers order them only where threads share columns.
///
/// Errors: a configuration [`RowConfig::layout`] refuses (the tiles of `x` and `dy` and `w`
/// over 128 f32 a thread), column sums past the target's shared memory, or an element type
/// other than f32/f16/bf16.
pub fn norm_bwd_kernel(
    ctx: &Context,
    target: Target,
    c: RowConfig,
    norm: Norm,
) -> Result<Kernel<'_>> {
    norm_bwd(ctx, target, c, norm, false)
}

/// [`norm_bwd_kernel`] with the next row block's `x` and `dy` copied into shared memory
/// (`cp.async`, two stages) while the current one is reduced, so that a CTA's loads stay in
/// flight through its reductions: where registers fit one CTA an SM (16K columns) nothing
/// else would hide them. Same parameters, grid and results; `2 · 2 · rows_per_cta · block_n`
/// elements of shared memory more (128 KB for 16K bf16 rows, beside the 64 KB of RMSNorm's
/// column sums).
///
/// Errors: as [`norm_bwd_kernel`], a target without `cp.async` (sm_80), or more shared memory
/// than the target has (layer norm's two column sums beside the stages past 12K bf16 columns).
pub fn norm_bwd_staged_kernel(
    ctx: &Context,
    target: Target,
    c: RowConfig,
    norm: Norm,
) -> Result<Kernel<'_>> {
    norm_bwd(ctx, target, c, norm, true)
}

/// At most the shared-memory bytes of [`norm_bwd_kernel`] (`staged`:
/// [`norm_bwd_staged_kernel`]) at `c`: the column sums, the stages, and with several rows per
/// CTA the scratch of the sums over them (`4 · rows_per_cta · block_n` at most).
pub fn norm_bwd_shared_bytes(c: &RowConfig, norm: Norm, staged: bool) -> u64 {
    let tile = c.rows_per_cta as u64 * c.block_n as u64;
    let sums = (1 + (norm == Norm::Layer) as u64) * 4 * c.block_n as u64;
    let stages = if staged { stage_bytes(c, 2) } else { 0 };
    let scratch = if c.rows_per_cta > 1 { 4 * tile } else { 0 };
    sums + stages + scratch
}

fn norm_bwd(
    ctx: &Context,
    target: Target,
    c: RowConfig,
    norm: Norm,
    staged: bool,
) -> Result<Kernel<'_>> {
    let (op, name) = match (norm, staged) {
        (Norm::Rms, false) => ("rmsnorm_bwd_kernel", "rmsnorm_bwd"),
        (Norm::Layer, false) => ("layernorm_bwd_kernel", "layernorm_bwd"),
        (Norm::Rms, true) => ("rmsnorm_bwd_staged_kernel", "rmsnorm_bwd_staged"),
        (Norm::Layer, true) => ("layernorm_bwd_staged_kernel", "layernorm_bwd_staged"),
    };
    let layer = norm == Norm::Layer;
    let layout = c.layout(op, target, 2, 1)?;
    let mut kb = KernelBuilder::new(ctx, target, name, c.num_warps)?;
    kb.allow_fp_contraction(true);
    let t = c.dtype;
    let x = kb.arg_ptr("x", t, 16)?;
    let dy = kb.arg_ptr("dy", t, 16)?;
    let w = kb.arg_ptr("w", t, 16)?;
    let dx = kb.arg_ptr("dx", t, 16)?;
    let dw_part = kb.arg_ptr("dw_part", DType::F32, 16)?;
    let db_part = if layer {
        Some(kb.arg_ptr("db_part", DType::F32, 16)?)
    } else {
        None
    };
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", c.n_divisibility as u64)?;
    let eps = kb.arg_f32("eps")?;
    let pid = kb.program_id(0)?;
    let grid = kb.num_programs(0)?;
    let cols = tile_cols(&mut kb, &layout, c.block_n, None, n)?;
    let nf = kb.cast(n, DType::F32)?;
    // Row blocks pid, pid + grid, … below ceil(m / rows_per_cta): `iters` of them.
    let (blocks, iters) = persistent_blocks(&mut kb, c.rows_per_cta, [m, pid, grid])?;
    // The per-column sums live in shared memory, not registers: a 16K row's x and dy already
    // fill what registers 1024 threads get (64 each), and without the sums two CTAs of 4K–8K
    // rows fit an SM where one did (`examples/row_occupancy`).
    let col_l = Slice::new(0, layout.clone().into());
    let col_shape = [c.block_n as u64];
    let plain = SwizzledShared::new(1, 1, 1, &[0]);
    let sums = (0..1 + layer as usize)
        .map(|_| kb.alloc_shared(DType::F32, &col_shape, &plain))
        .collect::<Result<Vec<_>>>()?;
    let zero = kb.full((&col_l, col_shape), DType::F32, 0.0f32)?;
    for &s in &sums {
        kb.store_shared(s, zero)?;
    }
    // Whether another thread holds a copy of some column of this thread's (lanes or warps along
    // the rows, or threads past the row): then a column's sum is written by one of them and
    // read by all, and barriers order the reads and the writes.
    let spans = layout.size_per_thread[1] as u64
        * layout.threads_per_warp[1] as u64
        * layout.warps_per_cta[1] as u64;
    let shared_cols =
        layout.threads_per_warp[0] > 1 || layout.warps_per_cta[0] > 1 || spans > c.block_n as u64;
    // Staged: row block `blk`'s x and dy travel to buffer `i & 1` a step ahead.
    let stages = match staged {
        true => Some(RowStages::new(&mut kb, &layout, &c, &[x, dy])?),
        false => None,
    };
    if let Some(st) = &stages {
        st.start(&mut kb, &cols, [pid, m, n])?;
    }
    kb.for_range(0, iters, 1, &[], |kb, i, _| {
        let (blk, _, mask, offs) =
            walk_block(kb, &layout, c.rows_per_cta, &cols, [i, pid, grid, m, n])?;
        let (xv, g_out) = match &stages {
            None => (
                load_f32(kb, x, offs, mask, 0.0)?,
                load_f32(kb, dy, offs, mask, 0.0)?,
            ),
            Some(st) => {
                let v = st.step(kb, &cols, [i, blk, grid, m, n])?;
                (v[0], v[1])
            }
        };
        // Only x and dy stay live across the reductions: `g = dy · w` is never kept (w is
        // loaded again where it is needed, from L1: the same lines every time; masked as
        // `walk_col_mask` says, so that each load stays in the loop and apart from the others).
        // With `xc = x - mean` (x for RMSNorm), `a' = mean(g · xc)` and `b = mean(g)`:
        // `dx = rstd · (g - x̂ · mean(g · x̂) - b) = rstd · (g - xc · rstd² · a' - b)`.
        let w_ok = walk_col_mask(kb, &cols, blk, blocks)?;
        let load_w = |kb: &mut KernelBuilder<'_>| -> Result<Value> {
            let wv = load_f32(kb, w, cols.cols1, w_ok, 0.0)?;
            kb.expand_dims(wv, 0)
        };
        let (xc, b) = if layer {
            // mean(x) and mean(g) side by side: neither waits for the other.
            let mean = kb.expr(|e| e.of(xv).sum(1) / e.of(nf))?;
            let w1 = load_w(kb)?;
            let b = kb.expr(|e| (e.of(g_out) * e.of(w1)).sum(1) / e.of(nf))?;
            let mean = kb.expand_dims(mean, 1)?;
            let xc = kb.sub(xv, mean)?;
            (kb.where_(cols.ok, xc, 0.0f32)?, Some(kb.expand_dims(b, 1)?))
        } else {
            (xv, None)
        };
        // mean(xc²) and a' side by side.
        let var = kb.expr(|e| (e.of(xc) * e.of(xc)).sum(1) / e.of(nf) + e.of(eps))?;
        let w2 = load_w(kb)?;
        let a = kb.expr(|e| (e.of(g_out) * e.of(w2) * e.of(xc)).sum(1) / e.of(nf))?;
        let rstd = kb.math_with(MathOp::Rsqrt, var, MathPrecision::Accurate)?;
        let k = kb.expr(|e| e.of(rstd) * e.of(rstd) * e.of(a))?;
        let (rstd, k) = (kb.expand_dims(rstd, 1)?, kb.expand_dims(k, 1)?);
        let w3 = load_w(kb)?;
        let mut inner = kb.expr(|e| e.of(g_out) * e.of(w3) - e.of(xc) * e.of(k))?;
        if let Some(b) = b {
            inner = kb.sub(inner, b)?;
        }
        let dxv = kb.mul(inner, rstd)?;
        store_as(kb, dx, offs, dxv, t, mask)?;
        let xhat = kb.mul(xc, rstd)?;
        let mut parts = vec![kb.expr(|e| (e.of(g_out) * e.of(xhat)).sum(0))?];
        if layer {
            parts.push(kb.expr(|e| e.of(g_out).sum(0))?);
        }
        if shared_cols {
            kb.barrier()?;
        }
        let news = sums
            .iter()
            .zip(&parts)
            .map(|(&s, &p)| {
                let acc = kb.load_shared(s, col_l.clone())?;
                kb.add(acc, p)
            })
            .collect::<Result<Vec<_>>>()?;
        if shared_cols {
            kb.barrier()?;
        }
        for (&s, v) in sums.iter().zip(news) {
            kb.store_shared(s, v)?;
        }
        if let Some(st) = &stages {
            st.end_step(kb)?;
        }
        Ok(vec![])
    })?;
    if shared_cols {
        kb.barrier()?;
    }
    let part_off = kb.expr(|e| e.of(pid) * e.of(n) + e.of(cols.cols1))?;
    for (&s, part) in sums.iter().zip([Some(dw_part), db_part]) {
        let acc = kb.load_shared(s, col_l.clone())?;
        if let Some(part) = part {
            store_as(&mut kb, part, part_off, acc, DType::F32, cols.ok1)?;
        }
    }
    kb.finish()
}

/// The host reference of [`norm_bwd_kernel`] in f64: `(dx, dw, db)` for rows of `n` of `x`
/// and `dy` (`db` is all zero for RMSNorm).
pub fn norm_bwd_reference(
    norm: Norm,
    x: &[f32],
    w: &[f32],
    dy: &[f32],
    n: usize,
    eps: f32,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let n = n.max(1);
    let mut dx = Vec::with_capacity(x.len());
    let (mut dw, mut db) = (vec![0.0f64; n], vec![0.0f64; n]);
    for (row, drow) in x.chunks(n).zip(dy.chunks(n)) {
        let len = row.len() as f64;
        let mean = match norm {
            Norm::Rms => 0.0,
            Norm::Layer => row.iter().map(|&v| v as f64).sum::<f64>() / len,
        };
        let xc: Vec<f64> = row.iter().map(|&v| v as f64 - mean).collect();
        let rstd = 1.0 / (xc.iter().map(|v| v * v).sum::<f64>() / len + eps as f64).sqrt();
        let xhat: Vec<f64> = xc.iter().map(|v| v * rstd).collect();
        let g: Vec<f64> = drow
            .iter()
            .zip(w)
            .map(|(&d, &wj)| d as f64 * wj as f64)
            .collect();
        let a = g.iter().zip(&xhat).map(|(g, h)| g * h).sum::<f64>() / len;
        let b = match norm {
            Norm::Rms => 0.0,
            Norm::Layer => g.iter().sum::<f64>() / len,
        };
        dx.extend(g.iter().zip(&xhat).map(|(g, h)| rstd * (g - h * a - b)));
        for (j, (&d, h)) in drow.iter().zip(&xhat).enumerate() {
            dw[j] += d as f64 * h;
            if norm == Norm::Layer {
                db[j] += d as f64;
            }
        }
    }
    (dx, dw, db)
}
