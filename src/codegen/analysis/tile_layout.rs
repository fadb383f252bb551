//! From a distributed layout to per-register coordinates: the pure plan (no inkwell), which
//! `lower/thread_coords.rs` turns into IR.
//!
//! It stays in `codegen/` rather than `layout/`: it checks layouts against a kernel (lanes, warps,
//! in- and out-dims) and reports [`CodegenError`]s, and its plans are shaped by what the emitter
//! writes (masked shifts, selects, disjoint `or`s). Its linear algebra is `layout::gf2`'s.
//!
//! A tile's layout maps (register, lane, warp) to a coordinate per tile dim, linearly over GF(2):
//! `coord(r, l, w) = R(r) ⊕ T(l, w)`. The register part `R(r)` is a compile-time constant per
//! register; the thread part `T(l, w)` is computed once per layout in the kernel's prologue from the
//! thread index (`lane + warp · threads_per_warp`). Each register's coordinate is then one disjoint
//! `or` (when the bits of `R` and `T` cannot overlap) or one `xor` with a constant.

use std::fmt;
use std::sync::Arc;

use crate::layout::encoding::Encoding;
use crate::layout::{gf2, Dim, LinearLayout};

use crate::codegen::error::{CodegenError, Result};

/// A tile layout checked against the kernel, with its bases unpacked for code generation.
///
/// Two tile layouts are equal when they map every (register, lane, warp) to the same element:
/// how the layout was written (a size-1 `block` dim, the encoding it came from) does not count.
#[derive(Debug, Clone)]
pub(crate) struct TileLayout {
    /// The layout over in-dims register, lane, warp (always all three) and out-dims dim0...
    pub ll: LinearLayout,
    /// Tile shape (the out-dim sizes).
    pub shape: Vec<u64>,
    /// Bases of the register bits: one coordinate per tile dim.
    pub reg: Vec<Vec<u64>>,
    /// Bases of the lane bits.
    pub lane: Vec<Vec<u64>>,
    /// Bases of the warp bits.
    pub warp: Vec<Vec<u64>>,
    /// The shape-free encoding the layout was made from, if any (`layout_arg.rs`).
    pub encoding: Option<Arc<Encoding>>,
}

impl PartialEq for TileLayout {
    fn eq(&self, other: &TileLayout) -> bool {
        (&self.shape, &self.reg, &self.lane, &self.warp)
            == (&other.shape, &other.reg, &other.lane, &other.warp)
    }
}

impl Eq for TileLayout {}

impl TileLayout {
    /// The error for operands `lhs` (in `self`) and `rhs` (in `other`) whose layouts differ.
    pub fn mismatch(
        &self,
        other: &TileLayout,
        op: &'static str,
        lhs: String,
        rhs: String,
    ) -> CodegenError {
        CodegenError::LayoutMismatch {
            op,
            difference: self.difference(other),
            lhs,
            rhs,
        }
    }

    /// Where `self` and `other` first differ, for error messages: the first basis that maps
    /// differently.
    pub fn difference(&self, other: &TileLayout) -> String {
        if self.shape != other.shape {
            return format!("shapes {:?} vs {:?}", self.shape, other.shape);
        }
        for (name, a, b) in [
            ("register", &self.reg, &other.reg),
            ("lane", &self.lane, &other.lane),
            ("warp", &self.warp, &other.warp),
        ] {
            if a.len() != b.len() {
                return format!("{name} has {} bits vs {}", a.len(), b.len());
            }
            if let Some(i) = (0..a.len()).find(|&i| a[i] != b[i]) {
                return format!("{name} bit {i} maps to {:?} vs {:?}", a[i], b[i]);
            }
        }
        "none".into()
    }
}

impl fmt::Display for TileLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |b: &Vec<Vec<u64>>| {
            let v: Vec<String> = b
                .iter()
                .map(|c| {
                    format!(
                        "[{}]",
                        c.iter()
                            .map(|x| x.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    )
                })
                .collect();
            format!("[{}]", v.join(","))
        };
        write!(
            f,
            "{{register: {}, lane: {}, warp: {}}}",
            show(&self.reg),
            show(&self.lane),
            show(&self.warp)
        )
    }
}

