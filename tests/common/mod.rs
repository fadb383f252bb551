//! Test helpers shared by the layout tests.
pub mod dense;
