//! proptest strategies for layouts (crate feature `proptest`), for weft's own property tests and for users'.
//!
//! Layouts come with random dims (names from the usual pools, in random order) or with dims you give, and in
//! four kinds: any, injective, surjective, invertible. Columns are a mix of zero (broadcast), unit (distributed
//! layouts) and dense (swizzles) vectors, so the identity-dims and broadcast paths of the algebra get exercised.
//!
//! ```
//! use proptest::prelude::*;
//! use weft::layout::strategy;
//!
//! proptest!(|(l in strategy::invertible_layouts(6))| {
//!     prop_assert_eq!(l.invert().unwrap().invert().unwrap(), l);
//! });
//! ```

#![forbid(unsafe_code)]

use proptest::prelude::*;
use smallvec::SmallVec;

use super::linear_layout::{low_mask, DimSpec};
use super::{gf2, Dim, LinearLayout};

/// What a generated layout guarantees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Any bases.
    Any,
    /// Rank = input bits (needs no more input than output bits).
    Injective,
    /// Rank = output bits (needs no more output than input bits).
    Surjective,
    /// Injective and surjective (needs as many input as output bits).
    Invertible,
}

/// The dims of a layout to generate: names and log2 sizes, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimsSpec {
    /// Input dims.
    pub ins: Vec<(Dim, u32)>,
    /// Output dims.
    pub outs: Vec<(Dim, u32)>,
}

/// Input dim names the random strategies pick from.
pub const IN_NAMES: [&str; 5] = ["register", "lane", "warp", "block", "offset"];
/// Output dim names the random strategies pick from.
pub const OUT_NAMES: [&str; 4] = ["dim0", "dim1", "dim2", "dim3"];

/// A random sub-list of `pool` in random order with at least `min` names.
fn names(pool: &'static [&'static str], min: usize, max: usize) -> impl Strategy<Value = Vec<Dim>> {
    proptest::sample::subsequence(pool, min.min(pool.len())..=max.min(pool.len()))
        .prop_shuffle()
        .prop_map(|v| v.into_iter().map(Dim::new).collect())
}

/// Splits at most `cap` bits (exactly `cap` if `exact`) among `dims`.
fn split(dims: Vec<Dim>, cap: u32, exact: bool) -> impl Strategy<Value = Vec<(Dim, u32)>> {
    let n = dims.len();
    proptest::collection::vec(0..=cap, n).prop_map(move |wants| {
        let mut left = cap;
        let mut out = Vec::with_capacity(n);
        for (k, (d, w)) in dims.iter().zip(wants).enumerate() {
            let b = if exact && k + 1 == n {
                left
            } else {
                w.min(left)
            };
            left -= b;
            out.push((*d, b));
        }
        out
    })
}

/// Random dims for a layout of kind `kind` with at most `max_in_bits` input and `max_out_bits` output bits.
pub fn dims(kind: Kind, max_in_bits: u32, max_out_bits: u32) -> BoxedStrategy<DimsSpec> {
    let max_in_bits = max_in_bits.min(64);
    let max_out_bits = max_out_bits.min(64);
    match kind {
        Kind::Any | Kind::Injective => (names(&IN_NAMES, 0, 3), names(&OUT_NAMES, 1, 3))
            .prop_flat_map(move |(ins, outs)| {
                split(outs, max_out_bits, false).prop_flat_map(move |outs| {
                    let total: u32 = outs.iter().map(|d| d.1).sum();
                    let cap = if kind == Kind::Injective {
                        max_in_bits.min(total)
                    } else {
                        max_in_bits
                    };
                    split(ins.clone(), cap, false).prop_map(move |ins| DimsSpec {
                        ins,
                        outs: outs.clone(),
                    })
                })
            })
            .boxed(),
        Kind::Surjective => (names(&IN_NAMES, 1, 3), names(&OUT_NAMES, 0, 3))
            .prop_flat_map(move |(ins, outs)| {
                split(ins, max_in_bits, false).prop_flat_map(move |ins| {
                    let total: u32 = ins.iter().map(|d| d.1).sum();
                    split(outs.clone(), max_out_bits.min(total), false).prop_map(move |outs| {
                        DimsSpec {
                            ins: ins.clone(),
                            outs,
                        }
                    })
                })
            })
            .boxed(),
        Kind::Invertible => (
            names(&IN_NAMES, 1, 3),
            names(&OUT_NAMES, 1, 3),
            0..=max_in_bits.min(max_out_bits),
        )
            .prop_flat_map(move |(ins, outs, bits)| {
                (split(ins, bits, true), split(outs, bits, true))
                    .prop_map(|(ins, outs)| DimsSpec { ins, outs })
            })
            .boxed(),
    }
}

