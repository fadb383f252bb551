//! # 7. Persistent kernels
//!
//! The seventh tutorial launches at most one program per SM and lets each walk several output
//! tiles, so one tile's epilogue overlaps the next tile's loads and no program waits to be
//! scheduled.
//!
//! - **Persistence is the main loop's flag.** With `persistent`, `gemm_mainloop` runs one loop
//!   over (tile, K block) for tiles `pid, pid + programs, …`: the ring prefetches the next
//!   tile's first K blocks while the current one finishes. The loop carries the tile and K
//!   block it computes and where its loads are, so no iteration divides its count by the K
//!   blocks per tile; a tile's origin is computed once, when the loads reach it. The host
//!   launches `GemmConfig::grid_persistent(m, n, sms)` programs.
//! - **The staging buffer is reused, so the store waits late.** `c.tma_store(staging, map,
//!   true)` waits for the previous tile's TMA store only when the staging buffer is about to be
//!   overwritten, not after each store.
//! - **The tile order shares L2.** Tiles are walked in grouped order (`group_m` row tiles walk
//!   the column tiles together), where Gluon's first scheduler gives each program a contiguous
//!   range of tiles, M fastest (`group_m` of at least the row tiles walks M fastest too).
//!
//! Gluon's `persistent_matmul_kernel` (the one `scripts/anchors/gluon_tutorials.py` times)
//! waits for each tile's TMA store before its next tile and loads nothing of that tile before;
//! only the tutorial's later `persistent_matmul_pipelined_kernel` rotates the store wait. weft's
//! loop does both, through `TmaStore { reused: true, .. }` and the one (tile, K block) loop.
//!
//! The example, `examples/tutorial_07_persistence.rs`:
//!
#![doc = concat!("```rust,ignore\n", include_str!("../../../examples/tutorial_07_persistence.rs"), "```")]
