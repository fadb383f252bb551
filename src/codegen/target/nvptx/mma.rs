//! `mma.sync` (sm_80 warp-level tensor-core MMA), as inline PTX.

use inkwell::values::BasicValueEnum;

use super::inline_ptx::{vector, InlinePtx, RegClass};
use crate::codegen::error::Result;
use crate::codegen::lower::emitter::Emitter;

/// One `inst` (`mma.sync.aligned.m16n8k16…`) on the 32-bit words `a` and `b` and the four f32
/// accumulators `c`; returns the four new accumulators.
pub(crate) fn mma_sync<'ctx>(
    em: &Emitter<'ctx>,
    inst: &str,
    a: &[BasicValueEnum<'ctx>],
    b: &[BasicValueEnum<'ctx>],
    c: &[BasicValueEnum<'ctx>],
) -> Result<Vec<BasicValueEnum<'ctx>>> {
    let mut asm = InlinePtx::new();
    let d = asm.outputs(RegClass::F32, 4);
    let ai: Vec<_> = a
        .iter()
        .map(|w| asm.input(RegClass::B32, (*w).into()))
        .collect();
    let bi: Vec<_> = b
        .iter()
        .map(|w| asm.input(RegClass::B32, (*w).into()))
        .collect();
    let ci: Vec<_> = c
        .iter()
        .map(|v| asm.input(RegClass::F32, (*v).into()))
        .collect();
    asm.inst(format!(
        "{inst} {}, {}, {}, {};",
        vector(&d),
        vector(&ai),
        vector(&bi),
        vector(&ci)
    ));
    asm.call(em)
}