/// Turns random words into columns of the requested kind (deterministically, so shrinking works).
fn build(spec: &DimsSpec, kind: Kind, raw: &[(u8, u64)]) -> LinearLayout {
    let n: u32 = spec.ins.iter().map(|d| d.1).sum();
    let m: u32 = spec.outs.iter().map(|d| d.1).sum();
    let need = match kind {
        Kind::Any => 0,
        Kind::Injective => n,
        Kind::Surjective => m,
        Kind::Invertible => n.max(m),
    };
    let mut span = gf2::XorBasis::new();
    let mut rank = 0u32;
    let mut cols: SmallVec<[u64; 16]> = SmallVec::new();
    for (k, &(sel, word)) in raw.iter().enumerate().take(n as usize) {
        let mut c = match (sel % 4, m) {
            (_, 0) | (0, _) => 0,
            (1, _) => 1u64 << (word % u64::from(m)),
            _ => word & low_mask(m),
        };
        let remaining = n - k as u32;
        if need > rank && need - rank >= remaining && span.reduce(c) == 0 {
            // Must add a new direction: XOR in the lowest unit vector outside the span.
            if let Some(h) = (0..m).find(|&h| span.reduce(1 << h) != 0) {
                c ^= 1 << h;
            }
        }
        if span.insert(c).is_some() {
            rank += 1;
        }
        cols.push(c);
    }
    let specs = |v: &[(Dim, u32)]| -> SmallVec<[DimSpec; 4]> {
        v.iter()
            .map(|(name, log2)| DimSpec {
                name: *name,
                log2: *log2,
            })
            .collect()
    };
    LinearLayout::from_parts(specs(&spec.ins), specs(&spec.outs), cols)
}

/// Layouts with the given dims. The dims must allow `kind` (e.g. no more input than output bits for
/// [`Kind::Injective`]); otherwise the layout has the largest rank the dims allow.
pub fn layout_on(spec: DimsSpec, kind: Kind) -> BoxedStrategy<LinearLayout> {
    let n: u32 = spec.ins.iter().map(|d| d.1).sum();
    proptest::collection::vec((any::<u8>(), any::<u64>()), n as usize)
        .prop_map(move |raw| build(&spec, kind, &raw))
        .boxed()
}

/// Layouts of kind `kind` with random dims, at most `max_in_bits` input and `max_out_bits` output bits.
pub fn layouts_of(kind: Kind, max_in_bits: u32, max_out_bits: u32) -> BoxedStrategy<LinearLayout> {
    dims(kind, max_in_bits, max_out_bits)
        .prop_flat_map(move |spec| layout_on(spec, kind))
        .boxed()
}

/// Any layout with random dims.
pub fn layouts(max_in_bits: u32, max_out_bits: u32) -> BoxedStrategy<LinearLayout> {
    layouts_of(Kind::Any, max_in_bits, max_out_bits)
}

/// Injective layouts with random dims.
pub fn injective_layouts(max_in_bits: u32, max_out_bits: u32) -> BoxedStrategy<LinearLayout> {
    layouts_of(Kind::Injective, max_in_bits, max_out_bits)
}

/// Surjective layouts with random dims.
pub fn surjective_layouts(max_in_bits: u32, max_out_bits: u32) -> BoxedStrategy<LinearLayout> {
    layouts_of(Kind::Surjective, max_in_bits, max_out_bits)
}

/// Invertible layouts with random dims of at most `max_bits` bits on each side.
pub fn invertible_layouts(max_bits: u32) -> BoxedStrategy<LinearLayout> {
    layouts_of(Kind::Invertible, max_bits, max_bits)
}

/// A layout whose out dims are `outer`'s in dims with the same sizes (any in dims): something to compose with
/// `outer`.
pub fn composable_with(
    outer: &LinearLayout,
    kind: Kind,
    max_in_bits: u32,
) -> BoxedStrategy<LinearLayout> {
    let outs: Vec<(Dim, u32)> = outer
        .in_dims()
        .map(|(d, s)| (*d, s.trailing_zeros()))
        .collect();
    let total: u32 = outs.iter().map(|d| d.1).sum();
    let cap = match kind {
        Kind::Injective => max_in_bits.min(total),
        _ => max_in_bits,
    };
    names(&["a", "b", "c"], 0, 3)
        .prop_flat_map(move |ins| split(ins, cap, false))
        .prop_flat_map(move |ins| {
            layout_on(
                DimsSpec {
                    ins,
                    outs: outs.clone(),
                },
                kind,
            )
        })
        .boxed()
}
