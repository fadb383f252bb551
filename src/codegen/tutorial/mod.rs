//! Gluon's tutorials, rebuilt in weft: one chapter per Hopper-relevant tutorial of Triton's
//! `python/tutorials/gluon/`, each with the complete example it explains (`examples/tutorial_*.rs`,
//! run with `cargo run --release --features llvm,cuda --example tutorial_…`) and the reason
//! behind each step. Every example takes its target (`sm_90` by default, `sm_80` where the
//! tutorial's instructions exist there), runs in the interpreter without a GPU and, on one, times
//! its kernel against a baseline measured in the same run.
//!
//! The chapters follow Gluon's order:
//! 1. [`t01_intro`]: a kernel, its launch, and autotuning a block size.
//! 2. [`t02_layouts`]: layouts decide which thread holds which element, hence the vector width
//!    of every access; `convert_layout` moves a tile between two of them.
//! 3. [`t03_async_copy`]: `cp.async` into a ring of shared buffers, copies overlapping the work.
//! 4. [`t04_tma`]: the tensor memory accelerator, mbarriers counting bytes, TMA stores.
//! 5. [`t05_wgmma`]: Hopper's asynchronous tensor-core product, in a GEMM built from
//!    [`kernels::parts`](crate::codegen::kernels::parts).
//! 7. [`t07_persistence`]: one program per SM walking many tiles.
//! 8. [`t08_warp_specialization`]: warps with different jobs meeting at mbarriers.
//!
//! (Gluon's tutorial 06 is Blackwell's `tcgen05`, which weft does not target.)
//!
//! The chapters are documentation only: their code is the example's, included verbatim.

pub mod t01_intro;
pub mod t02_layouts;
pub mod t03_async_copy;
pub mod t04_tma;
pub mod t05_wgmma;
pub mod t07_persistence;
pub mod t08_warp_specialization;
