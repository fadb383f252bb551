//! Softmax backward in one pass, whole rows in registers: `dx = y · (dy - Σ y·dy)`, from the
//! forward output `y` (the dy·y form: no logits, no exponentials).

use super::super::{Context, Kernel, KernelBuilder, Result, Target};
use super::row_config::RowConfig;
use super::row_tile::{load_f32, store_as, tile_cols, tile_mask_offs, tile_rows};

/// `dx[r, :] = y[r, :] · (dy[r, :] - Σ_j y[r, j] · dy[r, j])` for the `m` rows of `m × n`
/// matrices of `c.dtype` (row stride `n`, contiguous), computed in f32: each CTA loads
/// `rows_per_cta` whole rows of `y` and `dy` (masked columns read as 0 and add nothing).
///
/// Parameters: `y, dy, dx: ptr<T>` (16-byte aligned), `m: i32`, `n: i32` (a multiple of
/// `c.n_divisibility`). Grid: [`RowConfig::grid`]`(m)`. Assumes [`RowConfig::check_shape`].
///
/// Errors: a configuration [`RowConfig::layout`] refuses (two tiles over 128 f32 a thread) or
/// an element type other than f32/f16/bf16.
pub fn softmax_bwd_kernel(ctx: &Context, target: Target, c: RowConfig) -> Result<Kernel<'_>> {
    let layout = c.layout("softmax_bwd_kernel", target, 2, 0)?;
    let mut kb = KernelBuilder::new(ctx, target, "softmax_bwd", c.num_warps)?;
    kb.allow_fp_contraction(true);
    let y = kb.arg_ptr("y", c.dtype, 16)?;
    let dy = kb.arg_ptr("dy", c.dtype, 16)?;
    let dx = kb.arg_ptr("dx", c.dtype, 16)?;
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", c.n_divisibility as u64)?;
    let pid = kb.program_id(0)?;
    let rows = tile_rows(&mut kb, &layout, c.rows_per_cta, pid, m, n)?;
    let cols = tile_cols(&mut kb, &layout, c.block_n, None, n)?;
    let (mask, offs) = tile_mask_offs(&mut kb, &rows, &cols)?;
    let yv = load_f32(&mut kb, y, offs, mask, 0.0)?;
    let g = load_f32(&mut kb, dy, offs, mask, 0.0)?;
    let dot = kb.expr(|e| (e.of(yv) * e.of(g)).sum(1))?;
    let dot = kb.expand_dims(dot, 1)?;
    let out = kb.expr(|e| (e.of(g) - e.of(dot)) * e.of(yv))?;
    store_as(&mut kb, dx, offs, out, c.dtype, mask)?;
    kb.finish()
}

/// The host reference of [`softmax_bwd_kernel`] in f64, rows of `n`.
pub fn softmax_bwd_reference(y: &[f32], dy: &[f32], n: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(y.len());
    for (yr, gr) in y.chunks(n.max(1)).zip(dy.chunks(n.max(1))) {
        let dot: f64 = yr.iter().zip(gr).map(|(&a, &b)| a as f64 * b as f64).sum();
        out.extend(
            yr.iter()
                .zip(gr)
                .map(|(&a, &b)| a as f64 * (b as f64 - dot)),
        );
    }
    out
}
