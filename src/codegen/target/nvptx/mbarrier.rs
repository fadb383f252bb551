//! mbarrier instructions (sm_90 transaction barriers in shared memory) and the proxy fence, as
//! inline PTX: LLVM's intrinsics do not cover `expect_tx` or a `try_wait` loop that can be
//! inlined many times.

use inkwell::values::IntValue;

use super::inline_ptx::{InlinePtx, RegClass};
use crate::codegen::error::Result;
use crate::codegen::lower::emitter::Emitter;

/// Bytes of one mbarrier.
pub(crate) const MBARRIER_BYTES: u64 = 8;

/// Thread `issuer` initialises the `count` barriers at shared address `addr` for `arrivals`
/// arrivals each, then fences the initialisation for the cluster's asynchronous proxy.
pub(crate) fn init<'ctx>(
    em: &Emitter<'ctx>,
    issuer: IntValue<'ctx>,
    addr: IntValue<'ctx>,
    arrivals: u32,
    count: u32,
) -> Result<()> {
    let mut asm = InlinePtx::new();
    let p = asm.predicate(issuer);
    let a = asm.input(RegClass::B32, addr.into());
    let n = asm.input(
        RegClass::B32,
        em.ctx
            .i32_type()
            .const_int(u64::from(arrivals), false)
            .into(),
    );
    for i in 0..count {
        asm.guarded(
            Some(p),
            format!(
                "mbarrier.init.shared::cta.b64 [{a}+{}], {n};",
                u64::from(i) * MBARRIER_BYTES
            ),
        );
    }
    asm.inst("fence.mbarrier_init.release.cluster;");
    asm.call(em)?;
    Ok(())
}

/// Where `pred` holds: arrives on the barrier at `addr` and raises its expected transaction
/// count by `bytes`.
pub(crate) fn arrive_expect_tx<'ctx>(
    em: &Emitter<'ctx>,
    pred: IntValue<'ctx>,
    addr: IntValue<'ctx>,
    bytes: u32,
) -> Result<()> {
    let mut asm = InlinePtx::new();
    let pp = asm.predicate(pred);
    let a = asm.input(RegClass::B32, addr.into());
    let n = asm.input(
        RegClass::B32,
        em.ctx.i32_type().const_int(u64::from(bytes), false).into(),
    );
    asm.guarded(
        Some(pp),
        format!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{a}], {n};"),
    );
    asm.call(em)?;
    Ok(())
}

/// Arrives once on the barrier at `addr`.
pub(crate) fn arrive<'ctx>(em: &Emitter<'ctx>, addr: IntValue<'ctx>) -> Result<()> {
    let mut asm = InlinePtx::new();
    let a = asm.input(RegClass::B32, addr.into());
    asm.inst(format!("mbarrier.arrive.shared::cta.b64 _, [{a}];"));
    asm.call(em)?;
    Ok(())
}

/// Spins until the phase of parity `phase` of the barrier at `addr` has completed; with
/// `issuer`, only the threads where it holds wait.
pub(crate) fn wait_parity<'ctx>(
    em: &Emitter<'ctx>,
    addr: IntValue<'ctx>,
    phase: IntValue<'ctx>,
    issuer: Option<IntValue<'ctx>>,
) -> Result<()> {
    let mut asm = InlinePtx::new();
    let a = asm.input(RegClass::B32, addr.into());
    let p = asm.input(RegClass::B32, phase.into());
    let skip = issuer.map(|t| asm.predicate(t));
    // Labels inside `{ }` are local to the block, so the loop may be inlined many times.
    asm.inst("{");
    asm.inst(".reg .pred weft_done;");
    if let Some(s) = skip {
        asm.inst(format!("@!{s} bra.uni weft_skip;"));
    }
    asm.inst("weft_wait:");
    asm.inst(format!(
        "mbarrier.try_wait.parity.shared::cta.b64 weft_done, [{a}], {p};"
    ));
    asm.inst("@!weft_done bra.uni weft_wait;");
    if skip.is_some() {
        asm.inst("weft_skip:");
    }
    asm.inst("}");
    asm.call(em)?;
    Ok(())
}

/// Thread `issuer` invalidates the `count` barriers at `addr`.
pub(crate) fn invalidate<'ctx>(
    em: &Emitter<'ctx>,
    issuer: IntValue<'ctx>,
    addr: IntValue<'ctx>,
    count: u64,
) -> Result<()> {
    let mut asm = InlinePtx::new();
    let p = asm.predicate(issuer);
    let a = asm.input(RegClass::B32, addr.into());
    for i in 0..count {
        asm.guarded(
            Some(p),
            format!(
                "mbarrier.inval.shared::cta.b64 [{a}+{}];",
                i * MBARRIER_BYTES
            ),
        );
    }
    asm.call(em)?;
    Ok(())
}

/// `fence.proxy.async.shared::cta`: this thread's shared-memory accesses before later
/// asynchronous-proxy ones.
pub(crate) fn fence_proxy_async(em: &Emitter<'_>) -> Result<()> {
    let mut asm = InlinePtx::new();
    asm.inst("fence.proxy.async.shared::cta;");
    asm.call(em)?;
    Ok(())
}
