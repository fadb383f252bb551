//! The helpers Gluon users rely on: default layouts (coalesced blocked, NVMMA shared, MMA for a dot) and
//! the two questions every layout raises: which hardware location holds an element, and which elements a
//! thread holds.

use crate::layout::gf2::ColumnEchelon;
use crate::layout::{Dim, LayoutError, LinearLayout, Result};

use super::{invalid, Blocked, CgaLayout, DotOperand, Encoding, NvidiaMma, NvmmaShared};

/// The blocked layout Triton's coalescing pass picks for a tensor of `shape` with `elem_bits`-bit elements
/// read through a fully aligned pointer: each thread holds up to 16 bytes along the last (contiguous) dim,
/// lanes then warps fill dims from the most minor (Triton's `BlockedEncodingAttr::get` with the coalesced
/// `sizePerThread`).
pub fn default_blocked(
    shape: &[u64],
    elem_bits: u32,
    num_warps: u32,
    threads_per_warp: u32,
) -> Result<Blocked> {
    super::cga::check_shape(shape)?;
    if elem_bits == 0 || elem_bits > 128 || !elem_bits.is_power_of_two() {
        return Err(invalid(
            "elem_bits",
            "must be a power of two between 1 and 128",
        ));
    }
    for (name, v) in [
        ("num_warps", num_warps),
        ("threads_per_warp", threads_per_warp),
    ] {
        if v == 0 || !v.is_power_of_two() {
            return Err(invalid(name, "must be a power of two"));
        }
    }
    let rank = shape.len();
    // Powers of two: divide by subtracting exponents (the element count may be 2^64).
    let numel_log2: u32 = shape.iter().map(|s| s.trailing_zeros()).sum();
    let threads_log2 = num_warps.trailing_zeros() + threads_per_warp.trailing_zeros();
    let per_thread_log2 = numel_log2.saturating_sub(threads_log2).min(7);
    let per_thread = u64::from(128 / elem_bits)
        .min(1u64 << per_thread_log2)
        .min(shape[rank - 1]);
    let mut spt = vec![1u32; rank];
    spt[rank - 1] = per_thread as u32;
    blocked_for(shape, &spt, num_warps, threads_per_warp)
}

/// Triton's `BlockedEncodingAttr::get(shape, sizePerThread, order = [rank-1, …, 0], numWarps,
/// threadsPerWarp)`: lanes, then warps, fill dims from the most minor, the last dim taking what is left.
pub fn blocked_for(
    shape: &[u64],
    spt: &[u32],
    num_warps: u32,
    threads_per_warp: u32,
) -> Result<Blocked> {
    super::cga::check_shape(shape)?;
    super::check_rank("size_per_thread", spt.len(), shape.len())?;
    super::check_pow2_list("size_per_thread", spt)?;
    for (name, v) in [
        ("num_warps", num_warps),
        ("threads_per_warp", threads_per_warp),
    ] {
        if v == 0 || !v.is_power_of_two() {
            return Err(invalid(name, "must be a power of two"));
        }
    }
    let rank = shape.len();
    let spt = spt.to_vec();
    let order: Vec<u32> = (0..rank as u32).rev().collect();
    let mut tpw = vec![1u32; rank];
    let mut wpc = vec![1u32; rank];
    let (mut lanes, mut warps) = (threads_per_warp, num_warps);
    let mut remaining = u64::from(num_warps) * u64::from(threads_per_warp);
    let (mut prev_lanes, mut prev_warps) = (1u32, 1u32);
    for &d in &order[..rank - 1] {
        let d = d as usize;
        let fit = (shape[d] / u64::from(spt[d])).max(1);
        // In u64: `remaining` reaches 2^62, beyond u32.
        let per_cta = remaining.clamp(1, fit);
        tpw[d] = per_cta.clamp(1, u64::from(lanes)) as u32;
        wpc[d] = (per_cta / u64::from(tpw[d])).clamp(1, u64::from(warps)) as u32;
        warps /= wpc[d];
        lanes /= tpw[d];
        remaining /= per_cta;
        prev_lanes *= tpw[d];
        prev_warps *= wpc[d];
    }
    let last = order[rank - 1] as usize;
    tpw[last] = threads_per_warp / prev_lanes;
    wpc[last] = num_warps / prev_warps;
    Ok(Blocked::new(&spt, &tpw, &wpc, &order))
}

