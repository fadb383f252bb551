//! Linear algebra over GF(2) on bit vectors packed in `u64`: the only file with bit tricks.
//!
//! A matrix is a list of **columns** (`u64` each, bit r = row r), matching how [`LinearLayout`](super::LinearLayout)
//! stores one column per input bit. Column order matters: when a system has several solutions, the one returned
//! uses only *pivot columns*, the columns not in the span of the columns before them, and sets every free
//! variable to zero. That is exactly the solution Triton reads off its reduced row echelon form (`lstsq`), so
//! weft's `invert_and_compose` picks the same answer as Triton's.
//!
//! Speed: inverses and solves share one elimination kernel ([`invert_square`], [`solve_columns`]) that runs
//! on fixed-size arrays of `u32` or `u64` lanes with a branch-free inner loop, so the compiler turns each
//! pivot into a handful of vector instructions; on x86-64 with AVX2 (detected at run time) it and
//! [`mul_vec`] use 256-bit vectors. Those two AVX2 paths are the only `unsafe` code in the algebra.

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

/// A span kept as an XOR basis keyed by each vector's highest set bit: the incremental elimination behind
/// [`rank`], the proptest generators' rank tracking and the conversion planner's per-CTA projection.
#[derive(Clone, Debug)]
pub struct XorBasis {
    /// `basis[h]`: a vector whose highest set bit is `h` (valid where `present` has bit `h`).
    basis: [u64; 64],
    /// The pivot bits: bit `h` set iff the basis has a vector with highest bit `h`.
    present: u64,
}

impl Default for XorBasis {
    fn default() -> XorBasis {
        XorBasis::new()
    }
}

impl XorBasis {
    /// The span of nothing.
    pub fn new() -> XorBasis {
        XorBasis {
            basis: [0; 64],
            present: 0,
        }
    }

    /// `v` reduced until its highest set bit is not a pivot: zero iff `v` is in the span.
    pub fn reduce(&self, mut v: u64) -> u64 {
        while v != 0 {
            let h = 63 - v.leading_zeros();
            if self.present >> h & 1 == 0 {
                break;
            }
            v ^= self.basis[h as usize];
        }
        v
    }

    /// The one element of `v + span` with every pivot bit clear (so equal for `v` and `w` exactly when
    /// `v ⊕ w` is in the span).
    pub fn reduce_fully(&self, mut v: u64) -> u64 {
        // Highest pivot first: clearing bit h only touches bits below h.
        let mut pivots = self.present;
        while pivots != 0 {
            let h = 63 - pivots.leading_zeros();
            if v >> h & 1 == 1 {
                v ^= self.basis[h as usize];
            }
            pivots &= !(1u64 << h);
        }
        v
    }

    /// Adds `v` to the span; returns its new pivot bit, or `None` when `v` was already in the span.
    pub fn insert(&mut self, v: u64) -> Option<u32> {
        let r = self.reduce(v);
        if r == 0 {
            return None;
        }
        let h = 63 - r.leading_zeros();
        self.basis[h as usize] = r;
        self.present |= 1u64 << h;
        Some(h)
    }

    /// The pivot bits, one per basis vector.
    pub fn pivot_bits(&self) -> u64 {
        self.present
    }

    /// The dimension of the span.
    pub fn rank(&self) -> u32 {
        self.present.count_ones()
    }
}

/// Rank of a list of vectors.
pub fn rank(vectors: &[u64]) -> u32 {
    let mut basis = XorBasis::new();
    for &v in vectors {
        basis.insert(v);
    }
    basis.rank()
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
/// set bits of `x` mispredicts about once per call). Small enough to inline: one call to the kernel.
#[inline(always)]
pub fn mul_vec(cols: &[u64], x: u64) -> u64 {
    let cols = &cols[..cols.len().min(64)];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above, cached by std after the first call).
        return unsafe { mul_vec_avx2(cols, x) };
    }
    mul_vec_portable(cols, x)
}

/// [`mul_vec`] without SIMD (out of line, to keep `mul_vec` small).
#[inline(never)]
fn mul_vec_portable(cols: &[u64], x: u64) -> u64 {
    mul_vec_scalar(cols, x)
}

