//! The linear-layout algebra over GF(2).
//!
//! A [`LinearLayout`] maps hardware coordinates (named input dims such as `register`, `lane`, `warp`) to
//! tensor coordinates (output dims `dim0`, `dim1`, …), linearly over GF(2): `L(a ⊕ b) = L(a) ⊕ L(b)`. Input
//! bit i of a dim maps to a *basis vector*; any input maps to the XOR of its set bits' bases.

mod broadcast;
mod column_action;
mod compose;
mod concat;
pub mod convert;
mod dim;
mod divide;
mod error;
pub mod gf2;
mod invert;
mod linear_layout;
mod product;
mod quotient;
mod rename;
mod reshape;
mod resize;
mod shape;
mod squeeze;
#[cfg(feature = "proptest")]
pub mod strategy;
mod sublayout;

pub use column_action::{action_remove_broadcasted_regs, reg_perm_for_divide, ColumnAction};
pub use dim::Dim;
pub use error::{DimSide, LayoutError, Result};
pub use linear_layout::{Bases, LinearLayout, MAX_BITS, MAX_DIM_BITS};
pub use product::supremum;
pub mod encoding;
pub mod text;
