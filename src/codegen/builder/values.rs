//! Values: `Copy` handles into an arena owned by the kernel builder.
//!
//! A value is a scalar (rank 0: one LLVM value, the same in every thread) or a tile: a shape, an
//! element type, a distributed layout and one LLVM value per register of that layout. A handle
//! carries the id of the kernel that made it, so passing it to another kernel is an error rather
//! than a wrong program.

use std::fmt;
use std::rc::Rc;

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::types::Type;

/// A handle to a scalar or tile built by a [`KernelBuilder`](super::KernelBuilder). Cheap to copy;
/// valid only in the kernel (and the loop or branch body, while it is open) that made it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Value {
    pub(crate) kernel: u32,
    pub(crate) index: u32,
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}@k{}", self.index, self.kernel)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A literal the value was made from, so that `x * 2.0` can re-make `2.0` in `x`'s type (as a
/// Python literal adapts in Triton).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Literal {
    Int(i64),
    Float(f64),
}

/// What the arena stores for a value.
#[derive(Debug, Clone)]
pub(crate) struct ValueData<'ctx> {
    /// Element type.
    pub ty: Type,
    /// Tile shape; empty for a scalar.
    pub shape: Vec<u64>,
    /// The layout of a tile; `None` for a scalar.
    pub layout: Option<Rc<TileLayout>>,
    /// One LLVM value per register (one for a scalar). Empty for a parameter before the
    /// kernel body starts.
    pub regs: Vec<BasicValueEnum<'ctx>>,
    /// Known contiguity, divisibility and constancy.
    pub info: AxisInfo,
    /// The scope (loop or branch body) the value was made in.
    pub scope: u32,
    /// A compile-time literal, if the value is one.
    pub literal: Option<Literal>,
}

impl ValueData<'_> {
    /// Whether this is a scalar.
    pub fn is_scalar(&self) -> bool {
        self.layout.is_none()
    }

    /// `scalar<i32>` or `tensor<64x32xf32, {register: …}>`, for error messages.
    pub fn describe(&self) -> String {
        match &self.layout {
            None => format!("scalar<{}>", self.ty),
            Some(l) => {
                let dims: Vec<String> = self.shape.iter().map(|s| s.to_string()).collect();
                format!("tensor<{}x{}, {}>", dims.join("x"), self.ty, l)
            }
        }
    }
}
