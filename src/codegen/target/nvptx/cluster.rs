//! CTA clusters as inline PTX: the cluster barrier and an arrive on a peer CTA's mbarrier
//! (`mapa` translates a shared address of this CTA into the same offset in another CTA's shared
//! memory, as seen through the cluster's shared window).

use inkwell::values::IntValue;

use super::inline_ptx::{InlinePtx, RegClass};
use crate::codegen::error::Result;
use crate::codegen::lower::emitter::Emitter;

/// The executing thread arrives at the cluster barrier: `.release` orders its earlier memory
/// accesses before the peers' accesses after their wait, `.relaxed` orders nothing (an arrive
/// that only says "this CTA has started", as after barrier initialisation). Not `.aligned`: a
/// warp may arrive diverged (a producer warp whose thread 0 alone waited on mbarriers in its
/// loop), and an aligned barrier in a diverged warp is undefined.
pub(crate) fn arrive(em: &Emitter<'_>, relaxed: bool) -> Result<()> {
    let mut asm = InlinePtx::new();
    let sem = if relaxed { "relaxed" } else { "release" };
    asm.inst(format!("barrier.cluster.arrive.{sem};"));
    asm.call(em)?;
    Ok(())
}

/// Waits until every thread of the cluster has arrived; acquires what the `.release` arrivals
/// published (not `.aligned`, as [`arrive`]).
pub(crate) fn wait(em: &Emitter<'_>) -> Result<()> {
    let mut asm = InlinePtx::new();
    asm.inst("barrier.cluster.wait.acquire;");
    asm.call(em)?;
    Ok(())
}

/// Arrives once on the mbarrier at shared address `addr` (this CTA's offset) in the shared memory
/// of the cluster's CTA `rank`; only where `pred` holds, when given. The arrive has PTX's default
/// semantics (release at CTA scope), as CUTLASS's and Triton's remote arrives do: `.release.cluster`
/// makes ptxas put a memory barrier before every arrive, on the consumer's path each K step. A
/// stage its consumers only read (wgmma, ldmatrix) needs no more.
pub(crate) fn arrive_remote<'ctx>(
    em: &Emitter<'ctx>,
    addr: IntValue<'ctx>,
    rank: IntValue<'ctx>,
    pred: Option<IntValue<'ctx>>,
) -> Result<()> {
    let mut asm = InlinePtx::new();
    let a = asm.input(RegClass::B32, addr.into());
    let r = asm.input(RegClass::B32, rank.into());
    let p = pred.map(|p| asm.predicate(p));
    asm.inst("{");
    asm.inst(".reg .b32 weft_remote;");
    asm.inst(format!("mapa.shared::cluster.u32 weft_remote, {a}, {r};"));
    asm.guarded(p, "mbarrier.arrive.shared::cluster.b64 _, [weft_remote];");
    asm.inst("}");
    asm.call(em)?;
    Ok(())
}
