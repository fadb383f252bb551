//! A small inline-PTX builder, for instructions LLVM has no intrinsic for (predicated and
//! cache-hinted global accesses today; cp.async, mbarrier, ldmatrix/stmatrix and wgmma next).
//!
//! It numbers operands as LLVM's inline assembly does (outputs first, then inputs), writes the
//! constraint string from their register classes, guards instructions with a predicate operand
//! (`@$3 ld.global…`), spells vector operands (`{$0, $1}`), and emits the call: one result is
//! returned as it is, several as a struct whose fields [`InlinePtx::call`] extracts.
//!
//! ```text
//! let mut asm = InlinePtx::new();
//! let regs = asm.outputs(RegClass::B32, 2);            // $0, $1
//! let addr = asm.input(RegClass::B64, ptr.into());     // $2
//! let p = asm.predicate(pred);                         // $3
//! asm.guarded(Some(p), format!("ld.global.v2.b32 {}, [{addr}];", vector(&regs)));
//! // asm: "@$3 ld.global.v2.b32 {$0, $1}, [$2];", constraints: "=r,=r,l,b"
//! ```

use std::fmt;

use inkwell::context::Context;
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, IntValue};

use crate::codegen::error::Result;
use crate::codegen::lower::emitter::Emitter;

/// A PTX register class, with its inline-assembly constraint letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum RegClass {
    /// A predicate (`b`, an LLVM `i1`).
    Pred,
    /// 16 bits (`h`).
    B16,
    /// 32 bits (`r`).
    B32,
    /// 64 bits (`l`): also addresses.
    B64,
    /// An f32 (`f`).
    F32,
    /// An f64 (`d`).
    #[allow(dead_code)] // for mma operands
    F64,
}

impl RegClass {
    /// The integer class of `bytes` bytes (2, 4 or 8).
    pub fn of_bytes(bytes: usize) -> Option<RegClass> {
        match bytes {
            2 => Some(RegClass::B16),
            4 => Some(RegClass::B32),
            8 => Some(RegClass::B64),
            _ => None,
        }
    }

    /// The constraint letter.
    pub fn constraint(self) -> char {
        match self {
            RegClass::Pred => 'b',
            RegClass::B16 => 'h',
            RegClass::B32 => 'r',
            RegClass::B64 => 'l',
            RegClass::F32 => 'f',
            RegClass::F64 => 'd',
        }
    }

    /// The PTX type suffix of a move of this class (`b32`).
    pub fn bits_suffix(self) -> &'static str {
        match self {
            RegClass::Pred => "pred",
            RegClass::B16 => "b16",
            RegClass::B32 | RegClass::F32 => "b32",
            RegClass::B64 | RegClass::F64 => "b64",
        }
    }

    /// The LLVM type of a value of this class.
    pub fn llvm<'ctx>(self, ctx: &'ctx Context) -> BasicTypeEnum<'ctx> {
        match self {
            RegClass::Pred => ctx.bool_type().into(),
            RegClass::B16 => ctx.i16_type().into(),
            RegClass::B32 => ctx.i32_type().into(),
            RegClass::B64 => ctx.i64_type().into(),
            RegClass::F32 => ctx.f32_type().into(),
            RegClass::F64 => ctx.f64_type().into(),
        }
    }
}

/// An operand of the assembly, printed as `$n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Operand(usize);

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// A vector operand: `{$0, $1, $2, $3}` (braced even when it has one element).
pub(crate) fn vector(ops: &[Operand]) -> String {
    let parts: Vec<String> = ops.iter().map(|o| o.to_string()).collect();
    format!("{{{}}}", parts.join(", "))
}

/// The vector suffix of an access of `n` elements: `.v2`, `.v4`, or nothing for one.
pub(crate) fn vec_suffix(n: usize) -> String {
    if n == 1 {
        String::new()
    } else {
        format!(".v{n}")
    }
}

/// One inline-assembly call being put together.
#[derive(Debug, Default)]
pub(crate) struct InlinePtx<'ctx> {
    lines: Vec<String>,
    outputs: Vec<RegClass>,
    inputs: Vec<(String, BasicMetadataValueEnum<'ctx>)>,
}

