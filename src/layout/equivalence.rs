//! Layout identity by meaning: two layouts are *equivalent* when they are equal once size-1 dims are ignored.
//!
//! `==` compares representations, so a layout from an encoding (which carries a size-1 `block` in dim) and the
//! same map produced by `permute`/`reshape` (which does not) compare unequal. A size-1 dim adds nothing to the
//! map: an input dim of size 1 has no bases, an output dim of size 1 only ever holds 0. [`equivalent`] drops
//! both and then applies Triton's `operator==` (`equalIgnoringOutDimSizes` plus equal out sizes) to what is
//! left:
//!
//! - the remaining out dims must have the same names and sizes **in the same order** (out-dim order is the
//!   layout of the tensor index; it is never reordered);
//! - the remaining in dims must have the same names and sizes **in the same order**: Triton compares its
//!   `bases` map in insertion order, and in-dim order is meaningful (minor to major: it decides products,
//!   reshapes and flattening), so `register, lane` is not equivalent to `lane, register`;
//! - every basis vector must be equal.
//!
//! [`first_difference`] says where the first of these fails, for error messages.
//!
//! [`equivalent`]: LinearLayout::equivalent
//! [`first_difference`]: LinearLayout::first_difference

#![forbid(unsafe_code)]

use std::fmt;

use super::linear_layout::DimSpec;
use super::{Dim, LinearLayout};

/// The dims of `specs` that are not of size 1, in order.
fn nontrivial(specs: &[DimSpec]) -> impl Iterator<Item = &DimSpec> + '_ {
    specs.iter().filter(|d| d.log2 > 0)
}

/// Where two layouts first differ, as [`LinearLayout::first_difference`] finds it (size-1 dims ignored;
/// positions count the remaining dims only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutDifference {
    /// The out dims differ at `position`: another name, another size, or one side has no dim there.
    OutDim {
        /// Position among the out dims of size above 1.
        position: usize,
        /// The left layout's dim there (name, size), if any.
        left: Option<(Dim, u64)>,
        /// The right layout's dim there (name, size), if any.
        right: Option<(Dim, u64)>,
    },
    /// The in dims differ at `position`: another name, another size, or one side has no dim there.
    InDim {
        /// Position among the in dims of size above 1.
        position: usize,
        /// The left layout's dim there (name, size), if any.
        left: Option<(Dim, u64)>,
        /// The right layout's dim there (name, size), if any.
        right: Option<(Dim, u64)>,
    },
    /// Same dims, but input bit `bit` of `in_dim` maps to different elements.
    Basis {
        /// The input dim.
        in_dim: Dim,
        /// The bit of that dim.
        bit: u32,
        /// The left layout's basis vector: one coordinate per out dim of size above 1.
        left: Vec<u64>,
        /// The right layout's basis vector.
        right: Vec<u64>,
    },
}

/// `` `lane` of size 4 `` or `none`.
fn fmt_dim(f: &mut fmt::Formatter<'_>, d: &Option<(Dim, u64)>) -> fmt::Result {
    match d {
        Some((name, size)) => write!(f, "`{name}` of size {size}"),
        None => f.write_str("none"),
    }
}

/// `(0, 4)`.
fn fmt_vector(f: &mut fmt::Formatter<'_>, v: &[u64]) -> fmt::Result {
    f.write_str("(")?;
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{x}")?;
    }
    f.write_str(")")
}

impl fmt::Display for LayoutDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutDifference::OutDim {
                position,
                left,
                right,
            }
            | LayoutDifference::InDim {
                position,
                left,
                right,
            } => {
                let side = if matches!(self, LayoutDifference::OutDim { .. }) {
                    "out"
                } else {
                    "in"
                };
                write!(f, "{side} dim {position} (size-1 dims aside): ")?;
                fmt_dim(f, left)?;
                f.write_str(" vs ")?;
                fmt_dim(f, right)
            }
            LayoutDifference::Basis {
                in_dim,
                bit,
                left,
                right,
            } => {
                write!(f, "in `{in_dim}` bit {bit}: ")?;
                fmt_vector(f, left)?;
                f.write_str(" vs ")?;
                fmt_vector(f, right)
            }
        }
    }
}

/// A dim with its size, or none.
type SizedDim = Option<(Dim, u64)>;

