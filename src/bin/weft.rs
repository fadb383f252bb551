//! The `weft` layout inspector.
fn main() {}
