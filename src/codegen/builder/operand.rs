//! What elementwise ops take as an operand: a value built earlier, or a Rust literal that takes
//! the other operand's type.

use crate::codegen::lower::values::Value;

/// An operand of an elementwise op: a value, or a Rust literal that takes the other operand's type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operand {
    /// A value built earlier.
    Value(Value),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
}

/// Anything that can be an [`Operand`]: a [`Value`], an integer or a float.
pub trait IntoOperand {
    /// The operand.
    fn into_operand(self) -> Operand;
}

impl IntoOperand for Value {
    fn into_operand(self) -> Operand {
        Operand::Value(self)
    }
}
impl IntoOperand for Operand {
    fn into_operand(self) -> Operand {
        self
    }
}
macro_rules! int_operand {
    ($($t:ty),*) => {$(
        impl IntoOperand for $t {
            fn into_operand(self) -> Operand { Operand::Int(self as i64) }
        }
    )*};
}
int_operand!(i8, i16, i32, i64, u8, u16, u32);
impl IntoOperand for f32 {
    fn into_operand(self) -> Operand {
        Operand::Float(self as f64)
    }
}
impl IntoOperand for f64 {
    fn into_operand(self) -> Operand {
        Operand::Float(self)
    }
}
