//! `y = xᵀ` through shared memory, as Gluon's transpose tutorial: each CTA loads a tile of `x`
//! in a blocked layout coalesced along `x`'s rows, `convert_layout`s it to a blocked layout
//! coalesced along `x`'s columns (which are `y`'s rows) and stores it there. Both global accesses
//! are 16-byte vectors; the conversion is the planner's shared-memory round trip through a
//! swizzled scratch layout (no bank conflicts predicted).

use crate::layout::convert::plan_conversion;
use crate::layout::encoding::{Blocked, Encoding};
use crate::layout::LinearLayout;

use super::super::{DType, Kernel, KernelBuilder, Result, Target};
use super::{check_pow2, tile_indices, Context, Tile2d};

/// Tile and thread configuration of [`transpose_smem_kernel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransposeConfig {
    /// Rows of `x` per CTA (a power of two).
    pub tile_rows: u32,
    /// Columns of `x` per CTA (a power of two).
    pub tile_cols: u32,
    /// Consecutive elements per thread and access, in both layouts (4 f32 = 16 bytes).
    pub per_thread: u32,
    /// Warps per CTA.
    pub num_warps: u32,
}

/// The configurations the examples, tests and benchmarks try: 64 × 64 with 4 and 8 warps,
/// 32 × 128 with 4, 128 × 64 with 8; 4 f32 (16 bytes) per thread and access.
pub const TRANSPOSE_CONFIGS: [TransposeConfig; 4] = [
    TransposeConfig::new(64, 64, 4),
    TransposeConfig::new(64, 64, 8),
    TransposeConfig::new(32, 128, 4),
    TransposeConfig::new(128, 64, 8),
];

impl TransposeConfig {
    /// A `tile_rows × tile_cols` tile over `num_warps` warps, 4 f32 (16 bytes) per thread and
    /// access.
    pub const fn new(tile_rows: u32, tile_cols: u32, num_warps: u32) -> Self {
        TransposeConfig {
            tile_rows,
            tile_cols,
            per_thread: 4,
            num_warps,
        }
    }

    /// The launch grid for an `m × n` matrix `x`: `(n / tile_cols, m / tile_rows)`, rounded up
    /// (program id 0 walks along `x`'s rows, so CTAs launched together read whole rows).
    pub fn grid(&self, m: u64, n: u64) -> (u32, u32, u32) {
        (
            n.div_ceil(self.tile_cols as u64) as u32,
            m.div_ceil(self.tile_rows as u64) as u32,
            1,
        )
    }
}

/// Lanes along the contiguous dim: enough for one 128-byte line per row
/// (`128 / (4 · per_thread)` lanes of `per_thread` f32), at most the tile and the warp. A warp
/// then reads or writes whole lines of several rows, and the conversion between the two layouts
/// keeps 16-byte shared-memory accesses on both sides with no bank conflicts (a warp spanning all
/// 64 columns of a row, with its transpose spread over the other dim, conflicts).
fn contiguous_lanes(target: Target, per_thread: u32, extent: u32) -> u32 {
    (128 / (4 * per_thread))
        .min(extent / per_thread)
        .clamp(1, target.warp_size())
}

/// The layout the tile is loaded in: `per_thread` consecutive columns of `x` per thread, lanes
/// along the columns first (one 128-byte line per row), warps along the rows (coalesced along
/// `x`'s rows).
pub fn transpose_load_layout(target: Target, c: TransposeConfig) -> Result<Blocked> {
    check(c)?;
    let tpw = target.warp_size();
    let lanes_c = contiguous_lanes(target, c.per_thread, c.tile_cols);
    Ok(Blocked::new(
        &[1, c.per_thread],
        &[tpw / lanes_c, lanes_c],
        &[c.num_warps, 1],
        &[1, 0],
    ))
}

