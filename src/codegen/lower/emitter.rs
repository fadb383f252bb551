//! The emitter: the LLVM handles of one kernel (context, module, instruction builder, the kernel
//! function and its prologue block), the helpers every op uses to write IR, and the only raw
//! `llvm_sys` calls of the builder (what inkwell does not wrap: data layout, range attributes,
//! flags, sync scopes, the process-wide command line, and the pass gate of `shim/pass_gate.cpp`).
//! Each `unsafe` block is here, next to its safety argument.

use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::Context as LlvmContext;
use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, BasicValueEnum, FunctionValue, InstructionValue, IntValue,
    PointerValue,
};

use crate::codegen::error::{CodegenError, Result};

/// The LLVM side of one kernel being built.
pub(crate) struct Emitter<'ctx> {
    /// The LLVM context the kernel is built in.
    pub ctx: &'ctx LlvmContext,
    /// The kernel's module.
    pub module: Module<'ctx>,
    /// The instruction builder, positioned in the body.
    pub b: Builder<'ctx>,
    /// The kernel function, once the parameters are known.
    pub func: Option<FunctionValue<'ctx>>,
    /// The prologue block (thread ids, per-layout thread coordinates), which falls through to
    /// the body.
    pub prologue: Option<BasicBlock<'ctx>>,
    /// Set once a math function is lowered: its code leaves folding to instcombine
    /// (`lower/output.rs`).
    pub float_math: bool,
    /// Set once a tensor-core op (wgmma) is emitted: the compile then skips the SLP vectoriser
    /// (`target::set_pass_gate`).
    pub tensor_cores: bool,
}

