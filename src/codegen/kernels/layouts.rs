//! Linear layouts of Triton's blocked and slice layouts, for the ready-made kernels.

use crate::layout::{Dim, LinearLayout};

use super::super::{CodegenError, Result, Target};
use super::check_pow2;

/// The linear layout of Triton's `BlockedLayout` for a tile of `shape`: per dim, `size_per_thread`
/// consecutive elements in registers, then `threads_per_warp` lanes, then `warps_per_cta` warps,
/// dims taken fastest first as listed in `order`. A tile larger than that CTA tile repeats it in
/// more registers; a smaller one maps the extra lanes or warps onto copies (zero bases).
pub fn blocked(
    target: Target,
    shape: &[u64],
    size_per_thread: &[u64],
    threads_per_warp: &[u64],
    warps_per_cta: &[u64],
    order: &[usize],
) -> Result<LinearLayout> {
    let rank = shape.len();
    let same = [
        size_per_thread.len(),
        threads_per_warp.len(),
        warps_per_cta.len(),
        order.len(),
    ];
    if rank == 0 || same.iter().any(|&l| l != rank) {
        return Err(CodegenError::arg(
            "blocked",
            format!("every parameter needs {rank} entries (one per dim)"),
        ));
    }
    let mut seen = vec![false; rank];
    if !order
        .iter()
        .all(|&d| d < rank && !std::mem::replace(&mut seen[d], true))
    {
        return Err(CodegenError::arg(
            "blocked",
            format!("order {order:?} is not a permutation"),
        ));
    }
    for d in 0..rank {
        check_pow2("blocked", "shape", shape[d], 1, 1 << 30)?;
        check_pow2("blocked", "size_per_thread", size_per_thread[d], 1, 1 << 12)?;
        check_pow2("blocked", "threads_per_warp", threads_per_warp[d], 1, 64)?;
        check_pow2("blocked", "warps_per_cta", warps_per_cta[d], 1, 32)?;
    }
    let tpw: u64 = threads_per_warp.iter().product();
    if tpw != target.warp_size() as u64 {
        return Err(CodegenError::arg(
            "blocked",
            format!(
                "threads_per_warp multiply to {tpw}; {target} has {} per warp",
                target.warp_size()
            ),
        ));
    }
    let mut pos = vec![0u32; rank];
    let log = |x: u64| x.trailing_zeros();
    let unit = |d: usize, pos: &mut Vec<u32>| {
        let mut b = vec![0u64; rank];
        if pos[d] < log(shape[d]) {
            b[d] = 1 << pos[d];
        }
        pos[d] += 1;
        b
    };
    let take = |counts: &[u64], pos: &mut Vec<u32>| {
        let mut bases = Vec::new();
        for &d in order {
            for _ in 0..log(counts[d]) {
                bases.push(unit(d, pos));
            }
        }
        bases
    };
    let mut reg = take(size_per_thread, &mut pos);
    let lane = take(threads_per_warp, &mut pos);
    let warp = take(warps_per_cta, &mut pos);
    for &d in order {
        while pos[d] < log(shape[d]) {
            let mut b = vec![0u64; rank];
            b[d] = 1 << pos[d];
            pos[d] += 1;
            reg.push(b);
        }
    }
    Ok(LinearLayout::from_bases(
        [(Dim::REGISTER, reg), (Dim::LANE, lane), (Dim::WARP, warp)],
        shape.iter().enumerate().map(|(i, &s)| (Dim::dim(i), s)),
        false,
    )?)
}

/// A 1-D blocked layout of `size` elements: `per_thread` consecutive elements per thread, all
/// lanes of the target, `num_warps` warps.
pub fn blocked_1d(
    target: Target,
    per_thread: u32,
    num_warps: u32,
    size: u32,
) -> Result<LinearLayout> {
    blocked(
        target,
        &[size as u64],
        &[per_thread as u64],
        &[target.warp_size() as u64],
        &[num_warps as u64],
        &[0],
    )
}

/// Triton's `SliceLayout(axis, parent)`: `parent` with output dim `axis` removed (the bases that
/// stepped it now repeat elements). `expand_dims(…, axis)` of a tile in this layout broadcasts
/// back into `parent`.
pub fn slice(parent: &LinearLayout, axis: usize) -> Result<LinearLayout> {
    let rank = parent.num_out_dims();
    if axis >= rank || rank < 2 {
        return Err(CodegenError::arg(
            "slice",
            format!("axis {axis} of a rank-{rank} layout"),
        ));
    }
    let outs: Vec<(Dim, u64)> = parent
        .out_dims()
        .enumerate()
        .filter(|(i, _)| *i != axis)
        .enumerate()
        .map(|(j, (_, (_, s)))| (Dim::dim(j), s))
        .collect();
    let ins: Vec<(Dim, Vec<Vec<u64>>)> = parent
        .all_bases()
        .into_iter()
        .map(|(d, bs)| {
            let bs = bs
                .into_iter()
                .map(|b| {
                    b.into_iter()
                        .enumerate()
                        .filter(|(i, _)| *i != axis)
                        .map(|(_, x)| x)
                        .collect()
                })
                .collect();
            (d, bs)
        })
        .collect();
    Ok(LinearLayout::from_bases(ins, outs, false)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `blocked` against the textbook formula of a blocked layout (order [1, 0]: columns fastest):
    /// a thread's 4 columns, 16 lanes across and 2 down, 4 warps down, then a second row block
    /// in registers.
    #[test]
    fn blocked_matches_the_blocked_formula() {
        let ll = blocked(Target::SM90, &[16, 64], &[1, 4], &[2, 16], &[4, 1], &[1, 0]).unwrap();
        for r in 0..8u64 {
            for l in 0..32u64 {
                for w in 0..4u64 {
                    let got: Vec<u64> = ll
                        .apply(&[("register", r), ("lane", l), ("warp", w)])
                        .unwrap()
                        .into_iter()
                        .map(|(_, x)| x)
                        .collect();
                    let row = l / 16 + 2 * w + 8 * (r / 4);
                    let col = r % 4 + 4 * (l % 16);
                    assert_eq!(got, vec![row, col], "r {r} l {l} w {w}");
                }
            }
        }
    }

    /// A tile smaller than the CTA tile: warps beyond it hold copies; larger: registers repeat.
    #[test]
    fn blocked_broadcasts_and_wraps() {
        let small = blocked(Target::SM90, &[32], &[1], &[32], &[4], &[0]).unwrap();
        assert_eq!(small.bases("warp").unwrap(), vec![vec![0], vec![0]]);
        let big = blocked(Target::SM90, &[1024], &[4], &[32], &[2], &[0]).unwrap();
        assert_eq!(
            big.bases("register").unwrap(),
            vec![vec![1], vec![2], vec![256], vec![512]]
        );
    }

    #[test]
    fn slice_drops_a_dim() {
        let ll = blocked(Target::SM90, &[16, 64], &[1, 4], &[2, 16], &[4, 1], &[1, 0]).unwrap();
        let s = slice(&ll, 0).unwrap();
        assert_eq!(s.out_dims().map(|(_, n)| n).collect::<Vec<_>>(), vec![64]);
        assert_eq!(s.bases("warp").unwrap(), vec![vec![0], vec![0]]);
        assert!(slice(&ll, 2).is_err());
    }
}
