//! Expressions: tiles and scalars that compose with Rust's operators and method chains,
//! `(a * b + c).exp2()`, on top of the builder's explicit methods.
//!
//! Inside [`KernelBuilder::expr`] every value is an [`Expr`], a `Copy` handle; each operator
//! or method is one builder call made at once, recorded with the line that wrote it. The first
//! error stops the rest (later operations do nothing) and is what `expr` returns, naming that
//! line, so a chain needs no `?` after each step.
//!
//! ```
//! # use weft::codegen::{Context, DType, KernelBuilder, Result, Target};
//! # use weft::layout::encoding::Blocked;
//! # fn main() -> Result<()> {
//! # let ctx = Context::new();
//! let mut kb = KernelBuilder::new(&ctx, Target::SM90, "k", 4)?;
//! let x = kb.arg_ptr("x", DType::F32, 16)?;
//! let offs = kb.arange(0, 512, Blocked::new(&[4], &[32], &[4], &[0]))?;
//! let p = kb.add(x, offs)?;
//! let v = kb.load(p, None, None)?;
//! // silu(2v + 1), then its maximum: one line instead of seven `let`s.
//! let m = kb.expr(|e| {
//!     let t = e.of(v) * 2.0 + 1.0;
//!     (t / ((-t).exp() + 1.0)).max_over(0)
//! })?;
//! # let _ = m; Ok(()) }
//! ```

use std::cell::RefCell;
use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Rem, Sub};

use crate::codegen::builder::KernelBuilder;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::ir::attrs::ReduceOp;
use crate::codegen::lower::values::Value;
use crate::codegen::types::DType;
use crate::codegen::{IntoOperand, Operand};

/// The builder while an expression is built, and the first error met.
pub struct Exprs<'b, 'ctx> {
    kb: RefCell<&'b mut KernelBuilder<'ctx>>,
    error: RefCell<Option<CodegenError>>,
}

/// A value inside [`KernelBuilder::expr`]: a tile or scalar, or nothing after an error.
#[derive(Clone, Copy)]
pub struct Expr<'e, 'b, 'ctx> {
    ex: &'e Exprs<'b, 'ctx>,
    v: Option<Value>,
}

impl std::fmt::Debug for Expr<'_, '_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Expr({:?})", self.v)
    }
}

impl<'ctx> KernelBuilder<'ctx> {
    /// Builds the expression `f` returns (see [`Expr`]) and returns its value, or the first
    /// error any of its operations met (with that operation's line).
    pub fn expr<'b>(
        &'b mut self,
        f: impl for<'e> FnOnce(&'e Exprs<'b, 'ctx>) -> Expr<'e, 'b, 'ctx>,
    ) -> Result<Value> {
        let ex = Exprs {
            kb: RefCell::new(self),
            error: RefCell::new(None),
        };
        let out = f(&ex).v;
        match (ex.error.into_inner(), out) {
            (Some(e), _) => Err(e),
            (None, Some(v)) => Ok(v),
            (None, None) => Err(CodegenError::arg(
                "expr",
                "the expression has no value".to_string(),
            )),
        }
    }
}

impl<'b, 'ctx> Exprs<'b, 'ctx> {
    /// `v` as an expression.
    pub fn of<'e>(&'e self, v: Value) -> Expr<'e, 'b, 'ctx> {
        Expr {
            ex: self,
            v: Some(v),
        }
    }

    /// The builder's result as an expression, keeping the first error.
    fn keep<'e>(&'e self, r: Result<Value>) -> Expr<'e, 'b, 'ctx> {
        let v = match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.error.borrow_mut().get_or_insert(e);
                None
            }
        };
        Expr { ex: self, v }
    }

    /// Nothing: an operand was lost to an earlier error.
    fn none<'e>(&'e self) -> Expr<'e, 'b, 'ctx> {
        Expr { ex: self, v: None }
    }
}