impl TileLayout {
    /// Checks that `ll` distributes a tile over one CTA of `threads_per_warp × num_warps` threads:
    /// in-dims among register, lane, warp (lane and warp with exactly the kernel's sizes; a missing
    /// one counts as size 1) and out-dims `dim0, dim1, …` in order.
    pub fn new(
        op: &'static str,
        ll: &LinearLayout,
        threads_per_warp: u32,
        num_warps: u32,
    ) -> Result<TileLayout> {
        let bad = |reason: String| CodegenError::BadLayout { op, reason };
        for (name, size) in ll.in_dims() {
            // A `block` dim of size 1 (one CTA, as the encodings produce) is welcome.
            let single_cta = *name == Dim::BLOCK && size == 1;
            if ![Dim::REGISTER, Dim::LANE, Dim::WARP].contains(name) && !single_cta {
                return Err(bad(format!(
                    "input dim `{name}` (size {size}) is not one of register, lane, warp, or a single block \
                     (layout {ll:?})"
                )));
            }
        }
        let shape: Vec<u64> = ll.out_dims().map(|(_, s)| s).collect();
        for (i, (name, _)) in ll.out_dims().enumerate() {
            if *name != Dim::dim(i) {
                return Err(bad(format!(
                    "output dim {i} is `{name}`, expected `dim{i}` (layout {ll:?})"
                )));
            }
        }
        if shape.is_empty() {
            return Err(bad("a tile layout needs at least one output dim".into()));
        }
        if let Some(s) = shape.iter().find(|&&s| s > 1 << 30) {
            // Coordinates are i32 values in the kernel.
            return Err(bad(format!(
                "a tile dim of {s} elements is more than 2^30 (layout {ll:?})"
            )));
        }
        if shape
            .iter()
            .try_fold(1u64, |a, &b| a.checked_mul(b))
            .is_none_or(|n| n > 1 << 40)
        {
            return Err(bad(format!("a tile of shape {shape:?} is too large")));
        }
        let bases = |d: Dim| -> Result<Vec<Vec<u64>>> {
            if ll.has_in_dim(d.as_str()) {
                Ok(ll.bases(d.as_str())?)
            } else {
                Ok(Vec::new())
            }
        };
        let (reg, lane, warp) = (bases(Dim::REGISTER)?, bases(Dim::LANE)?, bases(Dim::WARP)?);
        if 1u64 << lane.len() != threads_per_warp as u64 {
            return Err(bad(format!(
                "it has {} lanes, the target has {threads_per_warp} threads per warp (layout {ll:?})",
                1u64 << lane.len()
            )));
        }
        if 1u64 << warp.len() != num_warps as u64 {
            let hint = if num_warps.is_power_of_two() {
                ""
            } else {
                "; a kernel whose warp count is not a power of two lays out tiles only inside warp roles"
            };
            return Err(bad(format!(
                "it has {} warps, the kernel has {num_warps}{hint} (layout {ll:?})",
                1u64 << warp.len()
            )));
        }
        if reg.len() > 12 {
            return Err(bad(format!(
                "{} registers per thread is more than 4096",
                1u64 << reg.len()
            )));
        }
        // Rebuilt over exactly register, lane and warp, as shape ops make theirs: the conversion
        // planner matches layouts' in-dims by name, so an encoding's empty `block` dim would make
        // a register permutation look like a trip through shared memory.
        Self::from_bases(op, &shape, reg, lane, warp)
    }

    /// Rebuilds a checked layout from bases (used by shape ops).
    pub fn from_bases(
        op: &'static str,
        shape: &[u64],
        reg: Vec<Vec<u64>>,
        lane: Vec<Vec<u64>>,
        warp: Vec<Vec<u64>>,
    ) -> Result<TileLayout> {
        let ll = LinearLayout::from_bases(
            [
                (Dim::REGISTER, reg.clone()),
                (Dim::LANE, lane.clone()),
                (Dim::WARP, warp.clone()),
            ],
            shape.iter().enumerate().map(|(i, &s)| (Dim::dim(i), s)),
            false,
        )
        .map_err(|e| CodegenError::BadLayout {
            op,
            reason: e.to_string(),
        })?;
        Ok(TileLayout {
            ll,
            shape: shape.to_vec(),
            reg,
            lane,
            warp,
            encoding: None,
        })
    }

    /// Tile rank.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Registers per thread.
    pub fn num_regs(&self) -> usize {
        1 << self.reg.len()
    }

