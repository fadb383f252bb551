//! # 2. Layouts and `convert_layout`
//!
//! A tile's layout says which thread (and which of its registers) holds each element. Gluon's
//! second tutorial copies a block per program with `gl.arange(0, XBLOCK, layout=…)` and compares
//! `BlockedLayout([R], [32], [4], [0])` for R = 1, 2, 4: with R consecutive f32 per thread, each
//! thread's elements are one R-wide vector, so the copy issues `ld.global.v4`/`st.global.v4`
//! for R = 4 instead of four scalar accesses.
//!
//! - **The layout is an argument of the op that makes the tile.** `kb.arange(0, XBLOCK,
//!   Blocked::new(&[r], &[32], &[4], &[0]))` lays the indices out; every op on the tile keeps that
//!   layout, and the builder reads the vector width of each access off it (and off what it knows
//!   of the pointer: the argument's 16-byte alignment, the block start's divisibility).
//! - **Masks cover the ragged end.** `offs < xnumel` masks the load and the store of the last
//!   block; `load_masked(mask)` and `store_masked(v, mask)` take it inside one expression.
//! - **`convert_layout` changes who holds what.** The transpose reads rows of `src` with threads
//!   along columns (coalesced), converts the tile so that threads run along rows, and writes
//!   rows of `dst` (coalesced again). The conversion is planned by the layout algebra: here a
//!   round trip through swizzled shared memory, vectorised on the write side.
//! - **Index vectors come from slices of the tile's layout.** `Slice::new(1, rows)` is the
//!   layout of a column of row indices: `expand_dims(ix, 1)` lands back in `rows`, so
//!   `ix[:, None] * n + iy[None, :]` broadcasts to the tile without a conversion
//!   (`KernelBuilder::slice_layout` gives the same slice of any tile).
//!   `kb.block_offsets([64, 64], rows)` makes both, `program_id(d) · 64 + arange` along each
//!   dimension, sliced and expanded back into `rows`.
//!
//! The example, `examples/tutorial_02_layouts.rs`:
//!
#![doc = concat!("```rust,ignore\n", include_str!("../../../examples/tutorial_02_layouts.rs"), "```")]
