//! Linear algebra over GF(2) on bit vectors packed in `u64`: the only file with bit tricks.
//!
//! A matrix is a list of **columns** (`u64` each, bit r = row r), matching how [`LinearLayout`](super::LinearLayout)
//! stores one column per input bit. Column order matters: when a system has several solutions, the one returned
//! uses only *pivot columns*, the columns not in the span of the columns before them, and sets every free
//! variable to zero. That is exactly the solution Triton reads off its reduced row echelon form (`lstsq`), so
//! weft's `invert_and_compose` picks the same answer as Triton's.

/// The column-echelon form of a list of columns: which columns are pivots, and how to express any vector of
/// their span as a combination of them.
///
/// Built by inserting columns in order into an XOR basis keyed by each vector's highest set bit; a column that
/// reduces to zero is free. Building costs O(columns × rank) word operations.
#[derive(Clone, Debug)]
pub struct ColumnEchelon {
    /// `reduced[h]`: a vector whose highest set bit is `h` (valid where `present` has bit `h`).
    reduced: [u64; 64],
    /// `combo[h]`: which original columns XOR to `reduced[h]`.
    combo: [u64; 64],
    present: u64,
    pivots: u64,
    /// For every free column: which pivot columns XOR to it.
    free_combos: Vec<(usize, u64)>,
    ncols: usize,
}

impl ColumnEchelon {
    /// Echelon form of `cols` (at most 64 columns; extra columns are ignored).
    pub fn new(cols: &[u64]) -> ColumnEchelon {
        let ncols = cols.len().min(64);
        let mut e = ColumnEchelon {
            reduced: [0; 64],
            combo: [0; 64],
            present: 0,
            pivots: 0,
            free_combos: Vec::new(),
            ncols,
        };
        for (j, &c) in cols.iter().take(64).enumerate() {
            let (rest, combo) = e.reduce(c);
            if rest == 0 {
                e.free_combos.push((j, combo));
            } else {
                let h = 63 - rest.leading_zeros() as usize;
                e.reduced[h] = rest;
                e.combo[h] = combo ^ (1 << j);
                e.present |= 1 << h;
                e.pivots |= 1 << j;
            }
        }
        e
    }

    /// Reduces `v` against the basis: returns what is left and the columns used.
    fn reduce(&self, mut v: u64) -> (u64, u64) {
        let mut combo = 0;
        while v != 0 {
            let h = 63 - v.leading_zeros() as usize;
            if self.present & (1 << h) == 0 {
                break;
            }
            v ^= self.reduced[h];
            combo ^= self.combo[h];
        }
        (v, combo)
    }

    /// Number of columns given.
    pub fn num_cols(&self) -> usize {
        self.ncols
    }

    /// The rank: the number of pivot columns.
    pub fn rank(&self) -> u32 {
        self.pivots.count_ones()
    }

    /// Bit mask of the pivot columns (column j is a pivot iff bit j is set).
    pub fn pivot_mask(&self) -> u64 {
        self.pivots
    }

    /// Bit mask of the free columns (those in the span of earlier columns).
    pub fn free_mask(&self) -> u64 {
        let all = if self.ncols == 64 {
            u64::MAX
        } else {
            (1u64 << self.ncols) - 1
        };
        all & !self.pivots
    }

    /// The `x` (a mask of columns) with `A·x = b` that uses pivot columns only, or `None` if `b` is not in the
    /// span of the columns.
    pub fn solve(&self, b: u64) -> Option<u64> {
        let (rest, combo) = self.reduce(b);
        (rest == 0).then_some(combo)
    }

    /// A basis of the nullspace `{x : A·x = 0}`: one vector per free column j (bit j plus the pivot columns
    /// that sum to column j).
    pub fn nullspace(&self) -> Vec<u64> {
        self.free_combos
            .iter()
            .map(|&(j, combo)| combo ^ (1 << j))
            .collect()
    }
}

/// Rank of a list of vectors.
pub fn rank(vectors: &[u64]) -> u32 {
    let mut basis = [0u64; 64];
    let mut present = 0u64;
    let mut r = 0;
    for &v0 in vectors {
        let mut v = v0;
        while v != 0 {
            let h = 63 - v.leading_zeros() as usize;
            if present & (1 << h) == 0 {
                basis[h] = v;
                present |= 1 << h;
                r += 1;
                break;
            }
            v ^= basis[h];
        }
    }
    r
}

