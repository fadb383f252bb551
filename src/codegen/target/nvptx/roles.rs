//! What warp specialisation needs of PTX: moving registers between warpgroups (`setmaxnreg`)
//! and named barriers (`bar.sync` / `bar.arrive` with an id and a thread count).

use inkwell::values::IntValue;

use super::inline_ptx::{InlinePtx, RegClass};
use crate::codegen::error::Result;
use crate::codegen::lower::emitter::Emitter;

/// Sets this warpgroup's registers per thread to `regs`, from the launch's `launch` (nothing
/// when they are equal).
pub(crate) fn set_max_registers(em: &Emitter<'_>, regs: u32, launch: u32) -> Result<()> {
    if regs == launch {
        return Ok(());
    }
    let dir = if regs < launch { "dec" } else { "inc" };
    let mut asm = InlinePtx::new();
    asm.inst(format!("setmaxnreg.{dir}.sync.aligned.u32 {regs};"));
    asm.call(em)?;
    Ok(())
}

/// `bar.{kind} id, threads;` (`kind`: `sync` or `arrive`), with the id as an immediate when it
/// is a constant (ptxas then counts only the barriers used; a register id reserves all 16).
pub(crate) fn named_barrier<'ctx>(
    em: &Emitter<'ctx>,
    kind: &str,
    id: IntValue<'ctx>,
    threads: u32,
) -> Result<()> {
    let mut asm = InlinePtx::new();
    let id = match id.get_zero_extended_constant() {
        Some(k) => k.to_string(),
        None => asm.input(RegClass::B32, id.into()).to_string(),
    };
    asm.inst(format!("bar.{kind} {id}, {threads};"));
    asm.call(em)?;
    Ok(())
}
