//! A kernel's parameters declared in one call, as a Gluon kernel's signature line declares
//! them: `kb.args([ptr("x", F32, 16), ptr("y", F32, 16), i64("n", 16)])?` is three `arg_*`
//! calls, in order, returning the three values.
//!
//! The constructors are free functions named after the parameter's type (as `nom` names its
//! number parsers), so a signature reads as a list of typed names:
//!
//! ```
//! # use weft::codegen::{Context, DType::F32, KernelBuilder, Result, Target};
//! use weft::codegen::args::{i64, ptr};
//! # fn main() -> Result<()> {
//! # let ctx = Context::new();
//! let mut kb = KernelBuilder::new(&ctx, Target::SM90, "copy", 4)?;
//! let [src, dst, n] = kb.args([ptr("src", F32, 16), ptr("dst", F32, 16), i64("n", 1)])?;
//! assert_eq!(kb.signature().params.len(), 3);
//! # let _ = (src, dst, n); Ok(()) }
//! ```

use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::values::Value;
use crate::codegen::types::DType;

/// One parameter of [`KernelBuilder::args`]: its name, type and assumed divisibility.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgSpec {
    name: String,
    kind: ArgKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ArgKind {
    Ptr { pointee: DType, divisibility: u64 },
    I32 { divisibility: u64 },
    I64 { divisibility: u64 },
    F32,
}

/// A pointer to global `pointee` elements, aligned to `divisibility` bytes
/// ([`KernelBuilder::arg_ptr`]).
pub fn ptr(name: &str, pointee: DType, divisibility: u64) -> ArgSpec {
    spec(
        name,
        ArgKind::Ptr {
            pointee,
            divisibility,
        },
    )
}

/// An `i32` that is a multiple of `divisibility` ([`KernelBuilder::arg_i32`]).
pub fn i32(name: &str, divisibility: u64) -> ArgSpec {
    spec(name, ArgKind::I32 { divisibility })
}

/// An `i64` that is a multiple of `divisibility` ([`KernelBuilder::arg_i64`]).
pub fn i64(name: &str, divisibility: u64) -> ArgSpec {
    spec(name, ArgKind::I64 { divisibility })
}

/// An `f32` ([`KernelBuilder::arg_f32`]).
pub fn f32(name: &str) -> ArgSpec {
    spec(name, ArgKind::F32)
}

fn spec(name: &str, kind: ArgKind) -> ArgSpec {
    ArgSpec {
        name: name.to_string(),
        kind,
    }
}

impl KernelBuilder<'_> {
    /// Declares `specs` in order (each as its `arg_*` method does, with the same errors) and
    /// returns their values in the same order.
    #[track_caller]
    pub fn args<const N: usize>(&mut self, specs: [ArgSpec; N]) -> Result<[Value; N]> {
        let mut out = Vec::with_capacity(N);
        for s in &specs {
            out.push(match s.kind {
                ArgKind::Ptr {
                    pointee,
                    divisibility,
                } => self.arg_ptr(&s.name, pointee, divisibility)?,
                ArgKind::I32 { divisibility } => self.arg_i32(&s.name, divisibility)?,
                ArgKind::I64 { divisibility } => self.arg_i64(&s.name, divisibility)?,
                ArgKind::F32 => self.arg_f32(&s.name)?,
            });
        }
        // N values were pushed, so the conversion cannot fail; the error keeps it typed.
        out.try_into()
            .map_err(|_| CodegenError::arg("args", "lost a parameter"))
    }
}
