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

/// An fp8 e4m3 value (OCP `E4M3FN`: 4 exponent bits with bias 7, 3 mantissa bits, no infinities,
/// NaN = `0x7F`/`0xFF`), as its byte. Conversions round to nearest even and saturate at ±448.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct F8E4M3(pub u8);

/// An fp8 e5m2 value (5 exponent bits with bias 15, 2 mantissa bits), as its byte. Conversions
/// round to nearest even and saturate at ±57344.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct F8E5M2(pub u8);

/// The fp8 format of `mbits` mantissa bits, exponent bias `bias` and largest finite `max`.
#[derive(Clone, Copy)]
struct Fp8 {
    mbits: i32,
    bias: i32,
    max: f32,
}

const E4M3: Fp8 = Fp8 {
    mbits: 3,
    bias: 7,
    max: 448.0,
};
const E5M2: Fp8 = Fp8 {
    mbits: 2,
    bias: 15,
    max: 57344.0,
};

impl Fp8 {
    fn decode(self, b: u8) -> f32 {
        let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
        let e = i32::from((b & 0x7F) >> self.mbits);
        let m = f32::from(b & ((1 << self.mbits) - 1)) / (1 << self.mbits) as f32;
        let top = (1 << (7 - self.mbits)) - 1;
        if self.mbits == 3 && (b & 0x7F) == 0x7F || self.mbits == 2 && e == top && m != 0.0 {
            return f32::NAN;
        }
        if self.mbits == 2 && e == top {
            return sign * f32::INFINITY;
        }
        sign * if e == 0 {
            m * 2f32.powi(1 - self.bias)
        } else {
            (1.0 + m) * 2f32.powi(e - self.bias)
        }
    }

    fn encode(self, x: f32) -> u8 {
        if x.is_nan() {
            return 0x7F;
        }
        let sign = if x.is_sign_negative() { 0x80 } else { 0 };
        let a = x.abs().min(self.max);
        if a == 0.0 {
            return sign;
        }
        let min_e = 1 - self.bias;
        let e = (a.log2().floor() as i32).max(min_e);
        let q = a / 2f32.powi(e - self.mbits);
        let mut r = q.round_ties_even() as i32;
        let mut e = e;
        if r >= 2 << self.mbits {
            r /= 2;
            e += 1;
        }
        let code = if r < (1 << self.mbits) {
            r // subnormal (e == min_e)
        } else {
            ((e + self.bias) << self.mbits) | (r - (1 << self.mbits))
        };
        sign | code as u8
    }
}

impl F8E4M3 {
    /// The nearest e4m3 value (ties to even, saturating).
    pub fn from_f32(x: f32) -> F8E4M3 {
        F8E4M3(E4M3.encode(x))
    }
    /// The value as f32 (exact).
    pub fn to_f32(self) -> f32 {
        E4M3.decode(self.0)
    }
}

impl F8E5M2 {
    /// The nearest e5m2 value (ties to even, saturating).
    pub fn from_f32(x: f32) -> F8E5M2 {
        F8E5M2(E5M2.encode(x))
    }
    /// The value as f32 (exact).
    pub fn to_f32(self) -> f32 {
        E5M2.decode(self.0)
    }
}

// SAFETY: one byte, `repr(transparent)`, every bit pattern a value (NaNs included).
unsafe impl DeviceElem for F8E4M3 {
    const ELEM: ElemType = ElemType::F8E4M3;
}
// SAFETY: as for `F8E4M3`.
unsafe impl DeviceElem for F8E5M2 {
    const ELEM: ElemType = ElemType::F8E5M2;
}

#[cfg(test)]
mod tests {
    #[test]
    fn fp8_round_trips_every_finite_code_and_rounds_to_nearest() {
        for b in 0..=255u8 {
            for (name, f) in [("e4m3", super::E4M3), ("e5m2", super::E5M2)] {
                let v = f.decode(b);
                if v.is_finite() {
                    let back = f.encode(v);
                    // ±0 both decode to 0; compare values.
                    assert_eq!(f.decode(back), v, "{name} code {b:#x}");
                }
            }
        }
        assert_eq!(super::F8E4M3::from_f32(1000.0).to_f32(), 448.0);
        assert_eq!(
            super::F8E4M3::from_f32(1.0 + 1.0 / 16.0).to_f32(),
            1.0,
            "a tie rounds to even"
        );
        assert_eq!(
            super::F8E4M3::from_f32(1.0 + 3.0 / 16.0).to_f32(),
            1.25,
            "a tie rounds to even"
        );
        assert_eq!(super::F8E5M2::from_f32(-3.0).to_f32(), -3.0);
        assert_eq!(
            super::F8E4M3::from_f32(2f32.powi(-9)).0,
            1,
            "the smallest subnormal"
        );
    }

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
        check::<F8E4M3>();
        check::<F8E5M2>();
        assert_eq!(f16::ELEM, ElemType::F16);
        assert_eq!(bf16::ELEM, ElemType::BF16);
    }
}
