//! RMSNorm forward in one pass, whole rows in registers: `y = x / rms(x) · w`, with an optional
//! residual add written back (the pre-norm transformer's `h = x + residual`) and an optional
//! fp8 e4m3 output scaled per row or per tensor.

use crate::layout::encoding::Slice;

use super::super::{
    Context, DType, Kernel, KernelBuilder, MathOp, MathPrecision, Result, Target, Value,
};
use super::row_config::RowConfig;
use super::row_stages::{persistent_blocks, stage_bytes, walk_block, walk_col_mask, RowStages};
use super::row_tile::{
    self, load_f32, store_as, tile_cols, tile_mask_offs, tile_rows, TileCols, TileRows,
};

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
    let layout = c.layout("rmsnorm_kernel", target, 1 + o.residual as u64, 1)?;
    let mut kb = KernelBuilder::new(ctx, target, "rmsnorm", c.num_warps)?;
    let a = Args::declare(&mut kb, &c, o)?;
    let pid = kb.program_id(0)?;
    let rows = tile_rows(&mut kb, &layout, c.rows_per_cta, pid, a.m, a.n)?;
    let cols = tile_cols(&mut kb, &layout, c.block_n, None, a.n)?;
    let (mask, offs) = tile_mask_offs(&mut kb, &rows, &cols)?;
    let v = a.load_sum(&mut kb, offs, mask)?;
    a.normalise(&mut kb, v, (&rows, &cols, cols.ok1), offs, mask)?;
    kb.finish()
}

/// [`rmsnorm_kernel`] for rows longer than a tile holds (up to 256K columns and past): each
/// CTA walks its rows `block_n` columns at a time twice. The first pass adds the residual
/// (writing the sum back), sums the squares and, for a per-row fp8 scale, takes
/// `amax(|x · w|)` (`amax(|y|) = amax(|x · w|) · rstd`, as `rstd > 0`); the second reads the
/// row again (the sum, with a residual: the same thread reads back what it wrote) and writes
/// `y`. The row is read twice (the second time mostly from L2 for rows of a few hundred KB).
///
/// Parameters and grid as [`rmsnorm_kernel`]; `n` may be any length (`m · n < 2^31`), not a
/// multiple of `block_n`.
///
/// Errors: as [`rmsnorm_kernel`].
pub fn rmsnorm_looped_kernel(
    ctx: &Context,
    target: Target,
    c: RowConfig,
    o: RmsNormOptions,
) -> Result<Kernel<'_>> {
    let layout = c.layout("rmsnorm_looped_kernel", target, 2, 0)?;
    let mut kb = KernelBuilder::new(ctx, target, "rmsnorm_looped", c.num_warps)?;
    let a = Args::declare(&mut kb, &c, o)?;
    let pid = kb.program_id(0)?;
    let rows = tile_rows(&mut kb, &layout, c.rows_per_cta, pid, a.m, a.n)?;
    let per_row = (
        &Slice::new(1, layout.clone().into()),
        [c.rows_per_cta as u64],
    );
    let zero = kb.full(per_row, DType::F32, 0.0f32)?;
    let row_fp8 = o.output == RmsNormOutput::Fp8RowScale;
    let init = if row_fp8 {
        vec![zero, zero]
    } else {
        vec![zero]
    };
    let acc = kb.for_range(0, a.n, c.block_n, &init, |kb, c0, acc| {
        let cols = tile_cols(kb, &layout, c.block_n, Some(c0), a.n)?;
        let (mask, offs) = tile_mask_offs(kb, &rows, &cols)?;
        let v = a.load_sum(kb, offs, mask)?;
        let mut next = vec![kb.expr(|e| (e.of(v) * e.of(v)).sum(1) + e.of(acc[0]))?];
        if row_fp8 {
            let wv = load_f32(kb, a.w, cols.cols1, cols.ok1, 0.0)?;
            let wv = kb.expand_dims(wv, 0)?;
            next.push(kb.expr(|e| (e.of(v) * e.of(wv)).abs().max_over(1).max(e.of(acc[1])))?);
        }
        Ok(next)
    })?;
    let rstd1 = a.rstd(&mut kb, acc[0])?;
    let amax = match row_fp8 {
        true => Some(kb.mul(acc[1], rstd1)?),
        false => None,
    };
    let rstd = kb.expand_dims(rstd1, 1)?;
    let inv = a.output_scale(&mut kb, amax, &rows)?;
    // The second pass reads the row as the first left it: the sum, with a residual.
    let src = a.res.unwrap_or(a.x);
    kb.for_range(0, a.n, c.block_n, &[], |kb, c0, _| {
        let cols = tile_cols(kb, &layout, c.block_n, Some(c0), a.n)?;
        let (mask, offs) = tile_mask_offs(kb, &rows, &cols)?;
        let v = load_f32(kb, src, offs, mask, 0.0)?;
        let wv = load_f32(kb, a.w, cols.cols1, cols.ok1, 0.0)?;
        let wv = kb.expand_dims(wv, 0)?;
        let out = kb.expr(|e| e.of(v) * e.of(rstd) * e.of(wv))?;
        a.store_y(kb, offs, mask, out, inv)?;
        Ok(vec![])
    })?;
    kb.finish()
}

