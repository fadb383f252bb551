//! `cp.async` (sm_80 asynchronous global-to-shared copies) and its groups, as inline PTX.

use inkwell::values::{BasicValueEnum, IntValue, PointerValue};

use super::inline_ptx::{InlinePtx, RegClass};
use crate::codegen::error::Result;
use crate::codegen::lower::emitter::Emitter;

/// Copies `bytes` (4, 8 or 16) from global `src` to shared `dst`; with `size`, only that many
/// (the rest of the destination is zero-filled). 16-byte copies bypass L1 (`.cg`, what Triton
/// emits); smaller ones must use `.ca`. With `guard`, only threads where it is true copy.
pub(crate) fn copy<'ctx>(
    em: &Emitter<'ctx>,
    dst: PointerValue<'ctx>,
    src: BasicValueEnum<'ctx>,
    bytes: u64,
    size: Option<BasicValueEnum<'ctx>>,
    guard: Option<IntValue<'ctx>>,
) -> Result<()> {
    let level = if bytes == 16 { "cg" } else { "ca" };
    let mut asm = InlinePtx::new();
    let dst_op = asm.input(RegClass::B64, dst.into());
    let src_op = asm.input(RegClass::B64, src.into());
    let guard = guard.map(|g| asm.predicate(g));
    match size {
        None => asm.guarded(
            guard,
            format!("cp.async.{level}.shared.global [{dst_op}], [{src_op}], {bytes};"),
        ),
        Some(size) => {
            let size_op = asm.input(RegClass::B32, size.into());
            asm.guarded(
                guard,
                format!(
                    "cp.async.{level}.shared.global [{dst_op}], [{src_op}], {bytes}, {size_op};"
                ),
            );
        }
    }
    asm.call(em)?;
    Ok(())
}

/// Closes the thread's group of copies.
pub(crate) fn commit_group(em: &Emitter<'_>) -> Result<()> {
    let mut asm = InlinePtx::new();
    asm.inst("cp.async.commit_group;");
    asm.call(em)?;
    Ok(())
}

/// Waits until at most `pending` of the thread's groups are in flight.
pub(crate) fn wait_group(em: &Emitter<'_>, pending: u32) -> Result<()> {
    let mut asm = InlinePtx::new();
    asm.inst(format!("cp.async.wait_group {pending};"));
    asm.call(em)?;
    Ok(())
}

/// The size operand of a masked copy: `bytes` where `mask` holds, else 0.
pub(crate) fn masked_size<'ctx>(
    em: &Emitter<'ctx>,
    mask: IntValue<'ctx>,
    bytes: u64,
) -> Result<BasicValueEnum<'ctx>> {
    let i32t = em.ctx.i32_type();
    Ok(em
        .b
        .build_select(mask, i32t.const_int(bytes, false), i32t.const_zero(), "")?)
}