/// Gluon's `NVMMASharedLayout.get_default_for`: the largest swizzle (128, 64, 32 bytes, else none) that the
/// tile's contiguous extent is a multiple of, and none for tiles with fewer than 8 rows.
pub fn default_nvmma_shared(
    block_shape: &[u64],
    elem_bits: u32,
    transposed: bool,
    fp4_padded: bool,
    cga_layout: CgaLayout,
) -> Result<NvmmaShared> {
    if block_shape.is_empty() {
        return Err(invalid("block_shape", "needs at least one dim"));
    }
    let mut spc = cga_layout.shape_per_cta(block_shape)?;
    if transposed {
        spc.rotate_left(1);
    }
    let packing: u128 = if fp4_padded { 2 } else { 1 };
    // In u128: an extent near 2^63 times 2 (fp4) times 64 bits overflows u64.
    let contig_bytes = u128::from(spc[spc.len() - 1]) * packing * u128::from(elem_bits) / 8;
    let mut swizzle = [128u64, 64, 32]
        .into_iter()
        .find(|&w| contig_bytes >= u128::from(w) && contig_bytes.is_multiple_of(u128::from(w)))
        .unwrap_or(0) as u32;
    let outer = spc[..spc.len() - 1]
        .iter()
        .try_fold(1u64, |a, &s| a.checked_mul(s))
        .unwrap_or(u64::MAX);
    if block_shape.len() < 2 || outer < 8 {
        swizzle = 0;
    }
    let l = NvmmaShared {
        swizzle_byte_width: swizzle,
        element_bitwidth: elem_bits,
        rank: block_shape.len(),
        transposed,
        fp4_padded,
        cga_layout,
    };
    l.validate()?;
    Ok(l)
}

/// The accumulator and operand layouts of a dot `[M, K] x [K, N]` on NVIDIA tensor cores: `version` 2
/// (`mma.sync`, operands A and B in registers) or 3 (`wgmma`, operand A in registers, B from shared memory:
/// `b` is `None`). Warps are spread as Triton's `warpsPerTileV2/V3` do.
pub fn mma_for_dot(
    version: u32,
    m: u64,
    n: u64,
    num_warps: u32,
    elem_bits: u32,
) -> Result<(NvidiaMma, DotOperand, Option<DotOperand>)> {
    if num_warps == 0 || !num_warps.is_power_of_two() {
        return Err(invalid("num_warps", "must be a power of two"));
    }
    if !matches!(elem_bits, 8 | 16 | 32) {
        return Err(invalid("elem_bits", "operands are 8, 16 or 32 bits"));
    }
    let k_width = 32 / elem_bits;
    let mut w = [1u32, 1u32];
    match version {
        2 => {
            while w[0] * w[1] < num_warps {
                if m / 16 / u64::from(w[0]) >= n / (8 * u64::from(w[1])) {
                    if u64::from(w[0]) < m / 16 {
                        w[0] *= 2;
                    } else {
                        w[1] *= 2;
                    }
                } else {
                    w[1] *= 2;
                }
            }
            let acc = NvidiaMma::ampere(&w);
            let a = DotOperand::new(0, acc.clone().into(), k_width);
            let b = DotOperand::new(1, acc.clone().into(), k_width);
            Ok((acc, a, Some(b)))
        }
        3 => {
            if !num_warps.is_multiple_of(4) {
                return Err(invalid(
                    "num_warps",
                    "wgmma needs whole warpgroups (a multiple of 4 warps)",
                ));
            }
            let mut instr_n = 8u64;
            let mut cand = 8u64;
            while cand <= n.min(256) {
                if n.is_multiple_of(cand) {
                    instr_n = cand;
                }
                cand += 8;
            }
            w = [4, 1];
            while w[0] * w[1] < num_warps {
                if m > 16 * u64::from(w[0]) {
                    w[0] *= 2;
                } else {
                    w[1] *= 2;
                }
            }
            let acc = NvidiaMma::hopper(&w, instr_n as u32, 256 / elem_bits);
            let a = DotOperand::new(0, acc.clone().into(), k_width);
            Ok((acc, a, None))
        }
        v => Err(invalid(
            "version",
            format!("NVIDIA MMA versions are 2 and 3, got {v}"),
        )),
    }
}

