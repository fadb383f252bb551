//! `ldmatrix` and `stmatrix` (8 × 8 matrices of 16-bit elements between shared memory and the
//! registers of a warp), as inline PTX.

use inkwell::values::{BasicValueEnum, IntValue, PointerValue};

use super::inline_ptx::{vector, InlinePtx, RegClass};
use crate::codegen::error::Result;
use crate::codegen::lower::emitter::Emitter;

/// `op` (`ldmatrix` or `stmatrix`) of `matrices` matrices, transposed when `trans`, on
/// `operands`.
fn matrix_inst(op: &str, matrices: usize, trans: bool, operands: &str) -> String {
    let trans = if trans { ".trans" } else { "" };
    format!("{op}.sync.aligned.m8n8.x{matrices}{trans}.shared.b16 {operands};")
}

/// Loads `matrices` matrices from the row address `ptr` (each lane's own row): one 32-bit word
/// per matrix.
pub(crate) fn ldmatrix<'ctx>(
    em: &Emitter<'ctx>,
    matrices: usize,
    trans: bool,
    ptr: PointerValue<'ctx>,
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let mut asm = InlinePtx::new();
    let outs = asm.outputs(RegClass::B32, matrices);
    let a = asm.input(RegClass::B64, ptr.into());
    asm.inst(matrix_inst(
        "ldmatrix",
        matrices,
        trans,
        &format!("{}, [{a}]", vector(&outs)),
    ));
    asm.call(em)
}

/// Stores one 32-bit word per matrix of `words` to the row address `ptr`.
pub(crate) fn stmatrix<'ctx>(
    em: &Emitter<'ctx>,
    trans: bool,
    ptr: PointerValue<'ctx>,
    words: &[IntValue<'ctx>],
) -> Result<()> {
    let mut asm = InlinePtx::new();
    let a = asm.input(RegClass::B64, ptr.into());
    let ws: Vec<_> = words
        .iter()
        .map(|w| asm.input(RegClass::B32, (*w).into()))
        .collect();
    asm.inst(matrix_inst(
        "stmatrix",
        words.len(),
        trans,
        &format!("[{a}], {}", vector(&ws)),
    ));
    asm.call(em)?;
    Ok(())
}
