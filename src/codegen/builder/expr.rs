//! Expressions: tiles and scalars that compose with Rust's operators and method chains,
//! `(a * b + c).exp2()`, on top of the builder's explicit methods.
//!
//! Inside [`KernelBuilder::expr`] every value is an [`Expr`], a `Copy` handle; each operator
//! or method is one builder call made at once, recorded with the line that wrote it. A
//! [`Value`] built outside combines with an `Expr` on either side (`e.of(a) * b`, `p + i`). The first
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
use crate::codegen::ir::Loc;
use crate::codegen::lower::values::Value;
use crate::codegen::types::DType;
use crate::codegen::{IntoLayout, IntoOperand, Operand};

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

    /// `for i in (lo..hi).step_by(step)` whose body is one expression of the induction
    /// variable `i` ([`for_each`](Self::for_each) with [`expr`](Self::expr) inside): a scalar
    /// copy is `kb.for_each_expr(lo, hi, 1, |i| (y + i).store((x + i).load()))`.
    #[track_caller]
    pub fn for_each_expr(
        &mut self,
        lo: impl IntoOperand,
        hi: impl IntoOperand,
        step: u32,
        mut body: impl for<'e, 'b> FnMut(Expr<'e, 'b, 'ctx>) -> Expr<'e, 'b, 'ctx>,
    ) -> Result<()> {
        self.for_each(lo, hi, step, |kb, i| kb.expr(|e| body(e.of(i))))
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

    /// This CTA's index along grid axis `axis` (an `i32` scalar; [`KernelBuilder::program_id`]).
    #[track_caller]
    pub fn program_id<'e>(&'e self, axis: u32) -> Expr<'e, 'b, 'ctx> {
        let r = self.kb.borrow_mut().program_id(axis);
        self.keep(r)
    }

    /// The number of CTAs along grid axis `axis` ([`KernelBuilder::num_programs`]).
    #[track_caller]
    pub fn num_programs<'e>(&'e self, axis: u32) -> Expr<'e, 'b, 'ctx> {
        let r = self.kb.borrow_mut().num_programs(axis);
        self.keep(r)
    }

    /// `x` as a value for an op that takes no literal (a store's value, a mask): a literal is
    /// the error `op` reports.
    #[track_caller]
    fn value_operand(&self, op: &'static str, x: impl ExprOperand) -> Option<Value> {
        let lit = match x.operand()? {
            Operand::Value(v) => return Some(v),
            Operand::Int(i) => i.to_string(),
            Operand::Float(f) => f.to_string(),
        };
        let e = CodegenError::arg(
            op,
            format!("the literal {lit} here needs a tile or scalar: build one of it first"),
        )
        .at(Loc::from(std::panic::Location::caller()));
        self.error.borrow_mut().get_or_insert(e);
        None
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

/// A value built outside the expression: `e.of(x) * n` needs no `e.of(n)`.
impl ExprOperand for Value {
    fn operand(self) -> Option<Operand> {
        Some(Operand::Value(self))
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
        binary!(@lit $tr $method => $op; f32, f64, i32, i64, Value);
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

    /// The values at the pointers `self` where `mask` (an expression or a value) is true, zero
    /// elsewhere.
    #[track_caller]
    pub fn load_masked(self, mask: impl ExprOperand) -> Self {
        let (Some(p), Some(m)) = (self.v, self.ex.value_operand("load", mask)) else {
            return self.ex.none();
        };
        let r = self.ex.kb.borrow_mut().load(p, Some(m), None);
        self.ex.keep(r)
    }

    /// Stores `value` (an expression or a value) at the pointers `self`; the expression's value
    /// is `value`, so a copy is one expression: `dst.store(src.load())`.
    #[track_caller]
    pub fn store(self, value: impl ExprOperand) -> Self {
        self.store_where(value, None)
    }

    /// Stores `value` at the pointers `self` where `mask` is true (Triton's
    /// `tl.store(ptr, value, mask=mask)`); the expression's value is `value`.
    #[track_caller]
    pub fn store_masked(self, value: impl ExprOperand, mask: impl ExprOperand) -> Self {
        let Some(m) = self.ex.value_operand("store", mask) else {
            return self.ex.none();
        };
        self.store_where(value, Some(m))
    }

    #[track_caller]
    fn store_where(self, value: impl ExprOperand, mask: Option<Value>) -> Self {
        let (Some(p), Some(v)) = (self.v, self.ex.value_operand("store", value)) else {
            return self.ex.none();
        };
        let r = self.ex.kb.borrow_mut().store(p, v, mask);
        self.ex.keep(r.map(|()| v))
    }

    /// The tile in `layout` ([`KernelBuilder::convert_layout`]).
    #[track_caller]
    pub fn convert_layout(self, layout: impl IntoLayout) -> Self {
        let Some(a) = self.v else { return self };
        let r = self.ex.kb.borrow_mut().convert_layout(a, layout);
        self.ex.keep(r)
    }

    /// Converted to `to`.
    #[track_caller]
    pub fn cast(self, to: DType) -> Self {
        let Some(a) = self.v else { return self };
        let r = self.ex.kb.borrow_mut().cast(a, to);
        self.ex.keep(r)
    }

    /// Its bits read as `to` ([`KernelBuilder::bitcast`]).
    #[track_caller]
    pub fn bitcast(self, to: DType) -> Self {
        let Some(a) = self.v else { return self };
        let r = self.ex.kb.borrow_mut().bitcast(a, to);
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