/// One hardware location: a value per input dim of the layout (`register`, `lane`, `warp`, `block`, or
/// `offset`).
pub type Location = Vec<(Dim, u64)>;

/// Every hardware location that holds the tensor element at `coords` (one coordinate per out dim), the
/// smallest first. Empty when no location holds it (a non-surjective layout).
pub fn holders(ll: &LinearLayout, coords: &[u64]) -> Result<Vec<Location>> {
    let outs: Vec<(Dim, u64)> = ll.out_dims().map(|(d, s)| (*d, s)).collect();
    if coords.len() != outs.len() {
        return Err(LayoutError::DimMismatch(format!(
            "{} coordinates given for {} out dims",
            coords.len(),
            outs.len()
        )));
    }
    let mut packed = 0u64;
    let mut shift = 0u32;
    for ((d, size), &c) in outs.iter().zip(coords) {
        if c >= *size {
            return Err(LayoutError::ValueOutOfRange {
                dim: *d,
                value: c,
                size: *size,
            });
        }
        // A size-1 dim after 64 bits of others holds only 0: nothing to shift in.
        packed |= c.checked_shl(shift).unwrap_or(0);
        shift += size.trailing_zeros();
    }
    let ech = ColumnEchelon::new(ll.columns());
    let Some(x0) = ech.solve(packed) else {
        return Ok(Vec::new());
    };
    let null = ech.nullspace();
    if null.len() > 20 {
        return Err(LayoutError::Invalid(format!(
            "2^{} locations hold this element; too many to list",
            null.len()
        )));
    }
    let mut xs: Vec<u64> = (0..1u64 << null.len())
        .map(|m| {
            null.iter()
                .enumerate()
                .filter(|(i, _)| m >> i & 1 == 1)
                .fold(x0, |acc, (_, v)| acc ^ v)
        })
        .collect();
    xs.sort_unstable();
    Ok(xs.into_iter().map(|x| unpack_inputs(ll, x)).collect())
}

fn unpack_inputs(ll: &LinearLayout, mut x: u64) -> Location {
    ll.in_dims()
        .map(|(d, size)| {
            let bits = size.trailing_zeros();
            let v = x & (size - 1);
            x = x.checked_shr(bits).unwrap_or(0);
            (*d, v)
        })
        .collect()
}

/// The most register bits [`thread_elements`] lists (2^24 entries).
pub const MAX_LISTED_REGISTER_BITS: u32 = 24;

/// The tensor coordinates a thread holds, one entry per register: `fixed` gives the other input dims
/// (`lane`, `warp`, `block`; missing ones are 0).
pub fn thread_elements(ll: &LinearLayout, fixed: &[(&str, u64)]) -> Result<Vec<Vec<u64>>> {
    for (d, _) in fixed {
        ll.in_dim_size(d)?;
    }
    let regs = if ll.has_in_dim("register") {
        ll.in_dim_size("register")?
    } else {
        1
    };
    let bits = regs.trailing_zeros();
    if bits > MAX_LISTED_REGISTER_BITS {
        return Err(LayoutError::TooManyBits {
            what: "thread_elements: the register dim (one entry per register)".into(),
            bits,
            limit: MAX_LISTED_REGISTER_BITS,
        });
    }
    (0..regs)
        .map(|r| {
            let mut inputs: Vec<(&str, u64)> = fixed.to_vec();
            if ll.has_in_dim("register") {
                inputs.push(("register", r));
            }
            Ok(ll.apply(&inputs)?.into_iter().map(|(_, v)| v).collect())
        })
        .collect()
}

