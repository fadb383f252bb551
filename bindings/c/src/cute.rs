//! CuTe interop: `shape:stride` text (with an optional `Sw<B,M,S> o`) to and from layout handles, and
//! CuTe's algebra (`composition`, `complement`, `logical_divide`, `logical_product`) on layout handles.

use std::ffi::c_char;

use weft::layout::cute::{self, to_cute, SwizzledLayout};

use crate::args::{handle, out_ptr, text, write_string};
use crate::layout::{binary, give, WeftLayout};
use crate::status::{guard, WeftStatus};

/// The linear layout of a CuTe layout written as CuTe prints it: `((2,4),8):((1,16),2)`, or swizzled,
/// `Sw<3,3,3> o (8,64):(64,1)`. Input dims `dim0`, `dim1`, … are the top-level modes, the output dim is
/// `offset`. Fails with `WEFT_STATUS_CUTE_ERROR` naming the obstacle (a non-power-of-two extent, strides
/// that carry, …).
///
/// # Safety
/// `cute` is a NUL-terminated string; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_from_cute(
    cute: *const c_char,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let t = unsafe { text(cute, "cute") }?;
        out_ptr(out, "out")?;
        let l = t.parse::<SwizzledLayout>()?.to_linear_layout()?;
        // SAFETY: checked above.
        unsafe { give(out, l) };
        Ok(())
    })
}

/// The CuTe form of a layout (`shape:stride`, with `Sw<B,M,S> o` in front when a swizzle is needed): one
/// top-level mode per input dim, the output dims flattened into one offset. A new string to release with
/// `weft_string_free`.
///
/// # Safety
/// `layout` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_layout_to_cute(
    layout: *const WeftLayout,
    out: *mut *mut c_char,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let l = unsafe { handle(layout, "layout") }?;
        out_ptr(out, "out")?;
        let c = to_cute(&l.0)?;
        // SAFETY: checked above.
        unsafe { write_string(out, c.to_string()) }
    })
}

/// CuTe's `composition(a, b)`, `a ∘ b`: `b` maps its coordinates into `a`'s flattened domain; the result keeps
/// `b`'s input dims and `a`'s output dims.
///
/// # Safety
/// `a` and `b` are null or live handles; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_cute_composition(
    a: *const WeftLayout,
    b: *const WeftLayout,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    unsafe { binary(a, b, ["a", "b"], out, |a, b| Ok(cute::composition(a, b)?)) }
}

/// CuTe's `complement(layout, size)`: the offsets below `size` (a power of two) that `layout` leaves out, as a
/// layout with input dim `dim0`, smallest first.
///
/// # Safety
/// `layout` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_cute_complement(
    layout: *const WeftLayout,
    size: u64,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let l = unsafe { handle(layout, "layout") }?;
        out_ptr(out, "out")?;
        let r = cute::complement(&l.0, size)?;
        // SAFETY: checked above.
        unsafe { give(out, r) };
        Ok(())
    })
}

/// CuTe's `logical_divide(a, b)`: `a ∘ (b, complement(b, size(a)))`, input dims `dim0` (the tile) and `dim1`
/// (the rest).
///
/// # Safety
/// `a` and `b` are null or live handles; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_cute_logical_divide(
    a: *const WeftLayout,
    b: *const WeftLayout,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    unsafe {
        binary(a, b, ["a", "b"], out, |a, b| {
            Ok(cute::logical_divide(a, b)?)
        })
    }
}

/// CuTe's `logical_product(a, b)`: `a` repeated by `b` over the offsets `a` leaves free, input dims `dim0`
/// (`a`'s domain) and `dim1` (`b`'s).
///
/// # Safety
/// `a` and `b` are null or live handles; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_cute_logical_product(
    a: *const WeftLayout,
    b: *const WeftLayout,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    unsafe {
        binary(a, b, ["a", "b"], out, |a, b| {
            Ok(cute::logical_product(a, b)?)
        })
    }
}
