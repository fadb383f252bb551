//! Conversions that cross CTAs in name only: every destination CTA finds its elements in one source CTA
//! (e.g. a source broadcast across CTAs), so the classifier calls them CTA-local and the shared-memory
//! planner moves them within each CTA.

use super::hw::{rank, Hw};

/// When every destination CTA finds its elements in the same source CTA although the block bases differ
/// (e.g. a source broadcast across CTAs), the source restricted to what the destination CTA needs, with the
/// destination's block bases; `None` when data must cross CTAs or the restriction is not a set of registers.
pub(crate) fn cta_local_source(s: &Hw, d: &Hw) -> Option<Hw> {
    let intra: Vec<u64> = d
        .reg
        .iter()
        .chain(&d.lane)
        .chain(&d.warp)
        .copied()
        .collect();
    let src_intra: Vec<u64> = s
        .reg
        .iter()
        .chain(&s.lane)
        .chain(&s.warp)
        .copied()
        .collect();
    let in_span = |basis: &[u64], x: u64| {
        let mut t = basis.to_vec();
        let r = rank(&t);
        t.push(x);
        rank(&t) == r
    };
    // Each destination CTA's elements are held by the same source CTA.
    if !intra.iter().all(|&x| in_span(&src_intra, x)) {
        return None;
    }
    for (i, &tb) in d.block.iter().enumerate() {
        let sb = s.block.get(i).copied().unwrap_or(0);
        if !in_span(&src_intra, tb ^ sb) {
            return None;
        }
    }
    // Keep the source registers the destination needs; lanes and warps must all be needed.
    if !s
        .lane
        .iter()
        .chain(&s.warp)
        .all(|&x| x == 0 || in_span(&intra, x))
    {
        return None;
    }
    let mut r = s.clone();
    r.reg.retain(|&x| in_span(&intra, x));
    r.block = d.block.clone();
    let mut all: Vec<u64> = r
        .reg
        .iter()
        .chain(&r.lane)
        .chain(&r.warp)
        .copied()
        .collect();
    all.retain(|&x| x != 0);
    (rank(&all) == rank(&intra)).then_some(r)
}
