//! # 1. Introduction: a kernel, its launch, autotuning
//!
//! Gluon's first tutorial copies memory one scalar at a time: program `p` loops over its block
//! `[p · XBLOCK, min((p + 1) · XBLOCK, xnumel))`, loading and storing one element per iteration.
//! In weft the same kernel is a handful of builder calls:
//!
//! - **Arguments are declared, not inferred,** in one line as Gluon's signature:
//!   `kb.args([ptr("in", F32, 4), ptr("out", F32, 4), i64("xnumel", 1)])`. `ptr("in", F32, 4)`
//!   says the pointer is aligned to 4 bytes; `i64("xnumel", 1)` makes the length 64-bit, because
//!   the tutorial copies 2³¹ elements and an `i32` offset would wrap. The launcher checks every
//!   argument against this signature.
//! - **Integers promote as in Triton.** `pid` is an `i32`; casting it to `i64` before multiplying
//!   by `XBLOCK` keeps `start + XBLOCK` from overflowing on the last block, and
//!   `min(start + XBLOCK, xnumel)` is then `i64` on both sides.
//! - **Loops are closures.** `for_each_expr(start, end, 1, |i| …)` is `for i in range(start,
//!   end)` whose body is one expression of `i` (`for_each` takes any body, `for_range` carries
//!   values from one iteration to the next).
//! - **Expressions compose.** `(y + i).store((x + i).load())` is one expression: the
//!   load's pointer, the load, the store's pointer and the store, each still one recorded op at
//!   this line. `e.program_id(0)` reads the program's index inside an expression.
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
