//! Matrix plans: which `ldmatrix` / `stmatrix` instructions move a tile between registers and
//! shared memory, read off the tile's offset layout by the algebra (pure: no inkwell). The rules
//! are in the module docs of the `ldmatrix` op.

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::layout::{Dim, LinearLayout};

/// Places the bits of `x` at `positions` (bit `j` of `x` → bit `positions[j]`).
fn scatter(x: usize, positions: &[usize]) -> usize {
    positions
        .iter()
        .enumerate()
        .fold(0, |a, (j, &p)| a | (x >> j & 1) << p)
}

/// How one tile moves with `ldmatrix` or `stmatrix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MatrixPlan {
    /// `.trans`.
    pub trans: bool,
    /// Matrices per instruction (1, 2 or 4).
    pub matrices: usize,
    /// Register bits of the elements packed in one 32-bit matrix register, lowest first (none for
    /// 32-bit elements; with `.trans`, the bit choosing the stored row within a pair).
    pub word: Vec<usize>,
    /// Register bits choosing the instruction's matrices.
    pub matrix: Vec<usize>,
    /// The other moved register bits: one instruction per combination.
    pub rest: Vec<usize>,
    /// Row addresses: (register = instruction, lane, warp) → element offset.
    pub addresses: LinearLayout,
}

impl MatrixPlan {
    /// Instructions per thread.
    pub fn instructions(&self) -> usize {
        1 << self.rest.len()
    }

    /// Elements per 32-bit matrix register.
    pub fn per_word(&self) -> usize {
        1 << self.word.len()
    }

    /// The register holding element `q` of matrix `i` of instruction `n` (register bits the plan
    /// does not move are 0).
    pub fn register(&self, n: usize, i: usize, q: usize) -> usize {
        scatter(q, &self.word) | scatter(i, &self.matrix) | scatter(n, &self.rest)
    }
}

/// The `ldmatrix`/`stmatrix` plan (`.trans` or not, as asked) for moving a tile of
/// `element_bits`-bit elements whose registers sit at `offsets` ((register, lane, warp) →
/// element offset, one out dim) of a buffer with `padding`, or `None` when the layouts do not
/// allow it (see the [module docs](self)).
pub(crate) fn plan_matrix(
    offsets: &TileLayout,
    element_bits: u32,
    trans: bool,
    padding: &[(u64, u64)],
) -> Option<MatrixPlan> {
    let fits = if trans {
        element_bits == 16
    } else {
        matches!(element_bits, 8 | 16 | 32)
    };
    if !fits || offsets.lane.len() != 5 || offsets.rank() != 1 {
        return None;
    }
    // Elements per 32-bit register and per 16-byte row.
    let per_word = (32 / element_bits) as u64;
    let row = 4 * per_word;
    if padding
        .iter()
        .any(|&(interval, pad)| interval < row || pad % row != 0)
    {
        return None;
    }
    let aligned = |x: u64| x.is_multiple_of(row);
    let lanes: Vec<u64> = offsets.lane.iter().map(|b| b[0]).collect();
    let moved: Vec<usize> = (0..offsets.reg.len())
        .filter(|&j| offsets.reg[j][0] != 0)
        .collect();
    let off = |j: usize| offsets.reg[j][0];
    let (word, rows): (Vec<usize>, [u64; 3]) = if trans {
        if lanes[2..] != [1, 2, 4] {
            return None;
        }
        // Any aligned register can pair the stored rows; the first is the planner's tile.
        let &pair = moved.first()?;
        (vec![pair], [off(pair), lanes[0], lanes[1]])
    } else {
        let word: Vec<usize> = (0..per_word.trailing_zeros())
            .map(|p| moved.iter().copied().find(|&j| off(j) == 1 << p))
            .collect::<Option<_>>()?;
        if lanes[..2] != [per_word, 2 * per_word] {
            return None;
        }
        (word, [lanes[2], lanes[3], lanes[4]])
    };
    let others: Vec<usize> = moved.into_iter().filter(|j| !word.contains(j)).collect();
    let all_aligned = rows.iter().all(|&r| aligned(r))
        && others.iter().all(|&j| aligned(off(j)))
        && offsets.warp.iter().all(|b| aligned(b[0]));
    if !all_aligned {
        return None;
    }
    let (matrix, rest) = others.split_at(others.len().min(2));
    let lane_bases: Vec<Vec<u64>> = rows
        .iter()
        .copied()
        .chain((0..2).map(|i| matrix.get(i).map_or(0, |&j| off(j))))
        .map(|b| vec![b])
        .collect();
    let addresses = LinearLayout::from_bases(
        [
            (Dim::REGISTER, rest.iter().map(|&j| vec![off(j)]).collect()),
            (Dim::LANE, lane_bases),
            (Dim::WARP, offsets.warp.clone()),
        ],
        [(Dim::dim(0), offsets.shape[0])],
        false,
    )
    .ok()?;
    Some(MatrixPlan {
        trans,
        matrices: 1 << matrix.len(),
        word,
        matrix: matrix.to_vec(),
        rest: rest.to_vec(),
        addresses,
    })
}
