//! The kernel builder: parameters, the value arena, program ids and constants.
//!
//! Building a kernel is a sequence of calls on a [`KernelBuilder`]; each tile op is lowered to LLVM
//! IR when it is called. Parameters come first (`arg_*`); the first other op starts the body and
//! fixes the signature. [`KernelBuilder::finish`] terminates the body, verifies the module and
//! returns a [`Kernel`](super::Kernel) ready to emit.

pub(crate) mod values;

use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};

use inkwell::attributes::AttributeLoc;
use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::Context as LlvmContext;
use inkwell::module::Module;
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::{AsValueRef, BasicValueEnum, FunctionValue, IntValue};

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::builder::values::{Literal, Value, ValueData};
use crate::codegen::emit::index_cse::{Bits, Op, ValueMap};
use crate::codegen::emit::Kernel;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::target::{LlvmTarget, Target, Vendor};
use crate::codegen::types::{DType, Type};
use crate::signature::{ElemType, KernelSignature, Param, ParamType};

/// Owns the LLVM context that kernels are built in. Make one, then build any number of kernels
/// against it; their [`Kernel`]s borrow it.
pub struct Context {
    pub(crate) llvm: LlvmContext,
}

impl Context {
    /// A fresh LLVM context.
    pub fn new() -> Context {
        Context {
            llvm: LlvmContext::create(),
        }
    }
}

impl Default for Context {
    fn default() -> Self {
        Context::new()
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Context")
    }
}

/// The lane and warp bases of a layout: layouts with equal ones share thread coordinates.
pub(crate) type ThreadKey = (Vec<Vec<u64>>, Vec<Vec<u64>>);

static NEXT_KERNEL_ID: AtomicU32 = AtomicU32::new(1);

/// Builds one kernel. See the [module docs](super) for the model and an example.
pub struct KernelBuilder<'ctx> {
    pub(crate) ctx: &'ctx LlvmContext,
    pub(crate) module: Module<'ctx>,
    pub(crate) b: Builder<'ctx>,
    pub(crate) target: Target,
    pub(crate) num_warps: u32,
    pub(crate) id: u32,
    pub(crate) name: String,
    params: Vec<Param>,
    param_values: Vec<Value>,
    pub(crate) func: Option<FunctionValue<'ctx>>,
    prologue: Option<BasicBlock<'ctx>>,
    pub(crate) values: Vec<ValueData<'ctx>>,
    /// Scope ids: `open[s]` is false once the loop or branch body `s` has ended.
    pub(crate) open: Vec<bool>,
    /// The innermost open scope.
    pub(crate) scope: u32,
    /// Set when a loop or branch body failed half-way: the IR is incomplete.
    pub(crate) poisoned: bool,
    pub(crate) thread_cache: HashMap<ThreadKey, Vec<IntValue<'ctx>>>,
    sreg_cache: HashMap<String, IntValue<'ctx>>,
    /// Set once a math function is lowered: its code leaves folding to instcombine (`emit.rs`).
    pub(crate) float_math: bool,
    /// What is known of integer values' bits, by LLVM value (`known_bits.rs`).
    pub(crate) known: ValueMap<usize, Bits<'ctx>>,
    /// Index instructions already built, by operation and operands (`known_bits.rs`).
    pub(crate) shared: ValueMap<(Op, usize, usize), IntValue<'ctx>>,
}

impl fmt::Debug for KernelBuilder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KernelBuilder")
            .field("name", &self.name)
            .field("target", &self.target)
            .field("num_warps", &self.num_warps)
            .field("values", &self.values.len())
            .finish()
    }
}

