//! Encoding handles: Triton's and Gluon's layout encodings, built from parameters or parsed from text.
//!
//! Constructors cover the encodings compilers build most (blocked, slice, NVIDIA MMA and its dot operands,
//! AMD MFMA, swizzled and NVMMA shared); every encoding Triton 3.9 has (incl. WMMA, linear, padded, shared
//! linear, AMD rotating shared, multi-CTA layouts) comes in through `weft_encoding_parse` or
//! `weft_encoding_from_json`.

use std::ffi::c_char;

use weft::layout::encoding::{
    AmdMfma, Blocked, DotOperand, Encoding, NvidiaMma, NvmmaShared, Slice, SwizzledShared, MAX_RANK,
};
use weft::layout::json::to_line;
use weft::layout::text::{gluon, parse_any, ttgir};
use weft::layout::LayoutError;

use crate::args::{handle, out_ptr, slice, text, write, write_string};
use crate::layout::{give, WeftLayout};
use crate::status::{guard, release, Failure, WeftStatus};

/// An immutable layout encoding (`#ttg.blocked<…>`, `NVMMASharedLayout(…)`, …). May be read from any number
/// of threads at once. Release it with `weft_encoding_free`.
pub struct WeftEncoding(pub(crate) Encoding);

/// Checks `e` with Triton's rules and hands it to the caller.
///
/// # Safety
/// `out` is null or writable.
pub(crate) unsafe fn give_encoding(
    out: *mut *mut WeftEncoding,
    e: Encoding,
) -> Result<(), Failure> {
    out_ptr(out, "out")?;
    e.validate()?;
    // SAFETY: checked above; writable by the caller's contract.
    unsafe { write(out, Box::into_raw(Box::new(WeftEncoding(e)))) };
    Ok(())
}

/// `rank` entries behind `p`.
///
/// # Safety
/// `p` points to `rank` values when `rank ≤ MAX_RANK`.
unsafe fn list(p: *const u32, rank: usize, what: &str) -> Result<Vec<u32>, Failure> {
    // SAFETY: by the caller's contract.
    Ok(unsafe { slice(p, rank, MAX_RANK, what) }?.to_vec())
}

/// Parses an encoding written as TTGIR attribute text (`#ttg.blocked<{sizePerThread = [1, 4], …}>`, parents
/// inline) or as Gluon constructor text (`BlockedLayout(size_per_thread=[1, 4], …)`).
///
/// # Safety
/// `attr` is a NUL-terminated string; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_parse(
    attr: *const c_char,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let t = unsafe { text(attr, "attr") }?;
        out_ptr(out, "out")?;
        let e = parse_any(t)?;
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, e) }
    })
}

/// `#ttg.blocked` / Gluon's `BlockedLayout(size_per_thread, threads_per_warp, warps_per_cta, order)`, one
/// CTA; each array has `rank` entries.
///
/// # Safety
/// The four arrays hold `rank` values each; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_blocked(
    size_per_thread: *const u32,
    threads_per_warp: *const u32,
    warps_per_cta: *const u32,
    order: *const u32,
    rank: usize,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (spt, tpw, wpc, ord) = unsafe {
            (
                list(size_per_thread, rank, "size_per_thread")?,
                list(threads_per_warp, rank, "threads_per_warp")?,
                list(warps_per_cta, rank, "warps_per_cta")?,
                list(order, rank, "order")?,
            )
        };
        let e = Encoding::Blocked(Blocked::new(&spt, &tpw, &wpc, &ord));
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, e) }
    })
}

/// `#ttg.slice` / `SliceLayout(dim, parent)`: `parent` with dim `dim` removed.
///
/// # Safety
/// `parent` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_slice(
    dim: u32,
    parent: *const WeftEncoding,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let p = unsafe { handle(parent, "parent") }?;
        let e = Encoding::Slice(Slice::new(dim, p.0.clone()));
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, e) }
    })
}

/// `#ttg.nvidia_mma` / `NVMMADistributedLayout(version, warps_per_cta, instr_shape)`: `version_major` 2
/// (`mma.sync`) or 3 (`wgmma`); `warps_per_cta` has `rank` entries, `instr_shape` `instr_rank`.
///
/// # Safety
/// The arrays hold the counts given; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_nvidia_mma(
    version_major: u32,
    version_minor: u32,
    warps_per_cta: *const u32,
    rank: usize,
    instr_shape: *const u32,
    instr_rank: usize,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (warps, instr) = unsafe {
            (
                list(warps_per_cta, rank, "warps_per_cta")?,
                list(instr_shape, instr_rank, "instr_shape")?,
            )
        };
        let mut mma = NvidiaMma::ampere(&warps);
        mma.version = [version_major, version_minor];
        mma.instr_shape = instr;
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, Encoding::NvidiaMma(mma)) }
    })
}

