//! Which hardware levels a conversion must cross: strip what the two layouts agree on, then read off the
//! kind (Triton's `minimalCvtLayout`, `cvtReordersRegisters`, `cvtNeedsWarpShuffle`).

use std::fmt;

use crate::layout::{Dim, LayoutError, LinearLayout, Result};

use super::cta_local::cta_local_source;
use super::hw::{same_tensor, Hw};

/// How data must move to go from one layout to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ConversionKind {
    /// The layouts place every element identically: nothing to do.
    Noop,
    /// Each thread already holds what it needs, in other registers.
    RegisterPermute,
    /// Data crosses lanes of one warp only: shuffles.
    WarpShuffle,
    /// Data crosses warps (or shuffles would cost more): a round trip through shared memory.
    SharedMemory,
    /// Data crosses CTAs of a cluster: distributed shared memory.
    CrossCta,
}

impl ConversionKind {
    /// The name used in JSON (`noop`, `register_permute`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            ConversionKind::Noop => "noop",
            ConversionKind::RegisterPermute => "register_permute",
            ConversionKind::WarpShuffle => "warp_shuffle",
            ConversionKind::SharedMemory => "shared_memory",
            ConversionKind::CrossCta => "cross_cta",
        }
    }
}

impl fmt::Display for ConversionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The slowest hardware level a conversion crosses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Level {
    /// Nothing moves.
    None,
    /// Within a thread.
    Register,
    /// Within a warp.
    Lane,
    /// Within a CTA.
    Warp,
    /// Across CTAs.
    Block,
}

/// The result of classifying a conversion.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Classification {
    /// The conversion map (destination hardware coordinate → source hardware coordinate holding the same
    /// element) with every trailing hardware dim on which it is the identity removed.
    pub minimal: LinearLayout,
    /// The slowest level left in `minimal`.
    pub level: Level,
    /// For lane-level conversions, the number of mixed (register bit, lane bit) transpositions in Triton's
    /// decomposition of the conversion permutation; `None` when that permutation is not a permutation of
    /// basis bits (Triton then uses shared memory).
    pub mixed_transpositions: Option<usize>,
    /// For block-level conversions: every destination CTA finds its elements in the same source CTA (e.g.
    /// the source is broadcast across CTAs), so CTA-local shared memory suffices, as Triton does.
    pub cta_local: bool,
    /// The source is broadcast across warps (CTAs) and each destination warp (CTA) reads the copy its own
    /// warp holds, lanes chosen per warp (Triton 3.9): `minimal` and `level` are what is left within the warp.
    /// weft's own shuffle plans need both layouts to give each warp the same elements, so weft plans shared
    /// memory for these where Triton shuffles.
    #[cfg_attr(feature = "serde", serde(default))]
    pub reads_broadcast_copies: bool,
}

impl Classification {
    /// What Triton 3.9 does for this conversion (warp shuffles when fewer than two mixed transpositions).
    pub fn triton_kind(&self) -> ConversionKind {
        match self.level {
            Level::None => ConversionKind::Noop,
            Level::Register => ConversionKind::RegisterPermute,
            Level::Lane => match self.mixed_transpositions {
                Some(m) if m < 2 => ConversionKind::WarpShuffle,
                _ => ConversionKind::SharedMemory,
            },
            Level::Warp => ConversionKind::SharedMemory,
            Level::Block if self.cta_local => ConversionKind::SharedMemory,
            Level::Block => ConversionKind::CrossCta,
        }
    }
}

/// A quick test of Triton's `isTrivialOver(dim)` on the packed columns, so that failing quotients cost
/// nothing: `dim → dim` is the identity and no other column touches `dim`'s output bits.
fn trivial_over(l: &LinearLayout, dim: &str) -> bool {
    let (Ok(i), Ok(j)) = (l.in_index(dim), l.out_index(dim)) else {
        return false;
    };
    if l.ins[i].log2 != l.outs[j].log2 {
        return false;
    }
    let shift = l.out_shift(j);
    // A size-1 dim after 64 output bits starts at bit 64: no bits, an empty mask.
    let mask = crate::layout::linear_layout::low_mask(l.outs[j].log2)
        .checked_shl(shift)
        .unwrap_or(0);
    let off = l.in_offset(i);
    let n = l.ins[i].log2 as usize;
    l.cols.iter().enumerate().all(|(c, &col)| {
        if c >= off && c < off + n {
            col == 1u64 << (shift + (c - off) as u32)
        } else {
            col & mask == 0
        }
    })
}

