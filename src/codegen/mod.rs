//! The tile-op builder: lowers tile ops to LLVM IR, PTX and AMDGPU code objects.
//!
//! A kernel is written by calling methods on a [`KernelBuilder`]. Each call lowers its op to LLVM
//! IR at once and returns a [`Value`]: a `Copy` handle to a scalar or to a tile (shape, element
//! type, distributed [`LinearLayout`](crate::layout::LinearLayout), one LLVM value per register).
//! Thread indices come from the layout: lane and warp ids are read once, and each register's
//! coordinate is a constant XOR of the id bits' bases. Memory ops pick the widest vector (up to
//! 16 bytes) that the layout and what is known of the pointer allow (contiguity, divisibility and
//! constancy are tracked on every value, as in Triton's axis analysis).
//!
//! Control flow is structured: [`KernelBuilder::for_range`] and [`KernelBuilder::if_`] take
//! closures, so no block is ever left unterminated. Specialisation is plain Rust: write a function
//! that builds a kernel per configuration, and unroll statically with Rust loops.
//!
//! Every op checks its operands and the target in Rust first and returns a [`CodegenError`] that
//! names both operands' shapes, types and layouts. LLVM never sees an op it cannot lower, so a bad
//! kernel cannot abort the process.
//!
//! A finished [`Kernel`] emits verified LLVM IR (as built, or after a pipeline), PTX (pinned to
//! ISA 8.0, kernels marked `ptx_kernel`), AMDGPU assembly and code objects (feature `amdgpu`,
//! linked by `ld.lld`), and a [`KernelSignature`] for the launcher. [`OptLevel`] trades LLVM's
//! effort against compile time. Ready-made kernels and the blocked/slice layout helpers are in
//! [`kernels`].
//!
//! How the builder is put together (the builder validates and records a tile IR; lowering
//! writes LLVM IR; the algebra plans), one job per part:
//!
//! - `builder/`: the [`KernelBuilder`] facade (parameters, program ids, constants, the
//!   signature, `finish`), `record.rs` (each public call appended to the tile IR),
//!   `shared_mem.rs` (the shared-memory allocator, whose total the signature carries),
//!   `roles.rs` (declared warp roles, named-barrier ids), `operand.rs`, `report_rows.rs`, and
//!   `ops/`: the tile ops, each an `impl KernelBuilder` block that checks its operands, records
//!   the op and hands the registers to lowering: `create.rs` (`arange`, `full`,
//!   `broadcast_to`), `elementwise.rs`, `cast.rs`, `shape.rs`, `math/`, `global.rs` (loads,
//!   stores, atomics), `control.rs` (loops, branches), `layout_arg.rs` (what ops take as a
//!   layout: a `LinearLayout` or a shape-free encoding); `shared.rs` (buffers, rings and
//!   views), `convert.rs`, `reduce.rs`, `scan.rs`; the machine's asynchronous half:
//!   `async_copy.rs` (`cp.async`), `mbarrier.rs`, `tma.rs`, `ldmatrix.rs`, `mma.rs`
//!   (`mma.sync`), `wgmma.rs`, `schedule.rs` (grouped tile order); `debug.rs` (device
//!   printing and assertions, build-time prints). Every tensor-core and TMA operand is checked
//!   against its layout by the algebra before any code is emitted.
//! - `ir/`: the tile IR (ops, their attributes in `attrs.rs`, types, regions, source
//!   locations) and its printer; `verify/`: the verifier and hazard checks; `interp/`: the
//!   interpreter.
//! - `passes/`: passes over the recorded program that lowering uses: `axis_flow.rs` (axis
//!   info over a region, a loop's carried facts to their fixpoint with no LLVM emitted).
//! - `analysis/`: pure planning, no inkwell: `axis_info.rs` (contiguity, divisibility,
//!   constancy), `tile_layout.rs` (a layout checked against the kernel; per-register
//!   coordinates, index plans, vector runs, copies, on `layout::gf2`), `matrix_plan.rs`
//!   (`ldmatrix`/`stmatrix` plans), `shared_offsets.rs` and `tma_boxes.rs` (a TMA copy's boxes).
//! - `lower/`: LLVM IR from the recorded ops, through a lowering context (`context.rs`) that
//!   owns the emitter (`emitter.rs`, the LLVM handles and the only raw `llvm-sys` calls), the
//!   value map (`values.rs`), index CSE (`index_cse.rs`, `index_arith.rs`), thread coordinates
//!   (`thread.rs`, `thread_coords.rs`) and the report sink, and never names the builder; one
//!   file per op family (`elementwise.rs`, `cast.rs`, `global.rs`, `shared.rs` and
//!   `shared_ops.rs`, `tma_ops.rs`, `convert.rs`, `wgmma.rs` and `wgmma_ops.rs`, `math/` with the
//!   accurate math functions, …); `function.rs` (the kernel
//!   function and its prologue) and `output.rs` (pipelines; IR, PTX, code objects).
//! - `target/`: targets and target machines (`mod.rs`), and one `Lowering` per vendor:
//!   `nvptx/` (special registers, `.approx` math, and every inline-PTX instruction: the
//!   builder `inline_ptx.rs`, predicated and cache-hinted accesses, `cp_async.rs`,
//!   `mbarrier.rs`, `tma.rs`, `ldmatrix.rs`, `mma.rs`, `wgmma.rs`, `roles.rs`) and
//!   `amdgpu.rs`. Ops never match on the vendor themselves.
//! - `kernels/`: ready-made kernels and layout helpers.
//! - `occupancy.rs`: CTAs per SM from threads, registers and shared memory, and the bytes in
//!   flight they give a memory-bound kernel.
//! - `report.rs`: what the algebra predicted for each op as it was emitted (vector widths, shared
//!   instructions and bank conflicts, conversion plans, shuffles, scratch, barriers), handed by
//!   lowering as data, each row given to its recorded op; [`Kernel::report`] reads the rows of
//!   the ops the program holds.
//! - `types.rs` (dtypes, pointer address spaces), `error.rs`.
//!
//! ```no_run
//! use weft::codegen::{Context, DType, KernelBuilder, Target};
//! use weft::codegen::kernels::blocked_1d;
//! # fn main() -> Result<(), weft::codegen::CodegenError> {
//! let ctx = Context::new();
//! let mut kb = KernelBuilder::new(&ctx, Target::SM90, "scale", 4)?;
//! let x = kb.arg_ptr("x", DType::F32, 16)?;
//! let layout = blocked_1d(Target::SM90, 4, 4, 512)?; // 4 f32 per thread
//! let pid = kb.program_id(0)?;
//! let base = kb.mul(pid, 512)?;
//! let offs = kb.arange(0, 512, &layout)?;
//! let offs = kb.add(offs, base)?;
//! let ptrs = kb.add(x, offs)?;
//! let v = kb.load(ptrs, None, None)?;
//! let v = kb.mul(v, 2.0)?;
//! kb.store(ptrs, v, None)?;
//! let kernel = kb.finish()?;
//! println!("{}", kernel.ptx()?);
//! # Ok(()) }
//! ```