/// The layout the tile is stored in: `per_thread` consecutive rows of `x` (= consecutive
/// elements of a row of `y`) per thread, lanes down `x`'s columns first (one 128-byte line of
/// `y` per row), warps across them (coalesced along `y`'s rows).
pub fn transpose_store_layout(target: Target, c: TransposeConfig) -> Result<Blocked> {
    check(c)?;
    let tpw = target.warp_size();
    let lanes_r = contiguous_lanes(target, c.per_thread, c.tile_rows);
    Ok(Blocked::new(
        &[c.per_thread, 1],
        &[lanes_r, tpw / lanes_r],
        &[1, c.num_warps],
        &[0, 1],
    ))
}

/// The load and store layouts as linear layouts with the same registers in another order: the
/// register bases the planner's shared-memory round trip moves as one vector (bases both layouts
/// hold in registers) first, in the plan's order. The builder stores and loads registers
/// `r, …, r+v-1` as one vector when their scratch offsets are consecutive, so staged this way the
/// round trip is 16-byte `st.shared.v4` / `ld.shared.v4` (with the layouts of the global
/// accesses, whose first registers are the 4 consecutive columns or rows, it would be scalar).
/// Converting to and from them only renames registers. `None` when the plan's vector is not made
/// of such common register bases (then the tile is converted directly).
pub fn transpose_staging_layouts(
    target: Target,
    c: TransposeConfig,
) -> Result<Option<(LinearLayout, LinearLayout)>> {
    let shape = [c.tile_rows as u64, c.tile_cols as u64];
    let a = Encoding::from(transpose_load_layout(target, c)?).to_linear_layout(&shape)?;
    let b = Encoding::from(transpose_store_layout(target, c)?).to_linear_layout(&shape)?;
    let plan = plan_conversion(&a, &b, 32, target)?;
    let Some(sp) = plan.shared.as_ref() else {
        return Ok(None);
    };
    let vector = sp.layout.bases("vector")?;
    let (ra, rb) = (a.bases("register")?, b.bases("register")?);
    if vector.is_empty() || !vector.iter().all(|v| ra.contains(v) && rb.contains(v)) {
        return Ok(None);
    }
    let front = |l: &LinearLayout, reg: Vec<Vec<u64>>| -> Result<LinearLayout> {
        let mut regs = vector.clone();
        regs.extend(reg.into_iter().filter(|x| !vector.contains(x)));
        Ok(LinearLayout::from_bases(
            [
                ("register", regs),
                ("lane", l.bases("lane")?),
                ("warp", l.bases("warp")?),
                ("block", l.bases("block")?),
            ],
            [("dim0", shape[0]), ("dim1", shape[1])],
            false,
        )?)
    };
    Ok(Some((front(&a, ra)?, front(&b, rb)?)))
}

fn tile2d(c: TransposeConfig) -> Tile2d {
    Tile2d {
        rows: c.tile_rows,
        cols: c.tile_cols,
        per_thread: c.per_thread,
        num_warps: c.num_warps,
    }
}

fn check(c: TransposeConfig) -> Result<()> {
    const OP: &str = "transpose_smem_kernel";
    check_pow2(OP, "tile_rows", c.tile_rows as u64, 1, 1 << 16)?;
    check_pow2(OP, "tile_cols", c.tile_cols as u64, 1, 1 << 16)?;
    check_pow2(OP, "per_thread", c.per_thread as u64, 1, 1 << 12)?;
    check_pow2(OP, "num_warps", c.num_warps as u64, 1, 32)
}

/// The largest power of two up to 16 that divides `x` (16 for 0): the divisibility a kernel
/// specialised for a size `x` may declare, as Triton specialises integer arguments.
pub fn size_divisibility(x: u64) -> u64 {
    if x == 0 {
        16
    } else {
        (x & x.wrapping_neg()).min(16)
    }
}