impl<'ctx> Emitter<'ctx> {
    /// A module `name` for `triple` with the given data layout.
    pub fn new(
        ctx: &'ctx LlvmContext,
        name: &str,
        triple: &str,
        data_layout: &str,
    ) -> Result<Emitter<'ctx>> {
        let module = ctx.create_module(name);
        module.set_triple(&inkwell::targets::TargetTriple::create(triple));
        let layout = std::ffi::CString::new(data_layout)
            .map_err(|e| CodegenError::llvm("data layout", e))?;
        // SAFETY: a valid module and a NUL-terminated string LLVM copies.
        unsafe { llvm_sys::core::LLVMSetDataLayout(module.as_mut_ptr(), layout.as_ptr()) };
        Ok(Emitter {
            ctx,
            module,
            b: ctx.create_builder(),
            func: None,
            prologue: None,
            float_math: false,
            tensor_cores: false,
        })
    }

    /// The kernel function (the body has started).
    pub fn func(&self) -> FunctionValue<'ctx> {
        self.func.expect("body started")
    }

    /// Emits `build` in the prologue (so its values dominate every later block) and returns to
    /// the current position. The body must have started.
    pub fn in_prologue<T>(&self, build: impl FnOnce(&Builder<'ctx>) -> Result<T>) -> Result<T> {
        let here = self.b.get_insert_block().expect("builder is positioned");
        let prologue = self.prologue.expect("body started");
        let term = prologue
            .get_terminator()
            .expect("prologue ends in a branch");
        self.b.position_before(&term);
        let out = build(&self.b);
        self.b.position_at_end(here);
        out
    }

    /// The declaration of an LLVM intrinsic, overloaded on `types`.
    pub fn intrinsic(
        &self,
        name: &str,
        types: &[BasicTypeEnum<'ctx>],
    ) -> Result<FunctionValue<'ctx>> {
        inkwell::intrinsics::Intrinsic::find(name)
            .and_then(|i| i.get_declaration(&self.module, types))
            .ok_or_else(|| CodegenError::llvm("intrinsic lookup", name))
    }

    /// Calls `f` and returns its result.
    pub fn call1(
        &self,
        f: FunctionValue<'ctx>,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>> {
        Ok(self
            .b
            .build_call(f, args, "")?
            .try_as_basic_value()
            .basic()
            .expect("intrinsic returns a value"))
    }

    /// `vals` (each of type `elem`) as one `<n x elem>` vector, or the value itself when there is
    /// one. When they are the elements of one such vector in order (a pair that
    /// `cvt.rn.f16x2.f32` converted, going on as the register it is), that vector is returned
    /// instead of a copy built element by element, which would cost code generation the
    /// round trip.
    pub fn pack(
        &self,
        vals: &[BasicValueEnum<'ctx>],
        elem: BasicTypeEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        if vals.len() == 1 {
            return Ok(vals[0]);
        }
        let ty = vec_of(elem, vals.len() as u32);
        if let Some(whole) = extracted_from(vals).filter(|v| v.get_type() == ty) {
            return Ok(whole);
        }
        let i32t = self.ctx.i32_type();
        let mut v = ty.into_vector_type().get_poison();
        for (i, x) in vals.iter().enumerate() {
            v = self
                .b
                .build_insert_element(v, *x, i32t.const_int(i as u64, false), "")?;
        }
        Ok(v.into())
    }

    /// The bits of `vals` (consecutive `elem`s, the first lowest) read as one `to`. When they are
    /// a run of one vector's elements starting at a multiple of their count (bytes of a vector
    /// load), the vector is read as `to`s and one element taken, which code generation keeps a
    /// plain register; else they are packed first.
    pub fn bits_as(
        &self,
        vals: &[BasicValueEnum<'ctx>],
        elem: BasicTypeEnum<'ctx>,
        to: BasicTypeEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let r = vals.len() as u32;
        if let Some((whole, start)) = extracted_run(vals) {
            let n = whole.get_type().into_vector_type().get_size();
            if whole.get_type() == vec_of(elem, n) && n % r == 0 && start % u64::from(r) == 0 {
                let wide = self.b.build_bit_cast(whole, vec_of(to, n / r), "")?;
                let at = self.ctx.i32_type().const_int(start / u64::from(r), false);
                return Ok(self
                    .b
                    .build_extract_element(wide.into_vector_value(), at, "")?);
            }
        }
        let v = self.pack(vals, elem)?;
        Ok(self.b.build_bit_cast(v, to, "")?)
    }

    /// Declares that the call `call` returns a value in `lower..upper` (an `i32` range
    /// attribute on the return value).
    pub fn set_return_range(&self, call: IntValue<'ctx>, lower: u64, upper: u64) {
        // SAFETY: `call` is a call instruction of this context; the attribute is made in the
        // same context, and the bounds are one 64-bit word each, as `NumBits` = 32 needs.
        unsafe {
            use llvm_sys::core::*;
            let kind = LLVMGetEnumAttributeKindForName(c"range".as_ptr(), 5);
            let attr = LLVMCreateConstantRangeAttribute(self.ctx.raw(), kind, 32, &lower, &upper);
            LLVMAddCallSiteAttribute(call.as_value_ref(), 0, attr);
        }
    }

    /// The id of the sync scope `name` (`device`, `agent`, …) in this context.
    pub fn sync_scope(&self, name: &str) -> u32 {
        // SAFETY: a valid context and a byte string with its length.
        unsafe {
            llvm_sys::core::LLVMGetSyncScopeID(
                self.ctx.raw(),
                name.as_ptr() as *const _,
                name.len(),
            )
        }
    }

    /// `atomicrmw op ptr, val acq_rel` in sync scope `scope`.
    pub fn atomic_rmw_acq_rel(
        &self,
        op: llvm_sys::LLVMAtomicRMWBinOp,
        ptr: PointerValue<'ctx>,
        val: BasicValueEnum<'ctx>,
        scope: u32,
    ) -> BasicValueEnum<'ctx> {
        // SAFETY: the builder is positioned, `ptr` is a pointer and `val` has the pointee's type
        // (the caller checked); LLVMBuildAtomicRMWSyncScope returns a valid value of that type.
        unsafe {
            let raw = llvm_sys::core::LLVMBuildAtomicRMWSyncScope(
                self.b.as_mut_ptr(),
                op,
                ptr.as_value_ref(),
                val.as_value_ref(),
                llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingAcquireRelease,
                scope,
            );
            BasicValueEnum::new(raw)
        }
    }

    /// `fence ordering` in sync scope `scope`.
    pub fn fence(&self, ordering: llvm_sys::LLVMAtomicOrdering, scope: u32) {
        // SAFETY: the builder is positioned; the scope id comes from this context.
        unsafe {
            llvm_sys::core::LLVMBuildFenceSyncScope(
                self.b.as_mut_ptr(),
                ordering,
                scope,
                c"".as_ptr(),
            );
        }
    }

    /// Sets the sync scope of an atomic instruction (`cmpxchg`, `atomicrmw`).
    pub fn set_sync_scope(&self, atomic: impl AsValueRef, scope: u32) {
        // SAFETY: `atomic` is an atomic instruction of this context; the scope id comes from it.
        unsafe { llvm_sys::core::LLVMSetAtomicSyncScopeID(atomic.as_value_ref(), scope) };
    }
}

/// Marks a `zext` or `uitofp` `nneg` (its operand is known to be non-negative); a constant
/// (LLVM folded the cast) is left as it is.
/// `<n x ty>`.
pub(crate) fn vec_of(ty: BasicTypeEnum<'_>, n: u32) -> BasicTypeEnum<'_> {
    match ty {
        BasicTypeEnum::IntType(t) => t.vec_type(n).into(),
        BasicTypeEnum::FloatType(t) => t.vec_type(n).into(),
        BasicTypeEnum::PointerType(t) => t.vec_type(n).into(),
        other => other,
    }
}

/// The vector `vals` were extracted from, when `vals[i]` is `extractelement v, i` of one `v` with
/// exactly `vals.len()` elements.
fn extracted_from<'ctx>(vals: &[BasicValueEnum<'ctx>]) -> Option<BasicValueEnum<'ctx>> {
    let (w, start) = extracted_run(vals)?;
    (start == 0 && w.get_type().into_vector_type().get_size() as usize == vals.len()).then_some(w)
}