//!
//! # Debugging a kernel
//!
//! As in Gluon: [`KernelBuilder::device_print`] prints scalars and tiles while the kernel runs
//! (each element a line with the program ids and its index; `vprintf` on NVIDIA, the writer of
//! [`interp::run_with`] in the interpreter), [`KernelBuilder::device_assert`] stops the kernel
//! on a false `i1` element (`__assertfail` and a trap on NVIDIA, so the launch fails at the next
//! synchronisation; [`interp::InterpError::Assert`] with the line, program and index in the
//! interpreter), and [`KernelBuilder::static_print`] / [`KernelBuilder::static_assert`] show
//! types and layouts or stop the build while it runs, emitting nothing.
//!
//! ```no_run
//! # use weft::codegen::{Context, DType, KernelBuilder, Target, kernels::blocked_1d};
//! # fn main() -> Result<(), weft::codegen::CodegenError> {
//! # let ctx = Context::new();
//! # let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4)?;
//! # let x = kb.arg_ptr("x", DType::F32, 16)?;
//! # let offs = kb.arange(0, 512, blocked_1d(Target::SM90, 4, 4, 512)?)?;
//! let ptrs = kb.add(x, offs)?;
//! let v = kb.load(ptrs, None, None)?;
//! kb.static_print("v", &[v])?; // while building: v: tensor<512xf32, #ttg.…>
//! kb.device_print("v", &[v])?; // on the GPU: pid (0, 0, 0) idx (  7) v: 0.500000
//! let small = kb.lt(v, 1e30)?;
//! kb.device_assert(small, "v must stay below 1e30")?;
//! # Ok(()) }
//! ```

mod analysis;
mod builder;
mod error;
pub mod interp;
pub mod ir;
pub mod kernels;
mod lower;
pub mod occupancy;
mod passes;
mod promotion;

pub mod report;
mod target;
pub mod tutorial;
mod types;
mod verify;

pub use crate::signature::{ElemType, KernelSignature, Param, ParamType};
pub use builder::args;
pub use builder::expr::{Expr, ExprOperand, Exprs};
pub use builder::ops::cluster::MAX_CLUSTER_CTAS;
pub use builder::ops::elementwise::{BinaryOp, CmpOp, IntoOperand, Operand, UnaryOp};
pub use builder::ops::global::{AtomicOp, CacheHint};
pub use builder::ops::layout_arg::{IntoLayout, IntoSharedLayout, Resolved, SharedResolved};
pub use builder::ops::math::{emit_accurate_math, MathOp, MathPrecision};
pub use builder::ops::reduce::ReduceOp;
pub use builder::ops::scan::ScanOp;
pub use builder::ops::warp_roles::{NamedBarriers, Role, WarpRole};
pub use builder::{Context, KernelBuilder};
pub use error::{CodegenError, Result};
pub use ir::attrs::PrintFormat;
pub use lower::values::Value;
pub use lower::{Kernel, OptLevel};
pub use report::{
    parse_ptxas_verbose, ConversionFigures, GlobalFigures, KernelReport, PtxasInfo, ReportRow,
    SharedFigures,
};
pub use target::{Feature, Target, Vendor, ALL_TARGETS, PTX_ISA};
pub use types::{AddrSpace, DType, Type};