/// The conversion map with the trailing hardware dims common to both layouts quotiented away while it is
/// the identity on them, slowest first (Triton's `minimalCvtLayout`).
pub fn minimal_conversion(src: &LinearLayout, dst: &LinearLayout) -> Result<LinearLayout> {
    let comp = conversion_map(src, dst)?;
    Ok(quotient_common(comp, &common_trailing_dims(src, dst)))
}

/// The in dims both layouts end with, slowest first (the dims `minimalCvtLayout` tries to quotient).
fn common_trailing_dims(src: &LinearLayout, dst: &LinearLayout) -> Vec<Dim> {
    let s: Vec<&Dim> = src.in_dim_names().collect();
    let d: Vec<&Dim> = dst.in_dim_names().collect();
    let mut common = Vec::new();
    for i in 0..s.len().min(d.len()) {
        let (a, b) = (s[s.len() - 1 - i], d[d.len() - 1 - i]);
        if a != b {
            break;
        }
        common.push(*a);
    }
    common
}

/// Quotients `comp` by `dims` in order while it is trivial over each.
fn quotient_common(mut comp: LinearLayout, dims: &[Dim]) -> LinearLayout {
    for dim in dims {
        if !trivial_over(&comp, dim) {
            break;
        }
        match comp.quotient(&[dim]) {
            Ok(q) => comp = q,
            Err(_) => break,
        }
    }
    comp
}

/// The whole conversion map `dst.invert_and_compose(src)`: destination hardware coordinate → a source
/// hardware coordinate holding the same element (Triton's choice among copies).
fn conversion_map(src: &LinearLayout, dst: &LinearLayout) -> Result<LinearLayout> {
    same_tensor(src, dst)?;
    if !src.is_surjective() {
        return Err(LayoutError::Invalid(
            "the source layout does not cover the tensor (not surjective)".into(),
        ));
    }
    match dst.invert_and_compose(src) {
        Ok(c) => Ok(c),
        // Identical dims are mapped to themselves before solving; when the rest of the destination is only
        // reachable through them (Triton asserts here), solve without that shortcut.
        Err(LayoutError::NotInImage { .. }) => {
            let renamed = rename_ins(src, "'")?;
            let c = dst.invert_and_compose(&renamed)?;
            let outs: Vec<(Dim, u64)> = c
                .out_dims()
                .map(|(n, size)| (Dim::new(n.trim_end_matches('\'')), size))
                .collect();
            LinearLayout::from_bases(c.all_bases(), outs, false)
        }
        Err(e) => Err(e),
    }
}

