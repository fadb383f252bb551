//! Values: `Copy` handles into an arena owned by the lowering context, and the scopes (loop and
//! branch bodies) they live in.
//!
//! A value is a scalar (rank 0: one LLVM value, the same in every thread) or a register tile: a
//! shape, an element type, a distributed layout and one LLVM value per register of that layout.
//! Its [`ValueKind`] also leaves room for what shared memory, barriers and asynchronous copies
//! will produce. A handle carries the id of the kernel that made it, so passing it to another
//! kernel is an error rather than a wrong program.

use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use inkwell::values::BasicValueEnum;

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::analysis::tile_layout::TileLayout;
use crate::codegen::error::{CodegenError, Result};

pub(crate) use crate::codegen::ir::SharedBuf;
use crate::codegen::types::Type;

/// A handle to a scalar or tile built by a [`KernelBuilder`](crate::codegen::KernelBuilder). Cheap to copy;
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

/// What a value is. Only scalars and register tiles are made today; every op checks the kinds
/// it takes ([`Values::get`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum ValueKind {
    /// One LLVM value, the same in every thread.
    Scalar,
    /// A tile distributed over registers, lanes and warps.
    Tile,
    /// A buffer in shared memory (an allocation and its layout).
    SharedDesc,
    /// mbarriers in shared memory (an array; `regs[0]` is the first one's byte offset).
    Barrier,
    /// A TMA tensor map parameter (its address in the parameter space).
    TensorMap,
    /// A token for an asynchronous copy group (cp.async, TMA) to wait on.
    AsyncToken,
}

impl ValueKind {
    /// `a scalar`, `a register tile`, … for error messages.
    pub fn describe(self) -> &'static str {
        match self {
            ValueKind::Scalar => "a scalar",
            ValueKind::Tile => "a register tile",
            ValueKind::SharedDesc => "a shared-memory descriptor",
            ValueKind::Barrier => "a barrier",
            ValueKind::TensorMap => "a tensor map",
            ValueKind::AsyncToken => "an async token",
        }
    }
}

/// What the arena stores for a value.
#[derive(Debug, Clone)]
pub(crate) struct ValueData<'ctx> {
    /// What the value is.
    pub kind: ValueKind,
    /// Element type.
    pub ty: Type,
    /// Tile shape; empty for a scalar.
    pub shape: Vec<u64>,
    /// The layout of a tile; `None` for a scalar.
    pub layout: Option<Arc<TileLayout>>,
    /// One LLVM value per register (one for a scalar). Empty for a parameter before the
    /// kernel body starts.
    pub regs: Vec<BasicValueEnum<'ctx>>,
    /// Known contiguity, divisibility and constancy.
    pub info: AxisInfo,
    /// The scope (loop or branch body) the value was made in.
    pub scope: u32,
    /// A compile-time literal, if the value is one.
    pub literal: Option<Literal>,
    /// The buffer of a shared-memory descriptor.
    pub shared: Option<Arc<SharedBuf>>,
}

impl ValueData<'_> {
    /// Whether this is a scalar.
    pub fn is_scalar(&self) -> bool {
        self.layout.is_none()
    }

    /// The integer a scalar is known to be when built: a literal, or a register LLVM folded to
    /// a constant (what constant indices are checked with).
    pub fn known_int(&self) -> Option<i64> {
        match self.literal {
            Some(Literal::Int(c)) => Some(c),
            // What the axis facts know (a sum of constants folded when recorded), else a
            // register LLVM folded to a constant.
            _ => self.info.constant.filter(|_| self.is_scalar()).or_else(|| {
                self.regs
                    .first()
                    .filter(|r| r.is_int_value())
                    .and_then(|r| r.into_int_value().get_sign_extended_constant())
            }),
        }
    }

    /// `scalar<i32>` or `tensor<64x32xf32, {register: …}>`, for error messages.
    pub fn describe(&self) -> String {
        match (self.kind, &self.layout) {
            (ValueKind::Scalar | ValueKind::Tile, None) => format!("scalar<{}>", self.ty),
            (ValueKind::Scalar | ValueKind::Tile, Some(l)) => {
                let dims: Vec<String> = self.shape.iter().map(|s| s.to_string()).collect();
                format!("tensor<{}x{}, {}>", dims.join("x"), self.ty, l)
            }
            (ValueKind::SharedDesc, _) => {
                let dims: Vec<String> = self.shape.iter().map(|s| s.to_string()).collect();
                let name = self.shared.as_ref().map_or("", |b| b.name.as_str());
                format!("shared<{}x{}, {name}>", dims.join("x"), self.ty)
            }
            (kind, _) => format!("{}<{}>", kind.describe().trim_start_matches("a "), self.ty),
        }
    }
}

