//! Whether a warp-shuffle plan is one the shuffle lowering runs exactly, checked on the host
//! before anything is emitted (a plan that is not falls back to the shared-memory round trip),
//! and the lane algebra its emission uses.

use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::lower::bits::{gather, kept_regs, scatter, scatter_packed, span, xor_cols};
use crate::layout::convert::ShufflePlan;
use crate::layout::gf2::ColumnEchelon;

/// The lane algebra of a shuffle plan the lowering runs exactly.
#[derive(Debug, Clone)]
pub(crate) struct ShuffleExec {
    /// `P = N·M⁺`: the register a lane sends in round `k` is `c[k] ⊕ P·lane`.
    pub p: Vec<u64>,
    /// See `p`.
    pub c: Vec<u64>,
    /// Every XOR combination of `p`, 0 first.
    pub p_span: Vec<u64>,
    /// The source and destination register bits the plan keeps (the others hold copies).
    pub src_keep: Vec<usize>,
    /// See `src_keep`.
    pub dst_keep: Vec<usize>,
}

impl ShuffleExec {
    /// The algebra of `sp` converting `src` to `dst` with `tpw` threads per warp; `None` if the
    /// lowering cannot run it exactly (every lane's sends match the plan's, and every
    /// destination register is received).
    pub fn new(sp: &ShufflePlan, src: &TileLayout, dst: &TileLayout, tpw: u32) -> Option<Self> {
        let m = &sp.m;
        let nl = m.lane_bits;
        if 1u64 << nl != tpw as u64 || sp.lane_map.len() != nl {
            return None;
        }
        let (src_keep, dst_keep) = (kept_regs(src), kept_regs(dst));
        if src_keep.len() != m.src.reg.len() || dst_keep.len() != m.dst.reg.len() {
            return None;
        }
        let mut full: Vec<u64> = Vec::new();
        let mut owner: Vec<Option<usize>> = Vec::new();
        for (j, &c) in sp.lane_map.iter().enumerate() {
            if c != 0 {
                full.push(c);
                owner.push(Some(j));
            }
        }
        for i in 0..nl {
            let mut t = full.clone();
            t.push(1 << i);
            if ColumnEchelon::new(&t).free_mask() == 0 {
                full = t;
                owner.push(None);
            }
        }
        if full.len() != nl || ColumnEchelon::new(&full).free_mask() != 0 {
            return None;
        }
        let ech = ColumnEchelon::new(&full);
        let mut p = Vec::with_capacity(nl);
        for i in 0..nl {
            let coef = ech.solve(1 << i)?;
            let z = (0..full.len())
                .filter(|&b| coef >> b & 1 == 1)
                .filter_map(|b| owner[b])
                .fold(0u64, |a, j| a | 1 << j);
            p.push(xor_cols(&m.n, z));
        }
        let rounds = sp.rounds as u64;
        let c: Vec<u64> = (0..rounds)
            .map(|k| xor_cols(&m.a, k) ^ xor_cols(&p, xor_cols(&m.d, k)))
            .collect();
        let packed_src: u64 = m.packed.iter().map(|x| 1u64 << x.1).sum();
        let p_span = span(&p);
        let src_regs = 1u64 << src_keep.len();
        for k in 0..rounds {
            for l in 0..1u64 << nl {
                if let Some(r) = sp.sender_register(k, l) {
                    if r != c[k as usize] ^ xor_cols(&p, l) {
                        return None;
                    }
                }
            }
            if p_span
                .iter()
                .any(|v| (c[k as usize] ^ v) & packed_src != 0 || c[k as usize] ^ v >= src_regs)
            {
                return None;
            }
        }
        // Every destination register is one a round's word fills.
        let mut filled = vec![false; 1usize << dst_keep.len()];
        for w in 0..rounds {
            for q in 0..sp.elements_per_word as u64 {
                let dreg = scatter(w, &m.word_bits) | scatter_packed(q, &m.packed, |pk| pk.0);
                *filled.get_mut(dreg as usize)? = true;
            }
        }
        if (0..dst.num_regs() as u64).any(|r| !filled[gather(r, &dst_keep) as usize]) {
            return None;
        }
        Some(ShuffleExec {
            p,
            c,
            p_span,
            src_keep,
            dst_keep,
        })
    }
}