    /// The register part of register `r`'s coordinate.
    pub fn reg_coord(&self, r: usize) -> Vec<u64> {
        xor_of(&self.reg, r as u64, self.rank())
    }

    /// For each register, a register of the same thread holding an element of the same aligned
    /// chunk of `constancy` equal elements (per dim; [`AxisInfo`](super::axis_info::AxisInfo)'s
    /// constancy), the first such: a value known constant over such chunks is computed once per
    /// chunk and thread. Two registers whose coordinates differ only in chunk bits that the
    /// thread part never sets are in one chunk (whatever the thread adds is the same for both).
    pub fn chunk_representatives(&self, constancy: &[u64]) -> Vec<usize> {
        let thread = self.thread_bits();
        let low: Vec<u64> = constancy
            .iter()
            .zip(&thread)
            .map(|(&c, &t)| (c.max(1) - 1) & !t)
            .collect();
        let mut first: std::collections::HashMap<Vec<u64>, usize> =
            std::collections::HashMap::new();
        (0..self.num_regs())
            .map(|r| {
                let key: Vec<u64> = self
                    .reg_coord(r)
                    .iter()
                    .zip(&low)
                    .map(|(x, m)| x & !m)
                    .collect();
                *first.entry(key).or_insert(r)
            })
            .collect()
    }

    /// The bases of the thread index `tid = lane + warp · threads_per_warp`, bit by bit: the lane
    /// bases, then the warp bases.
    pub fn tid_bases(&self) -> Vec<Vec<u64>> {
        self.lane.iter().chain(&self.warp).cloned().collect()
    }

    /// For each tile dim, the OR of every coordinate bit the thread part can set.
    pub fn thread_bits(&self) -> Vec<u64> {
        let mut bits = vec![0u64; self.rank()];
        for b in self.lane.iter().chain(&self.warp) {
            for d in 0..self.rank() {
                bits[d] |= b[d];
            }
        }
        bits
    }

    /// How many consecutive registers (a power of two, starting at any multiple of it) hold
    /// consecutive elements along `dim`, in order, at coordinates aligned to that count: register
    /// bit `i < k` must step dim `dim` by `2^i` and nothing else, and no other basis may touch the
    /// low `k` bits of `dim`.
    pub fn contiguous_regs(&self, dim: usize) -> u64 {
        let mut k = 0;
        while k < self.reg.len() {
            let b = &self.reg[k];
            let unit = (0..self.rank()).all(|d| b[d] == if d == dim { 1 << k } else { 0 });
            if !unit {
                break;
            }
            k += 1;
        }
        // Any other basis touching bits below 2^k would permute or misalign the run.
        while k > 0 {
            let low = (1u64 << k) - 1;
            let others = self.reg[k..].iter().chain(&self.lane).chain(&self.warp);
            if others.clone().all(|b| b[dim] & low == 0) {
                break;
            }
            k -= 1;
        }
        1 << k
    }

    /// Input bits that only repeat elements other bits already reach (Triton's free variables),
    /// as masks over (register, lane, warp). A thread or register with a free bit set holds a
    /// copy; stores and atomics skip copies so each element is written once.
    pub fn free_masks(&self) -> (u64, u64, u64) {
        // Each basis packed into one u64 (the dims' bits side by side): a column of the layout's
        // matrix, in the order register, lane, warp; a free column is in the span of earlier ones.
        let widths: Vec<u32> = self.shape.iter().map(|s| s.trailing_zeros()).collect();
        let pack = |b: &Vec<u64>| {
            let mut v = 0u64;
            let mut shift = 0;
            for (d, w) in widths.iter().enumerate() {
                v |= b[d] << shift;
                shift += w;
            }
            v
        };
        let cols: Vec<u64> = self
            .reg
            .iter()
            .chain(&self.lane)
            .chain(&self.warp)
            .map(pack)
            .collect();
        let free = gf2::ColumnEchelon::new(&cols).free_mask();
        let (r, l) = (self.reg.len(), self.lane.len());
        let low = |n: usize| (1u64 << n) - 1;
        (
            free & low(r),
            (free >> r) & low(l),
            (free >> (r + l)) & low(self.warp.len()),
        )
    }
}

