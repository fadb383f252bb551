//! RMSNorm forward in one pass, whole rows in registers: `y = x / rms(x) · w`, with an optional
//! residual add written back (the pre-norm transformer's `h = x + residual`) and an optional
//! fp8 e4m3 output scaled per row or per tensor.

use super::super::{Context, DType, Kernel, KernelBuilder, MathOp, MathPrecision, Result, Target};
use super::row_config::RowConfig;
use super::row_tile::{self, load_f32, store_as, tile_cols, tile_mask_offs, tile_rows};

/// The largest finite fp8 e4m3 value: a per-row scale maps the row's largest `|y|` to it.
pub const FP8_E4M3_MAX: f64 = 448.0;

/// The output of [`rmsnorm_kernel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RmsNormOutput {
    /// `y` in the input's element type.
    Same,
    /// `y` in fp8 e4m3 (sm_90), each row divided by its own scale `amax(|y|) / 448`, which the
    /// kernel writes to `scale[r]` (0 for a row of zeros, whose fp8 values are all 0).
    Fp8RowScale,
    /// `y` in fp8 e4m3 (sm_90) divided by the one scale the caller gives in `scale[0]`
    /// (saturating to ±448).
    Fp8TensorScale,
}

/// What [`rmsnorm_kernel`] computes besides the norm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RmsNormOptions {
    /// Add `residual` to `x` first and write the sum (rounded to the element type) back into
    /// `residual`; the norm is taken of that rounded sum, as the next layer sees it.
    pub residual: bool,
    /// The output's type and scaling.
    pub output: RmsNormOutput,
}

impl RmsNormOptions {
    /// No residual, the output in the input's type.
    pub const PLAIN: RmsNormOptions = RmsNormOptions {
        residual: false,
        output: RmsNormOutput::Same,
    };
}