/// The value arena and the scopes of one kernel. Values are stored behind an `Rc`, so an op
/// looks its operands up without copying their registers.
#[derive(Debug)]
pub(crate) struct Values<'ctx> {
    /// The id of the kernel the handles belong to.
    kernel: u32,
    data: Vec<Rc<ValueData<'ctx>>>,
    /// Scope ids: `open[s]` is false once the loop or branch body `s` has ended.
    open: Vec<bool>,
    /// The innermost open scope.
    scope: u32,
    /// Set when a loop or branch body failed half-way: the IR is incomplete.
    pub poisoned: bool,
}

impl<'ctx> Values<'ctx> {
    /// An empty arena for kernel `kernel`, in its top scope.
    pub fn new(kernel: u32) -> Values<'ctx> {
        Values {
            kernel,
            data: Vec::new(),
            open: vec![true],
            scope: 0,
            poisoned: false,
        }
    }

    /// The id of the kernel the handles belong to.
    pub fn kernel_id(&self) -> u32 {
        self.kernel
    }

    /// The number of values made so far.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Stores `data` as it is (its scope included).
    pub fn push(&mut self, data: ValueData<'ctx>) -> Value {
        self.data.push(Rc::new(data));
        Value {
            kernel: self.kernel,
            index: (self.data.len() - 1) as u32,
        }
    }

    /// A new scalar or register tile (by `layout`) in the current scope.
    pub fn new_value(
        &mut self,
        ty: Type,
        shape: Vec<u64>,
        layout: Option<Arc<TileLayout>>,
        regs: Vec<BasicValueEnum<'ctx>>,
        info: AxisInfo,
    ) -> Value {
        let kind = if layout.is_some() {
            ValueKind::Tile
        } else {
            ValueKind::Scalar
        };
        let scope = self.scope;
        self.push(ValueData {
            kind,
            ty,
            shape,
            layout,
            regs,
            info,
            scope,
            literal: None,
            shared: None,
        })
    }

    /// Changes a value in place (a parameter's registers, a constant's literal, a loop
    /// variable's scope).
    pub fn update(&mut self, v: Value, f: impl FnOnce(&mut ValueData<'ctx>)) {
        f(Rc::make_mut(&mut self.data[v.index as usize]))
    }

    /// Looks a handle up, checking only that it belongs to this kernel.
    pub fn peek(&self, op: &'static str, v: Value) -> Result<&Rc<ValueData<'ctx>>> {
        let foreign = || CodegenError::ForeignValue {
            op,
            value: v.to_string(),
            owner: v.kernel,
            this: self.kernel,
        };
        if v.kernel != self.kernel {
            return Err(foreign());
        }
        self.data.get(v.index as usize).ok_or_else(foreign)
    }

    /// Looks a handle up for `op`, checking its kernel, its scope and its kind: one of
    /// `accepts`, which `expected` names (`a scalar or a register tile`).
    pub fn get(
        &self,
        op: &'static str,
        v: Value,
        accepts: &[ValueKind],
        expected: &'static str,
    ) -> Result<Rc<ValueData<'ctx>>> {
        let data = self.peek(op, v)?;
        if !self.open[data.scope as usize] {
            return Err(CodegenError::OutOfScope {
                op,
                value: v.to_string(),
            });
        }
        if !accepts.contains(&data.kind) {
            return Err(CodegenError::WrongKind {
                op,
                expected,
                kind: data.kind.describe(),
                value: v.to_string(),
            });
        }
        Ok(data.clone())
    }

    /// The innermost open scope.
    pub fn scope(&self) -> u32 {
        self.scope
    }

    /// Opens a scope; returns its id and the enclosing one.
    pub fn open_scope(&mut self) -> (u32, u32) {
        self.open.push(true);
        let id = (self.open.len() - 1) as u32;
        let outer = self.scope;
        self.scope = id;
        (id, outer)
    }

    /// Whether scope `id` is still open (it has not ended).
    pub fn is_open(&self, id: u32) -> bool {
        self.open.get(id as usize).copied().unwrap_or(false)
    }

    /// Closes scope `id`, returning to `outer`: its values can no longer be used.
    pub fn close_scope(&mut self, id: u32, outer: u32) {
        self.open[id as usize] = false;
        self.scope = outer;
    }
}