/// [`rmsnorm_kernel`] over persistent CTAs: each walks the row blocks `pid, pid + grid, …`,
/// and while it normalises one block the next block's `x` (and residual) travel into shared
/// memory (`cp.async`, two stages), so that its loads stay in flight through the row's
/// reduction, where registers leave two CTAs an SM (16K columns). `2 · rows_per_cta · block_n`
/// elements of shared memory per input matrix.
///
/// Parameters as [`rmsnorm_kernel`]. Grid: any count up to [`RowConfig::grid`]`(m)`, best the
/// SMs times the CTAs one SM holds ([`super::norm_bwd_grid`] with that bound).
///
/// Errors: as [`rmsnorm_kernel`], a target without `cp.async` (sm_80), or stages past the
/// target's shared memory.
pub fn rmsnorm_staged_kernel(
    ctx: &Context,
    target: Target,
    c: RowConfig,
    o: RmsNormOptions,
) -> Result<Kernel<'_>> {
    let layout = c.layout("rmsnorm_staged_kernel", target, 1 + o.residual as u64, 1)?;
    let mut kb = KernelBuilder::new(ctx, target, "rmsnorm_staged", c.num_warps)?;
    let a = Args::declare(&mut kb, &c, o)?;
    let pid = kb.program_id(0)?;
    let grid = kb.num_programs(0)?;
    let cols = tile_cols(&mut kb, &layout, c.block_n, None, a.n)?;
    let (m, n) = (a.m, a.n);
    let (blocks, iters) = persistent_blocks(&mut kb, c.rows_per_cta, [m, pid, grid])?;
    let sources: Vec<Value> = [Some(a.x), a.res].into_iter().flatten().collect();
    let st = RowStages::new(&mut kb, &layout, &c, &sources)?;
    st.start(&mut kb, &cols, [pid, m, n])?;
    kb.for_range(0, iters, 1, &[], |kb, i, _| {
        let (blk, rows, mask, offs) =
            walk_block(kb, &layout, c.rows_per_cta, &cols, [i, pid, grid, m, n])?;
        let t = st.step(kb, &cols, [i, blk, grid, m, n])?;
        let v = match t.get(1) {
            Some(&r) => a.add_residual(kb, t[0], r, offs, mask)?,
            None => t[0],
        };
        let w_ok = walk_col_mask(kb, &cols, blk, blocks)?;
        a.normalise(kb, v, (&rows, &cols, w_ok), offs, mask)?;
        st.end_step(kb)?;
        Ok(vec![])
    })?;
    kb.finish()
}

/// The shared-memory bytes of [`rmsnorm_staged_kernel`]'s stages at `c`.
pub fn rmsnorm_staged_shared_bytes(c: &RowConfig, o: RmsNormOptions) -> u64 {
    stage_bytes(c, 1 + o.residual as u64)
}

/// The parameters of both RMSNorm kernels, in order, and what they share.
struct Args {
    dtype: DType,
    output: RmsNormOutput,
    x: Value,
    res: Option<Value>,
    w: Value,
    y: Value,
    scale: Option<Value>,
    m: Value,
    n: Value,
    eps: Value,
}

impl Args {
    fn declare(kb: &mut KernelBuilder<'_>, c: &RowConfig, o: RmsNormOptions) -> Result<Args> {
        kb.allow_fp_contraction(true);
        let t = c.dtype;
        let x = kb.arg_ptr("x", t, 16)?;
        let res = match o.residual {
            true => Some(kb.arg_ptr("residual", t, 16)?),
            false => None,
        };
        let w = kb.arg_ptr("w", t, 16)?;
        let fp8 = o.output != RmsNormOutput::Same;
        let y = kb.arg_ptr("y", if fp8 { DType::F8E4M3 } else { t }, 16)?;
        let scale = match fp8 {
            true => Some(kb.arg_ptr("scale", DType::F32, 16)?),
            false => None,
        };
        Ok(Args {
            dtype: t,
            output: o.output,
            x,
            res,
            w,
            y,
            scale,
            m: kb.arg_i32("m", 1)?,
            n: kb.arg_i32("n", c.n_divisibility as u64)?,
            eps: kb.arg_f32("eps")?,
        })
    }