/// `y[r, :] = x[r, :] · rsqrt(mean(x[r, :]²) + eps) · w` for the `m` rows of an `m × n`
/// matrix of `c.dtype` (row stride `n`, contiguous), computed in f32: each CTA loads
/// `rows_per_cta` whole rows as one tile ([`RowConfig::layout`]; masked columns read as 0 and
/// add nothing to the sum of squares), `w` once in the tile's column slice.
///
/// Parameters, in order: `x: ptr<T>`, `residual: ptr<T>` (with `o.residual`), `w: ptr<T>`,
/// `y: ptr<T>` or `ptr<f8e4m3>`, `scale: ptr<f32>` (fp8 outputs: `m` written, or one read),
/// `m: i32`, `n: i32` (a multiple of `c.n_divisibility`), `eps: f32`. Pointers 16-byte aligned.
/// The kernel assumes what [`RowConfig::check_shape`] checks. Grid: [`RowConfig::grid`]`(m)`.
///
/// Errors: a configuration [`RowConfig::layout`] refuses (the tile and `w` over 128 f32 a
/// thread), an element type other than f32/f16/bf16, or an fp8 output on a target without fp8.
pub fn rmsnorm_kernel(
    ctx: &Context,
    target: Target,
    c: RowConfig,
    o: RmsNormOptions,
) -> Result<Kernel<'_>> {
    let op = "rmsnorm_kernel";
    let layout = c.layout(op, target, 1 + o.residual as u64, 1)?;
    let mut kb = KernelBuilder::new(ctx, target, "rmsnorm", c.num_warps)?;
    kb.allow_fp_contraction(true);
    let t = c.dtype;
    let x = kb.arg_ptr("x", t, 16)?;
    let res = if o.residual {
        Some(kb.arg_ptr("residual", t, 16)?)
    } else {
        None
    };
    let w = kb.arg_ptr("w", t, 16)?;
    let y_type = match o.output {
        RmsNormOutput::Same => t,
        _ => DType::F8E4M3,
    };
    let y = kb.arg_ptr("y", y_type, 16)?;
    let scale = if o.output == RmsNormOutput::Same {
        None
    } else {
        Some(kb.arg_ptr("scale", DType::F32, 16)?)
    };
    let m = kb.arg_i32("m", 1)?;
    let n = kb.arg_i32("n", c.n_divisibility as u64)?;
    let eps = kb.arg_f32("eps")?;
    let pid = kb.program_id(0)?;
    let rows = tile_rows(&mut kb, &layout, c.rows_per_cta, pid, m, n)?;
    let cols = tile_cols(&mut kb, &layout, c.block_n, None, n)?;
    let (mask, offs) = tile_mask_offs(&mut kb, &rows, &cols)?;
    let mut v = load_f32(&mut kb, x, offs, mask, 0.0)?;
    if let Some(res) = res {
        let r = load_f32(&mut kb, res, offs, mask, 0.0)?;
        let h = kb.add(v, r)?;
        // The sum as stored: the norm below sees what the next layer reads back.
        let h = if t == DType::F32 { h } else { kb.cast(h, t)? };
        let pr = kb.add(res, offs)?;
        kb.store(pr, h, Some(mask))?;
        v = row_tile::to_f32(&mut kb, h)?;
    }
    let wv = load_f32(&mut kb, w, cols.cols1, cols.ok1, 0.0)?;
    let wv = kb.expand_dims(wv, 0)?;
    let nf = kb.cast(n, DType::F32)?;
    let rstd = kb.expr(|e| {
        let ms = (e.of(v) * e.of(v)).sum(1) / e.of(nf);
        ms + e.of(eps)
    })?;
    let rstd = kb.math_with(MathOp::Rsqrt, rstd, MathPrecision::Accurate)?;
    let rstd = kb.expand_dims(rstd, 1)?;
    let out = kb.expr(|e| e.of(v) * e.of(rstd) * e.of(wv))?;
    match (o.output, scale) {
        (RmsNormOutput::Fp8RowScale, Some(scale)) => {
            let amax = kb.expr(|e| e.of(out).abs().max_over(1))?;
            // 448 / amax, kept finite for a row of zeros (whose values stay 0).
            let inv =
                kb.expr(|e| (e.of(amax).max(f32::MIN_POSITIVE) / FP8_E4M3_MAX).reciprocal())?;
            let s = kb.div(amax, FP8_E4M3_MAX)?;
            let ps = kb.add(scale, rows.rows)?;
            kb.store(ps, s, Some(rows.ok1))?;
            let inv = kb.expand_dims(inv, 1)?;
            let q = kb.mul(out, inv)?;
            store_as(&mut kb, y, offs, q, DType::F8E4M3, mask)?;
        }
        (RmsNormOutput::Fp8TensorScale, Some(scale)) => {
            let s = kb.load(scale, None, None)?;
            let inv = kb.div(1.0f32, s)?;
            let q = kb.mul(out, inv)?;
            store_as(&mut kb, y, offs, q, DType::F8E4M3, mask)?;
        }
        _ => store_as(&mut kb, y, offs, out, t, mask)?,
    }
    kb.finish()
}

/// The host reference of [`rmsnorm_kernel`] (without scaling): each `n`-element row of `x`
/// times `1 / sqrt(mean(x²) + eps)` times `w`, in f64. With a residual, pass the sum as the
/// kernel stores it.
pub fn rmsnorm_reference(x: &[f32], w: &[f32], n: usize, eps: f32) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(n.max(1)) {
        let ms = row.iter().map(|&v| v as f64 * v as f64).sum::<f64>() / row.len() as f64;
        let rstd = 1.0 / (ms + eps as f64).sqrt();
        out.extend(
            row.iter()
                .zip(w)
                .map(|(&v, &wj)| v as f64 * rstd * wj as f64),
        );
    }
    out
}

/// The per-row fp8 scales of [`RmsNormOutput::Fp8RowScale`] for the reference output `y`
/// (rows of `n`): `amax(|y|) / 448`.
pub fn fp8_row_scales_reference(y: &[f64], n: usize) -> Vec<f64> {
    y.chunks(n.max(1))
        .map(|row| row.iter().fold(0.0f64, |a, v| a.max(v.abs())) / FP8_E4M3_MAX)
        .collect()
}
