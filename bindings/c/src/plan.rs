//! Conversion plans and bank conflicts.

use std::ffi::c_char;

use weft::layout::convert::{bank_conflicts, plan_conversion, ConversionKind, ConversionPlan};
use weft::target::Target;

use crate::args::{handle, out_ptr, text, write, write_string};
use crate::layout::WeftLayout;
use crate::status::{guard, release, Failure, WeftStatus};

/// An immutable conversion plan. May be read from any number of threads at once. Release it with
/// `weft_plan_free`.
pub struct WeftPlan(ConversionPlan);

/// How a conversion moves data (`ConversionKind`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeftConversionKind {
    /// Nothing moves.
    Noop = 0,
    /// Registers are renamed within each thread.
    RegisterPermute = 1,
    /// Warp shuffles.
    WarpShuffle = 2,
    /// A round trip through shared memory.
    SharedMemory = 3,
    /// Across the CTAs of a cluster.
    CrossCta = 4,
}

fn target(name: &str) -> Result<Target, Failure> {
    Target::parse(name).map_err(|e| Failure::new(WeftStatus::InvalidArgument, e.to_string()))
}

/// Plans the conversion of a tensor from distributed layout `src` to `dst` for `element_bits`-bit elements on
/// the target named `target_name` (`"sm_80"`, `"sm_90a"`, `"gfx942"`, …).
///
/// # Safety
/// `src` and `dst` are null or live handles; `target_name` is a NUL-terminated string; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_plan_conversion(
    src: *const WeftLayout,
    dst: *const WeftLayout,
    element_bits: u32,
    target_name: *const c_char,
    out: *mut *mut WeftPlan,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (s, d, t) = unsafe {
            (
                handle(src, "src")?,
                handle(dst, "dst")?,
                text(target_name, "target_name")?,
            )
        };
        out_ptr(out, "out")?;
        let plan = plan_conversion(&s.0, &d.0, element_bits, target(t)?)?;
        // SAFETY: checked above.
        unsafe { write(out, Box::into_raw(Box::new(WeftPlan(plan)))) };
        Ok(())
    })
}

/// Releases a plan. Null is ignored; releasing twice is undefined behaviour.
///
/// # Safety
/// `plan` is null or a live handle from weft.
#[no_mangle]
pub unsafe extern "C" fn weft_plan_free(plan: *mut WeftPlan) {
    release(plan, |p| {
        // SAFETY: made by `Box::into_raw` and live, by the contract.
        drop(unsafe { Box::from_raw(p) })
    });
}

/// The plan's figures: its kind, the shared-memory scratch in bytes, the shuffles per thread, and the bank
/// conflicts of its shared-memory reads and writes. Any output pointer may be null to skip it.
///
/// # Safety
/// `plan` is null or a live handle; each output is null or writable.
#[no_mangle]
pub unsafe extern "C" fn weft_plan_summary(
    plan: *const WeftPlan,
    kind: *mut WeftConversionKind,
    scratch_bytes: *mut u64,
    shuffles: *mut u64,
    read_conflicts: *mut u64,
    write_conflicts: *mut u64,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let p = &unsafe { handle(plan, "plan") }?.0;
        let k = match p.kind {
            ConversionKind::Noop => WeftConversionKind::Noop,
            ConversionKind::RegisterPermute => WeftConversionKind::RegisterPermute,
            ConversionKind::WarpShuffle => WeftConversionKind::WarpShuffle,
            ConversionKind::SharedMemory => WeftConversionKind::SharedMemory,
            ConversionKind::CrossCta => WeftConversionKind::CrossCta,
        };
        let (read, written) = p.bank_conflicts();
        for (ptr, what) in [
            (scratch_bytes, "scratch_bytes"),
            (shuffles, "shuffles"),
            (read_conflicts, "read_conflicts"),
            (write_conflicts, "write_conflicts"),
        ] {
            if !ptr.is_null() {
                out_ptr(ptr, what)?;
            }
        }
        if !kind.is_null() {
            out_ptr(kind, "kind")?;
        }
        // SAFETY: each is null (skipped) or checked above and writable by the contract.
        unsafe {
            if !kind.is_null() {
                write(kind, k);
            }
            for (ptr, v) in [
                (scratch_bytes, p.scratch_bytes()),
                (shuffles, p.shuffles()),
                (read_conflicts, read),
                (write_conflicts, written),
            ] {
                if !ptr.is_null() {
                    write(ptr, v);
                }
            }
        }
        Ok(())
    })
}

/// The plan as text: `format` 0 is the table `weft convert` prints, 1 the JSON of design.md. A new string to
/// release with `weft_string_free`.
///
/// # Safety
/// `plan` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_plan_to_string(
    plan: *const WeftPlan,
    format: u32,
    out: *mut *mut c_char,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let p = &unsafe { handle(plan, "plan") }?.0;
        out_ptr(out, "out")?;
        let t = match format {
            0 => p.to_string(),
            1 => p.to_json(),
            _ => {
                return Err(Failure::new(
                    WeftStatus::InvalidArgument,
                    format!("`format` is {format}; 0 is the table, 1 JSON"),
                ))
            }
        };
        // SAFETY: checked above.
        unsafe { write_string(out, t) }
    })
}

/// Bank conflicts of writing `register_layout` to (or reading it from) `shared_layout` with
/// `element_bits`-bit elements: the number Gluon's `gl.bank_conflicts` gives.
///
/// # Safety
/// The layouts are null or live handles; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_bank_conflicts(
    register_layout: *const WeftLayout,
    shared_layout: *const WeftLayout,
    element_bits: u32,
    out: *mut u64,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (r, s) = unsafe {
            (
                handle(register_layout, "register_layout")?,
                handle(shared_layout, "shared_layout")?,
            )
        };
        out_ptr(out, "out")?;
        let n = bank_conflicts(&r.0, &s.0, element_bits)?;
        // SAFETY: checked above.
        unsafe { write(out, n) };
        Ok(())
    })
}
