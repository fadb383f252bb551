//! What the one-pass row kernels ([`super::softmax_kernel`], [`super::layernorm_kernel`]) share:
//! whole rows of an `m × n` f32 matrix per CTA, in a `[rows_per_cta, block_n]` tile held in
//! registers and laid out as Triton's `BlockedEncodingAttr::get` would.

use crate::layout::encoding::helpers::blocked_for;
use crate::layout::encoding::Blocked;

use super::super::{CodegenError, Result, Target};
use super::check_pow2;

/// `(block_n, n_divisibility)` for rows of `n` columns: the next power of two `≥ n`, and the
/// largest power of two `≤ 16` that divides `n`.
pub(super) fn for_n(n: u32) -> (u32, u32) {
    (n.max(1).next_power_of_two(), 1 << n.trailing_zeros().min(4))
}

/// The grid for `m` rows: `m.div_ceil(rows_per_cta)` CTAs.
pub(super) fn grid(m: usize, rows_per_cta: u32) -> u32 {
    m.div_ceil(rows_per_cta.max(1) as usize) as u32
}

/// Whether a kernel for rows of at most `block_n` columns, promising `n` a multiple of
/// `n_divisibility`, covers an `m × n` matrix: `n ≤ block_n`, the promise kept, `m * n < 2^31`
/// (offsets are i32), and at least one row and column. `op` names the kernel in errors.
pub(super) fn check_shape(
    op: &'static str,
    block_n: u32,
    n_divisibility: u32,
    m: usize,
    n: usize,
) -> Result<()> {
    if m == 0 || n == 0 {
        return Err(CodegenError::arg(op, format!("{m} × {n}: an empty matrix")));
    }
    if n > block_n as usize {
        return Err(CodegenError::arg(
            op,
            format!(
                "n = {n} > block_n = {block_n}: a row must fit in one tile (block_n = {})",
                n.next_power_of_two()
            ),
        ));
    }
    if !n.is_multiple_of(n_divisibility.max(1) as usize) {
        return Err(CodegenError::arg(
            op,
            format!("n = {n} is not a multiple of n_divisibility = {n_divisibility}"),
        ));
    }
    if m.checked_mul(n).is_none_or(|e| e > i32::MAX as usize) {
        return Err(CodegenError::arg(
            op,
            format!("{m} × {n} elements: offsets are i32, at most 2^31 - 1 elements"),
        ));
    }
    Ok(())
}

/// The parameters of a row tile, checked: every size a power of two in range, and `per_thread`
/// within the row.
pub(super) fn check_params(
    op: &'static str,
    block_n: u32,
    rows_per_cta: u32,
    per_thread: u32,
    num_warps: u32,
    n_divisibility: u32,
) -> Result<()> {
    check_pow2(op, "block_n", block_n as u64, 1, 1 << 16)?;
    check_pow2(op, "rows_per_cta", rows_per_cta as u64, 1, 1 << 10)?;
    check_pow2(op, "per_thread", per_thread as u64, 1, 16)?;
    check_pow2(op, "num_warps", num_warps as u64, 1, 32)?;
    check_pow2(op, "n_divisibility", n_divisibility as u64, 1, 16)?;
    if per_thread > block_n {
        return Err(CodegenError::arg(
            op,
            format!("per_thread = {per_thread} is more than the row tile block_n = {block_n}"),
        ));
    }
    Ok(())
}

/// The `Blocked` layout of the `[rows_per_cta, block_n]` tile ([`blocked_for`]): `per_thread`
/// consecutive columns per thread, lanes along the columns first, then warps along the columns
/// until they cover the row, the rest of the warps (and lanes) along the rows.
pub(super) fn layout(
    target: Target,
    block_n: u32,
    rows_per_cta: u32,
    per_thread: u32,
    num_warps: u32,
) -> Result<Blocked> {
    Ok(blocked_for(
        &[rows_per_cta as u64, block_n as u64],
        &[1, per_thread],
        num_warps,
        target.warp_size(),
    )?)
}
