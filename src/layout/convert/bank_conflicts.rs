//! Bank conflicts of moving a distributed layout to or from a shared-memory layout (Gluon's
//! `gl.bank_conflicts`): 32 banks of 4 bytes, one 128-byte wavefront per shared-memory cycle.
//!
//! Closed form: a warp instruction accesses `vec` consecutive elements per lane. Lanes are served in phases
//! of 128 bytes (32 lanes for 32-bit accesses, 16 for 64-bit, 8 for 128-bit). Within a phase, lane `l` reads
//! offset `o₀ ⊕ Φ(l)` with `Φ` linear, so the *units* it touches (4-byte words, or aligned blocks of words
//! for wide accesses) form a coset of the subspace `U = Φ(phase lanes)` with the bits inside a unit dropped.
//! A unit is a (bank, row) pair; every bank touched sees `|U ∩ rows|` distinct rows, so one phase takes
//! `2^(dim U − dim bank(U))` wavefronts. The count is the same for every register group, phase and warp, and
//! [`simulate_shared_access`](super::simulate::simulate_shared_access) checks it address by address.

use crate::layout::gf2::ColumnEchelon;
use crate::layout::{Bases, Dim, LayoutError, LinearLayout, Result};

use super::hw::{rank, same_tensor, span_intersection, Hw};

/// Bank-conflict analysis of one (register layout, shared layout) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BankConflicts {
    /// Elements per access (the widest vector both layouts allow, at most 128 bits).
    pub vector: u64,
    /// Lanes served per wavefront phase.
    pub lanes_per_phase: u64,
    /// Wavefronts each phase takes (1 when conflict-free).
    pub wavefronts_per_phase: u64,
    /// Extra wavefronts per phase, exactly (what the brute-force simulator counts).
    pub conflicts: u64,
    /// Gluon's `bank_conflicts` number: `2^dim(span(segment) ∩ span(phase lanes)) − 1` in tensor
    /// coordinates. It equals `conflicts` unless a lane basis moves both the row and the position inside one
    /// bank word (then Gluon undercounts: it misses that the two lanes still hit one bank).
    pub gluon_conflicts: u64,
}

/// Tensor element → shared offset of a bijective shared layout, by one GF(2) solve.
pub(crate) struct OffsetMap {
    ech: ColumnEchelon,
}

impl OffsetMap {
    /// `shared` maps offsets (and possibly a `block`) onto the tensor, its out dims in `order`; it need not be
    /// one to one: an fp4-padded NVMMA
    /// layout maps its padding offsets onto the real ones (Triton's `getCoreMatrixLinearLayout`), and each
    /// element is read from one offset that holds it.
    pub fn onto(shared: &LinearLayout, order: &[crate::layout::Dim]) -> Result<OffsetMap> {
        let sh = shared.transpose_outs(order)?;
        if !sh.is_surjective() {
            return Err(LayoutError::Invalid(
                "the shared layout must hold every tensor element".into(),
            ));
        }
        Ok(OffsetMap {
            ech: ColumnEchelon::new(sh.columns()),
        })
    }

    /// From packed columns directly (offset bit i → column i).
    pub fn from_columns(cols: &[u64]) -> OffsetMap {
        OffsetMap {
            ech: ColumnEchelon::new(cols),
        }
    }

    /// The offset holding tensor element (or basis) `x`.
    pub fn offset(&self, x: u64) -> u64 {
        self.ech.solve(x).unwrap_or(0)
    }
}

/// The widest vector (elements, ≤ 128 bits) such that registers hold offsets 1, 2, …, v/2 and no other
/// register, lane, warp or block basis touches the offsets below `v` (Triton's `largestVectorisation`).
pub(crate) fn largest_vector(reg: &Hw, offsets: &OffsetMap, element_bits: u32) -> u64 {
    let bits = element_bits.max(8) as u64;
    let max = (128 / bits).max(1);
    let reg_off: Vec<u64> = reg.reg.iter().map(|&c| offsets.offset(c)).collect();
    let others: Vec<u64> = reg
        .lane
        .iter()
        .chain(&reg.warp)
        .chain(&reg.block)
        .map(|&c| offsets.offset(c))
        .collect();
    let mut v = max;
    while v > 1 {
        let mask = v - 1;
        let ok = (0..v.trailing_zeros()).all(|i| reg_off.contains(&(1u64 << i)))
            && reg_off
                .iter()
                .filter(|o| !(o.is_power_of_two() && **o < v))
                .all(|o| o & mask == 0)
            && others.iter().all(|o| o & mask == 0);
        if ok {
            return v;
        }
        v /= 2;
    }
    1
}