/// The first position where two dim lists differ, with the dims there.
fn first_dim_difference(a: &[DimSpec], b: &[DimSpec]) -> Option<(usize, SizedDim, SizedDim)> {
    let named = |d: &DimSpec| (d.name, 1u64 << d.log2);
    let (mut a, mut b) = (nontrivial(a), nontrivial(b));
    let mut position = 0;
    loop {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (x, y) if x != y => return Some((position, x.map(named), y.map(named))),
            _ => position += 1,
        }
    }
}

impl LinearLayout {
    /// Whether `self` and `other` are the same map once size-1 in and out dims are ignored. What is left is
    /// compared as Triton's `==` does: the same out dims (names and sizes) in the same order, the same in dims
    /// in the same order (in-dim order decides products, reshapes and flattening), the same bases.
    ///
    /// ```
    /// use weft::layout::LinearLayout;
    ///
    /// let a = LinearLayout::from_bases([("register", vec![vec![1]]), ("block", vec![])], [("dim0", 2)], true)?;
    /// let b = LinearLayout::identity_1d(2, "register", "dim0")?;
    /// assert_ne!(a, b); // a has a size-1 `block` dim
    /// assert!(a.equivalent(&b));
    /// # Ok::<(), weft::layout::LayoutError>(())
    /// ```
    pub fn equivalent(&self, other: &LinearLayout) -> bool {
        // Size-1 dims own no columns and no bits of a column, so the packed matrices compare as they are.
        nontrivial(&self.ins).eq(nontrivial(&other.ins))
            && nontrivial(&self.outs).eq(nontrivial(&other.outs))
            && self.cols == other.cols
    }

