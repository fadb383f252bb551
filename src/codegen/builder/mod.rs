//! The kernel builder facade: parameters, program ids and constants, the signature, `finish`.
//!
//! Building a kernel is a sequence of calls on a [`KernelBuilder`]; each call checks its
//! operands and appends a typed op to the kernel's tile IR ([`Program`](crate::codegen::ir::Program)).
//! Parameters come first (`arg_*`); the first other op starts the body and fixes the signature.
//! [`KernelBuilder::finish`] runs the passes over the program (verifier, axis info), lowers it
//! in one walk over its regions (`deferred.rs`), terminates the body and returns a
//! [`Kernel`](super::Kernel) ready to emit.
//!
//! No op is lowered while the kernel is built: a method checks its operands, makes its results
//! (types, layouts, facts; no registers) and records its op. What a lowering needs of the
//! builder's state is decided when the op is recorded and kept in the lowering context: where
//! the allocator put a buffer and whether reusing its bytes owes a barrier (`placements`), an
//! op's scratch (`place_scratch`), a wgmma's plan, a warp role's plan (`role_plans`); an op
//! built from other ops keeps their records as its parts (`record_composite`); a user's combine
//! function is recorded once into its op's region and lowered from that record at every
//! combination (`record_combine`).
//!
//! The builder's state is kept in parts with one job each (as Cranelift keeps a function
//! builder's context apart from the function): the lowering context
//! ([`LowerCtx`]: LLVM handles, the value arena and its scopes, thread ids, index CSE, the
//! report sink), the [`SharedMemory`] allocator, the warp roles and the recording. Ops
//! (`ops/`) are `impl KernelBuilder` blocks that check operands and record.

pub mod args;
mod body_once;
mod combine_record;
mod deferred;
pub mod expr;
pub(crate) mod operand;
pub(crate) mod ops;
pub(crate) mod record;
mod replay;
mod report_rows;
pub(crate) mod roles;
pub(crate) mod shared_mem;

use std::fmt;
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};

use inkwell::context::Context as LlvmContext;

use self::roles::WarpRoles;
use self::shared_mem::SharedMemory;
use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::{Arg, OpKind};
use crate::codegen::lower::context::LowerCtx;
use crate::codegen::lower::emitter::Emitter;
use crate::codegen::lower::program::grid_axis;
use crate::codegen::lower::values::{Literal, Value, ValueData, ValueKind};
use crate::codegen::lower::Kernel;
use crate::codegen::passes::axis_flow::{self, Known};
use crate::codegen::report::KernelReport;
use crate::codegen::target::{LlvmTarget, Target};
use crate::codegen::types::{AddrSpace, DType, Type};
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

static NEXT_KERNEL_ID: AtomicU32 = AtomicU32::new(1);

/// Builds one kernel. See the [module docs](super) for the model and an example.
pub struct KernelBuilder<'ctx> {
    /// Everything lowering needs: the LLVM handles, the value map, index CSE, thread
    /// coordinates, the report sink.
    pub(crate) lx: LowerCtx<'ctx>,
    /// The shared-memory buffers and their total.
    pub(crate) smem: SharedMemory,
    /// Warp roles (warp specialisation) and the named barriers handed out.
    pub(crate) roles: WarpRoles,
    /// Registers per thread the kernel is limited to ([`limit_registers`](Self::limit_registers)).
    pub(crate) max_registers: Option<u32>,
    /// The tile IR recorded so far.
    pub(crate) rec: record::Recorder,
    /// Whether this builder is replaying a recorded program (`replay.rs`), so `finish` does not
    /// replay it again.
    replaying: bool,
}

impl fmt::Debug for KernelBuilder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KernelBuilder")
            .field("name", &self.lx.name)
            .field("target", &self.lx.target)
            .field("num_warps", &self.lx.num_warps)
            .field("values", &self.lx.values.len())
            .field("shared_bytes", &self.smem.total())
            .finish()
    }
}

