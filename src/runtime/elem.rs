//! Rust types that may live in device buffers.
//!
//! [`ElemType`] (in [`crate::signature`]) names an element type in a kernel signature; [`DeviceElem`]
//! ties a Rust type to its `ElemType`, so a typed buffer can be checked against a pointer parameter. `f16` and `bf16` have no
//! Rust primitive: the host types are [`half::f16`] and [`half::bf16`] (re-exported as [`f16`](struct@f16) and
//! [`bf16`]), whose conversions round to nearest even.

pub use crate::signature::ElemType;
pub use half::{bf16, f16};

/// A Rust type that can be an element of a device buffer.
///
/// # Safety
/// Implementors must be plain data: `Copy`, no padding, no pointers, and **every bit pattern must be
/// a valid value**, because buffers are filled by the device (or poisoned with arbitrary bytes) and
/// copied back bit for bit. `size_of::<Self>()` must equal `ELEM.size_bytes()`.
pub unsafe trait DeviceElem: Copy + Send + Sync + 'static {
    /// The element type a kernel signature names for this type.
    const ELEM: ElemType;
}

macro_rules! device_elem {
    ($($t:ty => $e:ident),* $(,)?) => {$(
        // SAFETY: a primitive integer or float: no padding, every bit pattern valid, size matches.
        unsafe impl DeviceElem for $t { const ELEM: ElemType = ElemType::$e; }
    )*};
}
device_elem!(f32 => F32, f64 => F64, i8 => I8, i16 => I16, i32 => I32, i64 => I64,
             u8 => U8, u16 => U16, u32 => U32, u64 => U64);

// SAFETY: `half::f16` and `half::bf16` are `#[repr(transparent)]` over `u16`: 2 bytes, no padding,
// and every bit pattern is a valid (possibly NaN) value.
unsafe impl DeviceElem for f16 {
    const ELEM: ElemType = ElemType::F16;
}
// SAFETY: as for `f16`.
unsafe impl DeviceElem for bf16 {
    const ELEM: ElemType = ElemType::BF16;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size promise of `DeviceElem`, for every implementor: a buffer of `n` elements of `T`
    /// is `n * ELEM.size_bytes()` bytes on the device.
    #[test]
    fn host_types_have_their_device_size() {
        fn check<T: DeviceElem>() {
            assert_eq!(
                std::mem::size_of::<T>(),
                T::ELEM.size_bytes(),
                "{}",
                T::ELEM
            );
        }
        check::<f32>();
        check::<f64>();
        check::<i8>();
        check::<i16>();
        check::<i32>();
        check::<i64>();
        check::<u8>();
        check::<u16>();
        check::<u32>();
        check::<u64>();
        check::<f16>();
        check::<bf16>();
        assert_eq!(f16::ELEM, ElemType::F16);
        assert_eq!(bf16::ELEM, ElemType::BF16);
    }
}