/// XOR of the bases selected by the set bits of `bits`.
pub(crate) fn xor_of(bases: &[Vec<u64>], bits: u64, rank: usize) -> Vec<u64> {
    let mut c = vec![0u64; rank];
    for (i, b) in bases.iter().enumerate() {
        if bits >> i & 1 == 1 {
            for d in 0..rank {
                c[d] ^= b[d];
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1-D layout: `per_thread` contiguous registers, then lanes, then warps.
    fn blocked_1d(per_thread: u64, lanes: u64, warps: u64, size: u64) -> TileLayout {
        let bits = |n: u64, shift: u32| {
            (0..n.trailing_zeros())
                .map(|i| vec![(1u64 << (i + shift)) % size])
                .collect()
        };
        let r = per_thread.trailing_zeros();
        let l = lanes.trailing_zeros();
        TileLayout::from_bases(
            "test",
            &[size],
            bits(per_thread, 0),
            bits(lanes, r),
            bits(warps, r + l),
        )
        .unwrap()
    }

    #[test]
    fn contiguity_and_free_bits_of_a_blocked_layout() {
        let t = blocked_1d(4, 32, 4, 512);
        assert_eq!(t.contiguous_regs(0), 4);
        assert_eq!(t.free_masks(), (0, 0, 0));
        // A tile smaller than the layout wraps: warps 2 and 3 repeat warps 0 and 1.
        let t = blocked_1d(4, 32, 4, 256);
        assert_eq!(t.free_masks(), (0, 0, 0b10));
    }

    #[test]
    fn registers_in_one_constant_chunk_share_a_representative() {
        // 4 contiguous registers per thread, lanes next, warps, then the tile wrapping 4 times
        // (16 registers): register r holds element (r % 4) + 512 (r / 4) + 4 lane + 128 warp.
        let b = |v: &[u64]| v.iter().map(|&x| vec![x]).collect::<Vec<_>>();
        let t = TileLayout::from_bases(
            "test",
            &[2048],
            b(&[1, 2, 512, 1024]),
            b(&[4, 8, 16, 32, 64]),
            b(&[128, 256]),
        )
        .unwrap();
        assert_eq!(t.num_regs(), 16);
        // Constant over 16 aligned elements: each thread's 4 contiguous registers share one.
        let reps = t.chunk_representatives(&[16]);
        assert_eq!(reps, (0..16).map(|r| r / 4 * 4).collect::<Vec<_>>());
        // Over the whole tile: all 16 (the thread part adds the same bits to each).
        assert_eq!(t.chunk_representatives(&[2048]), vec![0; 16]);
        // Over 1024: registers 1024 apart are in different chunks.
        let reps = t.chunk_representatives(&[1024]);
        assert_eq!(reps, (0..16).map(|r| r / 8 * 8).collect::<Vec<_>>());
        // Nothing constant: every register is its own.
        assert_eq!(t.chunk_representatives(&[1]), (0..16).collect::<Vec<_>>());
        // Constant over 2: pairs.
        let reps = t.chunk_representatives(&[2]);
        assert_eq!(reps, (0..16).map(|r| r / 2 * 2).collect::<Vec<_>>());
    }

    /// register part XOR lane plan XOR warp plan == LinearLayout::apply, for every thread and
    /// register of a family of layouts (blocked ones and ones with odd bases).
    #[test]
    fn index_plans_agree_with_apply_exhaustively() {
        use crate::layout::encoding::{Blocked, Encoding};
        let mut layouts = Vec::new();
        for (shape, spt, tpw, wpc, order) in [
            (
                vec![512u64],
                vec![4u32],
                vec![32u32],
                vec![4u32],
                vec![0u32],
            ),
            (vec![64], vec![1], vec![32], vec![4], vec![0]),
            (
                vec![16, 64],
                vec![1, 4],
                vec![2, 16],
                vec![4, 1],
                vec![1, 0],
            ),
            (vec![64, 16], vec![2, 2], vec![8, 4], vec![1, 4], vec![0, 1]),
            (vec![8, 8], vec![1, 1], vec![4, 8], vec![2, 2], vec![1, 0]),
            (
                vec![4, 2, 64],
                vec![1, 2, 2],
                vec![1, 1, 32],
                vec![2, 1, 2],
                vec![2, 1, 0],
            ),
        ] {
            let enc = Blocked::new(&spt, &tpw, &wpc, &order);
            layouts.push(Encoding::from(enc).to_linear_layout(&shape).unwrap());
        }
        // Bases that are not powers of two, and runs broken by a zero.
        layouts.push(
            LinearLayout::from_bases(
                [
                    (Dim::REGISTER, vec![vec![3, 0], vec![0, 1]]),
                    (
                        Dim::LANE,
                        vec![vec![1, 0], vec![0, 2], vec![4, 0], vec![0, 0], vec![8, 3]],
                    ),
                    (Dim::WARP, vec![vec![5, 4], vec![0, 0]]),
                ],
                [(Dim::dim(0), 16u64), (Dim::dim(1), 8u64)],
                false,
            )
            .unwrap(),
        );
        for ll in &layouts {
            let warps = 1u32 << ll.in_dim_size_log2("warp").unwrap();
            let t = TileLayout::new("test", ll, 32, warps).unwrap();
            for d in 0..t.rank() {
                // What the prologue emits: one plan on the thread index.
                let plan = id_plan(&t.tid_bases(), d);
                for r in 0..t.num_regs() as u64 {
                    for lane in 0..32u64 {
                        for warp in 0..warps as u64 {
                            let want = ll
                                .apply(&[("register", r), ("lane", lane), ("warp", warp)])
                                .unwrap()[d]
                                .1;
                            let got =
                                t.reg_coord(r as usize)[d] ^ eval_plan(&plan, lane + 32 * warp);
                            assert_eq!(got, want, "{ll:?} dim {d} r {r} lane {lane} warp {warp}");
                        }
                    }
                }
            }
            check_runs_and_copies(ll, &t, warps as u64);
        }
    }

    /// Brute force: `contiguous_regs` runs are aligned runs of consecutive elements, and the
    /// inputs without free bits reach every element exactly once.
    fn check_runs_and_copies(ll: &LinearLayout, t: &TileLayout, warps: u64) {
        let at = |r: u64, l: u64, w: u64| -> Vec<u64> {
            ll.apply(&[("register", r), ("lane", l), ("warp", w)])
                .unwrap()
                .into_iter()
                .map(|(_, x)| x)
                .collect()
        };
        for d in 0..t.rank() {
            let v = t.contiguous_regs(d);
            for g in (0..t.num_regs() as u64).step_by(v as usize) {
                for (l, w) in (0..32).flat_map(|l| (0..warps).map(move |w| (l, w))) {
                    let first = at(g, l, w);
                    assert_eq!(first[d] % v, 0, "run start aligned: {ll:?}");
                    for j in 1..v {
                        let mut want = first.clone();
                        want[d] += j;
                        assert_eq!(at(g + j, l, w), want, "{ll:?} dim {d} run {g}+{j}");
                    }
                }
            }
        }
        let (rf, lf, wf) = t.free_masks();
        let mut reached = std::collections::HashSet::new();
        let mut all = std::collections::HashSet::new();
        for r in 0..t.num_regs() as u64 {
            for l in 0..32u64 {
                for w in 0..warps {
                    let c = at(r, l, w);
                    all.insert(c.clone());
                    if r & rf == 0 && l & lf == 0 && w & wf == 0 {
                        assert!(
                            reached.insert(c),
                            "a representative repeats an element: {ll:?}"
                        );
                    }
                }
            }
        }
        assert_eq!(
            reached, all,
            "representatives must reach every element: {ll:?}"
        );
    }

    /// A random distributed layout: 32 lanes, 1–4 warps, 1–8 registers, rank 1–3, any bases.
    fn random_layout() -> impl proptest::strategy::Strategy<Value = LinearLayout> {
        use proptest::prelude::*;
        (prop::collection::vec(0u32..4, 1..=3), 0usize..4, 0usize..3).prop_flat_map(
            |(logs, nreg, nwarp)| {
                let rank = logs.len();
                let basis = prop::collection::vec(0u64..64, rank).prop_map({
                    let logs = logs.clone();
                    move |v| {
                        v.iter()
                            .zip(&logs)
                            .map(|(x, l)| x & ((1u64 << l) - 1))
                            .collect::<Vec<u64>>()
                    }
                });
                (
                    Just(logs),
                    prop::collection::vec(basis.clone(), nreg),
                    prop::collection::vec(basis.clone(), 5),
                    prop::collection::vec(basis, nwarp),
                )
                    .prop_map(|(logs, reg, lane, warp)| {
                        LinearLayout::from_bases(
                            [(Dim::REGISTER, reg), (Dim::LANE, lane), (Dim::WARP, warp)],
                            logs.iter()
                                .enumerate()
                                .map(|(i, l)| (Dim::dim(i), 1u64 << l)),
                            false,
                        )
                        .unwrap()
                    })
            },
        )
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("proptest-regressions/codegen_index.txt"))), ..proptest::prelude::ProptestConfig::default() })]
        /// The emitted index arithmetic (as a host-evaluated plan), the vector runs and the copy
        /// masks are right for any layout.
        #[test]
        fn index_plans_runs_and_copies_hold_for_random_layouts(ll in random_layout()) {
            let warps = 1u32 << ll.in_dim_size_log2("warp").unwrap();
            let t = TileLayout::new("test", &ll, 32, warps).unwrap();
            for d in 0..t.rank() {
                let plan = id_plan(&t.tid_bases(), d);
                for r in 0..t.num_regs() as u64 {
                    for lane in 0..32u64 {
                        for warp in 0..warps as u64 {
                            let want = ll.apply(&[("register", r), ("lane", lane), ("warp", warp)]).unwrap()[d].1;
                            let got = t.reg_coord(r as usize)[d] ^ eval_plan(&plan, lane + 32 * warp);
                            proptest::prop_assert_eq!(got, want);
                        }
                    }
                }
            }
            check_runs_and_copies(&ll, &t, warps as u64);
        }
    }

    #[test]
    fn a_thread_basis_inside_the_run_breaks_contiguity() {
        let t = TileLayout::from_bases(
            "test",
            &[8],
            vec![vec![1], vec![2]],
            vec![vec![1], vec![4], vec![0], vec![0], vec![0]],
            vec![],
        )
        .unwrap();
        assert_eq!(t.contiguous_regs(0), 1);
    }
}

