//! Warp-shuffle plans: move data between lanes of one warp with `shfl.sync.idx` (NVIDIA) or
//! `ds_bpermute` (AMD), no shared memory.
//!
//! Write the conversion as a linear map `F` from destination (register r', lane l') bits to the source
//! (register r, lane l) bits holding the same element: `r = A r' ⊕ B l'`, `l = D r' ⊕ E l'`. A plan runs one
//! *round* per destination register word `k`; in round `k` lane `l'` fills register `k ⊕ G l'` (a lane-dependent
//! diagonal, `G` chosen below) by reading lane `D k ⊕ M l'` with `M = D G ⊕ E`. The sender does not know who
//! reads it, so it must be able to pick the register from its own lane id: that needs `ker M ⊆ ker N` with
//! `N = A G ⊕ B`, and the sender sends register `A k ⊕ N z` where `M z = l ⊕ D k`. When `M = I`, rounds with
//! `D k = 0` read the own lane: no shuffle at all. With `G` solving `D G = E ⊕ I` this halves the shuffles of a
//! single register↔lane transposition, as Triton's "ship" lowering does; `G = 0` covers pure lane
//! permutations with one shuffle per register, as Triton does.
//!
//! Register bits that map to register bits and touch nothing else are *packed*: sub-32-bit elements that
//! travel together share one 32-bit shuffle (up to 4 elements, Triton's `nPack`).

use crate::layout::gf2::ColumnEchelon;
use crate::layout::{LayoutError, LinearLayout, Result};

use super::hw::{rank, same_tensor, xor_cols, Hw};

/// A warp-shuffle plan for one conversion.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShufflePlan {
    /// Bits per element.
    pub element_bits: u32,
    /// Elements that travel in one 32-bit word (1, 2 or 4).
    pub elements_per_word: u32,
    /// 32-bit words per element (2 for 64-bit elements).
    pub words_per_element: u32,
    /// Rounds: one per destination register word.
    pub rounds: u32,
    /// Rounds that read another lane (the others only select among own registers).
    pub shuffle_rounds: u32,
    /// Shuffle instructions per thread.
    pub shuffles: u32,
    /// Select (or byte-permute) instructions per thread, before and after the shuffles.
    pub selects: u32,
    /// Per round `k`: the lane each lane reads is `lane_xor[k] ⊕ M·lane`.
    pub lane_xor: Vec<u64>,
    /// `M`: columns (one per lane bit) of the lane map of every round.
    pub lane_map: Vec<u64>,
    /// `G`: columns (one per lane bit) of the diagonal: lane `l'` fills word `k ⊕ G l'` in round `k`.
    pub diagonal: Vec<u64>,
    pub(crate) m: Matrices,
}

/// The pieces of `F` after packing, kept for execution and for printing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Matrices {
    /// Source layout columns (broadcast registers removed).
    pub src: Hw,
    /// Destination layout columns (broadcast registers removed).
    pub dst: Hw,
    /// Destination register bits that are packed, with their source register bit.
    pub packed: Vec<(usize, usize)>,
    /// Destination register bits that index words (the round index `k`), in order.
    pub word_bits: Vec<usize>,
    /// `A` on word bits: source register bits (full index) per word bit.
    pub a: Vec<u64>,
    /// `D` on word bits: source lanes per word bit.
    pub d: Vec<u64>,
    /// `N = A G ⊕ B`: source register per lane bit.
    pub n: Vec<u64>,
    /// Lane bits of the warp.
    pub lane_bits: usize,
}

/// Whether `x` is outside the span of the independent vectors `basis`.
fn independent_of(basis: &[u64], x: u64) -> bool {
    let mut t: smallvec::SmallVec<[u64; 16]> = basis.iter().copied().collect();
    t.push(x);
    rank(&t) as usize == t.len()
}

