//! Text forms of layouts and encodings.

pub mod gluon;
pub mod ttgir;