/// Four independent accumulators, so the masked XORs of a 4-column group do not wait on each other.
#[inline(always)]
fn mul_vec_scalar(cols: &[u64], x: u64) -> u64 {
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

/// [`mul_vec`] four columns per AVX2 instruction: a per-lane left shift puts bit `k` of `x` in lane k's sign
/// bit, a select on that sign bit keeps the column or zero, then XOR. The last one to three columns come in
/// by a masked load, so there is no scalar tail. Requires `cols.len() <= 64`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mul_vec_avx2(cols: &[u64], x: u64) -> u64 {
    use std::arch::x86_64::*;
    let xv = _mm256_set1_epi64x(x as i64);
    let zero = _mm256_setzero_pd();
    let mut acc = zero;
    let mut shifts = _mm256_setr_epi64x(63, 62, 61, 60);
    let four = _mm256_set1_epi64x(4);
    let keep = |c: __m256i, shifts: __m256i| {
        let sign = _mm256_castsi256_pd(_mm256_sllv_epi64(xv, shifts));
        _mm256_blendv_pd(zero, _mm256_castsi256_pd(c), sign)
    };
    if cols.len() <= 16 {
        // Layouts of up to 16 input bits (the common case): four masked groups, straight-line code.
        // The count is broadcast once and compared with constant lane numbers (cheaper than
        // `lanes_below` per group, which broadcasts four times).
        let n = _mm256_set1_epi64x(cols.len() as i64);
        for g in 0..4 {
            let lanes = _mm256_cmpgt_epi64(
                n,
                _mm256_setr_epi64x(4 * g, 4 * g + 1, 4 * g + 2, 4 * g + 3),
            );
            // SAFETY: the mask enables only lanes `4g + i < cols.len()`, inside the slice (a masked lane
            // is not read, wherever its address points).
            let c = unsafe {
                _mm256_maskload_epi64(cols.as_ptr().wrapping_add(4 * g as usize).cast(), lanes)
            };
            acc = _mm256_xor_pd(acc, keep(c, shifts));
            shifts = _mm256_sub_epi64(shifts, four);
        }
        return fold(acc);
    }
    let mut groups = cols.chunks_exact(4);
    for g in &mut groups {
        // SAFETY: `g` is 4 initialised u64, exactly one unaligned 256-bit load.
        let c = unsafe { _mm256_loadu_si256(g.as_ptr().cast()) };
        acc = _mm256_xor_pd(acc, keep(c, shifts));
        shifts = _mm256_sub_epi64(shifts, four);
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        let lanes = lanes_below(rest.len() as i64);
        // SAFETY: the mask enables only the `rest.len()` lanes inside the slice.
        let c = unsafe { _mm256_maskload_epi64(rest.as_ptr().cast(), lanes) };
        acc = _mm256_xor_pd(acc, keep(c, shifts));
    }
    fold(acc)
}

/// The mask of the lanes `i < n` of four 64-bit lanes (all lanes for `n ≥ 4`, none for `n ≤ 0`), for
/// masked loads and stores of a slice's last columns.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn lanes_below(n: i64) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3))
}

/// XOR of the four lanes: high half onto low half, then the upper 64 bits onto the lower.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn fold(acc: std::arch::x86_64::__m256d) -> u64 {
    use std::arch::x86_64::*;
    let acc = _mm256_castpd_si256(acc);
    let half = _mm_xor_si128(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    _mm_cvtsi128_si64(_mm_xor_si128(half, _mm_unpackhi_epi64(half, half))) as u64
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
    // Layout columns are mostly single bits: then walking each vector's set bits (a lookup per bit) beats
    // building tables.
    let single = xs.iter().filter(|&&x| x & x.wrapping_sub(1) == 0).count();
    if 4 * single >= 3 * xs.len() {
        for (o, &x) in out.iter_mut().zip(xs) {
            let (mut m, mut acc) = (x & low_bits(n as u32), 0);
            while m != 0 {
                acc ^= cols[m.trailing_zeros() as usize];
                m &= m - 1;
            }
            *o = acc;
        }
        return;
    }
    if n <= 16 {
        mul_many_in::<4>(&cols[..n], xs, out)
    } else {
        mul_many_in::<16>(&cols[..n], xs, out)
    }
}