/// Triton 3.9 no longer moves data across warps (or CTAs) when every destination warp finds its elements in
/// broadcast copies its own warp of the source already holds (triton-lang/triton PR 11646, "allow warp
/// shuffles when warp and block can read off broadcasted copies", in `minimalCvtLayout` and the warp-shuffle
/// decomposition of `lib/Analysis/Utility.cpp`, lowered by `transferWithinWarp` in
/// `lib/Conversion/TritonGPUToLLVM/ConvertLayoutOpToLLVM.cpp`; the shared-memory analogue is PR 10647).
///
/// `comp` maps destination hardware bits to source ones. Where the source is broadcast along a warp (or
/// block) bit — a zero basis — that source bit may be chosen freely, so destination warp `k` is taken to read
/// source warp `k`. The map is then local to warps (CTAs) when every destination warp (block) bit reads its
/// own bit and no other destination bit reads a warp (block) bit; the rest of a broadcast warp (block) bit's
/// image may only be lanes (which lanes to read then depends on the warp, patched in by the lowering; a
/// register chosen by warp is not: Triton goes through shared memory there, fixture conversion 150), and a
/// bit the source does not broadcast must map to itself alone, as in `minimalCvtLayout`. Returns the
/// conversion map left on registers and lanes (quotiented like `minimalCvtLayout`), or `None` when data must
/// still cross warps or CTAs.
fn read_off_broadcast_copies(
    src: &LinearLayout,
    comp: &LinearLayout,
    common: &[Dim],
) -> Result<Option<LinearLayout>> {
    let component = |in_dim: &str, bit: u32, out_dim: &str| -> u64 {
        comp.basis_component(in_dim, bit, out_dim).unwrap_or(0)
    };
    let mut removed: Vec<&str> = Vec::new();
    for dim in ["block", "warp"] {
        let n = comp.in_dim_size_log2(dim).unwrap_or(0);
        if n != comp.out_dim_size(dim).map_or(0, |s| s.trailing_zeros()) {
            return Ok(None);
        }
        if !common.iter().any(|d| d.as_str() == dim) && n > 0 {
            return Ok(None);
        }
        let src_zero = |k: u32| -> bool {
            src.basis(dim, k)
                .map(|b| b.iter().all(|&x| x == 0))
                .unwrap_or(false)
        };
        for k in 0..n {
            let free = src_zero(k);
            let own = component(dim, k, dim) ^ if free { 1 << k } else { 0 };
            if own != 1 << k {
                return Ok(None);
            }
            // Only a broadcast bit may read elsewhere, and only lanes: a register chosen by warp is not read
            // off, nor is a bit the source does not broadcast.
            let elsewhere = comp
                .out_dim_names()
                .map(|d| d.as_str())
                .filter(|&d| d != dim && (d != "lane" || !free))
                .any(|d| component(dim, k, d) != 0);
            if elsewhere {
                return Ok(None);
            }
        }
        for other in comp.in_dim_names() {
            let o = other.as_str();
            if o == dim || removed.contains(&o) {
                continue;
            }
            let m = comp.in_dim_size_log2(o)?;
            if (0..m).any(|j| component(o, j, dim) != 0) {
                return Ok(None);
            }
        }
        removed.push(dim);
    }
    let kept = |names: &mut dyn Iterator<Item = &Dim>| -> Vec<Dim> {
        names
            .filter(|d| !removed.contains(&d.as_str()))
            .copied()
            .collect()
    };
    let rest = comp.sublayout(
        &kept(&mut comp.in_dim_names()),
        &kept(&mut comp.out_dim_names()),
    )?;
    Ok(Some(quotient_common(rest, &kept(&mut common.iter()))))
}

/// `l` with `suffix` appended to every in-dim name.
fn rename_ins(l: &LinearLayout, suffix: &str) -> Result<LinearLayout> {
    let bases: Vec<(Dim, crate::layout::Bases)> = l
        .all_bases()
        .into_iter()
        .map(|(d, b)| (Dim::new(&format!("{d}{suffix}")), b))
        .collect();
    let outs: Vec<(Dim, u64)> = l.out_dims().map(|(n, s)| (*n, s)).collect();
    LinearLayout::from_bases(bases, outs, false)
}

/// Classifies the conversion from `src` to `dst` (distributed layouts of the same tensor).
pub fn classify(src: &LinearLayout, dst: &LinearLayout) -> Result<Classification> {
    let comp = conversion_map(src, dst)?;
    let common = common_trailing_dims(src, dst);
    let mut minimal = quotient_common(comp.clone(), &common);
    let mut reads_broadcast_copies = false;
    if minimal.has_out_dim("warp") || minimal.has_out_dim("block") {
        if let Some(local) = read_off_broadcast_copies(src, &comp, &common)? {
            minimal = local;
            reads_broadcast_copies = true;
        }
    }
    let outs: Vec<&str> = minimal.out_dim_names().map(|d| d.as_str()).collect();
    let has = |n: &str| outs.contains(&n);
    let level = if outs.is_empty() {
        Level::None
    } else if has("block") {
        Level::Block
    } else if has("warp") {
        Level::Warp
    } else if has("lane") {
        Level::Lane
    } else if outs == ["register"] {
        Level::Register
    } else {
        Level::Warp
    };
    let mixed_transpositions = if level == Level::Lane && outs == ["register", "lane"] {
        triton_mixed_transpositions(src, dst)?
    } else {
        None
    };
    let cta_local = level == Level::Block && {
        let order = same_tensor(src, dst)?;
        let s = Hw::new(src, &order)?.without_broadcast_regs();
        let d = Hw::new(dst, &order)?.without_broadcast_regs();
        cta_local_source(&s, &d).is_some()
    };
    Ok(Classification {
        minimal,
        level,
        mixed_transpositions,
        cta_local,
        reads_broadcast_copies,
    })
}