/// Reduced row echelon form in place. `rows[i]` holds row i with column j at bit j; column 0 is the first
/// column. Returns the pivot column of each non-zero row; afterwards the first `pivots.len()` rows are the
/// non-zero rows in order of their pivots and the rest are zero.
pub fn rref(rows: &mut [u64]) -> Vec<u32> {
    let mut pivots = Vec::new();
    let mut next = 0;
    for col in 0..64u32 {
        if next == rows.len() {
            break;
        }
        let bit = 1u64 << col;
        let Some(p) = (next..rows.len()).find(|&r| rows[r] & bit != 0) else {
            continue;
        };
        rows.swap(next, p);
        let pivot_row = rows[next];
        for (r, row) in rows.iter_mut().enumerate() {
            if r != next && *row & bit != 0 {
                *row ^= pivot_row;
            }
        }
        pivots.push(col);
        next += 1;
    }
    pivots
}

/// Transposes a `rows × cols` bit matrix given as `rows` vectors of `cols` bits into `cols` vectors of
/// `rows` bits.
pub fn transpose(vectors: &[u64], bits: usize) -> Vec<u64> {
    let mut out = vec![0u64; bits.min(64)];
    for (i, &v) in vectors.iter().take(64).enumerate() {
        let mut m = v;
        while m != 0 {
            let b = m.trailing_zeros() as usize;
            if b < out.len() {
                out[b] |= 1 << i;
            }
            m &= m - 1;
        }
    }
    out
}

/// `A·x`: the XOR of the columns selected by the bits of `x` (bits beyond the columns are ignored).
///
/// Branch-free: every column is masked by its bit of `x`, so the time does not depend on `x` (a loop over the
/// set bits of `x` mispredicts about once per call).
#[inline]
pub fn mul_vec(cols: &[u64], x: u64) -> u64 {
    // Four independent accumulators: the masked XORs of a 4-column group do not wait on each other.
    let cols = &cols[..cols.len().min(64)];
    let mut acc = [0u64; 4];
    let mut groups = cols.chunks_exact(4);
    let mut k = 0;
    for g in &mut groups {
        for (a, (i, &c)) in acc.iter_mut().zip(g.iter().enumerate()) {
            *a ^= c & ((x >> (k + i)) & 1).wrapping_neg();
        }
        k += 4;
    }
    for (i, &c) in groups.remainder().iter().enumerate() {
        acc[i] ^= c & ((x >> (k + i)) & 1).wrapping_neg();
    }
    acc[0] ^ acc[1] ^ acc[2] ^ acc[3]
}

