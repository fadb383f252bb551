//! # 4. TMA and mbarriers
//!
//! The fourth tutorial replaces the threads' `cp.async` copies by the tensor memory accelerator:
//! one thread asks for a whole box (`[32, 64]` f32 of A and of B), the copy engine moves it, and
//! an mbarrier counts its bytes in; stores go the other way through a staging buffer.
//!
//! - **A tensor map is an argument with its box.** `arg_tensor_map("a", F32, &[x, y], 0)` puts
//!   the box and swizzle in the kernel's signature; the host builds the descriptor with
//!   `Device::tensor_map`, and the launch checks it matches. TMA zero-fills reads past the
//!   matrix and clips writes, so the kernel has no masks at all.
//! - **[`TmaRing`](crate::codegen::kernels::parts::TmaRing) is the ring's bookkeeping.** One
//!   "full" mbarrier per stage; `load` expects the stage's bytes and issues the boxes,
//!   `stage_of(j)` is `(j % stages, (j / stages) & 1)`, `wait` blocks until the stage's phase
//!   completes and hands back its buffers.
//! - **[`TmaStore`](crate::codegen::kernels::parts::TmaStore) is the store's protocol.** Wait
//!   until the previous TMA store has read the staging buffer, write the tile, fence the generic
//!   proxy against the async one, barrier, issue the store: the same `Epilogue` the GEMMs use.
//! - **Loads run `stages - 1` blocks ahead.** The loop's first act is to issue block
//!   `j + stages - 1` (predicated off past the last block), so the TMA engine always has work
//!   while the threads add.
//!
//! The example, `examples/tutorial_04_tma.rs`:
//!
#![doc = concat!("```rust,ignore\n", include_str!("../../../examples/tutorial_04_tma.rs"), "```")]