/// Number of mixed transpositions in Triton's factorisation `P = P_mixed ∘ P_lane ∘ P_reg` of the
/// warp-local permutation: one per maximal run of lane bits inside a cycle that also holds register bits,
/// i.e. one per lane bit that `P` sends to a register bit.
fn triton_mixed_transpositions(src: &LinearLayout, dst: &LinearLayout) -> Result<Option<usize>> {
    let order = same_tensor(src, dst)?;
    let mut s = Hw::new(src, &order)?.without_broadcast_regs();
    let mut t = Hw::new(dst, &order)?.without_broadcast_regs();
    // Warp and block bases take no part in the decomposition (Triton 3.9, PR 11646): elements that a warp
    // (block) bit selects are read from the copy the warp already holds, whichever lanes hold it. Seen modulo
    // the span of the warp and block bases, such source columns vanish and pair with free destination ones.
    let mut span = crate::layout::gf2::XorBasis::new();
    for &c in s.warp.iter().chain(&s.block).chain(&t.warp).chain(&t.block) {
        span.insert(c);
    }
    for c in s.reg.iter_mut().chain(s.lane.iter_mut()) {
        *c = span.reduce_fully(*c);
    }
    for c in t.reg.iter_mut().chain(t.lane.iter_mut()) {
        *c = span.reduce_fully(*c);
    }
    let nr = s.reg.len().max(t.reg.len());
    let nl = s.lane.len().max(t.lane.len());
    let pad = |v: &[u64], n: usize| {
        let mut v = v.to_vec();
        v.resize(n, 0);
        v
    };
    // Source and destination (register ++ lane) columns, padded to equal sizes.
    let sc: Vec<u64> = pad(&s.reg, nr)
        .into_iter()
        .chain(pad(&s.lane, nl))
        .collect();
    let tc: Vec<u64> = pad(&t.reg, nr)
        .into_iter()
        .chain(pad(&t.lane, nl))
        .collect();
    let n = nr + nl;
    // P maps source bit i to the destination bit holding the same tensor bit; zero columns paired up.
    let mut p: Vec<Option<usize>> = vec![None; n];
    let mut src_zero = Vec::new();
    let mut dst_zero = Vec::new();
    for i in 0..n {
        match (sc[i], tc[i]) {
            (0, 0) => p[i] = Some(i),
            (0, _) => src_zero.push(i),
            (_, 0) => dst_zero.push(i),
            _ => {}
        }
    }
    for i in 0..n {
        if sc[i] == 0 {
            continue;
        }
        match tc.iter().position(|&c| c == sc[i]) {
            Some(j) => p[i] = Some(j),
            None => return Ok(None),
        }
    }
    for (a, b) in src_zero.iter().zip(&dst_zero) {
        p[*a] = Some(*b);
    }
    let mut seen = vec![false; n];
    for x in p.iter().flatten() {
        if seen[*x] {
            return Ok(None);
        }
        seen[*x] = true;
    }
    if p.iter().any(|x| x.is_none()) {
        return Ok(None);
    }
    Ok(Some(
        (nr..n).filter(|&i| p[i].is_some_and(|j| j < nr)).count(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ll(
        reg: Vec<Vec<u64>>,
        lane: Vec<Vec<u64>>,
        warp: Vec<Vec<u64>>,
        shape: [u64; 2],
    ) -> LinearLayout {
        LinearLayout::from_bases(
            [
                ("register", reg),
                ("lane", lane),
                ("warp", warp),
                ("block", vec![]),
            ],
            [("dim0", shape[0]), ("dim1", shape[1])],
            false,
        )
        .unwrap()
    }

    #[test]
    fn identical_layouts_are_noop() {
        let a = ll(
            vec![vec![0, 1]],
            vec![vec![0, 2], vec![1, 0]],
            vec![vec![2, 0]],
            [4, 4],
        );
        let c = classify(&a, &a).unwrap();
        assert_eq!(c.level, Level::None);
        assert_eq!(c.triton_kind(), ConversionKind::Noop);
    }

    #[test]
    fn register_swap_is_register_permute() {
        let a = ll(
            vec![vec![0, 1], vec![0, 2]],
            vec![vec![1, 0]],
            vec![],
            [2, 4],
        );
        let b = ll(
            vec![vec![0, 2], vec![0, 1]],
            vec![vec![1, 0]],
            vec![],
            [2, 4],
        );
        let c = classify(&a, &b).unwrap();
        assert_eq!(c.level, Level::Register);
    }

    #[test]
    fn register_lane_swap_is_one_transposition() {
        let a = ll(vec![vec![0, 1]], vec![vec![1, 0]], vec![], [2, 2]);
        let b = ll(vec![vec![1, 0]], vec![vec![0, 1]], vec![], [2, 2]);
        let c = classify(&a, &b).unwrap();
        assert_eq!(c.level, Level::Lane);
        assert_eq!(c.mixed_transpositions, Some(1));
        assert_eq!(c.triton_kind(), ConversionKind::WarpShuffle);
    }

    /// Four elements, two warps: lane 1 broadcast, warp 1 holds elements 2 and 3.
    fn upper_half_in_warp_1() -> LinearLayout {
        ll(
            vec![],
            vec![vec![1, 0], vec![0, 0]],
            vec![vec![2, 0]],
            [4, 1],
        )
    }

    #[test]
    fn broadcast_source_is_read_within_each_warp() {
        // The source gives every warp all four elements (in lanes); destination warp 1 holds elements 2 and 3.
        let src = ll(
            vec![],
            vec![vec![1, 0], vec![2, 0]],
            vec![vec![0, 0]],
            [4, 1],
        );
        let dst = upper_half_in_warp_1();
        // Triton's least-squares map reads destination warp 1's elements from warp 0's lanes ...
        let plain = minimal_conversion(&src, &dst).unwrap();
        assert!(plain.has_out_dim("warp"));
        // ... but each warp already holds them: a shuffle within the warp suffices.
        let c = classify(&src, &dst).unwrap();
        assert_eq!(c.level, Level::Lane);
        assert!(!c.minimal.has_out_dim("warp"));
        assert_eq!(c.mixed_transpositions, Some(0));
        assert!(c.reads_broadcast_copies);
        assert_eq!(c.triton_kind(), ConversionKind::WarpShuffle);
        let plan =
            super::super::plan_conversion(&src, &dst, 32, crate::target::Target::SM90).unwrap();
        assert_eq!(plan.triton_kind, ConversionKind::WarpShuffle);
        plan.verify().unwrap();
    }

    #[test]
    fn broadcast_source_in_registers_still_crosses_warps() {
        // Every warp holds elements 2 and 3 in a register: a register chosen by warp is not read off (Triton
        // 3.9 goes through shared memory, fixture conversion 150).
        let src = ll(
            vec![vec![2, 0]],
            vec![vec![1, 0], vec![0, 0]],
            vec![vec![0, 0]],
            [4, 1],
        );
        let dst = upper_half_in_warp_1();
        let c = classify(&src, &dst).unwrap();
        assert_eq!(c.level, Level::Warp);
        assert_eq!(c.triton_kind(), ConversionKind::SharedMemory);
    }

    #[test]
    fn unbroadcast_warp_reading_other_lanes_crosses_warps() {
        // Destination warp 1 holds element 3 = source warp 1's element 2 ⊕ a lane: the data is in the warp, but
        // the source warp bit is not broadcast, so it is not read off (only broadcast copies are).
        let src = ll(
            vec![],
            vec![vec![1, 0], vec![0, 0]],
            vec![vec![2, 0]],
            [4, 1],
        );
        let dst = ll(
            vec![],
            vec![vec![1, 0], vec![0, 0]],
            vec![vec![3, 0]],
            [4, 1],
        );
        let c = classify(&src, &dst).unwrap();
        assert_eq!(c.level, Level::Warp);
        assert!(!c.reads_broadcast_copies);
    }

    #[test]
    fn warp_swap_needs_shared_memory() {
        let a = ll(vec![], vec![vec![1, 0]], vec![vec![0, 1]], [2, 2]);
        let b = ll(vec![], vec![vec![0, 1]], vec![vec![1, 0]], [2, 2]);
        assert_eq!(classify(&a, &b).unwrap().level, Level::Warp);
    }
}
