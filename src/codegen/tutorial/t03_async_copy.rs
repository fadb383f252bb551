//! # 3. `cp.async` and software pipelining
//!
//! Gluon's third tutorial adds two matrices row block by row block and hides the global-memory
//! latency behind the additions: while block `j` is added, block `j + 1` is already on its way
//! into a second shared buffer by `cp.async` (global → shared without passing through
//! registers).
//!
//! - **A ring is one allocation with a leading buffer dim.** `alloc_shared_buffers(F32, 2,
//!   &[32, 64], plain)` is Gluon's `allocate_shared_memory(dtype, [num_buffers, XBLOCK, YBLOCK])`;
//!   `index_shared(ring, j % 2)` is one buffer. An unswizzled layout is enough here: each warp
//!   reads one row, 32 consecutive f32, so there is no bank conflict to avoid.
//! - **Copies are grouped and waited for by count.** `async_commit_group` closes the copies
//!   issued so far into a group; `async_wait_group(1)` waits until at most one group (the block
//!   just issued) is in flight, so the previous one has landed.
//! - **A wait covers a thread's own copies; a barrier publishes them.** After the wait, a
//!   `barrier()` makes every thread's copied elements visible to every other thread (the
//!   interpreter's racecheck names the read and the copy when it is missing); a barrier before
//!   the next copy keeps it from overwriting a buffer another thread still reads. The layout
//!   spans 128 columns and the tile 64, so warps 2 and 3 hold the same elements as warps 0 and 1:
//!   only the first holder copies an element (as in Triton), and the others read it after the
//!   barrier like any other thread's copy.
//! - **Masks replace the peeled prologue and drain.** Gluon issues the first copies before the
//!   loop and drains the last ones after it; here the copy one block ahead is masked off past
//!   the end (`cols < ynumel`), so one loop body serves every iteration.
//!
//! The example, `examples/tutorial_03_async_copy.rs`:
//!
#![doc = concat!("```rust,ignore\n", include_str!("../../../examples/tutorial_03_async_copy.rs"), "```")]