/// [`mul_many`] with room for `S` 4-column slices (`cols.len() ≤ 4·S`): the columns zero-padded to whole
/// slices, then one 16-entry table per slice, built by doubling (entry `2^k + i` is entry `i` plus column k:
/// straight-line XORs that vectorise), then one lookup per slice and vector.
#[inline(always)]
fn mul_many_in<const S: usize>(cols: &[u64], xs: &[u64], out: &mut [u64]) {
    let slices = cols.len().div_ceil(4);
    let mut padded = [[0u64; 4]; S];
    for (k, &c) in cols.iter().enumerate() {
        padded[k / 4][k % 4] = c;
    }
    let mut tables = [[0u64; 16]; S];
    for (t, c) in tables[..slices].iter_mut().zip(&padded) {
        t[1] = c[0];
        t[2] = c[1];
        t[3] = c[1] ^ c[0];
        for i in 0..4 {
            t[4 + i] = t[i] ^ c[2];
        }
        for i in 0..8 {
            t[8 + i] = t[i] ^ c[3];
        }
    }
    // Every table, used or not (unused ones are zero): a fixed trip count unrolls.
    for (o, &x) in out.iter_mut().zip(xs) {
        let mut acc = 0;
        for (c, t) in tables.iter().enumerate() {
            acc ^= t[((x >> (4 * c)) & 15) as usize];
        }
        *o = acc;
    }
}
/// `n` zero words, inline up to 16 (`SmallVec::from_elem` fills element by element).
#[inline]
pub(crate) fn zeros(n: usize) -> smallvec::SmallVec<[u64; 16]> {
    if n <= 16 {
        smallvec::SmallVec::from_buf_and_len([0; 16], n)
    } else {
        smallvec::SmallVec::from_vec(vec![0; n])
    }
}

/// One machine word of a packed column, for the fixed-size elimination kernels: `u32` when the augmented
/// columns fit in 32 bits (twice the columns per vector register), `u64` otherwise.
trait Lane: Copy + Default + Eq + std::ops::BitXor<Output = Self> {
    const BITS: u32;
    fn from_u64(v: u64) -> Self;
    fn to_u64(self) -> u64;
    /// `p` where bit `r` of `self` is set, else 0: one shift pair, no branch, so loops over lanes vectorise.
    fn select_bit(self, r: u32, p: Self) -> Self;
}

