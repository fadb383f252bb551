//! Rust types that may live in device buffers.
//!
//! [`ElemType`] (in [`crate::signature`]) names an element type in a kernel signature; [`DeviceElem`]
//! ties a Rust type to its `ElemType`, so a typed buffer can be checked against a pointer parameter. `f16` and `bf16` have no
//! Rust primitive: [`F16`] and [`Bf16`] carry their bits, with round-to-nearest-even conversions.

pub use crate::signature::ElemType;

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
             u8 => U8, u16 => U16, u32 => U32, u64 => U64, F16 => F16, Bf16 => BF16);

/// `len` all-zero-bits elements: the host side of a device-to-host copy.
#[cfg(any(feature = "cuda", feature = "hip"))]
pub(crate) fn zeroed_vec<T: DeviceElem>(len: usize) -> Vec<T> {
    // SAFETY: `DeviceElem` guarantees that every bit pattern, all zeros included, is a valid `T`.
    let zero: T = unsafe { std::mem::zeroed() };
    vec![zero; len]
}

/// An IEEE binary16 value, stored as its bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct F16(pub u16);

/// A bfloat16 value, stored as its bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Bf16(pub u16);

impl Bf16 {
    /// Rounds to nearest, ties to even; NaN stays NaN.
    pub fn from_f32(x: f32) -> Bf16 {
        let b = x.to_bits();
        if x.is_nan() {
            return Bf16(((b >> 16) as u16) | 0x0040);
        }
        let round = 0x7fff + ((b >> 16) & 1);
        Bf16((b.wrapping_add(round) >> 16) as u16)
    }

    /// Exact widening.
    pub fn to_f32(self) -> f32 {
        f32::from_bits((self.0 as u32) << 16)
    }
}

impl F16 {
    /// Rounds to nearest, ties to even; overflows to infinity, NaN stays NaN.
    pub fn from_f32(x: f32) -> F16 {
        let b = x.to_bits();
        let sign = ((b >> 16) & 0x8000) as u16;
        let exp = ((b >> 23) & 0xff) as i32;
        let man = b & 0x7f_ffff;
        if exp == 0xff {
            let nan = if man != 0 { 0x0200 } else { 0 };
            return F16(sign | 0x7c00 | nan);
        }
        let e = exp - 127 + 15;
        if e >= 0x1f {
            return F16(sign | 0x7c00);
        }
        if e <= 0 {
            // Subnormal (or zero) in f16: shift the full significand into place, round to nearest even.
            if e < -10 {
                return F16(sign);
            }
            let full = man | 0x80_0000;
            let shift = (14 - e) as u32;
            let half = 1u32 << (shift - 1);
            let rest = full & ((1u32 << shift) - 1);
            let mut v = full >> shift;
            if rest > half || (rest == half && v & 1 == 1) {
                v += 1;
            }
            return F16(sign | v as u16);
        }
        let mut v = ((e as u32) << 10) | (man >> 13);
        let rest = man & 0x1fff;
        if rest > 0x1000 || (rest == 0x1000 && v & 1 == 1) {
            v += 1; // may carry into the exponent, up to infinity: that is the correct rounding
        }
        F16(sign | v as u16)
    }

    /// Exact widening.
    pub fn to_f32(self) -> f32 {
        let h = self.0 as u32;
        let sign = (h & 0x8000) << 16;
        let exp = (h >> 10) & 0x1f;
        let man = h & 0x3ff;
        let bits = match (exp, man) {
            (0, 0) => sign,
            (0, m) => {
                // Subnormal: value = m * 2^-24, exact in f32.
                let v = (m as f32) * 2f32.powi(-24);
                return if sign != 0 { -v } else { v };
            }
            (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
            (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
        };
        f32::from_bits(bits)
    }
}