/// `A·x` for every `x` of `xs`, into `out`. With several vectors it first tabulates `A` on every 4-bit slice
/// of the input (16 entries per slice, one XOR each: the "method of four Russians"), then each product is one
/// lookup per slice instead of one masked XOR per column.
pub fn mul_many(cols: &[u64], xs: &[u64], out: &mut [u64]) {
    let n = cols.len().min(64);
    if xs.len() < 4 {
        for (o, &x) in out.iter_mut().zip(xs) {
            *o = mul_vec(cols, x);
        }
        return;
    }
    // Tables built in place (no moves): 4 slices cover the common case of at most 16 columns.
    let mut small = [[0u64; 16]; 4];
    let mut large;
    let tables: &mut [[u64; 16]] = if n <= 16 {
        &mut small[..n.div_ceil(4)]
    } else {
        large = [[0u64; 16]; 16];
        &mut large[..n.div_ceil(4)]
    };
    for (t, chunk) in tables.iter_mut().zip(cols[..n].chunks(4)) {
        for i in 1..16usize {
            let low = i.trailing_zeros() as usize;
            t[i] = t[i & (i - 1)] ^ chunk.get(low).copied().unwrap_or(0);
        }
    }
    for (o, &x) in out.iter_mut().zip(xs) {
        let mut acc = 0;
        for (c, t) in tables.iter().enumerate() {
            acc ^= t[((x >> (4 * c)) & 15) as usize];
        }
        *o = acc;
    }
}
/// The inverse of a square matrix of `n ≤ 32` columns (`n` bits each), into `out`; false when singular.
///
/// Gauss–Jordan by column operations on `[A ; I]` packed one column per word (A in the low `n` bits, the
/// tracked transform in the high `n`): no transposes and one word operation per column and pivot, where the
/// general [`solve_columns`] moves columns to rows and back by set bits. When A is reduced to `I`, the
/// high halves are the columns of `A⁻¹`.
pub fn invert_square(a: &[u64], out: &mut [u64]) -> bool {
    let n = a.len();
    debug_assert!(n <= 32 && out.len() >= n);
    let mut w = [0u64; 32];
    let w = &mut w[..n];
    for (j, (wj, &c)) in w.iter_mut().zip(a).enumerate() {
        if c >> n != 0 {
            return false;
        }
        *wj = c | 1 << (n + j);
    }
    for r in 0..n {
        let Some(p) = (r..n).find(|&k| w[k] >> r & 1 == 1) else {
            return false;
        };
        w.swap(r, p);
        let pr = w[r];
        // Clear bit r from every column (the pivot clears itself and is put back): one shift count for all
        // columns, so the loop vectorises.
        for c in w.iter_mut() {
            *c ^= pr & ((*c >> r) & 1).wrapping_neg();
        }
        w[r] = pr;
    }
    for (o, &c) in out.iter_mut().zip(w.iter()) {
        *o = c >> n;
    }
    true
}