impl<'ctx> KernelBuilder<'ctx> {
    /// Starts a kernel `name` for `target` with `num_warps` warps (wavefronts) per CTA. Tile
    /// layouts distribute over a power of two of warps; a kernel of another count (12: a
    /// producer warpgroup and two consumers) lays out tiles only inside
    /// [warp roles](Self::warp_roles).
    pub fn new(
        ctx: &'ctx Context,
        target: Target,
        name: &str,
        num_warps: u32,
    ) -> Result<KernelBuilder<'ctx>> {
        target.check_enabled()?;
        if num_warps == 0 || num_warps > target.max_warps() {
            return Err(CodegenError::arg(
                "kernel",
                format!(
                    "num_warps = {num_warps}: must be 1 to {} on {target}",
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
        let em = Emitter::new(&ctx.llvm, name, target.triple(), &target.data_layout()?)?;
        let id = NEXT_KERNEL_ID.fetch_add(1, Ordering::Relaxed);
        Ok(KernelBuilder {
            lx: LowerCtx::new(em, target, name, num_warps, id),
            smem: SharedMemory::new(target),
            roles: WarpRoles::default(),
            max_registers: None,
            rec: record::Recorder::new(crate::codegen::ir::Program::new(name, target, num_warps)),
            replaying: false,
        })
    }

    /// The target the kernel is built for.
    pub fn target(&self) -> Target {
        self.lx.target
    }

    /// Warps (wavefronts) per CTA, or inside a [warp role](Self::in_role) the role's warps (per
    /// replica): what tile layouts distribute over.
    pub fn num_warps(&self) -> u32 {
        self.lx.num_warps
    }

    /// Warps (wavefronts) of the whole CTA, roles or not.
    pub fn kernel_warps(&self) -> u32 {
        self.lx.kernel_warps
    }

    /// Threads per warp of the target (32 on NVIDIA, 64 on CDNA).
    pub fn threads_per_warp(&self) -> u32 {
        self.lx.target.warp_size()
    }

    /// Limits every thread to `regs` registers (NVIDIA, 24 to 255; ptxas's `.maxnreg`), so more
    /// CTAs fit on an SM: ptxas spills what does not fit. What Triton's `maxnreg` option does.
    /// Call it before [`warp_roles`](Self::warp_roles), whose budgets start from it.
    pub fn limit_registers(&mut self, regs: u32) -> Result<()> {
        const OP: &str = "limit_registers";
        if self.lx.target.vendor() != crate::codegen::target::Vendor::Nvidia {
            return Err(CodegenError::Unsupported {
                op: OP,
                target: self.lx.target.to_string(),
                reason: "a register limit is ptxas's `.maxnreg`: NVIDIA only".into(),
            });
        }
        if !(24..=255).contains(&regs) {
            return Err(CodegenError::arg(
                OP,
                format!("{regs} registers: 24 to 255"),
            ));
        }
        if self.roles_declared() {
            return Err(CodegenError::arg(
                OP,
                "after warp_roles: the roles' register budgets were made from the launch's count",
            ));
        }
        self.max_registers = Some(regs);
        self.rec.prog.max_registers = Some(regs);
        Ok(())
    }

    /// Lets the float additions, subtractions and multiplications built from now on (elementwise,
    /// and inside reductions and scans) fuse into FMAs: `a * b + c` with one rounding instead of
    /// two (Triton's `enable_fp_fusion`, on by default there). Off by default here, so results
    /// are those of the ops as written; `fma` is always one rounding.
    #[track_caller]
    pub fn allow_fp_contraction(&mut self, on: bool) {
        // Recording a setting checks nothing, so it cannot fail.
        let _ = self.record_setting(OpKind::FpContraction(on));
    }

    // ----- parameters ---------------------------------------------------------------------------

    /// A pointer parameter to global memory holding `pointee` elements. `divisibility` is the
    /// alignment in bytes the kernel may assume (16 lets 16-byte vector accesses through; 1 assumes
    /// nothing).
    pub fn arg_ptr(&mut self, name: &str, pointee: DType, divisibility: u64) -> Result<Value> {
        self.add_param(name, Type::Ptr(pointee, AddrSpace::Global), divisibility)
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

    /// A TMA tensor map parameter (a `CUtensorMap` passed by value, read in place as a grid
    /// constant) for tiles of `dtype` in boxes of `box_dims` (outermost first) swizzled over
    /// `swizzle` bytes. The signature records all three, so a launch with a map encoded
    /// differently is an error; [`tma_load`](Self::tma_load) checks its destination against them.
    pub fn arg_tensor_map(
        &mut self,
        name: &str,
        dtype: DType,
        box_dims: &[u32],
        swizzle: u16,
    ) -> Result<Value> {
        let spec = crate::signature::TensorMapSpec::new(elem_type(dtype), box_dims, swizzle)
            .map_err(|reason| CodegenError::BadParameter {
                name: name.to_string(),
                reason,
            })?;
        self.lx
            .target
            .require(crate::target::Feature::Tma, "arg_tensor_map")?;
        let v = self.add_param_of(
            name,
            Type::Scalar(dtype),
            ParamType::TensorMap(Some(spec)),
            1,
        )?;
        self.lx.values.update(v, |d| d.kind = ValueKind::TensorMap);
        self.note_type(v)?;
        Ok(v)
    }

    /// What a tensor-map parameter was declared with.
    pub(crate) fn tensor_map_spec(&self, v: Value) -> Option<crate::signature::TensorMapSpec> {
        let i = self.lx.param_values.iter().position(|p| *p == v)?;
        match self.lx.params[i].ty {
            ParamType::TensorMap(spec) => spec,
            _ => None,
        }
    }

    fn add_param(&mut self, name: &str, value_ty: Type, divisibility: u64) -> Result<Value> {
        self.add_param_of(name, value_ty, param_type(value_ty), divisibility)
    }

    fn add_param_of(
        &mut self,
        name: &str,
        value_ty: Type,
        ty: ParamType,
        divisibility: u64,
    ) -> Result<Value> {
        let reject = |reason: &str| CodegenError::BadParameter {
            name: name.to_string(),
            reason: reason.to_string(),
        };
        // The first recorded op starts the body (a setting, `allow_fp_contraction`, does not).
        let body = self.rec.prog.region(self.rec.prog.body);
        let started = body
            .ops
            .iter()
            .any(|id| !matches!(self.rec.prog.op(*id).kind, OpKind::FpContraction(_)));
        if started {
            return Err(reject(
                "parameters must be declared before the first op of the body",
            ));
        }
        if self.lx.params.iter().any(|p| p.name == name) {
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
        if let Type::Ptr(d, _) = value_ty {
            if divisibility < d.mem_bytes() {
                return Err(reject(
                    "a pointer's divisibility must be at least its element size",
                ));
            }
        }
        self.lx.params.push(Param {
            name: name.to_string(),
            ty,
            divisibility,
        });
        let v = self.lx.values.push(ValueData {
            kind: ValueKind::Scalar,
            ty: value_ty,
            shape: Vec::new(),
            layout: None,
            regs: Vec::new(),
            info: AxisInfo::scalar(divisibility),
            scope: 0,
            literal: None,
            shared: None,
        });
        self.lx.param_values.push(v);
        self.record_param(name, v)?;
        Ok(v)
    }

    /// The signature so far (final once the body has started): what a launch must respect.
    pub fn signature(&self) -> KernelSignature {
        KernelSignature {
            name: self.lx.name.clone(),
            target: Some(self.lx.target),
            params: self.lx.params.clone(),
            threads_per_block: Some(self.lx.kernel_threads()),
            shared_bytes: self.smem.total() as u32,
            cluster: self.rec.prog.cluster,
        }
    }

    // ----- the arena ----------------------------------------------------------------------------

    /// Looks up an operand of `op` that must be a scalar or a register tile, checking its kernel
    /// and scope, and starts the body if needed.
    pub(crate) fn get(&mut self, op: &'static str, v: Value) -> Result<Rc<ValueData<'ctx>>> {
        self.get_kind(
            op,
            v,
            &[ValueKind::Scalar, ValueKind::Tile],
            "a scalar or a register tile",
        )
    }

    /// Looks up an operand of `op` of one of the kinds `accepts` (named by `expected`).
    pub(crate) fn get_kind(
        &mut self,
        op: &'static str,
        v: Value,
        accepts: &[ValueKind],
        expected: &'static str,
    ) -> Result<Rc<ValueData<'ctx>>> {
        self.lx.values.peek(op, v)?;
        self.start_body()?;
        let d = self.lx.values.get(op, v, accepts, expected)?;
        self.check_live(op, &d)?;
        Ok(d)
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
        self.lx.values.peek(op, v).map(|d| &**d)
    }

    // ----- program ids and constants ------------------------------------------------------------

    /// The index of this CTA along grid axis `axis` (0, 1, 2), as an `i32` scalar.
    #[track_caller]
    pub fn program_id(&mut self, axis: u32) -> Result<Value> {
        self.record_checked(OpKind::ProgramId(axis), vec![], |kb| {
            kb.grid_scalar("program_id", axis)
        })
    }

    /// The number of CTAs along grid axis `axis`, as an `i32` scalar.
    #[track_caller]
    pub fn num_programs(&mut self, axis: u32) -> Result<Value> {
        self.record_checked(OpKind::NumPrograms(axis), vec![], |kb| {
            kb.grid_scalar("num_programs", axis)
        })
    }

    /// The result of `program_id` or `num_programs` on `axis`, checked (lowered from the record).
    fn grid_scalar(&mut self, op: &'static str, axis: u32) -> Result<Value> {
        grid_axis(op, axis)?;
        Ok(self.lx.values.new_value(
            Type::Scalar(DType::I32),
            vec![],
            None,
            vec![],
            AxisInfo::scalar(1),
        ))
    }

    /// An integer scalar constant of type `dtype`. Fails if `value` does not fit.
    #[track_caller]
    pub fn const_int(&mut self, dtype: DType, value: i64) -> Result<Value> {
        self.record_checked(OpKind::Const, vec![Arg::Int(value)], |kb| {
            kb.const_int_impl(dtype, value)
        })
    }

    fn const_int_impl(&mut self, dtype: DType, value: i64) -> Result<Value> {
        self.start_body()?;
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
        let id = self.lx.values.new_value(
            Type::Scalar(dtype),
            vec![],
            None,
            vec![],
            AxisInfo::constant(value, &[]),
        );
        self.lx
            .values
            .update(id, |d| d.literal = Some(Literal::Int(value)));
        Ok(id)
    }

    /// A float scalar constant of type `dtype` (f16, bf16, f32, f64).
    #[track_caller]
    pub fn const_float(&mut self, dtype: DType, value: f64) -> Result<Value> {
        self.record_checked(OpKind::Const, vec![Arg::Float(value)], |kb| {
            kb.const_float_impl(dtype, value)
        })
    }

    fn const_float_impl(&mut self, dtype: DType, value: f64) -> Result<Value> {
        self.start_body()?;
        if !dtype.is_float() {
            return Err(CodegenError::InvalidType {
                op: "const_float",
                expected: "a float dtype (f16, bf16, f32, f64)".into(),
                value: dtype.to_string(),
            });
        }
        let mut info = AxisInfo::scalar(1);
        info.constant = None;
        let id = self
            .lx
            .values
            .new_value(Type::Scalar(dtype), vec![], None, vec![], info);
        self.lx
            .values
            .update(id, |d| d.literal = Some(Literal::Float(value)));
        Ok(id)
    }

    /// `const_int(I32, value)`.
    #[track_caller]
    pub fn i32(&mut self, value: i32) -> Result<Value> {
        self.const_int(DType::I32, value as i64)
    }

    /// `const_int(I64, value)`.
    #[track_caller]
    pub fn i64(&mut self, value: i64) -> Result<Value> {
        self.const_int(DType::I64, value)
    }

    /// `const_float(F32, value)`.
    #[track_caller]
    pub fn f32(&mut self, value: f32) -> Result<Value> {
        self.const_float(DType::F32, value as f64)
    }

    /// Promises that every element of `v` (the address, for pointers) is a multiple of
    /// `divisibility` and that runs of `contiguity` elements along the last dim step by one, like
    /// Triton's `multiple_of` / `max_contiguous`. Returns a value with those facts; wrong promises
    /// give wrong code.
    #[track_caller]
    pub fn assume(&mut self, v: Value, divisibility: u64, contiguity: u64) -> Result<Value> {
        self.record_checked(
            OpKind::Assume {
                divisibility,
                contiguity,
            },
            vec![v.into()],
            |kb| kb.assume_impl(v, divisibility, contiguity),
        )
    }

    fn assume_impl(&mut self, v: Value, divisibility: u64, contiguity: u64) -> Result<Value> {
        let mut d = ValueData::clone(&*self.get("assume", v)?);
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
        d.scope = self.lx.values.scope();
        d.literal = None;
        d.regs = Vec::new();
        Ok(self.lx.values.push(d))
    }

    /// Terminates the body, verifies the module and hands it over for emission.
    pub fn finish(mut self) -> Result<Kernel<'ctx>> {
        self.lx.usable()?;
        if self.lx.values.scope() != 0 {
            return Err(CodegenError::arg(
                "finish",
                "called inside a loop or branch body",
            ));
        }
        crate::codegen::verify::verify(&self.rec.prog)?;
        self.lower_program()?;
        // A program with no op still has its (empty) function.
        self.lx.ensure_body()?;
        self.lx
            .end_function(self.max_registers, self.rec.prog.cluster)?;
        let signature = self.signature();
        let header = KernelReport {
            kernel: self.lx.name.clone(),
            target: self.lx.target.to_string(),
            num_warps: self.lx.kernel_warps,
            warp_size: self.lx.threads_per_warp(),
            shared_bytes: self.smem.total(),
            rows: Vec::new(),
            ptxas: None,
        };
        // Debug builds (the test suites) check that the axis-info pass over the program finds
        // every fact lowering found.
        if cfg!(debug_assertions) && !self.replaying {
            let values = &self.lx.values;
            let kernel = values.kernel_id();
            axis_flow::check(&self.rec.prog, |id| {
                let v = Value {
                    kernel,
                    index: id.0,
                };
                values.peek("finish", v).ok().map(|d| Known::of_value(d))
            })?;
        }
        let report = std::mem::take(&mut self.lx.report).finish(header);
        let replaying = self.replaying;
        let kernel = Kernel::new(
            self.lx.em.module,
            self.lx.target,
            signature,
            self.lx.em.float_math,
            self.lx.em.tensor_cores,
            report,
            self.rec.prog,
        );
        // Debug builds (the test suites) check that the recorded program is the whole kernel:
        // built again from it alone, it lowers to the same LLVM IR.
        if cfg!(debug_assertions) && !replaying {
            replay::check(&kernel)?;
        }
        Ok(kernel)
    }
}

/// The signature's type of a parameter of value type `ty`. A pointer to `i1` is a pointer to bytes.
fn param_type(ty: Type) -> ParamType {
    match ty {
        Type::Ptr(d, _) => ParamType::Ptr(elem_type(d)),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A value of each kind no op makes yet, as the shared-memory, barrier and async-copy ops
    /// will.
    fn other_kind(kb: &mut KernelBuilder<'_>, kind: ValueKind) -> Value {
        kb.lx.values.push(ValueData {
            kind,
            ty: Type::Scalar(DType::F16),
            shape: vec![64],
            layout: None,
            regs: Vec::new(),
            info: AxisInfo::scalar(1),
            scope: 0,
            literal: None,
            shared: None,
        })
    }

    #[test]
    fn ops_name_themselves_and_the_value_when_given_the_wrong_kind() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4).unwrap();
        let x = kb.arg_ptr("x", DType::F16, 16).unwrap();
        for kind in [
            ValueKind::SharedDesc,
            ValueKind::Barrier,
            ValueKind::AsyncToken,
        ] {
            let v = other_kind(&mut kb, kind);
            let e = kb.add(v, 1).unwrap_err();
            assert_eq!(
                *e.cause(),
                CodegenError::WrongKind {
                    op: "add",
                    expected: "a scalar or a register tile",
                    kind: kind.describe(),
                    value: v.to_string(),
                }
            );
            assert!(kb.load(v, None, None).is_err());
            assert!(kb.store(x, v, None).is_err());
            assert!(kb.cast(v, DType::F32).is_err());
            assert!(kb.exp(v).is_err());
        }
        let v = other_kind(&mut kb, ValueKind::SharedDesc);
        assert_eq!(
            kb.mul(2, v).unwrap_err().cause().to_string(),
            format!(
                "`mul` needs a scalar or a register tile, got a shared-memory descriptor ({v})"
            )
        );
        // The kernel is still good: nothing was emitted for the rejected ops.
        kb.finish().unwrap();
    }

    #[test]
    fn the_signature_reports_the_shared_memory_total() {
        let ctx = Context::new();
        let mut kb = KernelBuilder::new(&ctx, Target::SM80, "k", 4).unwrap();
        assert_eq!(kb.signature().shared_bytes, 0);
        kb.smem.alloc("t", 1000, 16, 0).unwrap();
        kb.smem.alloc("t", 24, 128, 0).unwrap();
        assert_eq!(kb.signature().shared_bytes, 1024 + 24);
    }
}
