//! How the operands of an elementwise op reach it, decided from their types alone (Triton's
//! rules): a Rust literal (or a constant) takes the other operand's type, an integer meeting a
//! float literal becomes f32, and two number types meet where `promotion` brings them.
//!
//! The builder checks an op with the feeds (and makes its result's type from them); lowering
//! derives the same feeds from the recorded op and emits the casts and constants they name.

use crate::codegen::analysis::axis_info::AxisInfo;
use crate::codegen::error::{CodegenError, Result};
use crate::codegen::lower::values::Literal;
use crate::codegen::promotion::computation_type;
use crate::codegen::target::{Feature, LlvmTarget, Target};
use crate::codegen::types::{DType, Type};

/// What is known of an operand before it is fed: a value's type and literal, or a Rust literal.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Given {
    /// A value of type `ty`; `literal` if it is a scalar constant made from one.
    Value { ty: Type, literal: Option<Literal> },
    /// A Rust literal.
    Lit(Literal),
}

/// How an operand reaches the op.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Feed {
    /// The value itself, or the value cast to this type first.
    Value(Option<DType>),
    /// A constant of `dtype` holding `lit` (as `const_int` / `const_float` make it).
    Const { lit: Literal, dtype: DType },
}

/// `x` as a literal of float type `ty`: an error where rounding to `ty` turns a finite, nonzero
/// literal into zero or infinity (`f16 * 1e-8` would multiply by zero), which Triton's literal
/// handling would also refuse to keep silently.
pub(crate) fn literal_in(op: &'static str, x: f64, ty: DType) -> Result<f64> {
    let rounded = match ty {
        DType::F16 => half::f16::from_f64(x).to_f64(),
        DType::BF16 => half::bf16::from_f64(x).to_f64(),
        DType::F32 => x as f32 as f64,
        _ => x,
    };
    if x.is_finite() && x != 0.0 && (rounded == 0.0 || rounded.is_infinite()) {
        return Err(CodegenError::arg(
            op,
            format!(
                "the literal {x:?} is {rounded} in {ty}: cast the other operand to a wider type, or \
                 make the constant with const_float"
            ),
        ));
    }
    Ok(x)
}

/// Whether `value` fits integer type `dtype` (`i1`: 0 or 1).
pub(crate) fn int_fits(value: i64, dtype: DType) -> bool {
    match dtype.bits() {
        1 => value == 0 || value == 1,
        64 => true,
        bits => value >= -(1i64 << (bits - 1)) && value < (1i64 << (bits - 1)),
    }
}

/// The facts of a constant made from `lit`: an integer's value is known, a float's is not tracked.
pub(crate) fn const_info(lit: Literal) -> AxisInfo {
    match lit {
        Literal::Int(i) => AxisInfo::constant(i, &[]),
        Literal::Float(_) => {
            let mut info = AxisInfo::scalar(1);
            info.constant = None;
            info
        }
    }
}

/// The facts of `x` cast from `from` to `to`: a widening integer cast keeps them all, any other
/// keeps only runs of equal values.
pub(crate) fn cast_info(x: &AxisInfo, from: DType, to: DType) -> AxisInfo {
    if from.is_int() && to.is_int() && to.bits() >= from.bits() && from != DType::I1 {
        x.clone()
    } else {
        AxisInfo::keep_constancy(x)
    }
}

/// The cast of a value of `from` to `to`, checked as `cast` checks it.
pub(crate) fn check_cast(target: Target, from: DType, to: DType) -> Result<()> {
    if from.is_fp8() || to.is_fp8() {
        target.require(Feature::Fp8, "cast to or from fp8")?;
    }
    Ok(())
}

/// The constant `lit` of type `ty`, as `const_int` / `const_float` make it (and refuse it).
pub(crate) fn literal_value(op: &'static str, lit: Literal, ty: DType) -> Result<Feed> {
    let made = match (lit, ty.is_float()) {
        (Literal::Int(i), false) => {
            if !ty.is_int() {
                return Err(CodegenError::InvalidType {
                    op: "const_int",
                    expected: "an integer dtype".into(),
                    value: ty.to_string(),
                });
            }
            if !int_fits(i, ty) {
                return Err(CodegenError::arg(
                    "const_int",
                    format!("{i} does not fit in {ty}"),
                ));
            }
            Literal::Int(i)
        }
        (Literal::Int(i), true) => Literal::Float(literal_in(op, i as f64, ty)?),
        (Literal::Float(x), true) => Literal::Float(literal_in(op, x, ty)?),
        (Literal::Float(x), false) => {
            return Err(CodegenError::TypeMismatch {
                op,
                lhs: format!("scalar<{ty}>"),
                rhs: format!("float literal {x}"),
            })
        }
    };
    Ok(Feed::Const {
        lit: made,
        dtype: ty,
    })
}

/// A literal operand made in type `like` (an `i32`/`i64` or `f32` where `like` is `None`).
pub(crate) fn literal_feed(op: &'static str, lit: Literal, like: Option<Type>) -> Result<Feed> {
    let ty = match (lit, like) {
        (Literal::Int(_), Some(Type::Scalar(d))) if !d.is_fp8() => d,
        (Literal::Int(_), Some(Type::Scalar(d))) => {
            return Err(CodegenError::InvalidType {
                op,
                expected: "a type arithmetic works on (cast fp8 first)".into(),
                value: d.to_string(),
            })
        }
        (Literal::Int(i), _) if i32::try_from(i).is_ok() => DType::I32,
        (Literal::Int(_), _) => DType::I64,
        (Literal::Float(_), Some(Type::Scalar(d))) if d.is_float() => d,
        (Literal::Float(x), Some(t)) => {
            return Err(CodegenError::TypeMismatch {
                op,
                lhs: format!("scalar<{t}>"),
                rhs: format!("float literal {x}"),
            })
        }
        (Literal::Float(_), None) => DType::F32,
    };
    literal_value(op, lit, ty)
}