/// Solves `A·x_j = b_j` for every column `b_j` of `b` at once, writing into `out[j]` the solution that uses only
/// pivot columns of `a` (free variables zero, as [`ColumnEchelon::solve`]). Returns the mask of the `b` columns
/// that have no solution (their `out` entry is 0).
///
/// With at most 64 columns in `a` and `b` together this is one Gauss–Jordan elimination of the augmented
/// matrix `[A | B]` held as rows (Triton's `lstsq`): about `rank × rows` word operations. Larger systems go
/// through [`ColumnEchelon`].
pub fn solve_columns(a: &[u64], b: &[u64], out: &mut [u64]) -> u64 {
    let (na, nb) = (a.len(), b.len().min(out.len()));
    if na + nb > 64 {
        let e = ColumnEchelon::new(a);
        let mut bad = 0;
        for (j, (&v, o)) in b.iter().zip(out.iter_mut()).enumerate() {
            match e.solve(v) {
                Some(x) => *o = x,
                None => {
                    *o = 0;
                    bad |= 1 << j.min(63);
                }
            }
        }
        return bad;
    }
    let all = a.iter().chain(&b[..nb]).fold(0, |acc, &c| acc | c);
    let nrows = (64 - all.leading_zeros()) as usize;
    let mut rows = [0u64; 64];
    let rows = &mut rows[..nrows];
    // Columns to rows, one step per set bit (layouts are sparse: distributed ones have one bit per column).
    for (k, &c) in a.iter().chain(&b[..nb]).enumerate() {
        let mut m = c;
        while m != 0 {
            rows[m.trailing_zeros() as usize] |= 1 << k;
            m &= m - 1;
        }
    }
    // Reduced row echelon form on A's columns, in column order: pivots are the columns not in the span of the
    // earlier ones.
    let mut pivots = 0u64;
    let mut next = 0;
    for c in 0..na {
        let Some(p) = (next..nrows).find(|&r| rows[r] >> c & 1 == 1) else {
            continue;
        };
        rows.swap(next, p);
        let pr = rows[next];
        // Clear bit c from every row (the pivot row clears itself and is put back): one shift count for all
        // rows, so the loop vectorises.
        for row in rows.iter_mut() {
            *row ^= pr & ((*row >> c) & 1).wrapping_neg();
        }
        rows[next] = pr;
        pivots |= 1 << c;
        next += 1;
    }
    // Consistency: a B column with a bit in a zero row of A has no solution.
    let bad = rows[next..].iter().fold(0u64, |acc, &r| acc | r) >> na;
    // Pivot rows appear in column order, so the k-th non-zero row belongs to the k-th pivot column.
    // Solution of B column j: bit c set iff the row of pivot c has B bit j (a transpose, by set bits).
    for o in out[..nb].iter_mut() {
        *o = 0;
    }
    let mut m = pivots;
    for row in rows[..next].iter() {
        let c = m.trailing_zeros();
        m &= m - 1;
        let mut bits = (row >> na) & !bad;
        while bits != 0 {
            out[bits.trailing_zeros() as usize] |= 1 << c;
            bits &= bits - 1;
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dense reference: all x in 0..2^n with A·x = b.
    fn all_solutions(cols: &[u64], b: u64) -> Vec<u64> {
        (0..1u64 << cols.len())
            .filter(|&x| mul_vec(cols, x) == b)
            .collect()
    }

    #[test]
    fn echelon_matches_brute_force_on_small_matrices() {
        // Every 3-column matrix with 3-bit columns.
        for m in 0..1u64 << 9 {
            let cols: Vec<u64> = (0..3).map(|j| (m >> (3 * j)) & 7).collect();
            let e = ColumnEchelon::new(&cols);
            let image: Vec<u64> = (0..8).map(|x| mul_vec(&cols, x)).collect();
            let mut distinct = image.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(1u64 << e.rank(), distinct.len() as u64);
            assert_eq!(rank(&cols), e.rank());
            for b in 0..8 {
                let sols = all_solutions(&cols, b);
                match e.solve(b) {
                    None => assert!(sols.is_empty()),
                    Some(x) => {
                        assert!(sols.contains(&x));
                        assert_eq!(x & e.free_mask(), 0, "free variables are zero");
                    }
                }
            }
            let kernel = all_solutions(&cols, 0);
            let ns = e.nullspace();
            assert_eq!(1usize << ns.len(), kernel.len());
            for v in ns {
                assert_eq!(mul_vec(&cols, v), 0);
            }
        }
    }

    #[test]
    fn solve_columns_matches_the_echelon() {
        // Every 3-column A with 3-bit columns against every b.
        for m in 0..1u64 << 9 {
            let a: Vec<u64> = (0..3).map(|j| (m >> (3 * j)) & 7).collect();
            let e = ColumnEchelon::new(&a);
            let b: Vec<u64> = (0..8).collect();
            let mut out = vec![0; 8];
            let bad = solve_columns(&a, &b, &mut out);
            for (j, &v) in b.iter().enumerate() {
                match e.solve(v) {
                    Some(x) => {
                        assert_eq!(bad >> j & 1, 0);
                        assert_eq!(out[j], x, "a {a:?} b {v}");
                    }
                    None => assert_eq!(bad >> j & 1, 1),
                }
            }
        }
    }

    #[test]
    fn mul_many_matches_mul_vec() {
        let cols: Vec<u64> = (0..13)
            .map(|k| 0x9e37_79b9_7f4a_7c15u64.rotate_left(k * 7) ^ k as u64)
            .collect();
        let xs: Vec<u64> = (0..40u64)
            .map(|i| i.wrapping_mul(0x1234_5678_9abc_def1) >> 7)
            .collect();
        let mut out = vec![0; xs.len()];
        mul_many(&cols, &xs, &mut out);
        for (&x, &o) in xs.iter().zip(&out) {
            assert_eq!(o, mul_vec(&cols, x));
        }
    }

    #[test]
    fn rref_is_reduced() {
        let mut rows = vec![0b1011, 0b0110, 0b1101, 0b0000];
        let piv = rref(&mut rows);
        assert_eq!(piv.len(), 2);
        for (i, &p) in piv.iter().enumerate() {
            for (r, row) in rows.iter().enumerate() {
                assert_eq!((row >> p) & 1 == 1, r == i);
            }
        }
        assert_eq!(rank(&[0b1011, 0b0110, 0b1101]), 2);
    }

    #[test]
    fn transpose_round_trips() {
        let v = vec![0b101, 0b011];
        let t = transpose(&v, 3);
        assert_eq!(t, vec![0b11, 0b10, 0b01]);
        assert_eq!(transpose(&t, 2), v);
    }
}