/// What an operator takes besides an expression: another expression or a literal.
pub trait ExprOperand {
    /// The operand, or `None` when it is an expression lost to an earlier error.
    fn operand(self) -> Option<Operand>;
}

impl ExprOperand for Expr<'_, '_, '_> {
    fn operand(self) -> Option<Operand> {
        self.v.map(Operand::Value)
    }
}

macro_rules! literal_operand {
    ($($t:ty),*) => {$(
        impl ExprOperand for $t {
            fn operand(self) -> Option<Operand> { Some(self.into_operand()) }
        }
    )*};
}
literal_operand!(f32, f64, i32, i64);

macro_rules! binary {
    ($($tr:ident $method:ident => $op:ident),* $(,)?) => {$(
        impl<'e, 'b, 'ctx, R: ExprOperand> $tr<R> for Expr<'e, 'b, 'ctx> {
            type Output = Expr<'e, 'b, 'ctx>;
            #[track_caller]
            fn $method(self, rhs: R) -> Self::Output {
                let (Some(a), Some(b)) = (self.v, rhs.operand()) else {
                    return self.ex.none();
                };
                let r = self.ex.kb.borrow_mut().$op(a, b);
                self.ex.keep(r)
            }
        }
        binary!(@lit $tr $method => $op; f32, f64, i32, i64);
    )*};
    (@lit $tr:ident $method:ident => $op:ident; $($t:ty),*) => {$(
        impl<'e, 'b, 'ctx> $tr<Expr<'e, 'b, 'ctx>> for $t {
            type Output = Expr<'e, 'b, 'ctx>;
            #[track_caller]
            fn $method(self, rhs: Expr<'e, 'b, 'ctx>) -> Self::Output {
                let Some(b) = rhs.v else { return rhs.ex.none() };
                let r = rhs.ex.kb.borrow_mut().$op(self, b);
                rhs.ex.keep(r)
            }
        }
    )*};
}
binary!(
    Add add => add,
    Sub sub => sub,
    Mul mul => mul,
    Div div => div,
    Rem rem => rem,
    BitAnd bitand => and,
    BitOr bitor => or,
    BitXor bitxor => xor,
);

impl<'e, 'b, 'ctx> Neg for Expr<'e, 'b, 'ctx> {
    type Output = Expr<'e, 'b, 'ctx>;
    #[track_caller]
    fn neg(self) -> Self::Output {
        let Some(a) = self.v else { return self };
        let r = self.ex.kb.borrow_mut().neg(a);
        self.ex.keep(r)
    }
}

macro_rules! unary_methods {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[track_caller]
        pub fn $name(self) -> Self {
            let Some(a) = self.v else { return self };
            let r = self.ex.kb.borrow_mut().$name(a);
            self.ex.keep(r)
        }
    )*};
}

