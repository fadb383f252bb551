//! Rotary position embedding applied in place to queries or keys: each pair of a head's
//! elements rotated by its token's angle, from precomputed cos/sin tables.

use super::super::{CodegenError, Context, DType, Kernel, KernelBuilder, Result, Target, Value};
use super::row_config::RowConfig;
use super::row_tile::{
    load_f32, store_as, tile_cols, tile_mask_offs, tile_rows, TileCols, TileRows,
};
use crate::layout::encoding::Blocked;

/// Which elements of a head form the rotated pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RopeStyle {
    /// `(x[2i], x[2i + 1])` (GPT-J, Meta's original LLaMA).
    Interleaved,
    /// `(x[i], x[i + d/2])` (GPT-NeoX, Hugging Face's `rotate_half`).
    HalfRotated,
}

/// `x[t, h, :]` rotated in place for every token `t` and head `h` of a contiguous
/// `tokens × heads × d` tensor of `c.dtype`: pair `i < d/2` (`RopeStyle`) becomes
/// `(a·cos - b·sin, b·cos + a·sin)` with `cos = cos[t, i]`, `sin = sin[t, i]` (f32 tables of
/// `tokens × d/2`), computed in f32. Each CTA takes `rows_per_cta` (token, head) rows as a
/// `[rows_per_cta, block_n]` tile of pairs (`block_n ≥ d/2`).
///
/// Parameters: `x: ptr<T>`, `cos, sin: ptr<f32>`, `rows: i32` (`tokens · heads`),
/// `heads: i32`, `half: i32` (`d/2`, a multiple of `c.n_divisibility`). Grid:
/// [`RowConfig::grid`]`(rows)`. Assumes `half ≤ block_n` and `rows · d < 2^31`
/// ([`RowConfig::check_shape`] with `m = rows`, `n = half`, and `2 · rows · half < 2^31`).
///
/// Errors: a configuration [`RowConfig::layout`] refuses (four tiles over 128 f32 a thread)
/// or an element type other than f32/f16/bf16.
pub fn rope_kernel(
    ctx: &Context,
    target: Target,
    c: RowConfig,
    style: RopeStyle,
) -> Result<Kernel<'_>> {
    let layout = c.layout("rope_kernel", target, 4, 0)?;
    let mut kb = KernelBuilder::new(ctx, target, "rope", c.num_warps)?;
    kb.allow_fp_contraction(true);
    let x = kb.arg_ptr("x", c.dtype, 16)?;
    let cos = kb.arg_ptr("cos", DType::F32, 16)?;
    let sin = kb.arg_ptr("sin", DType::F32, 16)?;
    let rows_n = kb.arg_i32("rows", 1)?;
    let heads = kb.arg_i32("heads", 1)?;
    let half = kb.arg_i32("half", c.n_divisibility as u64)?;
    let d = kb.mul(half, 2)?;
    let pid = kb.program_id(0)?;
    // The tile's rows and pairs in `l`'s layout, and which are inside the tensor.
    let pairs_in = |kb: &mut KernelBuilder<'_>, l: &Blocked| {
        let rows = tile_rows(kb, l, c.rows_per_cta, pid, rows_n, d)?;
        let cols = tile_cols(kb, l, c.block_n, None, half)?;
        let (ok, _) = tile_mask_offs(kb, &rows, &cols)?;
        Ok::<_, CodegenError>((rows, cols, ok))
    };
    // The cos/sin of the pairs `(rows, cols, ok)` name, and the pairs `(a, b)` rotated.
    let rotate = |kb: &mut KernelBuilder<'_>,
                  (rows, cols, ok): &(TileRows, TileCols, Value),
                  a: Value,
                  b: Value| {
        let ok = *ok;
        let token = kb.div(rows.rows, heads)?;
        let table_row = kb.mul(token, half)?;
        let table_row = kb.expand_dims(table_row, 1)?;
        let toff = kb.add(table_row, cols.cols)?;
        let cv = load_f32(kb, cos, toff, ok, 0.0)?;
        let sv = load_f32(kb, sin, toff, ok, 0.0)?;
        let ra = kb.expr(|e| e.of(a) * e.of(cv) - e.of(b) * e.of(sv))?;
        let rb = kb.expr(|e| e.of(b) * e.of(cv) + e.of(a) * e.of(sv))?;
        Ok::<_, CodegenError>((ra, rb))
    };
    let per_thread = layout.size_per_thread[1];
    match style {
        // Pairs (2i, 2i + 1), a thread holding at least one whole pair: the row's d elements load
        // and store as one contiguous tile (vector accesses), a reshape to [rows, pairs, 2] and a
        // split take the pairs apart in registers, and the tables are read in the layout that
        // leaves: the same threads with half the elements each.
        RopeStyle::Interleaved if per_thread >= 2 => {
            let (r, pairs) = (u64::from(c.rows_per_cta), u64::from(c.block_n));
            let rows = tile_rows(&mut kb, &layout, c.rows_per_cta, pid, rows_n, d)?;
            let cols2 = tile_cols(&mut kb, &layout, 2 * c.block_n, None, d)?;
            let (mask2, offs2) = tile_mask_offs(&mut kb, &rows, &cols2)?;
            let ab = load_f32(&mut kb, x, offs2, mask2, 0.0)?;
            let ab = kb.reshape(ab, &[r, pairs, 2])?;
            let (a, b) = kb.split(ab)?;
            let mut pair_l = layout.clone();
            pair_l.size_per_thread[1] = per_thread / 2;
            let at = pairs_in(&mut kb, &pair_l)?;
            let (ra, rb) = rotate(&mut kb, &at, a, b)?;
            let out = kb.join(ra, rb)?;
            let out = kb.reshape(out, &[r, 2 * pairs])?;
            store_as(&mut kb, x, offs2, out, c.dtype, mask2)?;
        }
        // Pairs (i, i + d/2) (two contiguous tiles of d/2 elements), or (2i, 2i + 1) one
        // element a thread.
        _ => {
            let (rows, cols, mask) = pairs_in(&mut kb, &layout)?;
            let (first, second) = match style {
                RopeStyle::Interleaved => {
                    let two_i = kb.mul(cols.cols, 2)?;
                    (two_i, kb.add(two_i, 1)?)
                }
                RopeStyle::HalfRotated => (cols.cols, kb.add(cols.cols, half)?),
            };
            let off_a = kb.add(rows.row_off, first)?;
            let off_b = kb.add(rows.row_off, second)?;
            let a = load_f32(&mut kb, x, off_a, mask, 0.0)?;
            let b = load_f32(&mut kb, x, off_b, mask, 0.0)?;
            let (ra, rb) = rotate(&mut kb, &(rows, cols, mask), a, b)?;
            store_as(&mut kb, x, off_a, ra, c.dtype, mask)?;
            store_as(&mut kb, x, off_b, rb, c.dtype, mask)?;
        }
    }
    kb.finish()
}

/// The host reference of [`rope_kernel`] in f64: `x` (`tokens × heads × d`) rotated.
pub fn rope_reference(
    x: &[f32],
    cos: &[f32],
    sin: &[f32],
    heads: usize,
    d: usize,
    style: RopeStyle,
) -> Vec<f64> {
    let half = d / 2;
    let mut out: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    for (r, row) in out.chunks_mut(d.max(1)).enumerate() {
        let t = r / heads.max(1);
        for i in 0..half {
            let (ia, ib) = match style {
                RopeStyle::Interleaved => (2 * i, 2 * i + 1),
                RopeStyle::HalfRotated => (i, i + half),
            };
            let (c, s) = (cos[t * half + i] as f64, sin[t * half + i] as f64);
            let (a, b) = (row[ia], row[ib]);
            row[ia] = a * c - b * s;
            row[ib] = b * c + a * s;
        }
    }
    out
}