    /// The first difference that makes the layouts not [`equivalent`](Self::equivalent), or `None` when they
    /// are: out dims first, then in dims, then basis vectors in order. Its `Display` fits an error message:
    /// ``in `lane` bit 2: (0, 4) vs (4, 0)``.
    pub fn first_difference(&self, other: &LinearLayout) -> Option<LayoutDifference> {
        if let Some((position, left, right)) = first_dim_difference(&self.outs, &other.outs) {
            return Some(LayoutDifference::OutDim {
                position,
                left,
                right,
            });
        }
        if let Some((position, left, right)) = first_dim_difference(&self.ins, &other.ins) {
            return Some(LayoutDifference::InDim {
                position,
                left,
                right,
            });
        }
        // Same dims of size above 1, in the same order: the columns line up one to one.
        let mut col = 0;
        for d in nontrivial(&self.ins) {
            for bit in 0..d.log2 {
                let (a, b) = (self.cols[col], other.cols[col]);
                if a != b {
                    let coords = |c: u64| -> Vec<u64> {
                        let all = self.unpack(c);
                        self.outs
                            .iter()
                            .zip(all)
                            .filter(|(o, _)| o.log2 > 0)
                            .map(|(_, v)| v)
                            .collect()
                    };
                    return Some(LayoutDifference::Basis {
                        in_dim: d.name,
                        bit,
                        left: coords(a),
                        right: coords(b),
                    });
                }
                col += 1;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 2-D layout `register: (0,1), (1,0); lane: (0,2), (0,4), (2,0)` on a 4×8 tile, with a size-1 `block`
    /// when `with_block`.
    fn tile(with_block: bool) -> LinearLayout {
        let mut dims = vec![
            ("register", vec![vec![0, 1], vec![1, 0]]),
            ("lane", vec![vec![0, 2], vec![0, 4], vec![2, 0]]),
        ];
        if with_block {
            dims.push(("block", vec![]));
        }
        LinearLayout::from_bases(dims, [("dim0", 4), ("dim1", 8)], true).unwrap()
    }

    /// Every (register, lane) of `l` with the element it holds, as named coordinates on the dims above 1.
    fn table(l: &LinearLayout) -> Vec<Vec<(Dim, u64)>> {
        let mut rows = Vec::new();
        for r in 0..l.in_dim_size("register").unwrap() {
            for ln in 0..l.in_dim_size("lane").unwrap() {
                let at = l.apply(&[("register", r), ("lane", ln)]).unwrap();
                let sizes: Vec<u64> = l.out_dims().map(|(_, s)| s).collect();
                rows.push(
                    at.into_iter()
                        .zip(sizes)
                        .filter(|(_, s)| *s > 1)
                        .map(|(c, _)| c)
                        .collect(),
                );
            }
        }
        rows
    }

    #[test]
    fn a_size_one_block_does_not_change_the_meaning() {
        let (with, without) = (tile(true), tile(false));
        assert_ne!(with, without);
        // Same element for every register and lane: the same map.
        assert_eq!(table(&with), table(&without));
        assert!(with.equivalent(&without) && without.equivalent(&with));
        assert_eq!(with.first_difference(&without), None);
    }

    #[test]
    fn squeezing_and_transposing_back_keep_equivalence() {
        // The builder's case: an encoding's layout (size-1 block) against a permute of a permute.
        let l = tile(true);
        let back = l
            .squeeze_all_ins()
            .transpose_outs(&["dim1", "dim0"])
            .unwrap()
            .transpose_outs(&["dim0", "dim1"])
            .unwrap();
        assert!(!back.has_in_dim("block"));
        assert!(l.equivalent(&back));
    }

    #[test]
    fn a_size_one_out_dim_does_not_change_the_meaning() {
        let plain = LinearLayout::identity_1d(4, "lane", "dim0").unwrap();
        let padded = LinearLayout::from_bases(
            [("lane", vec![vec![0, 1, 0], vec![0, 2, 0]])],
            [("dim9", 1), ("dim0", 4), ("dim8", 1)],
            true,
        )
        .unwrap();
        assert!(plain.equivalent(&padded));
        assert_eq!(padded.first_difference(&plain), None);
    }

    #[test]
    fn a_different_basis_is_named_with_both_vectors() {
        // Lane bit 2 steps along rows in one layout and along columns in the other.
        let a = tile(false);
        let b = LinearLayout::from_bases(
            [
                ("register", vec![vec![0, 1], vec![1, 0]]),
                ("lane", vec![vec![0, 2], vec![2, 0], vec![0, 4]]),
                ("block", vec![]),
            ],
            [("dim0", 4), ("dim1", 8)],
            true,
        )
        .unwrap();
        assert_ne!(table(&a), table(&b));
        assert!(!a.equivalent(&b));
        let d = a.first_difference(&b).unwrap();
        assert_eq!(
            d,
            LayoutDifference::Basis {
                in_dim: Dim::LANE,
                bit: 1,
                left: vec![0, 4],
                right: vec![2, 0]
            }
        );
        assert_eq!(d.to_string(), "in `lane` bit 1: (0, 4) vs (2, 0)");
    }

    #[test]
    fn in_dim_order_counts_as_triton_compares_it() {
        let a = tile(false);
        let swapped = a.transpose_ins(&["lane", "register"]).unwrap();
        assert!(!a.equivalent(&swapped));
        assert_eq!(
            a.first_difference(&swapped).unwrap().to_string(),
            "in dim 0 (size-1 dims aside): `register` of size 4 vs `lane` of size 8"
        );
    }

    #[test]
    fn out_dims_are_compared_in_order_and_by_size() {
        let a = tile(false);
        let t = a.transpose_outs(&["dim1", "dim0"]).unwrap();
        assert!(!a.equivalent(&t));
        assert_eq!(
            a.first_difference(&t),
            Some(LayoutDifference::OutDim {
                position: 0,
                left: Some((Dim::dim(0), 4)),
                right: Some((Dim::dim(1), 8)),
            })
        );
        // Same bases, a larger dim0: not the same map's codomain.
        let wide =
            LinearLayout::from_bases(a.all_bases(), [("dim0", 8), ("dim1", 8)], false).unwrap();
        assert!(!a.equivalent(&wide));
        assert_eq!(
            wide.first_difference(&a).unwrap().to_string(),
            "out dim 0 (size-1 dims aside): `dim0` of size 8 vs `dim0` of size 4"
        );
        let missing = LinearLayout::identity_1d(4, "register", "dim0").unwrap();
        let more = (&missing * &LinearLayout::identity_1d(2, "lane", "dim1").unwrap()).unwrap();
        assert_eq!(
            more.first_difference(&missing).unwrap().to_string(),
            "out dim 1 (size-1 dims aside): `dim1` of size 2 vs none"
        );
    }
}
