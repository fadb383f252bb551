//! Which element type two operands of different types meet at, by Triton's rules
//! (`computation_type_impl` in Triton's `semantic.py`), so that `i32 + i64`, `f16 * f32` and
//! `i32 + f16` mean what they mean in Triton and PyTorch. Compared with Triton 3.9's own results
//! for every pair in `tests/codegen_promotion_triton.rs`.
//!
//! Two deliberate differences, both listed in that test: fp8 is a storage type here (arithmetic
//! on it is refused until it is cast), and two f16 (or bf16) operands of `/` or `%` keep their
//! type (computed in f32, rounded back) where Triton returns the f32.
//!
//! The builder types an op by it and the interpreter computes by it, so it sits below both.

use crate::codegen::types::DType;

/// The type `a` and `b` (two different numeric types, neither a literal) are brought to before
/// an op; `div_or_mod` for `/` and `%`, which Triton computes in f32 for any narrower float.
/// `None` where the two do not meet (fp8, or a boolean).
pub(crate) fn computation_type(a: DType, b: DType, div_or_mod: bool) -> Option<DType> {
    use DType::*;
    let either = |t: DType| a == t || b == t;
    if a.is_fp8() || b.is_fp8() || either(I1) {
        return None;
    }
    if either(F64) {
        return Some(F64);
    }
    if div_or_mod && (a.is_float() || b.is_float()) {
        return Some(F32);
    }
    if either(F32) {
        return Some(F32);
    }
    if either(F16) {
        return Some(F16);
    }
    if either(BF16) {
        // bf16 meets only itself; an integer brings it to f32.
        return Some(if a == b { BF16 } else { F32 });
    }
    // Two integers: the wider (all of weft's are signed).
    Some(if a.bits() >= b.bits() { a } else { b })
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    #[test]
    fn the_rules_in_their_order() {
        assert_eq!(computation_type(I32, I64, false), Some(I64));
        assert_eq!(computation_type(I8, I16, true), Some(I16));
        assert_eq!(computation_type(F16, F32, false), Some(F32));
        assert_eq!(computation_type(BF16, F16, false), Some(F16));
        assert_eq!(computation_type(BF16, I32, false), Some(F32));
        assert_eq!(computation_type(I64, F16, false), Some(F16));
        assert_eq!(computation_type(I64, F16, true), Some(F32));
        assert_eq!(computation_type(F32, F64, true), Some(F64));
        assert_eq!(computation_type(F8E4M3, F16, false), None);
        assert_eq!(computation_type(I1, I32, false), None);
    }
}
