//! The linear-layout algebra over GF(2): where every element of a tile lives.
//!
//! A [`LinearLayout`] maps *hardware coordinates* (named input dims: `register`, `lane`, `warp`, `block` for
//! values held by threads, `offset` for shared memory) to *tensor coordinates* (named output dims `dim0`,
//! `dim1`, …). Every size is a power of two, and the map is linear over GF(2), the field of bits where `+` is
//! XOR: `L(a ⊕ b) = L(a) ⊕ L(b)`. So a layout is fully described by its **bases**: for each input dim, the
//! image of `1, 2, 4, …`. Any other input is the XOR of the bases of its set bits. This is the model of Triton's
//! `LinearLayout` (Zhou et al., "Linear Layouts", arXiv 2505.23819); weft keeps Triton's semantics and
//! argument orders, stores a layout as a packed bit matrix (one `u64` per input bit), and reports bad input
//! as a [`LayoutError`] instead of aborting.
//!
//! # A worked example: the 16×16 tile of an `mma.m16n8k16` accumulator pair
//!
//! One warp (32 lanes) holds a 16×16 `f32` tile, 8 registers per lane. Triton writes its layout as bases:
//!
//! ```
//! use weft::layout::{Dim, LinearLayout};
//!
//! let mma = LinearLayout::from_bases_inferred(
//!     [
//!         // register 1 -> (row 0, col 1), register 2 -> (8, 0), register 4 -> (0, 8)
//!         ("register", vec![vec![0, 1], vec![8, 0], vec![0, 8]]),
//!         // lanes 1, 2 step along columns by 2 and 4; lanes 4, 8, 16 step along rows.
//!         ("lane", vec![vec![0, 2], vec![0, 4], vec![1, 0], vec![2, 0], vec![4, 0]]),
//!     ],
//!     ["dim0", "dim1"], // rows, columns; sizes inferred: 16 and 16
//! )?;
//! assert_eq!(mma.out_dim_size("dim0")?, 16);
//!
//! // Which element does register 3 of lane 5 hold? Lane 5 = 1 + 4 -> (0, 2) ^ (1, 0) = (1, 2);
//! // register 3 = 1 + 2 -> (0, 1) ^ (8, 0) = (8, 1); together (1, 2) ^ (8, 1) = (9, 3).
//! let at = mma.apply(&[("lane", 5), ("register", 3)])?;
//! assert_eq!(at[..], [(Dim::new("dim0"), 9), (Dim::new("dim1"), 3)]);
//!
//! // 8 registers × 32 lanes = 256 = 16 × 16 and every element is reached: the layout is invertible,
//! // and its inverse answers "who holds element (row, col)?".
//! assert!(mma.is_invertible());
//! let who = mma.invert()?.apply(&[("dim0", 9), ("dim1", 3)])?;
//! assert_eq!(who[..], [(Dim::REGISTER, 3), (Dim::LANE, 5)]);
//! # Ok::<(), weft::layout::LayoutError>(())
//! ```
//!
//! # Broadcast: a zero basis means a copy
//!
//! A basis may be zero: flipping that input bit does not move the element, so two threads hold the same
//! value. This happens when a layout's tile is larger than the tensor. Here 4 lanes × 4 warps × 4 registers
//! cover 64 elements but the tensor has only 8 ([`LinearLayout::ensure_layout_not_larger_than`] applies
//! Triton's rule: the largest bases become zero):
//!
//! ```
//! use weft::layout::LinearLayout;
//!
//! let tile = LinearLayout::from_bases_inferred(
//!     [
//!         ("register", vec![vec![1], vec![2]]),
//!         ("lane", vec![vec![4], vec![8]]),
//!         ("warp", vec![vec![16], vec![32]]),
//!     ],
//!     ["dim0"],
//! )?;
//! let small = tile.ensure_layout_not_larger_than(&[("dim0", 8)], true)?;
//! assert_eq!(small.bases("lane")?, vec![vec![4], vec![0]]); // lanes 0 and 2 hold the same elements
//! assert_eq!(small.bases("warp")?, vec![vec![0], vec![0]]); // all four warps hold the same copy
//! // The free-variable masks list exactly the input bits that only make copies.
//! let free: Vec<u64> = small.free_variable_masks().into_iter().map(|(_, m)| m).collect();
//! assert_eq!(free, vec![0b00, 0b10, 0b11]);
//! # Ok::<(), weft::layout::LayoutError>(())
//! ```
//!
//! # Conversions: compose and invert_and_compose
//!
//! Layouts compose like functions, in Triton's argument order: `a.compose(&b)` is `b ∘ a` (apply `a`, then
//! `b`). To move data from layout `A` to layout `B`, ask for each hardware location of `A` where its element
//! lives in `B`: that is `B⁻¹ ∘ A`, spelled `a.invert_and_compose(&b)`, the `C` with `A(x) = B(C(x))`. When `B`
//! holds copies (is not injective), weft picks Triton's answer: input dims equal in both layouts map to
//! themselves, and otherwise the smallest solution (free variables zero).
//!
//! ```
//! use weft::layout::{Dim, LinearLayout};
//!
//! # let mma = LinearLayout::from_bases_inferred(
//! #     [("register", vec![vec![0, 1], vec![8, 0], vec![0, 8]]),
//! #      ("lane", vec![vec![0, 2], vec![0, 4], vec![1, 0], vec![2, 0], vec![4, 0]])],
//! #     ["dim0", "dim1"])?;
//! // A "blocked" layout of the same tile: each lane holds 8 consecutive columns of one row.
//! let blocked = LinearLayout::from_bases_inferred(
//!     [
//!         ("register", vec![vec![0, 1], vec![0, 2], vec![0, 4]]),
//!         ("lane", vec![vec![0, 8], vec![1, 0], vec![2, 0], vec![4, 0], vec![8, 0]]),
//!     ],
//!     ["dim0", "dim1"],
//! )?;
//! // For every (register, lane) of the MMA layout: the (register, lane) of the blocked layout with the same
//! // element. Element (9, 3), held by MMA register 3 of lane 5, sits in blocked register 3 of lane 18.
//! let cvt = mma.invert_and_compose(&blocked)?;
//! assert_eq!(cvt.apply(&[("register", 3), ("lane", 5)])?[..], [(Dim::REGISTER, 3), (Dim::LANE, 18)]);
//! assert_eq!(cvt.compose(&blocked)?, mma); // A = B ∘ C
//!
//! // Shared memory is a layout too: `offset -> (row, col)`, here row-major. Composing the MMA layout with its
//! // inverse gives each register's address: element (9, 3) goes to offset 9 · 16 + 3.
//! let smem = LinearLayout::from_bases_inferred(
//!     [("offset", (0..4).map(|i| vec![0, 1 << i]).chain((0..4).map(|i| vec![1 << i, 0])).collect())],
//!     ["dim0", "dim1"],
//! )?;
//! let addr = mma.compose(&smem.invert()?)?;
//! assert_eq!(addr.apply(&[("register", 3), ("lane", 5)])?[..], [(Dim::OFFSET, 9 * 16 + 3)]);
//! # Ok::<(), weft::layout::LayoutError>(())
//! ```
//!
//! # Map of the module
//!
//! - construction and queries: [`LinearLayout`] (`from_bases`, `identity_1d`, `apply`, `columns`, …);
//! - algebra: `compose`, `product` (`&a * &b`), `invert`, `pseudo_invert`, `invert_and_compose`, `divide_left`,
//!   `divide_right`, `quotient`;
//! - reshaping: `transpose_*`, `reshape_*`, `flatten_*`, `concat_*`, `resize_*`, `rename_*`, `squeeze_*`,
//!   `sublayout`;
//! - fitting to a tensor shape (broadcast and wrap-around): `ensure_layout_not_larger_than`,
//!   `ensure_layout_not_smaller_than`, `identity_standard_nd`;
//! - register permutations: [`ColumnAction`], [`reg_perm_for_divide`];
//! - identity by meaning: `equivalent` and `first_difference` ([`LayoutDifference`]) compare layouts with
//!   size-1 dims ignored (`==` compares representations);
//! - pictures: [`render`] draws a layout as a text table or an SVG grid;
//! - text: Triton's bases dump (`Display`, `from_bases_string`), TTGIR and Gluon syntax ([`text`]);
//! - serde (feature `serde`): `Serialize`/`Deserialize` for layouts, [`Dim`]s, encodings and conversion plans,
//!   and the JSON of design.md (`json`: `to_json`, `from_json`, `ConversionPlan::to_json`);
//! - CuTe interop ([`cute`]): `shape:stride` layouts and swizzles to linear layouts and back, and CuTe's
//!   composition, complement, logical divide and product;
//! - [`gf2`]: the bit-matrix linear algebra underneath; `strategy` (feature `proptest`): random layouts for
//!   property tests.

mod broadcast;
mod column_action;
mod compose;
mod concat;
pub mod convert;
pub mod cute;
mod dim;
mod divide;
mod equivalence;
mod error;
pub mod gf2;
mod invert;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod json;
mod linear_layout;
mod product;
mod quotient;
mod rename;
pub mod render;
mod reshape;
mod resize;
mod shape;
mod squeeze;
#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub mod strategy;
mod sublayout;

pub use column_action::{action_remove_broadcasted_regs, reg_perm_for_divide, ColumnAction};
pub use dim::Dim;
pub use equivalence::LayoutDifference;
pub use error::{cut_list, DimSide, LayoutError, Result, LISTED_ITEMS};
pub use linear_layout::{Bases, Coords, LinearLayout, MAX_BITS, MAX_DIMS, MAX_DIM_BITS};
pub use product::supremum;
pub mod encoding;
pub mod text;