/// Conflicts of accessing `vec` elements per lane with the given lane → offset columns.
pub(crate) fn conflicts_for(lane_offsets: &[u64], vec: u64, element_bits: u32) -> BankConflicts {
    let bits = element_bits.max(8) as u64;
    let access_bits = vec * bits;
    let lanes = 1u64 << lane_offsets.len();
    let lanes_per_phase = (1024 / access_bits.max(32)).min(lanes);
    let phase_bits = lanes_per_phase.trailing_zeros() as usize;
    // Offset bits inside one unit, and bank bits above them.
    let (inner, words_per_unit) = if access_bits >= 32 {
        (vec.trailing_zeros(), access_bits / 32)
    } else {
        ((32 / bits).trailing_zeros(), 1)
    };
    let bank_bits = (32 / words_per_unit).trailing_zeros();
    let units: Vec<u64> = lane_offsets[..phase_bits.min(lane_offsets.len())]
        .iter()
        .map(|o| o >> inner)
        .collect();
    let bank_mask = (1u64 << bank_bits) - 1;
    let banks: Vec<u64> = units.iter().map(|u| u & bank_mask).collect();
    let rows = rank(&units) - rank(&banks);
    let wavefronts = 1u64 << rows;
    BankConflicts {
        vector: vec,
        lanes_per_phase,
        wavefronts_per_phase: wavefronts,
        conflicts: wavefronts - 1,
        gluon_conflicts: wavefronts - 1,
    }
}

/// Bank conflicts of writing `register_layout` to (or reading it from) `shared_layout`, with
/// `element_bits`-bit elements, the number Gluon's `gl.bank_conflicts` gives: the extra wavefronts per
/// 128-byte phase of each access, using the widest vectorisation the two layouts allow. See
/// [`BankConflicts::conflicts`] (via [`bank_conflicts_detail`]) for the exact count, which differs in rare
/// swizzles where Gluon undercounts.
pub fn bank_conflicts(
    register_layout: &LinearLayout,
    shared_layout: &LinearLayout,
    element_bits: u32,
) -> Result<u64> {
    Ok(bank_conflicts_detail(register_layout, shared_layout, element_bits)?.gluon_conflicts)
}

/// [`bank_conflicts`] with the vector width and phase size it used.
pub fn bank_conflicts_detail(
    register_layout: &LinearLayout,
    shared_layout: &LinearLayout,
    element_bits: u32,
) -> Result<BankConflicts> {
    if element_bits == 0 || element_bits > 128 {
        return Err(LayoutError::Invalid(format!(
            "element bits must be 1..=128, got {element_bits}"
        )));
    }
    if !register_layout.has_in_dim("register") {
        return Err(LayoutError::Invalid(
            "the register layout must have a `register` in dim".into(),
        ));
    }
    if !shared_layout.has_in_dim("offset") {
        return Err(LayoutError::Invalid(
            "the shared layout must have an `offset` in dim".into(),
        ));
    }
    // CTAs that broadcast (zero block bases of the shared layout: every CTA holds the same copy) do not change
    // which banks one CTA's lanes hit; Triton 3.9 counts them per CTA (`gl.bank_conflicts` gives a count).
    let per_cta;
    let shared_layout = match shared_layout.bases("block") {
        Ok(block) if block.iter().any(|b| b.iter().all(|&x| x == 0)) => {
            let ins: Vec<(Dim, Bases)> = shared_layout
                .in_dim_names()
                .map(|d| {
                    let mut b = shared_layout.bases(d.as_str())?;
                    if *d == Dim::BLOCK {
                        b.retain(|v| v.iter().any(|&x| x != 0));
                    }
                    Ok((*d, b))
                })
                .collect::<Result<_>>()?;
            let outs: Vec<(Dim, u64)> = shared_layout.out_dims().map(|(d, s)| (*d, s)).collect();
            per_cta = LinearLayout::from_bases(ins, outs, false)?;
            &per_cta
        }
        _ => shared_layout,
    };
    let order = same_tensor(register_layout, shared_layout)?;
    let reg = Hw::new(register_layout, &order)?.without_broadcast_regs();
    let offsets = OffsetMap::onto(shared_layout, &order)?;
    let vec = largest_vector(&reg, &offsets, element_bits);
    let lane_offsets: Vec<u64> = reg.lane.iter().map(|&c| offsets.offset(c)).collect();
    let mut out = conflicts_for(&lane_offsets, vec, element_bits);
    // Gluon's estimate: offsets from one 1024-bit row on are the segment; intersect its span with the span of
    // the lanes of one phase, both in tensor coordinates.
    let sh = shared_layout.transpose_outs(&order)?;
    let cols = sh.columns();
    let bits = element_bits.max(8) as u64;
    let row = (1024 / (vec * bits)).max(1).min(sh.total_in_size()) * vec;
    let segment: Vec<u64> = cols[(row.trailing_zeros() as usize).min(cols.len())..].to_vec();
    let drop = (vec * bits / 32).max(1).trailing_zeros() as usize;
    let lanes = &reg.lane[..reg.lane.len().saturating_sub(drop)];
    out.gluon_conflicts = (1u64 << span_intersection(&segment, lanes).len()) - 1;
    Ok(out)
}
