//! The layouts Gluon computes from other layouts rather than constructs: the `tcgen05.ld/st` register layout
//! of a tensor-memory descriptor, the CDNA4 scaled-MFMA and fp4 `scaled_upcast` scale layouts, and CDNA4's
//! bank-conflict-free padded layout for an async-copied MFMA operand. Each hands back an encoding handle.

use std::ffi::c_char;

use weft::layout::encoding::{
    amd_mfma_scale_layout, compute_efficient_padded_shared_layout, scaled_upcast_fp4_scale_layout,
    tmem_reg_layout, Encoding, TmemMessage, MAX_RANK,
};

use crate::args::{handle, out_ptr, slice, text, write};
use crate::encoding::{give_encoding, WeftEncoding};
use crate::status::{guard, Failure, WeftStatus};

/// The two-entry array behind `p` (a rank-2 shape or per-dim parameter).
///
/// # Safety
/// `p` is null or points to two readable values.
unsafe fn pair<T: Copy>(p: *const T, what: &str) -> Result<[T; 2], Failure> {
    // SAFETY: by the caller's contract.
    let s = unsafe { slice(p, 2, 2, what) }?;
    Ok([s[0], s[1]])
}

/// Gluon's `get_reg_layout` of a tensor-memory descriptor: the register layout (a linear encoding) of a
/// `tcgen05.ld/st` with `instr_variant` (`"32x32b"`, `"16x64b"`, `"16x128b"`, `"16x256b"`,
/// `"32x32b_splitn"`) by `num_warps` warps, for a view of `shape` (rank 2) of an allocation of
/// `alloc_shape` (`alloc_rank` extents) holding `element_bits`-bit elements in `tmem` (a tensor-memory or
/// scales encoding).
///
/// # Safety
/// `shape` holds 2 values and `alloc_shape` `alloc_rank`; `tmem` is null or a live handle;
/// `instr_variant` is a NUL-terminated string; `out` is writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn weft_tmem_reg_layout(
    element_bits: u32,
    shape: *const u64,
    alloc_shape: *const u64,
    alloc_rank: usize,
    tmem: *const WeftEncoding,
    num_warps: u32,
    instr_variant: *const c_char,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (s, alloc, t, v) = unsafe {
            (
                pair(shape, "shape")?,
                slice(alloc_shape, alloc_rank, MAX_RANK, "alloc_shape")?,
                handle(tmem, "tmem")?,
                text(instr_variant, "instr_variant")?,
            )
        };
        out_ptr(out, "out")?;
        let l = tmem_reg_layout(
            element_bits,
            &s,
            alloc,
            &t.0,
            num_warps,
            TmemMessage::parse(v)?,
        )?;
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, Encoding::Linear(l)) }
    })
}

/// Gluon's `amd.cdna4.get_mfma_scale_layout` (Triton's `get_amd_mfma_scale_layout`): the scale layout of
/// operand `op_idx` (0 = A, 1 = B) of a scaled MFMA with `m_dim`-row instructions, the MFMA layout's
/// `tiles_per_warp` and `warps_per_cta`, for a scale tensor of `shape` (each array 2 entries).
///
/// # Safety
/// `shape`, `tiles_per_warp` and `warps_per_cta` hold 2 values each; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_amd_mfma_scale_layout(
    op_idx: u32,
    shape: *const u64,
    m_dim: u32,
    tiles_per_warp: *const u32,
    warps_per_cta: *const u32,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (s, tiles, warps) = unsafe {
            (
                pair(shape, "shape")?,
                pair(tiles_per_warp, "tiles_per_warp")?,
                pair(warps_per_cta, "warps_per_cta")?,
            )
        };
        out_ptr(out, "out")?;
        let l = amd_mfma_scale_layout(op_idx, &s, m_dim, &tiles, &warps)?;
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, Encoding::Linear(l)) }
    })
}

/// Gluon's `amd.get_scaled_upcast_fp4_scale_layout`: the scale layout of an fp4 `scaled_upcast` of a packed
/// (`i8`) tensor of `shape` (`rank` extents) in `src`, upcast along `axis` with `scale_extent` scales
/// along it.
///
/// # Safety
/// `src` is null or a live handle; `shape` holds `rank` values; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_scaled_upcast_fp4_scale_layout(
    src: *const WeftEncoding,
    shape: *const u64,
    rank: usize,
    scale_extent: u64,
    axis: usize,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (e, s) = unsafe { (handle(src, "src")?, slice(shape, rank, MAX_RANK, "shape")?) };
        out_ptr(out, "out")?;
        let l = scaled_upcast_fp4_scale_layout(&e.0, s, scale_extent, axis)?;
        // SAFETY: by this function's contract.
        unsafe { give_encoding(out, Encoding::Linear(l)) }
    })
}

/// Gluon's `amd.cdna4.compute_efficient_padded_shared_layout`: the padded shared layout that keeps the
/// async-copied tile of `shape` (rank 2) of the MFMA v4 operand `dot` (`element_bits`-bit elements, K
/// contiguous when `is_k_contig`) free of bank conflicts. `*out` is set to null, with `WEFT_STATUS_OK`,
/// where Gluon returns `None`.
///
/// # Safety
/// `dot` is null or a live handle; `shape` holds 2 values; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn weft_compute_efficient_padded_shared_layout(
    dot: *const WeftEncoding,
    shape: *const u64,
    element_bits: u32,
    is_k_contig: bool,
    out: *mut *mut WeftEncoding,
) -> WeftStatus {
    guard(|| {
        // SAFETY: by this function's contract.
        let (e, s) = unsafe { (handle(dot, "dot")?, pair(shape, "shape")?) };
        out_ptr(out, "out")?;
        let Encoding::DotOperand(d) = &e.0 else {
            return Err(Failure::new(
                WeftStatus::InvalidArgument,
                format!(
                    "`dot`: expected a dot operand encoding, got a {}",
                    e.0.kind()
                ),
            ));
        };
        match compute_efficient_padded_shared_layout(d, &s, element_bits, is_k_contig)? {
            // SAFETY: by this function's contract.
            Some(l) => unsafe { give_encoding(out, Encoding::PaddedShared(l)) },
            None => {
                // SAFETY: checked above.
                unsafe { write(out, std::ptr::null_mut()) };
                Ok(())
            }
        }
    })
}