/// Whether `mask` holds every bit of the thread index from its lowest set bit up (`top` is the
/// largest thread index): then `tid & mask` needs no mask before a shift, and `tid & mask == 0` is
/// `tid < 2^lo`.
pub(crate) fn reaches_top(mask: u64, top: u64) -> bool {
    let lo = mask.trailing_zeros();
    lo < 64 && mask == top & !((1u64 << lo) - 1)
}

/// One term of a thread coordinate: the coordinate along one tile dim is the XOR of the terms of
/// the thread index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Term {
    /// `(id & mask) << shift` (a right shift when `shift < 0`): a run of id bits whose bases
    /// are consecutive powers of two.
    Bits { mask: u64, shift: i64 },
    /// `value` if bit `bit` of the id is set: a basis that is not a power of two.
    Select { bit: u32, value: u64 },
}

/// The terms that compute, from an id (the thread index, or a lane or warp id), its part of the
/// coordinate along `dim`.
/// Runs of id bits `i, i+1, …` mapping to `2^s, 2^(s+1), …` become one masked shift.
pub(crate) fn id_plan(bases: &[Vec<u64>], dim: usize) -> Vec<Term> {
    let mut terms = Vec::new();
    let mut i = 0;
    while i < bases.len() {
        let c = bases[i][dim];
        if c == 0 {
            i += 1;
        } else if c.is_power_of_two() {
            let mut n = 1;
            while i + n < bases.len()
                && c.checked_shl(n as u32)
                    .is_some_and(|x| bases[i + n][dim] == x)
            {
                n += 1;
            }
            terms.push(Term::Bits {
                mask: ((1u64 << n) - 1) << i,
                shift: c.trailing_zeros() as i64 - i as i64,
            });
            i += n;
        } else {
            terms.push(Term::Select {
                bit: i as u32,
                value: c,
            });
            i += 1;
        }
    }
    terms
}

/// Evaluates a plan on the host (what the emitted instructions compute).
#[cfg(test)]
pub(crate) fn eval_plan(terms: &[Term], id: u64) -> u64 {
    terms.iter().fold(0, |acc, t| {
        acc ^ match *t {
            Term::Bits { mask, shift } if shift >= 0 => (id & mask) << shift,
            Term::Bits { mask, shift } => (id & mask) >> -shift,
            Term::Select { bit, value } => {
                if id >> bit & 1 == 1 {
                    value
                } else {
                    0
                }
            }
        }
    })
}