/// The type an operand has once fed.
pub(crate) fn fed_type(given: Type, feed: Feed) -> Type {
    match feed {
        Feed::Value(None) => given,
        Feed::Value(Some(to)) => Type::Scalar(to),
        Feed::Const { dtype, .. } => Type::Scalar(dtype),
    }
}

/// How the two operands `a`, `b` of `op` reach it.
pub(crate) fn pair_feeds(
    op: &'static str,
    target: Target,
    a: Given,
    b: Given,
) -> Result<[Feed; 2]> {
    match (a, b) {
        (
            Given::Value {
                ty: xt,
                literal: xl,
            },
            Given::Value {
                ty: yt,
                literal: yl,
            },
        ) => {
            let (mut fx, mut fy) = (Feed::Value(None), Feed::Value(None));
            if xt != yt {
                // A constant re-made in the other operand's type, like a literal.
                if let (Some(l), Type::Scalar(d)) = (xl, yt) {
                    if let Ok(f) = literal_value(op, l, d) {
                        fx = f;
                    }
                } else if let (Some(l), Type::Scalar(d)) = (yl, xt) {
                    if let Ok(f) = literal_value(op, l, d) {
                        fy = f;
                    }
                }
            }
            // Two numeric types meet where Triton's rules bring them (`i32 + i64` is i64,
            // `f16 * f32` f32, `i32 + f16` f16; the narrower integer sign-extended).
            if let (Type::Scalar(dx), Type::Scalar(dy)) = (fed_type(xt, fx), fed_type(yt, fy)) {
                let div_or_mod = matches!(op, "div" | "div_rn" | "rem");
                if let Some(to) = (dx != dy)
                    .then(|| computation_type(dx, dy, div_or_mod))
                    .flatten()
                {
                    if dx != to {
                        check_cast(target, dx, to)?;
                        fx = Feed::Value(Some(to));
                    }
                    if dy != to {
                        check_cast(target, dy, to)?;
                        fy = Feed::Value(Some(to));
                    }
                }
            }
            Ok([fx, fy])
        }
        (Given::Value { ty, .. }, Given::Lit(lit)) => {
            let fx = float_for_literal(ty, lit);
            let fy = literal_feed(op, lit, like(fed_type(ty, fx)))?;
            Ok([fx, fy])
        }
        (Given::Lit(lit), Given::Value { ty, .. }) => {
            let fy = float_for_literal(ty, lit);
            let fx = literal_feed(op, lit, like(fed_type(ty, fy)))?;
            Ok([fx, fy])
        }
        (Given::Lit(_), Given::Lit(_)) => Err(CodegenError::arg(
            op,
            "at least one operand must be a value, not a literal",
        )),
    }
}

/// The type a literal beside a value of type `ty` is made in: the value's, unless a pointer.
fn like(ty: Type) -> Option<Type> {
    match ty.pointee() {
        Some(_) => None,
        None => Some(ty),
    }
}

/// A value of type `ty` beside literal `lit`: cast to f32 where it is an integer and `lit` a
/// float (Triton's `i32_tile * 0.5` is f32: a float literal outranks an integer).
fn float_for_literal(ty: Type, lit: Literal) -> Feed {
    match (ty, lit) {
        (Type::Scalar(t), Literal::Float(_)) if t.is_int() && t != DType::I1 => {
            Feed::Value(Some(DType::F32))
        }
        _ => Feed::Value(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(d: DType) -> Given {
        Given::Value {
            ty: Type::Scalar(d),
            literal: None,
        }
    }

    #[test]
    fn literals_take_the_other_operands_type_and_mixed_types_meet() {
        let t = Target::SM90;
        let f16_lit = pair_feeds("mul", t, value(DType::F16), Given::Lit(Literal::Float(0.5)));
        assert_eq!(
            f16_lit.unwrap(),
            [
                Feed::Value(None),
                Feed::Const {
                    lit: Literal::Float(0.5),
                    dtype: DType::F16
                }
            ]
        );
        // An integer tile times a float literal is f32.
        let i_lit = pair_feeds("mul", t, value(DType::I32), Given::Lit(Literal::Float(0.5)));
        assert_eq!(i_lit.unwrap()[0], Feed::Value(Some(DType::F32)));
        // i32 + i64 is i64; the i64 side stays.
        let mixed = pair_feeds("add", t, value(DType::I32), value(DType::I64)).unwrap();
        assert_eq!(mixed, [Feed::Value(Some(DType::I64)), Feed::Value(None)]);
        // A constant re-made in the other side's type rather than promoting it.
        let c = Given::Value {
            ty: Type::Scalar(DType::I32),
            literal: Some(Literal::Int(3)),
        };
        let remade = pair_feeds("add", t, c, value(DType::I64)).unwrap();
        assert_eq!(
            remade[0],
            Feed::Const {
                lit: Literal::Int(3),
                dtype: DType::I64
            }
        );
    }

    #[test]
    fn a_literal_that_vanishes_in_the_type_is_refused() {
        let e = pair_feeds(
            "mul",
            Target::SM90,
            value(DType::F16),
            Given::Lit(Literal::Float(1e-8)),
        )
        .unwrap_err();
        assert!(e.to_string().contains("1e-8"), "{e}");
        assert!(pair_feeds(
            "add",
            Target::SM90,
            Given::Lit(Literal::Int(1)),
            Given::Lit(Literal::Int(2))
        )
        .is_err());
    }
}