/// `#ttg.dot_op` / `DotOperandLayout(operand_index, parent, k_width)`: operand A (0) or B (1) of a dot whose
/// accumulator has layout `parent`.
///
/// # Safety
/// `parent` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_dot_operand(
    operand_index: u32,
    parent: *const WeftEncoding,
    k_width: u32,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let p = unsafe { handle(parent, "parent") }?;
        let e = Encoding::DotOperand(DotOperand::new(operand_index, p.0.clone(), k_width));
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, e) }
    })
}

/// `#ttg.amd_mfma` / `AMDMFMALayout(version, instr_shape, transposed, warps_per_cta)` with 32-bit elements
/// and one tile per warp; `instr_shape` has 3 entries (`[M, N, K]`), `warps_per_cta` `rank`.
///
/// # Safety
/// The arrays hold the counts given; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_amd_mfma(
    version: u32,
    instr_shape: *const u32,
    instr_rank: usize,
    transposed: bool,
    warps_per_cta: *const u32,
    rank: usize,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (instr, warps) = unsafe {
            (
                list(instr_shape, instr_rank, "instr_shape")?,
                list(warps_per_cta, rank, "warps_per_cta")?,
            )
        };
        let e = Encoding::AmdMfma(AmdMfma::new(version, &instr, transposed, &warps));
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, e) }
    })
}

/// `#ttg.swizzled_shared` / `SwizzledSharedLayout(vec, per_phase, max_phase, order)`, one CTA; `order` has
/// `rank` entries.
///
/// # Safety
/// `order` holds `rank` values; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_swizzled_shared(
    vec: u32,
    per_phase: u32,
    max_phase: u32,
    order: *const u32,
    rank: usize,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let ord = unsafe { list(order, rank, "order") }?;
        let e = Encoding::SwizzledShared(SwizzledShared::new(vec, per_phase, max_phase, &ord));
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, e) }
    })
}

/// `#ttg.nvmma_shared` / `NVMMASharedLayout(swizzle_byte_width, element_bitwidth, rank, transposed)`, one
/// CTA.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_nvmma_shared(
    swizzle_byte_width: u32,
    element_bitwidth: u32,
    rank: usize,
    transposed: bool,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        if rank > MAX_RANK {
            return Err(Failure::new(
                WeftStatus::InvalidArgument,
                format!("`rank` is {rank}; at most {MAX_RANK} is supported"),
            ));
        }
        let e = NvmmaShared::new(swizzle_byte_width, element_bitwidth, rank, transposed);
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, Encoding::NvmmaShared(e)) }
    })
}

/// Releases an encoding. Null is ignored; releasing twice is undefined behaviour.
///
/// # Safety
/// `encoding` is null or a live handle from weft.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_free(encoding: *mut WeftEncoding) {
    release(encoding, |p| {
        // SAFETY: made by `Box::into_raw` and live, by the contract.
        drop(unsafe { Box::from_raw(p) })
    });
}

/// The linear layout Triton 3.9 gives the encoding for a tensor of `shape` (`rank` extents), Gluon's
/// `to_linear_layout`.
///
/// # Safety
/// `encoding` is null or a live handle; `shape` holds `rank` values; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_to_linear_layout(
    encoding: *const WeftEncoding,
    shape: *const u64,
    rank: usize,
    out: *mut *mut WeftLayout,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let e = unsafe { handle(encoding, "encoding") }?;
        let s = unsafe { slice(shape, rank, MAX_RANK, "shape") }?;
        out_ptr(out, "out")?;
        let l = e.0.to_linear_layout(s)?;
        // SAFETY: checked above.
        unsafe { give(out, l) };
        Ok(())
    })
}

/// Prints the encoding: `format` 0 is TTGIR attribute text (as Triton prints it), 1 Gluon constructor text,
/// 2 JSON. A new string to release with `weft_string_free`.
///
/// # Safety
/// `encoding` is null or a live handle; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_to_string(
    encoding: *const WeftEncoding,
    format: u32,
    out: *mut *mut c_char,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let e = unsafe { handle(encoding, "encoding") }?;
        out_ptr(out, "out")?;
        let t = match format {
            0 => ttgir::print_encoding(&e.0),
            1 => gluon::print_encoding(&e.0),
            2 => to_line(&e.0)
                .map_err(|err| Failure::new(WeftStatus::LayoutError, err.to_string()))?,
            _ => {
                return Err(Failure::new(
                    WeftStatus::InvalidArgument,
                    format!("`format` is {format}; 0 is TTGIR, 1 Gluon, 2 JSON"),
                ))
            }
        };
        // SAFETY: checked above.
        unsafe { write_string(out, t) }
    })
}

/// Parses the JSON of `weft_encoding_to_string(…, 2, …)` and checks it with Triton's rules.
///
/// # Safety
/// `json` is a NUL-terminated string; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_encoding_from_json(
    json: *const c_char,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let t = unsafe { text(json, "json") }?;
        out_ptr(out, "out")?;
        let e: Encoding = serde_json::from_str(t).map_err(|err| LayoutError::Parse {
            format: "json",
            line: err.line(),
            column: err.column(),
            message: err.to_string(),
        })?;
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, e) }
    })
}