impl<'ctx> KernelBuilder<'ctx> {
    /// Starts a kernel `name` for `target` with `num_warps` warps (wavefronts) per CTA.
    pub fn new(
        ctx: &'ctx Context,
        target: Target,
        name: &str,
        num_warps: u32,
    ) -> Result<KernelBuilder<'ctx>> {
        target.check_enabled()?;
        if num_warps == 0 || !num_warps.is_power_of_two() || num_warps > target.max_warps() {
            return Err(CodegenError::arg(
                "kernel",
                format!(
                    "num_warps = {num_warps}: must be a power of two from 1 to {} on {target}",
                    target.max_warps()
                ),
            ));
        }
        let valid_name = !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid_name {
            return Err(CodegenError::arg(
                "kernel",
                format!(
                    "name `{name}`: use ASCII letters, digits and `_`, not starting with a digit"
                ),
            ));
        }
        let llvm = &ctx.llvm;
        let module = llvm.create_module(name);
        module.set_triple(&inkwell::targets::TargetTriple::create(target.triple()));
        let layout = std::ffi::CString::new(target.data_layout()?)
            .map_err(|e| CodegenError::llvm("data layout", e))?;
        // SAFETY: a valid module and a NUL-terminated string LLVM copies.
        unsafe { llvm_sys::core::LLVMSetDataLayout(module.as_mut_ptr(), layout.as_ptr()) };
        Ok(KernelBuilder {
            ctx: llvm,
            module,
            b: llvm.create_builder(),
            target,
            num_warps,
            id: NEXT_KERNEL_ID.fetch_add(1, Ordering::Relaxed),
            name: name.to_string(),
            params: Vec::new(),
            param_values: Vec::new(),
            func: None,
            prologue: None,
            values: Vec::new(),
            open: vec![true],
            scope: 0,
            poisoned: false,
            thread_cache: HashMap::new(),
            sreg_cache: HashMap::new(),
            float_math: false,
            known: ValueMap::default(),
            shared: ValueMap::default(),
        })
    }

    /// The target the kernel is built for.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Warps (wavefronts) per CTA.
    pub fn num_warps(&self) -> u32 {
        self.num_warps
    }

    /// Threads per warp of the target (32 on NVIDIA, 64 on CDNA).
    pub fn threads_per_warp(&self) -> u32 {
        self.target.warp_size()
    }

    /// Threads per CTA: warps × threads per warp.
    pub(crate) fn threads_per_block(&self) -> u32 {
        self.num_warps * self.threads_per_warp()
    }

    // ----- parameters ---------------------------------------------------------------------------

    /// A pointer parameter to global memory holding `pointee` elements. `divisibility` is the
    /// alignment in bytes the kernel may assume (16 lets 16-byte vector accesses through; 1 assumes
    /// nothing).
    pub fn arg_ptr(&mut self, name: &str, pointee: DType, divisibility: u64) -> Result<Value> {
        self.add_param(name, Type::Ptr(pointee), divisibility)
    }

    /// An `i32` parameter assumed to be a multiple of `divisibility` (1: nothing assumed). A bound
    /// known to be a multiple of 16 lets masked accesses vectorise.
    pub fn arg_i32(&mut self, name: &str, divisibility: u64) -> Result<Value> {
        self.add_param(name, Type::Scalar(DType::I32), divisibility)
    }

    /// An `i64` parameter assumed to be a multiple of `divisibility`.
    pub fn arg_i64(&mut self, name: &str, divisibility: u64) -> Result<Value> {
        self.add_param(name, Type::Scalar(DType::I64), divisibility)
    }

    /// An `f32` parameter.
    pub fn arg_f32(&mut self, name: &str) -> Result<Value> {
        self.add_param(name, Type::Scalar(DType::F32), 1)
    }

    fn add_param(&mut self, name: &str, value_ty: Type, divisibility: u64) -> Result<Value> {
        let ty = param_type(value_ty);
        let reject = |reason: &str| CodegenError::BadParameter {
            name: name.to_string(),
            reason: reason.to_string(),
        };
        if self.func.is_some() {
            return Err(reject(
                "parameters must be declared before the first op of the body",
            ));
        }
        if self.params.iter().any(|p| p.name == name) {
            return Err(reject("declared twice"));
        }
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(reject("use ASCII letters, digits and `_`"));
        }
        if divisibility == 0 || !divisibility.is_power_of_two() {
            return Err(reject("divisibility must be a power of two (1 for none)"));
        }
        if !ty.has_divisibility() && divisibility != 1 {
            return Err(reject("a float has no divisibility"));
        }
        if let Type::Ptr(d) = value_ty {
            if divisibility < d.mem_bytes() {
                return Err(reject(
                    "a pointer's divisibility must be at least its element size",
                ));
            }
        }
        self.params.push(Param {
            name: name.to_string(),
            ty,
            divisibility,
        });
        let v = self.push(ValueData {
            ty: value_ty,
            shape: Vec::new(),
            layout: None,
            regs: Vec::new(),
            info: AxisInfo::scalar(divisibility),
            scope: 0,
            literal: None,
        });
        self.param_values.push(v);
        Ok(v)
    }

    /// The signature so far (final once the body has started): what a launch must respect.
    pub fn signature(&self) -> KernelSignature {
        KernelSignature {
            name: self.name.clone(),
            target: Some(self.target),
            params: self.params.clone(),
            threads_per_block: Some(self.threads_per_block()),
            shared_bytes: 0,
        }
    }

    /// Creates the LLVM function once the parameters are known, with a prologue block (thread ids,
    /// per-layout thread coordinates) that falls through to the body.
    pub(crate) fn ensure_body(&mut self) -> Result<()> {
        if self.poisoned {
            return Err(CodegenError::arg(
                "kernel",
                "an earlier error inside a loop or branch body left this kernel incomplete",
            ));
        }
        if self.func.is_some() {
            return Ok(());
        }
        let ctx = self.ctx;
        let tys: Vec<BasicMetadataTypeEnum> = self
            .param_values
            .iter()
            .map(|v| self.values[v.index as usize].ty.llvm(ctx).into())
            .collect();
        let f = self
            .module
            .add_function(&self.name, ctx.void_type().fn_type(&tys, false), None);
        f.set_call_conventions(self.target.kernel_calling_convention());
        let threads = self.threads_per_block();
        let attr = match self.target.vendor() {
            // `.reqntid`: the launcher checks the block size against the signature, so the code
            // may rely on it (and ptxas may allocate registers for exactly this many threads).
            Vendor::Nvidia => ctx.create_string_attribute("nvvm.reqntid", &threads.to_string()),
            Vendor::Amd => ctx.create_string_attribute(
                "amdgpu-flat-work-group-size",
                &format!("{threads},{threads}"),
            ),
        };
        f.add_attribute(AttributeLoc::Function, attr);
        for (i, p) in self.params.iter().enumerate() {
            let param = f.get_nth_param(i as u32).expect("declared above");
            param.set_name(&p.name);
            if let ParamType::Ptr(_) = p.ty {
                let align = inkwell::attributes::Attribute::get_named_enum_kind_id("align");
                f.add_attribute(
                    AttributeLoc::Param(i as u32),
                    ctx.create_enum_attribute(align, p.divisibility.min(1 << 12)),
                );
            }
        }
        let prologue = ctx.append_basic_block(f, "prologue");
        let body = ctx.append_basic_block(f, "body");
        self.b.position_at_end(prologue);
        self.b.build_unconditional_branch(body)?;
        self.b.position_at_end(body);
        self.func = Some(f);
        self.prologue = Some(prologue);
        for (i, v) in self.param_values.clone().into_iter().enumerate() {
            let p = f.get_nth_param(i as u32).expect("declared above");
            self.values[v.index as usize].regs = vec![p];
            let d = self.params[i].divisibility;
            if p.is_int_value() && d > 1 {
                // A promised multiple of `d` has its low bits clear.
                self.note_bits(p.into_int_value(), !(d - 1), None);
            }
        }
        Ok(())
    }

    /// Emits `build` in the prologue (so its values dominate every later block) and returns to
    /// the current position.
    pub(crate) fn in_prologue<T>(
        &mut self,
        build: impl FnOnce(&Builder<'ctx>) -> Result<T>,
    ) -> Result<T> {
        self.ensure_body()?;
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

    /// Reads a special register (`llvm.nvvm.read.ptx.sreg.*`, `llvm.amdgcn.*`) once, in the
    /// prologue.
    pub(crate) fn sreg(&mut self, intrinsic: &str) -> Result<IntValue<'ctx>> {
        if let Some(v) = self.sreg_cache.get(intrinsic) {
            return Ok(*v);
        }
        let f = self.intrinsic(intrinsic, &[])?;
        let v = self.in_prologue(|b| {
            Ok(b.build_call(f, &[], "")?
                .try_as_basic_value()
                .basic()
                .expect("sreg returns a value")
                .into_int_value())
        })?;
        self.sreg_cache.insert(intrinsic.to_string(), v);
        Ok(v)
    }

    /// The declaration of an LLVM intrinsic, overloaded on `types`.
    pub(crate) fn intrinsic(
        &self,
        name: &str,
        types: &[inkwell::types::BasicTypeEnum<'ctx>],
    ) -> Result<FunctionValue<'ctx>> {
        inkwell::intrinsics::Intrinsic::find(name)
            .and_then(|i| i.get_declaration(&self.module, types))
            .ok_or_else(|| CodegenError::llvm("intrinsic lookup", name))
    }

    /// The thread's index in the CTA, read once. The call carries its range (`0..threads`: the
    /// launch's block size is checked against the signature), so LLVM knows its high bits are
    /// zero without the `nvvm-intr-range` pass.
    pub(crate) fn thread_index(&mut self) -> Result<IntValue<'ctx>> {
        let name = match self.target.vendor() {
            Vendor::Nvidia => "llvm.nvvm.read.ptx.sreg.tid.x",
            Vendor::Amd => "llvm.amdgcn.workitem.id.x",
        };
        if let Some(v) = self.sreg_cache.get(name) {
            return Ok(*v);
        }
        let tid = self.sreg(name)?;
        let threads = self.threads_per_block() as u64;
        let (lower, upper) = (0u64, threads);
        // SAFETY: `tid` is the call just built; the attribute is made in its context, and the
        // bounds are one 64-bit word each, as `NumBits` = 32 needs.
        unsafe {
            use llvm_sys::core::*;
            let kind = LLVMGetEnumAttributeKindForName(c"range".as_ptr(), 5);
            let attr = LLVMCreateConstantRangeAttribute(self.ctx.raw(), kind, 32, &lower, &upper);
            LLVMAddCallSiteAttribute(tid.as_value_ref(), 0, attr);
        }
        self.note_bits(tid, threads - 1, None);
        Ok(tid)
    }

    // ----- the arena ----------------------------------------------------------------------------

    pub(crate) fn push(&mut self, data: ValueData<'ctx>) -> Value {
        self.values.push(data);
        Value {
            kernel: self.id,
            index: (self.values.len() - 1) as u32,
        }
    }

    /// A new value in the current scope.
    pub(crate) fn new_value(
        &mut self,
        ty: Type,
        shape: Vec<u64>,
        layout: Option<Rc<TileLayout>>,
        regs: Vec<BasicValueEnum<'ctx>>,
        info: AxisInfo,
    ) -> Value {
        let scope = self.scope;
        self.push(ValueData {
            ty,
            shape,
            layout,
            regs,
            info,
            scope,
            literal: None,
        })
    }

    /// Looks a handle up, checking its kernel and scope, and starts the body if needed.
    pub(crate) fn get(&mut self, op: &'static str, v: Value) -> Result<ValueData<'ctx>> {
        if v.kernel != self.id {
            return Err(CodegenError::ForeignValue {
                op,
                value: v.to_string(),
                owner: v.kernel,
                this: self.id,
            });
        }
        self.ensure_body()?;
        let data = self
            .values
            .get(v.index as usize)
            .ok_or_else(|| CodegenError::ForeignValue {
                op,
                value: v.to_string(),
                owner: v.kernel,
                this: self.id,
            })?;
        if !self.open[data.scope as usize] {
            return Err(CodegenError::OutOfScope {
                op,
                value: v.to_string(),
            });
        }
        Ok(data.clone())
    }

    /// Shape of a value (empty for scalars).
    pub fn shape(&self, v: Value) -> Result<Vec<u64>> {
        self.peek("shape", v).map(|d| d.shape.clone())
    }

    /// Element type of a value.
    pub fn ty(&self, v: Value) -> Result<Type> {
        self.peek("ty", v).map(|d| d.ty)
    }

    /// The layout of a tile (`None` for a scalar).
    pub fn layout(&self, v: Value) -> Result<Option<crate::layout::LinearLayout>> {
        self.peek("layout", v)
            .map(|d| d.layout.as_ref().map(|l| l.ll.clone()))
    }

    /// A one-line description of a value: `tensor<128xf32, {register: …}>`.
    pub fn describe(&self, v: Value) -> Result<String> {
        self.peek("describe", v).map(|d| d.describe())
    }

    fn peek(&self, op: &'static str, v: Value) -> Result<&ValueData<'ctx>> {
        if v.kernel != self.id {
            return Err(CodegenError::ForeignValue {
                op,
                value: v.to_string(),
                owner: v.kernel,
                this: self.id,
            });
        }
        self.values
            .get(v.index as usize)
            .ok_or_else(|| CodegenError::ForeignValue {
                op,
                value: v.to_string(),
                owner: v.kernel,
                this: self.id,
            })
    }

    // ----- program ids and constants ------------------------------------------------------------

    fn axis_name(op: &'static str, axis: u32) -> Result<&'static str> {
        ["x", "y", "z"].get(axis as usize).copied().ok_or_else(|| {
            CodegenError::arg(op, format!("axis {axis}: launch grids have axes 0, 1, 2"))
        })
    }

    /// The index of this CTA along grid axis `axis` (0, 1, 2), as an `i32` scalar.
    pub fn program_id(&mut self, axis: u32) -> Result<Value> {
        let a = Self::axis_name("program_id", axis)?;
        let v = match self.target.vendor() {
            Vendor::Nvidia => {
                let v = self.sreg(&format!("llvm.nvvm.read.ptx.sreg.ctaid.{a}"))?;
                self.note_bits(v, grid_bits(axis), None);
                v
            }
            Vendor::Amd => self.sreg(&format!("llvm.amdgcn.workgroup.id.{a}"))?,
        };
        Ok(self.new_value(
            Type::Scalar(DType::I32),
            vec![],
            None,
            vec![v.into()],
            AxisInfo::scalar(1),
        ))
    }

    /// The number of CTAs along grid axis `axis`, as an `i32` scalar.
    pub fn num_programs(&mut self, axis: u32) -> Result<Value> {
        let a = Self::axis_name("num_programs", axis)?;
        let v = match self.target.vendor() {
            Vendor::Nvidia => {
                let v = self.sreg(&format!("llvm.nvvm.read.ptx.sreg.nctaid.{a}"))?;
                self.note_bits(v, grid_bits(axis), None);
                v
            }
            Vendor::Amd => {
                // HSA dispatch packet: workgroup_size_{x,y,z} are u16 at 4, 6, 8 and
                // grid_size_{x,y,z} (in work-items) u32 at 12, 16, 20.
                let f = self.intrinsic("llvm.amdgcn.dispatch.ptr", &[])?;
                let ctx = self.ctx;
                self.in_prologue(|b| {
                    let p = b
                        .build_call(f, &[], "")?
                        .try_as_basic_value()
                        .basic()
                        .expect("ptr")
                        .into_pointer_value();
                    let i8t = ctx.i8_type();
                    // SAFETY: constant offsets inside the 64-byte dispatch packet.
                    let (wg, grid) = unsafe {
                        (
                            b.build_gep(
                                i8t,
                                p,
                                &[ctx.i64_type().const_int(4 + 2 * axis as u64, false)],
                                "",
                            )?,
                            b.build_gep(
                                i8t,
                                p,
                                &[ctx.i64_type().const_int(12 + 4 * axis as u64, false)],
                                "",
                            )?,
                        )
                    };
                    let wg = b.build_load(ctx.i16_type(), wg, "")?.into_int_value();
                    let wg = b.build_int_z_extend(wg, ctx.i32_type(), "")?;
                    let grid = b.build_load(ctx.i32_type(), grid, "")?.into_int_value();
                    Ok(b.build_int_unsigned_div(grid, wg, "nprog")?)
                })?
            }
        };
        Ok(self.new_value(
            Type::Scalar(DType::I32),
            vec![],
            None,
            vec![v.into()],
            AxisInfo::scalar(1),
        ))
    }

    /// An integer scalar constant of type `dtype`. Fails if `value` does not fit.
    pub fn const_int(&mut self, dtype: DType, value: i64) -> Result<Value> {
        self.ensure_body()?;
        if !dtype.is_int() {
            return Err(CodegenError::InvalidType {
                op: "const_int",
                expected: "an integer dtype".into(),
                value: dtype.to_string(),
            });
        }
        let bits = dtype.bits();
        let fits = if bits == 1 {
            value == 0 || value == 1
        } else {
            bits == 64 || (value >= -(1i64 << (bits - 1)) && value < (1i64 << (bits - 1)))
        };
        if !fits {
            return Err(CodegenError::arg(
                "const_int",
                format!("{value} does not fit in {dtype}"),
            ));
        }
        let v = dtype
            .llvm(self.ctx)
            .into_int_type()
            .const_int(value as u64, bits > 1);
        let id = self.new_value(
            Type::Scalar(dtype),
            vec![],
            None,
            vec![v.into()],
            AxisInfo::constant(value, &[]),
        );
        self.values[id.index as usize].literal = Some(Literal::Int(value));
        Ok(id)
    }

    /// A float scalar constant of type `dtype` (f16, bf16, f32, f64).
    pub fn const_float(&mut self, dtype: DType, value: f64) -> Result<Value> {
        self.ensure_body()?;
        if !dtype.is_float() {
            return Err(CodegenError::InvalidType {
                op: "const_float",
                expected: "a float dtype (f16, bf16, f32, f64)".into(),
                value: dtype.to_string(),
            });
        }
        let v = dtype.llvm(self.ctx).into_float_type().const_float(value);
        let mut info = AxisInfo::scalar(1);
        info.constant = None;
        let id = self.new_value(Type::Scalar(dtype), vec![], None, vec![v.into()], info);
        self.values[id.index as usize].literal = Some(Literal::Float(value));
        Ok(id)
    }

    /// `const_int(I32, value)`.
    pub fn i32(&mut self, value: i32) -> Result<Value> {
        self.const_int(DType::I32, value as i64)
    }

    /// `const_int(I64, value)`.
    pub fn i64(&mut self, value: i64) -> Result<Value> {
        self.const_int(DType::I64, value)
    }

    /// `const_float(F32, value)`.
    pub fn f32(&mut self, value: f32) -> Result<Value> {
        self.const_float(DType::F32, value as f64)
    }

    /// Promises that every element of `v` (the address, for pointers) is a multiple of
    /// `divisibility` and that runs of `contiguity` elements along the last dim step by one, like
    /// Triton's `multiple_of` / `max_contiguous`. Returns a value with those facts; wrong promises
    /// give wrong code.
    pub fn assume(&mut self, v: Value, divisibility: u64, contiguity: u64) -> Result<Value> {
        let mut d = self.get("assume", v)?;
        for (what, x) in [("divisibility", divisibility), ("contiguity", contiguity)] {
            if x == 0 || !x.is_power_of_two() {
                return Err(CodegenError::arg(
                    "assume",
                    format!("{what} {x} is not a power of two"),
                ));
            }
        }
        if d.is_scalar() {
            d.info.scalar_div = d.info.scalar_div.max(divisibility);
        } else {
            let last = d.shape.len() - 1;
            if contiguity > d.shape[last] {
                return Err(CodegenError::arg(
                    "assume",
                    format!(
                        "contiguity {contiguity} exceeds the last dim {}",
                        d.shape[last]
                    ),
                ));
            }
            for x in d.info.divisibility.iter_mut() {
                *x = (*x).max(divisibility);
            }
            d.info.contiguity[last] = d.info.contiguity[last].max(contiguity);
        }
        d.scope = self.scope;
        d.literal = None;
        Ok(self.push(d))
    }

    /// Terminates the body, verifies the module and hands it over for emission.
    pub fn finish(mut self) -> Result<Kernel<'ctx>> {
        self.ensure_body()?;
        if self.scope != 0 {
            return Err(CodegenError::arg(
                "finish",
                "called inside a loop or branch body",
            ));
        }
        self.b.build_return(None)?;
        if let Some(f) = self.func {
            drop_unused(f);
        }
        self.module
            .verify()
            .map_err(|e| CodegenError::llvm("verify", e.to_string()))?;
        let signature = self.signature();
        Ok(Kernel::new(
            self.module,
            self.target,
            signature,
            self.float_math,
        ))
    }
}

/// The signature's type of a parameter of value type `ty`. A pointer to `i1` is a pointer to bytes.
fn param_type(ty: Type) -> ParamType {
    match ty {
        Type::Ptr(d) => ParamType::Ptr(elem_type(d)),
        Type::Scalar(DType::I32) => ParamType::I32,
        Type::Scalar(DType::I64) => ParamType::I64,
        Type::Scalar(DType::F64) => ParamType::F64,
        Type::Scalar(_) => ParamType::F32,
    }
}

/// The memory element type of a dtype (`i1` is stored as a byte).
pub(crate) fn elem_type(d: DType) -> ElemType {
    match d {
        DType::I1 | DType::I8 => ElemType::I8,
        DType::I16 => ElemType::I16,
        DType::I32 => ElemType::I32,
        DType::I64 => ElemType::I64,
        DType::F16 => ElemType::F16,
        DType::BF16 => ElemType::BF16,
        DType::F32 => ElemType::F32,
        DType::F64 => ElemType::F64,
        DType::F8E4M3 => ElemType::F8E4M3,
        DType::F8E5M2 => ElemType::F8E5M2,
    }
}

/// The bits a CTA index or count along grid `axis` may set on NVIDIA: grids are at most
/// 2³¹ − 1 CTAs along x and 65535 along y and z (the ranges LLVM declares on the intrinsics).
fn grid_bits(axis: u32) -> u64 {
    if axis == 0 {
        0x7fff_ffff
    } else {
        0xffff
    }
}

/// Erases the instructions nothing uses. The builder computes every register's value as an op
/// is called (an address and a bound check per element), and a vector access uses only its
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
                    | Op::ExtractElement
                    | Op::ExtractValue
            );
            if pure && i.get_first_use().is_none() {
                i.erase_from_basic_block();
            }
        }
    }
}
