//! The kernel function: declared from the parameters when the body starts, with a prologue
//! block (special registers, thread coordinates) that falls through to the body; ended (its
//! return, unused instructions erased, the register limit) and verified when the kernel is
//! finished.

use inkwell::attributes::AttributeLoc;
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::FunctionValue;

use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::values::ValueKind;
use crate::codegen::target::LlvmTarget;
use crate::signature::ParamType;

impl<'ctx> LowerCtx<'ctx> {
    /// Refuses to go on with a kernel an earlier error inside a loop or branch body left
    /// incomplete.
    pub(crate) fn usable(&self) -> Result<()> {
        if self.values.poisoned {
            return Err(CodegenError::arg(
                "kernel",
                "an earlier error inside a loop or branch body left this kernel incomplete",
            ));
        }
        Ok(())
    }

    /// Creates the LLVM function once the parameters are known, with a prologue block (thread ids,
    /// per-layout thread coordinates) that falls through to the body.
    pub(crate) fn ensure_body(&mut self) -> Result<()> {
        self.usable()?;
        if self.em.func.is_some() {
            return Ok(());
        }
        let ctx = self.em.ctx;
        let tys: Vec<BasicMetadataTypeEnum> = self
            .param_values
            .iter()
            .map(|v| {
                self.values.peek("kernel", *v).map(|d| match d.kind {
                    // Passed by value; the code takes its address (`byval`, below).
                    ValueKind::TensorMap => ctx.ptr_type(inkwell::AddressSpace::default()).into(),
                    _ => d.ty.llvm(ctx).into(),
                })
            })
            .collect::<Result<_>>()?;
        let f = self
            .em
            .module
            .add_function(&self.name, ctx.void_type().fn_type(&tys, false), None);
        let lowering = self.target.lowering();
        f.set_call_conventions(lowering.kernel_calling_convention());
        let (key, value) = lowering.block_size_attribute(self.kernel_threads());
        f.add_attribute(
            AttributeLoc::Function,
            ctx.create_string_attribute(key, &value),
        );
        for (i, p) in self.params.iter().enumerate() {
            let param = f.get_nth_param(i as u32).expect("declared above");
            param.set_name(&p.name);
            let kind = inkwell::attributes::Attribute::get_named_enum_kind_id;
            let at = AttributeLoc::Param(i as u32);
            match p.ty {
                ParamType::Ptr(_) => {
                    f.add_attribute(
                        at,
                        ctx.create_enum_attribute(kind("align"), p.divisibility.min(1 << 12)),
                    );
                }
                ParamType::TensorMap(_) => {
                    // 128 bytes by value at 64-byte alignment, read in place: a grid constant
                    // gets `cvta.param` rather than a copy into local memory.
                    let bytes = ctx.i8_type().array_type(128);
                    use inkwell::types::AnyType;
                    let ty = bytes.as_any_type_enum();
                    f.add_attribute(at, ctx.create_type_attribute(kind("byval"), ty));
                    f.add_attribute(at, ctx.create_enum_attribute(kind("align"), 64));
                    f.add_attribute(at, ctx.create_string_attribute("nvvm.grid_constant", ""));
                }
                _ => {}
            }
        }
        let prologue = ctx.append_basic_block(f, "prologue");
        let body = ctx.append_basic_block(f, "body");
        self.em.b.position_at_end(prologue);
        self.em.b.build_unconditional_branch(body)?;
        self.em.b.position_at_end(body);
        self.em.func = Some(f);
        self.em.prologue = Some(prologue);
        for (i, v) in self.param_values.clone().into_iter().enumerate() {
            let p = f.get_nth_param(i as u32).expect("declared above");
            self.values.update(v, |d| d.regs = vec![p]);
            let d = self.params[i].divisibility;
            if p.is_int_value() && d > 1 {
                // A promised multiple of `d` has its low bits clear.
                self.note_bits(p.into_int_value(), !(d - 1), None);
            }
        }
        Ok(())
    }

    /// Ends the body with the return, erases what nothing uses, sets the register limit
    /// (`max_registers`, unless the function has one already) and the cluster shape (`cluster`:
    /// NVPTX's `.reqnctapercluster` and `.explicitcluster`), and verifies the module.
    pub(crate) fn end_function(
        &mut self,
        max_registers: Option<u32>,
        cluster: Option<[u32; 3]>,
    ) -> Result<()> {
        self.em.b.build_return(None)?;
        if let Some(f) = self.em.func {
            drop_unused(f);
            if let Some([x, y, z]) = cluster {
                // `.reqnctapercluster x, y, z` and `.explicitcluster`.
                let dims = format!("{x},{y},{z}");
                let a = self
                    .em
                    .ctx
                    .create_string_attribute("nvvm.cluster_dim", &dims);
                f.add_attribute(AttributeLoc::Function, a);
            }
            let key = "nvvm.maxnreg";
            if let Some(regs) = max_registers {
                if f.get_string_attribute(AttributeLoc::Function, key)
                    .is_none()
                {
                    let a = self.em.ctx.create_string_attribute(key, &regs.to_string());
                    f.add_attribute(AttributeLoc::Function, a);
                }
            }
        }
        self.em
            .module
            .verify()
            .map_err(|e| CodegenError::llvm("verify", e.to_string()))
    }
}

/// Erases the instructions nothing uses. Lowering computes every register's value as an op
/// is lowered (an address and a bound check per element), and a vector access uses only its
/// first element's; without them, every later copy and pass (the module clone, code
/// generation's IR passes) has a third less IR to go through on a 64 × 64 tile.
fn drop_unused(f: FunctionValue<'_>) {
    use inkwell::values::InstructionOpcode as Op;
    for bb in f.get_basic_blocks().into_iter().rev() {
        let mut inst = bb.get_last_instruction();
        while let Some(i) = inst {
            inst = i.get_previous_instruction();
            let pure = matches!(
                i.get_opcode(),
                Op::Add
                    | Op::Sub
                    | Op::Mul
                    | Op::And
                    | Op::Or
                    | Op::Xor
                    | Op::Shl
                    | Op::LShr
                    | Op::AShr
                    | Op::ICmp
                    | Op::FCmp
                    | Op::Select
                    | Op::GetElementPtr
                    | Op::ZExt
                    | Op::SExt
                    | Op::Trunc
                    | Op::BitCast
                    | Op::FPExt
                    | Op::FPTrunc
                    | Op::SIToFP
                    | Op::UIToFP
                    | Op::FPToSI
                    | Op::FPToUI
                    | Op::ExtractElement
                    | Op::InsertElement
                    | Op::ExtractValue
            );
            if pure && i.get_first_use().is_none() {
                i.erase_from_basic_block();
            }
        }
    }
}