/// `Lane` for an unsigned word and its signed twin (the arithmetic shift that spreads the sign bit).
macro_rules! lane {
    ($u:ty, $i:ty) => {
        impl Lane for $u {
            const BITS: u32 = <$u>::BITS;
            #[inline(always)]
            fn from_u64(v: u64) -> $u {
                v as $u
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn select_bit(self, r: u32, p: $u) -> $u {
                p & (((self << (<$u>::BITS - 1 - r)) as $i) >> (<$u>::BITS - 1)) as $u
            }
        }
    };
}
lane!(u32, i32);
lane!(u64, i64);

/// Gauss–Jordan by column operations on `[A ; I]`, on `N` lanes of type `T` (`cols.len() ≤ N`,
/// `nrows + cols.len() ≤ T::BITS`).
///
/// Columns are processed in order; a column still non-zero after the earlier pivots is a *pivot column* and
/// its lowest remaining row its *pivot row*, which is then cleared from every other column. Afterwards each
/// column holds, in its low `nrows` bits, column j of `A·E` (`E` the accumulated column operations) and in the
/// bits above, column j of `E`; a pivot column has its own pivot row and no other, and the `E` part of every
/// column names pivot columns only (besides, for a dependent column, itself). `by_row[r]` (`by_row` holds at
/// least `nrows` words) receives the column whose pivot row is `r` (untouched for other rows). Returns the
/// rank. The lane loop has a fixed trip count and no branch, so it compiles to a few vector instructions per
/// pivot.
#[inline(always)]
fn eliminate_in<T: Lane, const N: usize>(cols: &[u64], nrows: u32, by_row: &mut [u64]) -> u32 {
    debug_assert!(cols.len() <= N && nrows as usize + cols.len() <= T::BITS as usize);
    let mut w = [T::default(); N];
    let mut tag = 1u64.checked_shl(nrows).unwrap_or(0);
    for (wj, &c) in w.iter_mut().zip(cols) {
        *wj = T::from_u64(c | tag);
        tag <<= 1;
    }
    let low = low_bits(nrows);
    let mut pivot_rows = 0u64;
    let mut col_of_row = [0u8; 64];
    let mut rank = 0;
    // The current column and the two after it are tracked in registers as well (`p`, `q`, `after`),
    // updated by each pivot in scalar code. The chain from one pivot to the next is then a few scalar
    // operations; the vector update and its trip through memory (where column `j + 2` is read) have two
    // pivots' time to finish. (`q` and `after` are updated by different but equal formulas, so that LLVM
    // does not pair them into a vector, which would put the chain through vector registers.)
    let mut p = w[0];
    let mut q = w.get(1).copied().unwrap_or_default();
    for j in 0..cols.len() {
        let mut after = w.get(j + 2).copied().unwrap_or_default();
        let rest = p.to_u64() & low;
        if rest != 0 {
            let r = rest.trailing_zeros();
            // Column j itself keeps `p` (the update would clear it): a lane select, not a scalar store
            // into the vector, which the next vector load could not forward from.
            let at = T::from_u64(j as u64);
            for (i, k) in w.iter_mut().enumerate() {
                let cleared = *k ^ k.select_bit(r, p);
                *k = if T::from_u64(i as u64) == at {
                    p
                } else {
                    cleared
                };
            }
            q = q ^ q.select_bit(r, p);
            if after.to_u64() >> r & 1 == 1 {
                after = after ^ p;
            }
            pivot_rows |= 1 << r;
            col_of_row[r as usize] = j as u8;
            rank += 1;
        }
        (p, q) = (q, after);
    }
    let mut rows = pivot_rows;
    while rows != 0 {
        let r = rows.trailing_zeros() as usize;
        by_row[r] = w[usize::from(col_of_row[r])].to_u64();
        rows &= rows - 1;
    }
    rank
}

#[inline]
fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// [`eliminate_in`] with the smallest kernel that holds the system: the rank, or `None` when
/// `nrows + cols.len() > 64`.
/// On x86-64 CPUs with AVX2 the same code is compiled for 256-bit vectors (half the instructions per pivot).
fn eliminate(cols: &[u64], nrows: u32, by_row: &mut [u64]) -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above, cached by std after the first call).
        return unsafe { eliminate_avx2(cols, nrows, by_row) };
    }
    eliminate_sized(cols, nrows, by_row)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn eliminate_avx2(cols: &[u64], nrows: u32, by_row: &mut [u64]) -> Option<u32> {
    eliminate_sized(cols, nrows, by_row)
}

#[inline(always)]
fn eliminate_sized(cols: &[u64], nrows: u32, by_row: &mut [u64]) -> Option<u32> {
    let total = nrows as usize + cols.len();
    let n = cols.len();
    Some(if n <= 16 && total <= 32 {
        eliminate_in::<u32, 16>(cols, nrows, by_row)
    } else if total <= 32 {
        eliminate_in::<u32, 32>(cols, nrows, by_row)
    } else if n <= 16 && total <= 64 {
        eliminate_in::<u64, 16>(cols, nrows, by_row)
    } else if n <= 32 && total <= 64 {
        eliminate_in::<u64, 32>(cols, nrows, by_row)
    } else if total <= 64 {
        eliminate_in::<u64, 64>(cols, nrows, by_row)
    } else {
        return None;
    })
}

/// The inverse of a square matrix of `n ≤ 32` columns (`n` bits each), into `out`; false when singular.
///
/// One column elimination of `[A ; I]`: when all `n` columns are pivots, A·E is a permutation
/// matrix (pivot column `j` holds only its pivot row `r`), so column `r` of `A⁻¹` is column `j` of `E`.
pub fn invert_square(a: &[u64], out: &mut [u64]) -> bool {
    let n = a.len();
    debug_assert!(n <= 32 && out.len() >= n);
    if a.iter().any(|&c| c >> n != 0) {
        return false;
    }
    // Full rank fills every row of `out`: the pivot columns, then only their `E` halves are kept.
    let Some(rank) = eliminate(a, n as u32, &mut out[..n]) else {
        return false;
    };
    if rank as usize != n {
        return false;
    }
    for o in out[..n].iter_mut() {
        *o >>= n;
    }
    true
}