    /// `x` at `offs` as f32, with the residual added, the sum rounded to the element type and
    /// written back (the norm sees what the next layer reads back).
    fn load_sum(&self, kb: &mut KernelBuilder<'_>, offs: Value, mask: Value) -> Result<Value> {
        let v = load_f32(kb, self.x, offs, mask, 0.0)?;
        let Some(res) = self.res else { return Ok(v) };
        let r = load_f32(kb, res, offs, mask, 0.0)?;
        self.add_residual(kb, v, r, offs, mask)
    }

    /// `v + r` (f32 tiles of `x` and the residual at `offs`) rounded to the element type,
    /// written back into the residual, as f32.
    fn add_residual(
        &self,
        kb: &mut KernelBuilder<'_>,
        v: Value,
        r: Value,
        offs: Value,
        mask: Value,
    ) -> Result<Value> {
        let Some(res) = self.res else { return Ok(v) };
        let h = kb.add(v, r)?;
        let h = if self.dtype == DType::F32 {
            h
        } else {
            kb.cast(h, self.dtype)?
        };
        let pr = kb.add(res, offs)?;
        kb.store(pr, h, Some(mask))?;
        row_tile::to_f32(kb, h)
    }

    /// Normalises the f32 rows `v` of the tile at `offs` and stores `y` where `mask`: the sum of
    /// squares, `rstd`, then `w` (its columns `cols` read where `w_ok`) after the row's
    /// statistics (from L2: every CTA reads it), so that its registers are not held beside the
    /// row's while the loads are in flight; the fp8 scale of `rows` where the output has one.
    fn normalise(
        &self,
        kb: &mut KernelBuilder<'_>,
        v: Value,
        (rows, cols, w_ok): (&TileRows, &TileCols, Value),
        offs: Value,
        mask: Value,
    ) -> Result<()> {
        let ss = kb.expr(|e| (e.of(v) * e.of(v)).sum(1))?;
        let rstd = self.rstd(kb, ss)?;
        let rstd = kb.expand_dims(rstd, 1)?;
        let wv = load_f32(kb, self.w, cols.cols1, w_ok, 0.0)?;
        let wv = kb.expand_dims(wv, 0)?;
        let out = kb.expr(|e| e.of(v) * e.of(rstd) * e.of(wv))?;
        let amax = match self.output {
            RmsNormOutput::Fp8RowScale => Some(kb.expr(|e| e.of(out).abs().max_over(1))?),
            _ => None,
        };
        let inv = self.output_scale(kb, amax, rows)?;
        self.store_y(kb, offs, mask, out, inv)
    }

    /// `rsqrt(ss / n + eps)` (accurate), one per row.
    fn rstd(&self, kb: &mut KernelBuilder<'_>, ss: Value) -> Result<Value> {
        let nf = kb.cast(self.n, DType::F32)?;
        let ms = kb.expr(|e| e.of(ss) / e.of(nf) + e.of(self.eps))?;
        kb.math_with(MathOp::Rsqrt, ms, MathPrecision::Accurate)
    }

    /// What `y` is multiplied by before its fp8 rounding: `448 / amax(|y|)` per row (writing
    /// the row's scale `amax / 448`), or `1 / scale[0]`; `None` for an output in the element
    /// type.
    fn output_scale(
        &self,
        kb: &mut KernelBuilder<'_>,
        amax: Option<Value>,
        rows: &TileRows,
    ) -> Result<Option<Value>> {
        let Some(scale) = self.scale else {
            return Ok(None);
        };
        let inv = match amax {
            Some(amax) => {
                // Kept finite for a row of zeros (whose values stay 0).
                let inv =
                    kb.expr(|e| (e.of(amax).max(f32::MIN_POSITIVE) / FP8_E4M3_MAX).reciprocal())?;
                let s = kb.div(amax, FP8_E4M3_MAX)?;
                let ps = kb.add(scale, rows.rows)?;
                kb.store(ps, s, Some(rows.ok1))?;
                kb.expand_dims(inv, 1)?
            }
            None => {
                let s = kb.load(scale, None, None)?;
                kb.div(1.0f32, s)?
            }
        };
        Ok(Some(inv))
    }

    /// Stores `y` (times `inv` and rounded to fp8 e4m3 when given, else to the element type).
    fn store_y(
        &self,
        kb: &mut KernelBuilder<'_>,
        offs: Value,
        mask: Value,
        out: Value,
        inv: Option<Value>,
    ) -> Result<()> {
        match inv {
            Some(inv) => {
                let q = kb.mul(out, inv)?;
                store_as(kb, self.y, offs, q, DType::F8E4M3, mask)
            }
            None => store_as(kb, self.y, offs, out, self.dtype, mask),
        }
    }
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