/// The encoding for a default layout by name, used by the CLI and examples: `blocked` for `shape`.
pub fn default_encoding(shape: &[u64], elem_bits: u32, num_warps: u32) -> Result<Encoding> {
    Ok(Encoding::Blocked(default_blocked(
        shape, elem_bits, num_warps, 32,
    )?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_blocked_is_coalesced() {
        let b = default_blocked(&[128, 64], 16, 4, 32).unwrap();
        assert_eq!(b.size_per_thread, vec![1, 8]);
        assert_eq!(b.threads_per_warp, vec![4, 8]);
        assert_eq!(b.warps_per_cta, vec![4, 1]);
        assert_eq!(b.order, vec![1, 0]);
        let b = default_blocked(&[1024], 32, 4, 32).unwrap();
        assert_eq!(
            (
                b.size_per_thread[0],
                b.threads_per_warp[0],
                b.warps_per_cta[0]
            ),
            (4, 32, 4)
        );
    }

    /// Triton's choice in `tests/fixtures/ttgir/softmax_sm90.mlir` (4x256, 4 warps, no vectorisation).
    #[test]
    fn blocked_for_matches_triton_softmax() {
        let b = blocked_for(&[4, 256], &[1, 1], 4, 32).unwrap();
        assert_eq!(b, Blocked::new(&[1, 1], &[1, 32], &[1, 4], &[1, 0]));
        let b = blocked_for(&[64, 64], &[1, 8], 4, 32).unwrap();
        assert_eq!(b, Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]));
    }

    #[test]
    fn default_nvmma_picks_largest_swizzle() {
        let s = |shape: &[u64], bits| {
            default_nvmma_shared(shape, bits, false, false, CgaLayout::single())
                .unwrap()
                .swizzle_byte_width
        };
        assert_eq!(s(&[128, 64], 16), 128);
        assert_eq!(s(&[128, 32], 16), 64);
        assert_eq!(s(&[128, 16], 16), 32);
        assert_eq!(s(&[128, 8], 16), 0);
        assert_eq!(s(&[4, 64], 16), 0);
    }

    #[test]
    fn holders_invert_apply_exhaustively() {
        let ll = Encoding::Blocked(Blocked::new(&[1, 4], &[8, 4], &[4, 1], &[1, 0]))
            .to_linear_layout(&[16, 16])
            .unwrap();
        for i in 0..16 {
            for j in 0..16 {
                let hs = holders(&ll, &[i, j]).unwrap();
                // 16x16 is smaller than the 32x16 tile: two warps hold each element.
                assert_eq!(hs.len(), 2);
                for h in hs {
                    let got: Vec<u64> = ll.apply(&h).unwrap().into_iter().map(|(_, v)| v).collect();
                    assert_eq!(got, vec![i, j]);
                }
            }
        }
        assert!(holders(&ll, &[16, 0]).is_err());
    }

    #[test]
    fn thread_elements_of_lane_zero() {
        let ll = Encoding::Blocked(Blocked::new(&[1, 4], &[8, 4], &[4, 1], &[1, 0]))
            .to_linear_layout(&[32, 16])
            .unwrap();
        let e = thread_elements(&ll, &[("lane", 1)]).unwrap();
        assert_eq!(e, vec![vec![0, 4], vec![0, 5], vec![0, 6], vec![0, 7]]);
    }

    #[test]
    fn mma_for_dot_matches_triton_choices() {
        let (acc, a, b) = mma_for_dot(2, 128, 128, 4, 16).unwrap();
        assert_eq!(acc.warps_per_cta, vec![2, 2]);
        assert_eq!((a.k_width, b.unwrap().k_width), (2, 2));
        let (acc, _, b) = mma_for_dot(3, 128, 256, 8, 16).unwrap();
        assert_eq!(acc.warps_per_cta, vec![8, 1]);
        assert_eq!(acc.instr_shape, vec![16, 256, 16]);
        assert!(b.is_none());
        assert!(Encoding::NvidiaMma(acc)
            .to_linear_layout(&[128, 256])
            .is_ok());
    }
}