macro_rules! binary_methods {
    ($($(#[$doc:meta])* $name:ident => $op:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[track_caller]
        pub fn $name(self, other: impl ExprOperand) -> Self {
            let (Some(a), Some(b)) = (self.v, other.operand()) else {
                return self.ex.none();
            };
            let r = self.ex.kb.borrow_mut().$op(a, b);
            self.ex.keep(r)
        }
    )*};
}

impl<'e, 'b, 'ctx> Expr<'e, 'b, 'ctx> {
    /// The value, when no error came before.
    pub fn value(self) -> Option<Value> {
        self.v
    }

    unary_methods!(
        /// `e^x`.
        exp,
        /// `2^x`.
        exp2,
        /// Natural logarithm.
        log,
        /// Base-2 logarithm.
        log2,
        /// Square root.
        sqrt,
        /// `1 / √x`.
        rsqrt,
        /// Absolute value.
        abs,
        /// `1 / x`.
        reciprocal,
        /// `1 / (1 + e^-x)`.
        sigmoid,
        /// `x · sigmoid(x)`.
        silu,
        /// `x · Φ(x)` (erf form).
        gelu,
        /// GELU's tanh approximation.
        gelu_tanh,
        /// `log(1 + e^x)`, `x` itself above 20 (PyTorch's threshold).
        softplus,
    );

    binary_methods!(
        /// The smaller of the two, elementwise.
        min => min,
        /// The larger of the two, elementwise.
        max => max,
        /// `self < other` (an i1 tile).
        lt => lt,
        /// `self <= other`.
        le => le,
        /// `self > other`.
        gt => gt,
        /// `self >= other`.
        ge => ge,
        /// `self == other`.
        equal => eq,
        /// `self != other`.
        not_equal => ne,
        /// `self / other` correctly rounded (IEEE; `/` is Triton's approximate f32 division).
        div_rn => div_rn,
    );

    /// `self ? x : y` elementwise (`self` an i1 condition; Triton's `where`).
    #[track_caller]
    pub fn select(self, x: impl ExprOperand, y: impl ExprOperand) -> Self {
        let (Some(c), Some(x), Some(y)) = (self.v, x.operand(), y.operand()) else {
            return self.ex.none();
        };
        let r = self.ex.kb.borrow_mut().where_(c, x, y);
        self.ex.keep(r)
    }

    /// `self · b + c` with one rounding.
    #[track_caller]
    pub fn fma(self, b: impl ExprOperand, c: impl ExprOperand) -> Self {
        let (Some(a), Some(b), Some(c)) = (self.v, b.operand(), c.operand()) else {
            return self.ex.none();
        };
        let r = self.ex.kb.borrow_mut().fma(a, b, c);
        self.ex.keep(r)
    }

    /// The values at the pointers `self` (Triton's `tl.load(ptr)`).
    #[track_caller]
    pub fn load(self) -> Self {
        let Some(p) = self.v else { return self };
        let r = self.ex.kb.borrow_mut().load(p, None, None);
        self.ex.keep(r)
    }

    /// The values at the pointers `self` where `mask` is true, zero elsewhere.
    #[track_caller]
    pub fn load_masked(self, mask: Expr<'e, 'b, 'ctx>) -> Self {
        let (Some(p), Some(m)) = (self.v, mask.v) else {
            return self.ex.none();
        };
        let r = self.ex.kb.borrow_mut().load(p, Some(m), None);
        self.ex.keep(r)
    }

    /// Stores `value` at the pointers `self` (where `mask` is true, with one); the expression's
    /// value is `value`, so a copy is one expression: `dst.store(src.load(), None)`.
    #[track_caller]
    pub fn store(self, value: Expr<'e, 'b, 'ctx>, mask: Option<Expr<'e, 'b, 'ctx>>) -> Self {
        let (Some(p), Some(v)) = (self.v, value.v) else {
            return self.ex.none();
        };
        let m = match mask.map(|m| m.v) {
            Some(None) => return self.ex.none(),
            Some(m) => m,
            None => None,
        };
        let r = self.ex.kb.borrow_mut().store(p, v, m);
        self.ex.keep(r.map(|()| v))
    }

    /// Converted to `to`.
    #[track_caller]
    pub fn cast(self, to: DType) -> Self {
        let Some(a) = self.v else { return self };
        let r = self.ex.kb.borrow_mut().cast(a, to);
        self.ex.keep(r)
    }

    /// The reduction `op` along `axis`.
    #[track_caller]
    pub fn reduce(self, axis: usize, op: ReduceOp) -> Self {
        let Some(a) = self.v else { return self };
        let r = self.ex.kb.borrow_mut().reduce(a, axis, op);
        self.ex.keep(r)
    }

    /// The sum along `axis`.
    #[track_caller]
    pub fn sum(self, axis: usize) -> Self {
        self.reduce(axis, ReduceOp::Sum)
    }

    /// The maximum along `axis`.
    #[track_caller]
    pub fn max_over(self, axis: usize) -> Self {
        self.reduce(axis, ReduceOp::Max)
    }

    /// The minimum along `axis`.
    #[track_caller]
    pub fn min_over(self, axis: usize) -> Self {
        self.reduce(axis, ReduceOp::Min)
    }
}
