//! # 5. WGMMA
//!
//! The fifth tutorial multiplies on Hopper's tensor cores: `wgmma` takes A and B from shared
//! memory (laid out as NVMMA shared layouts, which TMA fills with a 128-byte swizzle) and
//! accumulates into registers in the MMA v3 layout, asynchronously: the accumulator may not be
//! read until a `wgmma_wait` says the group finished.
//!
//! - **The GEMM is parts.** `declare_params` declares the three tensor maps and `m, n, k`;
//!   `GemmConfig::tiles` is the tile grid and the number of K blocks; `alloc_buffers` the A and
//!   B rings and C's staging buffer; [`TmaRing`](crate::codegen::kernels::parts::TmaRing) the
//!   barriers; [`gemm_mainloop`](crate::codegen::kernels::parts::gemm_mainloop) the K loop
//!   (wait for a stage, issue its wgmma, keep one group in flight, refill the stage it freed)
//!   and the epilogue it is handed ([`TmaStore`](crate::codegen::kernels::parts::TmaStore)).
//! - **The configuration is the tutorial's.** 128 × 128 tiles, K blocks of 64, 4 warps (one
//!   warpgroup), C in f32. Gluon's `blocked_mma_kernel` waits for each load before its wgmma;
//!   the main loop keeps three stages so the next loads overlap the current wgmma (Gluon's
//!   `OVERLAP_MMA`, further: the f32 C tile in shared memory leaves room for one CTA an SM, and
//!   with two stages the tensor cores waited on loads).
//! - **The verifier checks the asynchrony.** Reading the accumulator before a `wgmma_wait`, or an
//!   `mbarrier_expect` whose bytes differ from the boxes arriving, is a typed error at the line
//!   that did it, before anything runs.
//!
//! The example, `examples/tutorial_05_wgmma.rs` (its host side, shared with chapters 7 and 8, is
//! `examples/common/gemm_tutorial.rs`):
//!
#![doc = concat!("```rust,ignore\n", include_str!("../../../examples/tutorial_05_wgmma.rs"), "```")]