/// The vector `v` and the index `start` when `vals[i]` is `extractelement v, start + i` of one
/// `v`.
fn extracted_run<'ctx>(vals: &[BasicValueEnum<'ctx>]) -> Option<(BasicValueEnum<'ctx>, u64)> {
    use inkwell::values::{BasicValue, InstructionOpcode};
    let mut whole: Option<(BasicValueEnum<'ctx>, u64)> = None;
    for (i, v) in vals.iter().enumerate() {
        let inst = v.as_instruction_value()?;
        if inst.get_opcode() != InstructionOpcode::ExtractElement {
            return None;
        }
        let src = inst.get_operand(0)?.value()?;
        let at = inst.get_operand(1)?.value()?;
        let at = at.into_int_value().get_zero_extended_constant()?;
        match whole {
            None => whole = Some((src, at)),
            Some((w, start)) => {
                if at != start + i as u64 || w.as_value_ref() != src.as_value_ref() {
                    return None;
                }
            }
        }
    }
    whole
}

pub(crate) fn set_nneg(v: BasicValueEnum<'_>) {
    // SAFETY: `v` is a live value; the flag is only set on an instruction, and the caller built
    // a zext or uitofp, where the flag is valid.
    unsafe {
        let r = v.as_value_ref();
        if !llvm_sys::core::LLVMIsAInstruction(r).is_null() {
            llvm_sys::core::LLVMSetNNeg(r, 1);
        }
    }
}

/// Marks an `or` as `disjoint` (its operands have no common bits).
pub(crate) fn set_disjoint(i: InstructionValue<'_>) {
    // SAFETY: `i` is a live `or` instruction; the flag only states what the builder knows.
    unsafe { llvm_sys::core::LLVMSetIsDisjoint(i.as_value_ref(), 1) };
}

/// Whether anything uses `v` yet.
pub(crate) fn has_uses(v: IntValue<'_>) -> bool {
    // SAFETY: `v` is a live value of the module being built.
    unsafe { !llvm_sys::core::LLVMGetFirstUse(v.as_value_ref()).is_null() }
}

/// A copy of a verified module, in the same context, without verifying it again (inkwell's
/// `clone` would).
pub(crate) fn clone_module<'ctx>(m: &Module<'ctx>) -> Module<'ctx> {
    // SAFETY: `m` is a valid module; LLVMCloneModule returns a new module that the returned
    // `Module` owns.
    unsafe { Module::new(llvm_sys::core::LLVMCloneModule(m.as_mut_ptr())) }
}

extern "C" {
    /// `shim/pass_gate.cpp`: installs on `ctx` the pass gate of `mode` ([`PassGate`]).
    fn weft_set_pass_gate(ctx: llvm_sys::prelude::LLVMContextRef, mode: std::ffi::c_int);
    /// `shim/pass_gate.cpp`: whether `pass` runs under the gate of `mode`.
    #[cfg(test)]
    fn weft_pass_gate_runs(mode: std::ffi::c_int, pass: *const std::ffi::c_char)
        -> std::ffi::c_int;
}

/// Which passes a kernel's compile skips (see `target::set_pass_gate` for what and why).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PassGate {
    /// AMD code: LLVM's own gate.
    Amd = 0,
    /// NVIDIA code.
    Nvidia = 1,
    /// NVIDIA code with tensor-core ops.
    NvidiaTensorCores = 2,
    /// The code generation of NVIDIA code with tensor-core ops: also skips NVPTX's early CSE.
    NvidiaTensorCoresCodegen = 3,
    /// The code generation of other NVIDIA code: also skips NVPTX's early CSE.
    NvidiaCodegen = 4,
}

/// Installs `gate` on `module`'s context.
pub(crate) fn install_pass_gate(module: &Module<'_>, gate: PassGate) {
    // SAFETY: a live module; the shim stores a reference to a static gate in its context.
    unsafe {
        let ctx = llvm_sys::core::LLVMGetModuleContext(module.as_mut_ptr());
        weft_set_pass_gate(ctx, gate as std::ffi::c_int);
    }
}

/// Whether `gate` runs the pass `name`.
#[cfg(test)]
pub(crate) fn pass_runs(gate: PassGate, name: &std::ffi::CStr) -> bool {
    // SAFETY: a NUL-terminated string the shim only reads during the call.
    unsafe { weft_pass_gate_runs(gate as std::ffi::c_int, name.as_ptr()) != 0 }
}

/// Passes `args` (the first is the program name) to LLVM's process-wide command line. Call it
/// once per process, before any pipeline: LLVM exits the process on an option given twice.
pub(crate) fn parse_command_line(args: &[&std::ffi::CStr]) {
    let ptrs: Vec<*const std::ffi::c_char> = args.iter().map(|a| a.as_ptr()).collect();
    // SAFETY: NUL-terminated strings that outlive the call; the caller runs this once.
    unsafe {
        llvm_sys::support::LLVMParseCommandLineOptions(
            ptrs.len() as i32,
            ptrs.as_ptr(),
            std::ptr::null(),
        )
    };
}
