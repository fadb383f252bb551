//! The blocked layouts of the ready-made kernels, as [`Blocked`] encodings (the builder lays
//! them out for each tile's shape).

use crate::layout::encoding::{Blocked, Encoding, Slice};
use crate::layout::LinearLayout;

use super::super::{KernelBuilder, Result, Target, Value};
use super::{check_pow2, Tile2d};

/// A 1-D blocked layout of `size` elements: `per_thread` consecutive elements per thread, all
/// lanes of the target, `num_warps` warps (Gluon's `BlockedLayout([per_thread], [lanes],
/// [num_warps], [0])` laid out for `[size]`).
pub fn blocked_1d(
    target: Target,
    per_thread: u32,
    num_warps: u32,
    size: u32,
) -> Result<LinearLayout> {
    check_pow2("blocked_1d", "per_thread", per_thread as u64, 1, 1 << 12)?;
    check_pow2("blocked_1d", "num_warps", num_warps as u64, 1, 32)?;
    check_pow2("blocked_1d", "size", size as u64, 1, 1 << 30)?;
    let enc = Blocked::new(&[per_thread], &[target.warp_size()], &[num_warps], &[0]);
    Ok(Encoding::from(enc).to_linear_layout(&[size as u64])?)
}

/// The 2-D blocked layout of a `rows × cols` tile: `per_thread` consecutive columns per thread,
/// lanes along the columns first, warps along the rows.
pub fn tile_layout(target: Target, t: Tile2d) -> Result<Blocked> {
    check_pow2("tile_layout", "rows", t.rows as u64, 1, 1 << 16)?;
    check_pow2("tile_layout", "cols", t.cols as u64, 1, 1 << 16)?;
    check_pow2("tile_layout", "per_thread", t.per_thread as u64, 1, 1 << 12)?;
    check_pow2("tile_layout", "num_warps", t.num_warps as u64, 1, 32)?;
    let tpw = target.warp_size();
    let lanes_c = (t.cols / t.per_thread).clamp(1, tpw);
    let lanes_r = tpw / lanes_c;
    Ok(Blocked::new(
        &[1, t.per_thread],
        &[lanes_r, lanes_c],
        &[t.num_warps, 1],
        &[1, 0],
    ))
}

/// The row and column index of every element of a `shape` tile laid out by `layout` (a 2-D
/// distributed encoding), offset by `r0` and `c0` where given: `rows[:, None]` and
/// `cols[None, :]` built in the slices of `layout` and broadcast to it, as Gluon writes them.
pub fn tile_coords(
    kb: &mut KernelBuilder<'_>,
    layout: &Encoding,
    shape: [u64; 2],
    r0: Option<Value>,
    c0: Option<Value>,
) -> Result<(Value, Value)> {
    let mut rows = kb.arange(0, shape[0] as i32, Slice::new(1, layout.clone()))?;
    if let Some(r0) = r0 {
        rows = kb.add(rows, r0)?;
    }
    let mut cols = kb.arange(0, shape[1] as i32, Slice::new(0, layout.clone()))?;
    if let Some(c0) = c0 {
        cols = kb.add(cols, c0)?;
    }
    let rows = kb.expand_dims(rows, 1)?;
    let rows = kb.broadcast_to(rows, (layout, shape))?;
    let cols = kb.expand_dims(cols, 0)?;
    let cols = kb.broadcast_to(cols, (layout, shape))?;
    Ok((rows, cols))
}

/// This program's block of a 1-D array of `n` elements: the offsets `pid · block +
/// arange(block)` in `layout` (a [`blocked_1d`] of `block`) and the mask `offs < n`. Its ops
/// record the caller's line, the kernel's.
#[track_caller]
pub(super) fn block_offsets(
    kb: &mut KernelBuilder<'_>,
    layout: &LinearLayout,
    block: u32,
    n: Value,
) -> Result<(Value, Value)> {
    let pid = kb.program_id(0)?;
    let start = kb.mul(pid, block as i32)?;
    let offs = kb.arange(0, block as i32, layout)?;
    let offs = kb.add(offs, start)?;
    let mask = kb.lt(offs, n)?;
    Ok((offs, mask))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tile laid out by [`tile_layout`] against the textbook formula of a blocked layout (order
    /// [1, 0]: columns fastest): a thread's 4 columns, 16 lanes across and 2 down, 4 warps down,
    /// then a second row block in registers.
    #[test]
    fn tile_layout_matches_the_blocked_formula() {
        let t = Tile2d {
            rows: 16,
            cols: 64,
            per_thread: 4,
            num_warps: 4,
        };
        let enc = tile_layout(Target::SM90, t).unwrap();
        assert_eq!(enc.threads_per_warp, [2, 16]);
        let ll = Encoding::from(enc).to_linear_layout(&[16, 64]).unwrap();
        for r in 0..4u64 {
            for l in 0..32u64 {
                for w in 0..4u64 {
                    let got: Vec<u64> = ll
                        .apply(&[("register", r), ("lane", l), ("warp", w)])
                        .unwrap()
                        .into_iter()
                        .map(|(_, x)| x)
                        .collect();
                    let row = l / 16 + 2 * w;
                    let col = r % 4 + 4 * (l % 16);
                    assert_eq!(got, vec![row, col], "r {r} l {l} w {w}");
                }
            }
        }
    }

    /// A tile smaller than the CTA tile: warps beyond it hold copies; larger: registers repeat.
    #[test]
    fn blocked_1d_broadcasts_and_wraps() {
        let small = blocked_1d(Target::SM90, 1, 4, 32).unwrap();
        assert_eq!(small.bases("warp").unwrap(), vec![vec![0], vec![0]]);
        let big = blocked_1d(Target::SM90, 4, 2, 1024).unwrap();
        assert_eq!(
            big.bases("register").unwrap(),
            vec![vec![1], vec![2], vec![256], vec![512]]
        );
        assert!(blocked_1d(Target::SM90, 3, 4, 512).is_err());
    }
}