impl<'ctx> InlinePtx<'ctx> {
    /// Nothing yet.
    pub fn new() -> InlinePtx<'ctx> {
        InlinePtx::default()
    }

    /// A new output register (before any input).
    pub fn output(&mut self, class: RegClass) -> Operand {
        assert!(self.inputs.is_empty(), "outputs come before inputs");
        self.outputs.push(class);
        Operand(self.outputs.len() - 1)
    }

    /// `n` new output registers.
    pub fn outputs(&mut self, class: RegClass, n: usize) -> Vec<Operand> {
        (0..n).map(|_| self.output(class)).collect()
    }

    /// A new input operand holding `value` (of `class`'s type).
    pub fn input(&mut self, class: RegClass, value: BasicMetadataValueEnum<'ctx>) -> Operand {
        self.inputs.push((class.constraint().to_string(), value));
        Operand(self.outputs.len() + self.inputs.len() - 1)
    }

    /// An input that starts in output `out`'s register (`+f` in GCC terms): the instruction reads
    /// `value` from `out` and writes its result there. Refer to it in the text as `out`.
    pub fn tied(&mut self, out: Operand, value: BasicMetadataValueEnum<'ctx>) {
        assert!(out.0 < self.outputs.len(), "tied to an output");
        self.inputs.push((out.0.to_string(), value));
    }

    /// A predicate input (`i1`), for [`guarded`](Self::guarded).
    pub fn predicate(&mut self, value: IntValue<'ctx>) -> Operand {
        self.input(RegClass::Pred, value.into())
    }

    /// Appends one instruction (with its `;`).
    pub fn inst(&mut self, text: impl Into<String>) {
        self.lines.push(text.into());
    }

    /// Appends one instruction executed only where `pred` is true (`@$3 …`), or always
    /// without one.
    pub fn guarded(&mut self, pred: Option<Operand>, text: impl fmt::Display) {
        match pred {
            Some(p) => self.lines.push(format!("@{p} {text}")),
            None => self.lines.push(text.to_string()),
        }
    }

    /// The assembly text: the instructions, one per line.
    pub fn asm(&self) -> String {
        self.lines.join("\n")
    }

    /// The constraint string: `=r` per output, then a letter per input.
    pub fn constraints(&self) -> String {
        let outs = self.outputs.iter().map(|c| format!("={}", c.constraint()));
        let ins = self.inputs.iter().map(|(c, _)| c.clone());
        outs.chain(ins).collect::<Vec<_>>().join(",")
    }

    /// Emits the call (with side effects, so it is neither moved nor dropped) and returns the
    /// outputs, one value each.
    pub fn call(self, em: &Emitter<'ctx>) -> Result<Vec<BasicValueEnum<'ctx>>> {
        let ctx = em.ctx;
        let params: Vec<BasicMetadataTypeEnum> = self
            .inputs
            .iter()
            .map(|(_, v)| match v {
                BasicMetadataValueEnum::IntValue(v) => v.get_type().into(),
                BasicMetadataValueEnum::PointerValue(v) => v.get_type().into(),
                BasicMetadataValueEnum::FloatValue(v) => v.get_type().into(),
                BasicMetadataValueEnum::VectorValue(v) => v.get_type().into(),
                other => panic!("inline PTX takes scalar operands, not {other:?}"),
            })
            .collect();
        let types: Vec<BasicTypeEnum> = self.outputs.iter().map(|c| c.llvm(ctx)).collect();
        let fty = match types.len() {
            0 => ctx.void_type().fn_type(&params, false),
            1 => types[0].fn_type(&params, false),
            _ => ctx.struct_type(&types, false).fn_type(&params, false),
        };
        let asm = ctx.create_inline_asm(
            fty,
            self.asm(),
            self.constraints(),
            true,
            false,
            None,
            false,
        );
        let args: Vec<BasicMetadataValueEnum> = self.inputs.iter().map(|(_, v)| *v).collect();
        let call = em.b.build_indirect_call(fty, asm, &args, "")?;
        let Some(r) = call.try_as_basic_value().basic() else {
            return Ok(Vec::new());
        };
        if types.len() == 1 {
            return Ok(vec![r]);
        }
        (0..types.len() as u32)
            .map(|i| Ok(em.b.build_extract_value(r.into_struct_value(), i, "")?))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_predicated_vector_load_numbers_outputs_then_inputs() {
        let ctx = Context::create();
        let ptr = ctx.ptr_type(inkwell::AddressSpace::from(1u16)).const_null();
        let p = ctx.bool_type().const_int(1, false);
        let mut asm = InlinePtx::new();
        let regs = asm.outputs(RegClass::B32, 4);
        let addr = asm.input(RegClass::B64, ptr.into());
        let pred = asm.predicate(p);
        for r in &regs {
            asm.inst(format!("mov.b32 {r}, 0;"));
        }
        asm.guarded(
            Some(pred),
            format!(
                "ld.global.cg{}.b32 {}, [{addr}];",
                vec_suffix(4),
                vector(&regs)
            ),
        );
        assert_eq!(
            asm.asm(),
            "mov.b32 $0, 0;\nmov.b32 $1, 0;\nmov.b32 $2, 0;\nmov.b32 $3, 0;\n\
             @$5 ld.global.cg.v4.b32 {$0, $1, $2, $3}, [$4];"
        );
        assert_eq!(asm.constraints(), "=r,=r,=r,=r,l,b");
    }

    #[test]
    fn a_store_has_inputs_only_and_a_scalar_is_still_braced() {
        let ctx = Context::create();
        let ptr = ctx.ptr_type(inkwell::AddressSpace::from(1u16)).const_null();
        let w = ctx.i16_type().const_int(7, false);
        let mut asm = InlinePtx::new();
        let addr = asm.input(RegClass::B64, ptr.into());
        let v = asm.input(RegClass::B16, w.into());
        asm.guarded(
            None,
            format!("st.global{}.b16 [{addr}], {};", vec_suffix(1), vector(&[v])),
        );
        assert_eq!(asm.asm(), "st.global.b16 [$0], {$1};");
        assert_eq!(asm.constraints(), "l,h");
    }

    #[test]
    fn register_classes_have_llvm_constraint_letters() {
        let letters: String = [
            RegClass::Pred,
            RegClass::B16,
            RegClass::B32,
            RegClass::B64,
            RegClass::F32,
            RegClass::F64,
        ]
        .iter()
        .map(|c| c.constraint())
        .collect();
        assert_eq!(letters, "bhrlfd");
        assert_eq!(RegClass::of_bytes(8), Some(RegClass::B64));
        assert_eq!(RegClass::of_bytes(1), None);
    }

    #[test]
    #[should_panic(expected = "outputs come before inputs")]
    fn an_output_after_an_input_is_a_bug() {
        let ctx = Context::create();
        let mut asm = InlinePtx::new();
        asm.input(RegClass::B32, ctx.i32_type().const_zero().into());
        asm.output(RegClass::B32);
    }
}
