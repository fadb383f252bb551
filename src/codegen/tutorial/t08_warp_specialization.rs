//! # 8. Warp specialisation
//!
//! The eighth tutorial gives different warps different jobs. Its Hopper kernel splits the
//! elementwise add into a load partition (one warp: TMA loads), a compute partition (four warps:
//! the additions) and a store partition (one warp: TMA stores), which meet only at mbarriers.
//!
//! - **Roles partition the warps.** `warp_roles(&[WarpRole::new(4), WarpRole::new(1),
//!   WarpRole::new(1)])` splits the CTA's six warps; `in_role(role, body)` runs `body` in that
//!   role's warps only, where `num_warps()` is the role's. A role may use scalars, shared
//!   buffers, barriers and tensor maps made outside it, never a register tile (the verifier
//!   says so at the line).
//! - **Every hand-off is a pair of mbarriers.** The load ring's "full" barriers say a stage
//!   landed, its "empty" barriers (128 arrivals: every compute thread) that it was read
//!   (`TmaRing::wait_free` / `release`); two more arrays do the same for the C buffers between
//!   compute and store. A fresh barrier passes parity 1, so the producers' first round does not
//!   wait.
//! - **Fences order the proxies.** The compute partition fences after reading a stage (before
//!   its release lets TMA overwrite it) and after writing C (before the store partition's TMA
//!   store reads it).
//! - **The same split makes the persistent GEMM faster.** `gemm_mainloop_ws` puts a producer
//!   warpgroup (40 registers a thread) beside two consumer warpgroups (232), with no CTA-wide
//!   barrier left in the K loop.
//!
//! In the interpreter the roles run as cooperating tasks, and a wait nobody will satisfy is a
//! deadlock error naming each wait.
//!
//! The example, `examples/tutorial_08_warp_specialization.rs`:
//!
#![doc = concat!("```rust,ignore\n", include_str!("../../../examples/tutorial_08_warp_specialization.rs"), "```")]