/// `y = xᵀ` for a row-major `m × n` f32 matrix `x` into the row-major `n × m` matrix `y`,
/// through shared memory (see the [module docs](self)). Parameters: `x, y: ptr<f32>` (16-byte
/// aligned), `m, n: i32`, both multiples of 16 (edge tiles are masked; any `m`, `n`: use
/// [`transpose_smem_kernel_for_shape`]). Grid: [`TransposeConfig::grid`].
pub fn transpose_smem_kernel(
    ctx: &Context,
    target: Target,
    c: TransposeConfig,
) -> Result<Kernel<'_>> {
    build(ctx, target, c, 16, 16)
}

/// [`transpose_smem_kernel`] specialised for an `m × n` matrix: `m` and `n` are declared
/// divisible by the largest power of two up to 16 dividing them ([`size_divisibility`]), so the
/// accesses are as wide as the row strides allow (16-byte vectors when both are multiples of 4,
/// scalars along `x`'s rows when `n` is odd). The kernel runs for any sizes with that
/// divisibility.
pub fn transpose_smem_kernel_for_shape(
    ctx: &Context,
    target: Target,
    c: TransposeConfig,
    m: u64,
    n: u64,
) -> Result<Kernel<'_>> {
    build(ctx, target, c, size_divisibility(m), size_divisibility(n))
}

fn build(
    ctx: &Context,
    target: Target,
    c: TransposeConfig,
    div_m: u64,
    div_n: u64,
) -> Result<Kernel<'_>> {
    check(c)?;
    let load_l = transpose_load_layout(target, c)?;
    let store_l = transpose_store_layout(target, c)?;
    let t = tile2d(c);
    let mut kb = KernelBuilder::new(ctx, target, "transpose_smem", c.num_warps)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let m = kb.arg_i32("m", div_m)?;
    let n = kb.arg_i32("n", div_n)?;
    let pid_c = kb.program_id(0)?;
    let pid_r = kb.program_id(1)?;
    // Load x[r, c] = x + r * n + c, coalesced along x's rows.
    let (rows, cols) = tile_indices(&mut kb, &load_l, t, pid_r, pid_c)?;
    let mr = kb.lt(rows, m)?;
    let mc = kb.lt(cols, n)?;
    let mask = kb.and(mr, mc)?;
    let off = kb.mul(rows, n)?;
    let off = kb.add(off, cols)?;
    let src = kb.add(x, off)?;
    let v = kb.load(src, Some(mask), None)?;
    // Move the tile to the layout coalesced along x's columns (through shared memory, with the
    // registers renamed around it so that both sides move 16-byte vectors).
    let v = match transpose_staging_layouts(target, c)? {
        Some((a, b)) => {
            let v = kb.convert_layout(v, &a)?;
            kb.convert_layout(v, &b)?
        }
        None => v,
    };
    let v = kb.convert_layout(v, (&store_l, [c.tile_rows as u64, c.tile_cols as u64]))?;
    // Store y[c, r] = y + c * m + r, the indices computed in the store layout.
    let (rows, cols) = tile_indices(&mut kb, &store_l, t, pid_r, pid_c)?;
    let mr = kb.lt(rows, m)?;
    let mc = kb.lt(cols, n)?;
    let mask = kb.and(mr, mc)?;
    let off = kb.mul(cols, m)?;
    let off = kb.add(off, rows)?;
    let dst = kb.add(y, off)?;
    kb.store(dst, v, Some(mask))?;
    kb.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_divisibility_is_triton_s_specialisation() {
        assert_eq!(size_divisibility(0), 16);
        assert_eq!(size_divisibility(777), 1);
        assert_eq!(size_divisibility(1000), 8);
        assert_eq!(size_divisibility(4096), 16);
        assert_eq!(size_divisibility(2050), 2);
    }

    #[test]
    fn bad_configurations_are_refused() {
        let ctx = Context::new();
        let c = TransposeConfig {
            tile_rows: 48,
            ..TRANSPOSE_CONFIGS[0]
        };
        let e = transpose_smem_kernel(&ctx, Target::SM90, c).unwrap_err();
        assert!(e.to_string().contains("tile_rows"), "{e}");
    }
}