/// Solves `A·x_j = b_j` for every column `b_j` of `b` at once, writing into `out[j]` the solution that uses only
/// pivot columns of `a` (free variables zero, as [`ColumnEchelon::solve`]). Returns the mask of the `b` columns
/// that have no solution (their `out` entry is 0).
///
/// One column elimination of `[A ; I]` turns the solve into a product: the reduced columns,
/// indexed by pivot row, form a matrix `T` with `T·(b restricted to pivot rows) = [b' ; x]`, where `x` uses
/// pivot columns only and `b' = A·x`; `b` is solvable iff `b' = b`. All `b` are multiplied at once
/// ([`mul_many`]). Systems of more than 64 rows and columns together go through [`ColumnEchelon`].
pub fn solve_columns(a: &[u64], b: &[u64], out: &mut [u64]) -> u64 {
    let nb = b.len().min(out.len());
    let all = a.iter().chain(&b[..nb]).fold(0, |acc, &c| acc | c);
    let nrows = 64 - all.leading_zeros();
    // `t[r]`: the reduced column of pivot row r, 0 for other rows, so `t·b` only reads b's pivot rows.
    let mut t = zeros(nrows as usize);
    if eliminate(a, nrows, &mut t[..]).is_none() {
        let ech = ColumnEchelon::new(a);
        let mut bad = 0;
        for (j, (&v, o)) in b[..nb].iter().zip(out.iter_mut()).enumerate() {
            match ech.solve(v) {
                Some(x) => *o = x,
                None => {
                    *o = 0;
                    bad |= 1 << j.min(63);
                }
            }
        }
        return bad;
    }
    let low = low_bits(nrows);
    let mut bad = 0u64;
    for (c, (bs, os)) in b[..nb].chunks(64).zip(out[..nb].chunks_mut(64)).enumerate() {
        mul_many(&t, bs, os);
        for (j, (o, &v)) in os.iter_mut().zip(bs).enumerate() {
            if *o & low != v {
                bad |= 1 << (64 * c + j).min(63);
                *o = 0;
            } else {
                *o = o.checked_shr(nrows).unwrap_or(0);
            }
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
    fn xor_basis_matches_brute_force_spans() {
        // Every pair of 4-bit vectors: the span by enumeration against what the basis says.
        for a in 0u64..16 {
            for b in 0u64..16 {
                let span = [0, a, b, a ^ b];
                let mut basis = XorBasis::new();
                let new_a = basis.insert(a).is_some();
                let new_b = basis.insert(b).is_some();
                assert_eq!(new_a, a != 0);
                assert_eq!(new_b, b != 0 && b != a);
                assert_eq!(basis.rank(), rank(&[a, b]));
                assert_eq!(1 << basis.rank(), {
                    let mut s = span.to_vec();
                    s.sort_unstable();
                    s.dedup();
                    s.len()
                });
                for v in 0u64..16 {
                    assert_eq!(basis.reduce(v) == 0, span.contains(&v), "{a} {b} {v}");
                    // One representative per coset, with every pivot bit clear.
                    let r = basis.reduce_fully(v);
                    assert_eq!(r & basis.pivot_bits(), 0);
                    assert!(span.contains(&(r ^ v)));
                    for w in 0u64..16 {
                        let same_coset = span.contains(&(v ^ w));
                        assert_eq!(basis.reduce_fully(w) == r, same_coset);
                    }
                }
            }
        }
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

    /// A reproducible stream of sparse-ish random words (xorshift), `bits` wide.
    fn words(seed: u64, n: usize, bits: u32) -> Vec<u64> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly one or two bits per column, as layouts have, sometimes dense.
                let dense = x & low_bits(bits);
                match x >> 60 {
                    0..=9 => 1u64 << ((x >> 32) as u32 % bits),
                    10..=12 => {
                        (1u64 << ((x >> 32) as u32 % bits)) | (1u64 << ((x >> 40) as u32 % bits))
                    }
                    _ => dense,
                }
            })
            .collect()
    }

    #[test]
    fn every_kernel_width_agrees_with_the_echelon() {
        // Column counts and row counts that pick each lane type and lane count of `eliminate`, and one too
        // large for it (the `ColumnEchelon` fallback).
        for &(na, nrows) in &[
            (5, 6),
            (16, 16),
            (12, 20),
            (24, 8),
            (16, 40),
            (30, 30),
            (40, 24),
            (60, 4),
            (50, 30),
        ] {
            for seed in 1..40u64 {
                let a = words(seed * 7919 + na as u64, na, nrows);
                let b = words(seed * 104_729 + 3, 70, nrows);
                let ech = ColumnEchelon::new(&a);
                let mut out = vec![0; b.len()];
                let bad = solve_columns(&a, &b, &mut out);
                for (j, &v) in b.iter().enumerate() {
                    match ech.solve(v) {
                        Some(x) => {
                            if j < 63 {
                                assert_eq!(
                                    bad >> j & 1,
                                    0,
                                    "na {na} nrows {nrows} seed {seed} b {j}"
                                );
                            }
                            assert_eq!(out[j], x, "na {na} nrows {nrows} seed {seed} b {j}");
                        }
                        None if j < 63 => assert_eq!((bad >> j & 1, out[j]), (1, 0)),
                        None => assert_eq!(out[j], 0),
                    }
                }
                // Solvable right-hand sides: images of random x.
                let xs = words(seed, 8, na as u32);
                let imgs: Vec<u64> = xs.iter().map(|&x| mul_vec(&a, x)).collect();
                let mut sol = vec![0; imgs.len()];
                assert_eq!(solve_columns(&a, &imgs, &mut sol), 0);
                for (s, &v) in sol.iter().zip(&imgs) {
                    assert_eq!(mul_vec(&a, *s), v);
                    assert_eq!(*s & ech.free_mask(), 0);
                }
            }
        }
    }

    #[test]
    fn invert_square_inverts_or_reports_singular() {
        for n in [1usize, 3, 8, 16, 17, 24, 32] {
            let mut inverted = 0;
            for seed in 1..200u64 {
                let a = words(seed * 31 + n as u64, n, n as u32);
                let mut inv = vec![0; n];
                let ok = invert_square(&a, &mut inv);
                assert_eq!(ok, rank(&a) as usize == n, "n {n} seed {seed}");
                if ok {
                    inverted += 1;
                    for (j, &c) in a.iter().enumerate() {
                        assert_eq!(mul_vec(&inv, c), 1 << j, "A⁻¹·A = I");
                    }
                    for (j, &c) in inv.iter().enumerate() {
                        assert_eq!(mul_vec(&a, c), 1 << j, "A·A⁻¹ = I");
                    }
                }
            }
            // Permutations (with a few swizzles) are invertible: make sure some were.
            let perm: Vec<u64> = (0..n).map(|j| 1u64 << ((j * 5 + 1) % n)).collect();
            let mut inv = vec![0; n];
            if n % 5 != 0 {
                assert!(invert_square(&perm, &mut inv));
                inverted += 1;
            }
            assert!(inverted > 0);
        }
    }

    #[test]
    fn mul_vec_matches_the_definition_at_every_length() {
        // Lengths below, at and above the SIMD threshold, with and without a remainder, up to 64 columns.
        for n in 0..=64usize {
            let cols = words(n as u64 * 977 + 5, n, 64);
            for x in words(n as u64 + 11, 20, 64) {
                let x = if n == 64 { x } else { x & ((1u64 << n) - 1) };
                let want = (0..n)
                    .filter(|&k| x >> k & 1 == 1)
                    .fold(0, |acc, k| acc ^ cols[k]);
                assert_eq!(mul_vec(&cols, x), want, "n {n} x {x:#x}");
                assert_eq!(mul_vec_portable(&cols, x), want, "n {n} x {x:#x}");
            }
        }
    }

    #[test]
    fn mul_many_matches_mul_vec_on_sparse_and_dense_vectors() {
        // Single-bit vectors with every `dense_every`-th one dense: all or 80 % single bits take the bit walk,
        // half or none take the tables (4 or 16 of them by column count).
        for (n, seed) in [(5usize, 1u64), (16, 2), (16, 3), (40, 4), (64, 5)] {
            let cols = words(seed * 31, n, 64);
            let dense = words(seed * 77, 40, n as u32);
            for dense_every in [0usize, 5, 2, 1] {
                let xs: Vec<u64> = (0..40)
                    .map(|i| {
                        if dense_every > 0 && i % dense_every == 0 {
                            dense[i].wrapping_mul(0x9e37_79b9_7f4a_7c15) & low_bits(n as u32)
                        } else {
                            1u64 << (i * 7 % n)
                        }
                    })
                    .collect();
                let mut out = vec![0; xs.len()];
                mul_many(&cols, &xs, &mut out);
                for (&x, &o) in xs.iter().zip(&out) {
                    assert_eq!(o, mul_vec(&cols, x), "n {n} every {dense_every} x {x:#x}");
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
