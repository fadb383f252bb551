//! Debugging a kernel from inside: Gluon's `device_print`, `device_assert`, `static_print` and
//! `static_assert`.
//!
//! [`device_print`](KernelBuilder::device_print) lowers to `vprintf` on NVIDIA (one call per
//! distinct element a thread holds; the line format is `codegen::ir::print_line`'s, shared with
//! the interpreter), [`device_assert`](KernelBuilder::device_assert) to `__assertfail` and a trap;
//! both are tile-IR ops the interpreter runs (`interp/debug.rs`). AMDGPU has no printf lowering
//! here ([`Feature::Printf`]). [`static_print`](KernelBuilder::static_print) and
//! [`static_assert`](KernelBuilder::static_assert) act while the kernel is built and emit nothing.

use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
pub use crate::codegen::ir::attrs::PrintFormat;
use crate::codegen::ir::{Arg, Loc, OpKind};
use crate::codegen::lower::values::Value;
use crate::codegen::target::LlvmTarget;
use crate::codegen::types::{DType, Type};
use crate::target::Feature;

/// Fails unless `text` can travel as a C string (no NUL byte).
fn check_text(op: &'static str, what: &str, text: &str) -> Result<()> {
    match text.find('\0') {
        Some(at) => Err(CodegenError::arg(
            op,
            format!("the {what} has a NUL byte at {at}, which would end it early on the GPU"),
        )),
        None => Ok(()),
    }
}

impl<'ctx> KernelBuilder<'ctx> {
    /// Prints `values` (scalars and tiles of numbers, Gluon's `device_print`) while the kernel
    /// runs, in [`PrintFormat::Decimal`] (for hex or unsigned integers use
    /// [`device_print_with`](Self::device_print_with)).
    ///
    /// An element of a tile is a line `pid (X, Y, Z) idx (I, J) PREFIX: VALUE` (indices
    /// right-aligned to their dim's width), a scalar `pid (X, Y, Z) PREFIX: VALUE`, no values
    /// `pid (X, Y, Z) PREFIX`; with several values, ` (operand K)` follows the prefix. Floats are
    /// C's `%f` (f16, bf16 and fp8 through f32), integers `%d`/`%lld`.
    ///
    /// On NVIDIA each thread calls `vprintf` once per distinct element it holds (an element
    /// several threads hold, a broadcast, prints once per holder, as in Triton); a scalar prints
    /// once per program, from its first thread (in a warp role, the role's). The driver writes
    /// the lines at the next synchronisation, and those of different threads and warps come in
    /// no promised order: compare them as a multiset. The interpreter writes the same lines to
    /// the writer of [`interp::run_with`](crate::codegen::interp::run_with) (stdout for `run`)
    /// in a fixed order: operand by operand, warp by warp, register by register, lane by lane.
    /// On AMDGPU it is [`CodegenError::Unsupported`] (weft has no printf lowering there); a
    /// pointer is an [`CodegenError::InvalidType`], a prefix with a NUL byte an
    /// [`CodegenError::InvalidArgument`].
    #[track_caller]
    pub fn device_print(&mut self, prefix: &str, values: &[Value]) -> Result<()> {
        self.device_print_with(prefix, values, PrintFormat::Decimal)
    }

    /// [`device_print`](Self::device_print) in `format`.
    #[track_caller]
    pub fn device_print_with(
        &mut self,
        prefix: &str,
        values: &[Value],
        format: PrintFormat,
    ) -> Result<()> {
        self.record_checked(
            OpKind::DevicePrint {
                prefix: prefix.to_string(),
                format,
            },
            values.iter().map(|v| Arg::from(*v)).collect(),
            |kb| kb.device_print_checked(prefix, values),
        )
    }

    /// The checks of a `device_print`; `lower/debug.rs` emits it.
    fn device_print_checked(&mut self, prefix: &str, values: &[Value]) -> Result<()> {
        const OP: &str = "device_print";
        check_text(OP, "prefix", prefix)?;
        self.target().require(Feature::Printf, OP)?;
        for &v in values {
            let d = self.get(OP, v)?;
            if d.ty.dtype().is_none() {
                return Err(CodegenError::InvalidType {
                    op: OP,
                    expected: "numbers (pointers are not printed; print their offsets)".into(),
                    value: d.describe(),
                });
            }
        }
        Ok(())
    }

    /// Checks that `cond` (an `i1` scalar or tile) holds for every element (Gluon's
    /// `device_assert`).
    ///
    /// On NVIDIA a thread holding a false element calls `__assertfail`, as CUDA's `assert` does
    /// (the driver prints `message`, the caller's `file:line`, the kernel, block and thread),
    /// and traps: the launch fails at the next synchronisation with a kernel fault naming the
    /// kernel, and the context is unusable afterwards. On AMDGPU it traps without the message.
    /// The interpreter returns [`InterpError::Assert`](crate::codegen::interp::InterpError::Assert)
    /// with the message, the line, the program and the first false element's index (row-major).
    /// A condition that is not `i1` is [`CodegenError::InvalidType`].
    #[track_caller]
    pub fn device_assert(&mut self, cond: Value, message: &str) -> Result<()> {
        self.record_checked(
            OpKind::DeviceAssert {
                message: message.to_string(),
            },
            vec![cond.into()],
            |kb| kb.device_assert_checked(cond, message),
        )
    }

    /// The checks of a `device_assert`; `lower/debug.rs` emits it.
    fn device_assert_checked(&mut self, cond: Value, message: &str) -> Result<()> {
        const OP: &str = "device_assert";
        check_text(OP, "message", message)?;
        let d = self.get(OP, cond)?;
        if d.ty != Type::Scalar(DType::I1) {
            return Err(CodegenError::InvalidType {
                op: OP,
                expected: "an i1 condition (a comparison's result)".into(),
                value: d.describe(),
            });
        }
        Ok(())
    }

    /// Prints `prefix` and the types of `values` (shapes, element types, layouts written out,
    /// shared buffers' layouts and offsets) to stdout while the kernel is built: the line of
    /// [`static_text`](Self::static_text). Emits no code and records no op.
    #[track_caller]
    pub fn static_print(&mut self, prefix: &str, values: &[Value]) -> Result<()> {
        let text = self
            .static_text(prefix, values)
            .map_err(|e| e.at(Loc::caller()))?;
        println!("{text}");
        Ok(())
    }

    /// What [`static_print`](Self::static_print) prints: `prefix: type; type; …`, each type as the
    /// tile IR prints it with its layout in place of the alias
    /// (`tensor<64x64xf32, #ttg.blocked<{…}>>`, `i32`, `!shared<…>`).
    pub fn static_text(&self, prefix: &str, values: &[Value]) -> Result<String> {
        let mut tys = Vec::with_capacity(values.len());
        for &v in values {
            self.lx.values.peek("static_print", v)?;
            let t = self.ir_type(v)?;
            tys.push(crate::codegen::ir::print::type_text(&self.rec.prog, &t));
        }
        Ok(match (prefix.is_empty(), tys.is_empty()) {
            (_, true) => prefix.to_string(),
            (true, false) => tys.join("; "),
            (false, false) => format!("{prefix}: {}", tys.join("; ")),
        })
    }

    /// Fails the build with `message` and the caller's line unless `cond` holds (a check on
    /// the kernel's configuration: shapes, tile sizes, dtypes). Emits no code.
    #[track_caller]
    pub fn static_assert(&self, cond: bool, message: &str) -> Result<()> {
        if cond {
            return Ok(());
        }
        Err(CodegenError::arg("static_assert", message.to_string()).at(Loc::caller()))
    }
}
