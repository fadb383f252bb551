//! # 1. Introduction: a kernel, its launch, autotuning
//!
//! Gluon's first tutorial copies memory one scalar at a time: program `p` loops over its block
//! `[p · XBLOCK, min((p + 1) · XBLOCK, xnumel))`, loading and storing one element per iteration.
//! In weft the same kernel is a handful of builder calls:
//!
//! - **Arguments are declared, not inferred.** `arg_ptr("in", F32, 4)` says the pointer is
//!   aligned to 4 bytes; `arg_i64("xnumel", 1)` makes the length 64-bit, because the tutorial
//!   copies 2³¹ elements and an `i32` offset would wrap. The launcher checks every argument
//!   against this signature.
//! - **Integers promote as in Triton.** `pid` is an `i32`; casting it to `i64` before multiplying
//!   by `XBLOCK` keeps `start + XBLOCK` from overflowing on the last block, and
//!   `min(start + XBLOCK, xnumel)` is then `i64` on both sides.
//! - **Loops are closures.** `for_range(start, end, 1, &[], body)` is `for i in range(start,
//!   end)`; the body returns the values it carries (none here).
//! - **Expressions compose.** `(dst + i).store((src + i).load(), None)` is one expression: the
//!   load's pointer, the load, the store's pointer and the store, each still one recorded op at
//!   this line.
//! - **A scalar store is done by one thread**, as in Gluon: the element is written once per
//!   program, not by every thread of the warp.
//!
//! Autotuning is a loop on the host: build the kernel for each `XBLOCK`, time it, keep the best
//! (the crate's `runtime::autotune` does this with a cache when the space is larger). As in
//! Gluon, the result is far from the GPU's bandwidth (one element per program at a time): the
//! next chapter spreads each block over the threads with a layout.
//!
//! The example, `examples/tutorial_01_intro.rs`:
//!
#![doc = concat!("```rust,ignore\n", include_str!("../../../examples/tutorial_01_intro.rs"), "```")]