/// Plans a warp-shuffle conversion from `src` to `dst`, or explains why data cannot stay in the warp.
pub fn plan_shuffle(
    src: &LinearLayout,
    dst: &LinearLayout,
    element_bits: u32,
) -> Result<ShufflePlan> {
    if element_bits == 0 || element_bits > 64 {
        return Err(LayoutError::Invalid(format!(
            "element bits must be 1..=64, got {element_bits}"
        )));
    }
    let order = same_tensor(src, dst)?;
    let s = Hw::new(src, &order)?.without_broadcast_regs();
    let t = Hw::new(dst, &order)?.without_broadcast_regs();
    if s.lane.len() != t.lane.len() {
        return Err(LayoutError::Invalid(format!(
            "warp shuffles need equal warp sizes: {} and {} lanes",
            s.num_lanes(),
            t.num_lanes()
        )));
    }
    if s.warp != t.warp || s.block != t.block {
        return Err(LayoutError::Invalid(
            "warp shuffles need both layouts to give every warp the same elements".into(),
        ));
    }
    let rs = s.reg.len();
    let nl = s.lane.len();
    // F: each destination (register ++ lane) column solved in the source (register ++ lane) columns.
    let src_cols: Vec<u64> = s.reg.iter().chain(&s.lane).copied().collect();
    let ech = ColumnEchelon::new(&src_cols);
    let mut f = Vec::with_capacity(t.reg.len() + nl);
    for &c in t.reg.iter().chain(&t.lane) {
        match ech.solve(c) {
            Some(u) => f.push(u),
            None => {
                return Err(LayoutError::Invalid(
                    "data crosses warps: a destination element is not held by the same warp of the source"
                        .into(),
                ))
            }
        }
    }
    let reg_mask = (1u64 << rs) - 1;
    let split = |u: u64| (u & reg_mask, u >> rs);
    let rt = t.reg.len();

    // Packing: destination register bits sent whole with one source register bit and nothing else.
    let max_pack = match element_bits {
        0..=8 => 2,
        9..=16 => 1,
        _ => 0,
    };
    let mut packed: Vec<(usize, usize)> = Vec::new();
    for i in 0..rt {
        if packed.len() >= max_pack {
            break;
        }
        let (r, l) = split(f[i]);
        if l != 0 || r.count_ones() != 1 {
            continue;
        }
        let sbit = r.trailing_zeros() as usize;
        let touched = f
            .iter()
            .enumerate()
            .any(|(j, &u)| j != i && (u >> sbit) & 1 == 1);
        if !touched {
            packed.push((i, sbit));
        }
    }
    let word_bits: Vec<usize> = (0..rt)
        .filter(|i| !packed.iter().any(|p| p.0 == *i))
        .collect();
    if word_bits.len() > 16 || nl > 8 {
        return Err(LayoutError::TooManyBits {
            what: "a warp-shuffle plan (register words and lanes)".into(),
            bits: (word_bits.len() + nl) as u32,
            limit: 24,
        });
    }
    let a: Vec<u64> = word_bits.iter().map(|&i| split(f[i]).0).collect();
    let d: Vec<u64> = word_bits.iter().map(|&i| split(f[i]).1).collect();
    let b: Vec<u64> = (0..nl).map(|j| split(f[rt + j]).0).collect();
    let e: Vec<u64> = (0..nl).map(|j| split(f[rt + j]).1).collect();

    // Source lanes that hold copies (zero columns): reading lane `l ⊕ x` for such `x` gives the same data,
    // so receivers may spread over the copies.
    let copies: Vec<u64> = (0..nl)
        .filter(|&j| s.lane[j] == 0)
        .map(|j| 1u64 << j)
        .collect();
    // Candidate diagonals G (and copy offsets X): M = D G ⊕ E ⊕ X must be injective on the destination lanes
    // that hold data. One candidate prefers M = I (local rounds), the other G = 0 (no diagonal).
    let d_ech = ColumnEchelon::new(&d);
    let g_ident: Vec<Option<u64>> = e
        .iter()
        .enumerate()
        .map(|(j, &ej)| d_ech.solve(ej ^ (1 << j)))
        .collect();
    let moves: Vec<(u64, u64)> = (0..d.len())
        .map(|i| (1u64 << i, d[i]))
        .chain(copies.iter().map(|&c| (0, c)))
        .collect();
    let greedy = |prefer_identity: bool| -> Option<(Vec<u64>, Vec<u64>)> {
        let mut g = vec![0u64; nl];
        let mut m = vec![0u64; nl];
        let mut chosen: Vec<u64> = Vec::new();
        for j in 0..nl {
            if f[rt + j] == 0 {
                continue; // a broadcast destination lane: same data as lane j = 0
            }
            // Preferred choices first; the search over combinations of moves only when they fail.
            let mut preferred: [Option<(u64, u64)>; 2] = [None, Some((0, e[j]))];
            if prefer_identity {
                preferred[0] = g_ident[j].map(|gi| (gi, 1u64 << j));
            }
            let limit = moves.len().min(12);
            let combos = (1u64..(1u64 << limit)).map(|combo| {
                let (mut gg, mut mm) = (0u64, e[j]);
                for (b, &(gv, mv)) in moves.iter().take(limit).enumerate() {
                    if (combo >> b) & 1 == 1 {
                        gg ^= gv;
                        mm ^= mv;
                    }
                }
                (gg, mm)
            });
            let mut ok = false;
            for (gg, mm) in preferred.into_iter().flatten().chain(combos) {
                if mm != 0 && independent_of(&chosen, mm) {
                    g[j] = gg;
                    m[j] = mm;
                    chosen.push(mm);
                    ok = true;
                    break;
                }
            }
            if !ok {
                return None;
            }
        }
        Some((g, m))
    };
    let candidates: Vec<(Vec<u64>, Vec<u64>)> = [greedy(true), greedy(false)]
        .into_iter()
        .flatten()
        .collect();
    let words_per_element = element_bits.div_ceil(32).max(1);
    let elements_per_word = 1u32 << packed.len();
    let mut best: Option<ShufflePlan> = None;
    for (g, m) in candidates {
        let n: Vec<u64> = (0..nl).map(|j| xor_cols(&a, g[j]) ^ b[j]).collect();
        // ker M ⊆ ker N.
        let m_ech = ColumnEchelon::new(&m);
        if m_ech.nullspace().iter().any(|&z| xor_cols(&n, z) != 0) {
            continue;
        }
        let identity = m.iter().enumerate().all(|(j, &c)| c == 1 << j);
        let rounds = 1u32 << word_bits.len();
        let lane_xor: Vec<u64> = (0..rounds as u64).map(|k| xor_cols(&d, k)).collect();
        let is_local = |k: u64| identity && lane_xor[k as usize] == 0;
        let shuffle_rounds = (0..rounds as u64).filter(|&k| !is_local(k)).count() as u32;
        let pre = shuffle_rounds * ((1u32 << rank(&n)) - 1);
        // After the shuffles each word picks among the rounds (or own registers) its lanes need.
        let mut post = 0u32;
        let mut seen: Vec<u64> = Vec::new();
        for w in 0..rounds as u64 {
            seen.clear();
            for lp in 0..(1u64 << nl) {
                let k = w ^ xor_cols(&g, lp);
                let id = if is_local(k) {
                    (1u64 << 63) | (xor_cols(&a, k) ^ xor_cols(&n, lp))
                } else {
                    k
                };
                if !seen.contains(&id) {
                    seen.push(id);
                }
            }
            post += seen.len() as u32 - 1;
        }
        let plan = ShufflePlan {
            element_bits,
            elements_per_word,
            words_per_element,
            rounds,
            shuffle_rounds,
            shuffles: shuffle_rounds * words_per_element,
            selects: (pre + post) * words_per_element,
            lane_xor,
            lane_map: m,
            diagonal: g.clone(),
            m: Matrices {
                src: s.clone(),
                dst: t.clone(),
                packed: packed.clone(),
                word_bits: word_bits.clone(),
                a: a.clone(),
                d: d.clone(),
                n,
                lane_bits: nl,
            },
        };
        let better = match &best {
            None => true,
            Some(p) => (plan.shuffles, plan.selects) < (p.shuffles, p.selects),
        };
        if better {
            best = Some(plan);
        }
    }
    best.ok_or_else(|| {
        LayoutError::Invalid(
            "no shuffle schedule: a sender would have to serve two registers in one round".into(),
        )
    })
}

impl ShufflePlan {
    /// Instructions per thread: shuffles plus selects.
    pub fn instructions(&self) -> u32 {
        self.shuffles + self.selects
    }

    /// The source register a sender in lane `lane` sends in round `k` (word bits only; packed bits are the
    /// rest of its word), or `None` if no lane reads it.
    pub(crate) fn sender_register(&self, k: u64, lane: u64) -> Option<u64> {
        let m = &self.m;
        let target = lane ^ self.lane_xor[k as usize];
        let z = ColumnEchelon::new(&self.lane_map).solve(target)?;
        Some(xor_cols(&m.a, k) ^ xor_cols(&m.n, z))
    }
}
