//! Reading arguments from C: null checks, UTF-8, counts bounded before any slice is formed, and results
//! handed back as owned strings and boxed handles.

use std::ffi::{c_char, CStr, CString};

use crate::status::{release, Failure, WeftStatus};

/// Most entries any array argument may have (dims, bases, ranks): far above any real layout, and small
/// enough that a hostile count is rejected before memory is touched.
pub(crate) const MAX_ENTRIES: usize = 4096;

/// The string behind `p`, named `what` in errors.
///
/// # Safety
/// `p` is null or points to a NUL-terminated string that stays alive for the call.
pub(crate) unsafe fn text<'a>(p: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return Err(Failure::new(
            WeftStatus::NullArgument,
            format!("`{what}` is null"),
        ));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    let bytes = unsafe { CStr::from_ptr(p) };
    bytes.to_str().map_err(|e| {
        Failure::new(
            WeftStatus::InvalidUtf8,
            format!("`{what}` is not valid UTF-8 (byte {})", e.valid_up_to()),
        )
    })
}

/// The `n` elements behind `p`, at most `max` of them.
///
/// # Safety
/// When `n` is at most `max`, `p` is null or points to `n` readable, initialised elements.
pub(crate) unsafe fn slice<'a, T>(
    p: *const T,
    n: usize,
    max: usize,
    what: &str,
) -> Result<&'a [T], Failure> {
    if n > max {
        return Err(Failure::new(
            WeftStatus::InvalidArgument,
            format!("`{what}` has {n} entries; at most {max} are accepted"),
        ));
    }
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Failure::new(
            WeftStatus::NullArgument,
            format!("`{what}` is null but has {n} entries"),
        ));
    }
    if !p.is_aligned() {
        return Err(Failure::new(
            WeftStatus::InvalidArgument,
            format!("`{what}` is not aligned for its element type"),
        ));
    }
    // SAFETY: non-null, aligned, and `n` elements long by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// The object behind a handle.
///
/// # Safety
/// `p` is null or a live handle returned by weft.
pub(crate) unsafe fn handle<'a, T>(p: *const T, what: &str) -> Result<&'a T, Failure> {
    // SAFETY: null or a live handle by the caller's contract.
    unsafe { p.as_ref() }
        .ok_or_else(|| Failure::new(WeftStatus::NullArgument, format!("`{what}` is null")))
}

/// Checks that an output pointer is usable before any work is done.
pub(crate) fn out_ptr<T>(p: *mut T, what: &str) -> Result<(), Failure> {
    if p.is_null() {
        return Err(Failure::new(
            WeftStatus::NullArgument,
            format!("output `{what}` is null"),
        ));
    }
    if !p.is_aligned() {
        return Err(Failure::new(
            WeftStatus::InvalidArgument,
            format!("output `{what}` is not aligned"),
        ));
    }
    Ok(())
}

/// Writes `value` through a checked output pointer.
///
/// # Safety
/// `p` passed [`out_ptr`] and points to writable memory for one `T`.
pub(crate) unsafe fn write<T>(p: *mut T, value: T) {
    // SAFETY: checked non-null and aligned; writable by the caller's contract. `write` drops nothing, so
    // uninitialised output memory is fine.
    unsafe { p.write(value) }
}

/// `value` as a newly allocated C string for the caller to release with `weft_string_free`.
pub(crate) fn owned_string(value: String) -> Result<*mut c_char, Failure> {
    CString::new(value)
        .map(CString::into_raw)
        .map_err(|_| Failure::new(WeftStatus::InvalidArgument, "the text holds a NUL byte"))
}

/// Writes a newly allocated string to a checked output pointer.
///
/// # Safety
/// As [`write`].
pub(crate) unsafe fn write_string(p: *mut *mut c_char, value: String) -> Result<(), Failure> {
    let s = owned_string(value)?;
    // SAFETY: as `write`.
    unsafe { write(p, s) };
    Ok(())
}

/// Frees a string weft returned.
///
/// # Safety
/// `p` is null or a string returned by a weft function and not yet freed.
#[no_mangle]
pub unsafe extern "C" fn weft_string_free(p: *mut c_char) {
    release(p, |p| {
        // SAFETY: made by `CString::into_raw` and not freed yet, by the caller's contract. A panic cannot
        // happen in a deallocation.
        drop(unsafe { CString::from_raw(p) })
    });
}
