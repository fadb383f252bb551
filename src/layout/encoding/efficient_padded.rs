//! CDNA4's `compute_efficient_padded_shared_layout` (Gluon's `amd.cdna4`; Triton 3.9's
//! `composePaddedLayoutForAsyncCopyCDNA4`): a padded shared layout for an MFMA operand filled by async
//! copies, whose padding staggers the rows that the MFMA's `ds_read`s fetch together across LDS banks.
//!
//! An async copy writes a warp's 64 lanes contiguously, so padding can only go at warp boundaries: one pad
//! every `64 × vec` elements (`vec` = 16 bytes). Inside such an interval the layout packs `wrap` rows that
//! then start on different banks: the contiguous dim's bits first, then the rows a stride of `wrap` apart
//! until the interval is full, then the rows within `wrap`, then the rest. The pad and `wrap` depend on the
//! read instruction (`ds_read_b128` for 16 contiguous K bytes, `ds_read_b64_tr` for K strided by 8 bytes
//! or more, else 32-bank reads) and on how many rows the tile has; where no configuration is conflict-free
//! enough the answer is "none", as Gluon's `None`.

use crate::layout::{Bases, Result};

use super::{invalid, AmdMfma, DotOperand, Encoding, PaddedShared};

/// Lanes of a CDNA wavefront.
const WARP_SIZE: u64 = 64;

fn log2(n: u64) -> u32 {
    63 - n.max(1).leading_zeros()
}

/// The parent MFMA of a dot operand, as Gluon's helper requires it (version 4).
fn mfma_parent(dot: &DotOperand) -> Result<&AmdMfma> {
    match dot.parent.as_ref() {
        Encoding::AmdMfma(m) if m.version == 4 => Ok(m),
        Encoding::AmdMfma(_) => Err(invalid(
            "dot_operand_layout",
            "compute_efficient_padded_shared_layout only supports MFMA v4 (CDNA4)",
        )),
        _ => Err(invalid(
            "dot_operand_layout",
            "Expected dot operand's parent to be an AMDMFMALayout",
        )),
    }
}

/// The bases (in `[contig, non-contig]` coordinates) and the `(interval, padding)` of the layout, or `None`.
struct Plan {
    bases: Bases,
    interval: u64,
    padding: u64,
}

/// Triton's search, in `[contig, non_contig]` coordinates.
fn plan(
    op_idx: u32,
    k_width: u64,
    mfma_non_k: u64,
    shape: [u64; 2],
    elem_bytes: u64,
    k_contig: bool,
) -> Result<Option<Plan>> {
    let k_dim_index = if op_idx == 0 { 1 } else { 0 };
    let (k_dim, non_k_dim) = (shape[k_dim_index], shape[1 - k_dim_index]);
    let (contig, rows) = if k_contig {
        (k_dim, non_k_dim)
    } else {
        (non_k_dim, k_dim)
    };
    let k_width_bytes = k_width * elem_bytes;
    let vec = 16 / elem_bytes;
    // The read instruction decides the bank count and the pad.
    let b128 = k_contig && k_width_bytes == 16;
    let b64_tr = !k_contig && k_width_bytes >= 8;
    let banks = if b128 || b64_tr { 64 } else { 32 };
    let elems_per_bank_row = banks * 4 / elem_bytes;
    let padding = if b128 {
        if mfma_non_k == 16 {
            k_width * 2
        } else {
            k_width
        }
    } else if b64_tr {
        if mfma_non_k == 16 {
            16
        } else {
            32
        }
    } else {
        8 / elem_bytes
    };
    let mut wrap = contig.min(elems_per_bank_row) / padding;
    let contig_lanes = contig / vec;
    if wrap == 0 || contig_lanes == 0 {
        return Ok(None);
    }
    // Fewer rows than the stagger needs: every halving doubles the conflicts. ds_read_b128 tolerates none,
    // the others two-way (what swizzling would give too).
    let lane_rows = WARP_SIZE / contig_lanes;
    let required = lane_rows * wrap;
    let conflicts = if rows >= required {
        1
    } else {
        log2(required / rows.max(1)) + 1
    };
    if (b128 && conflicts > 1) || conflicts > 2 {
        return Ok(None);
    }
    if conflicts > 1 {
        wrap >>= conflicts - 1;
        if wrap == 0 {
            return Ok(None);
        }
    }
    // Sixteen rows to a stagger when the tile has enough.
    let best_wrap = 16;
    let wide_wrap = rows >= lane_rows * best_wrap && best_wrap > wrap;
    if wide_wrap {
        wrap = best_wrap;
    }
    let interval = WARP_SIZE * vec;
    let mut bases: Bases = (0..log2(contig)).map(|b| vec![1 << b, 0]).collect();
    let mut row_bit = log2(wrap);
    while (bases.len() as u32) < log2(interval) {
        bases.push(vec![0, 1u64.checked_shl(row_bit).unwrap_or(0)]);
        row_bit += 1;
    }
    bases.extend((0..log2(wrap)).map(|b| vec![0, 1 << b]));
    bases.extend((row_bit..log2(rows).max(row_bit)).map(|b| vec![0, 1 << b]));
    let fail = |what: &str| {
        invalid(
            "shape",
            format!("Triton's padded-layout search fails an internal check ({what}) for this tile"),
        )
    };
    // A ds_read_b64_tr reads 8 bytes: with 16-byte K groups on a 16-row MFMA the rows at 8 and 16 bytes
    // trade places.
    if b64_tr && mfma_non_k == 16 && k_width_bytes == 16 {
        let at = |row: u64| bases.iter().rposition(|b| b[1] == row).filter(|&i| i != 0);
        let (Some(g0), Some(g1)) = (at(8 / elem_bytes), at(16 / elem_bytes)) else {
            return Err(fail("the rows 8 and 16 bytes apart"));
        };
        bases.swap(g0, g1);
    }
    // ds_read_b128 on a 32-row MFMA with a short K: every 16th row moves to the other half of the banks
    // (narrow) or to the same bank (wide).
    if b128 && mfma_non_k == 32 && wide_wrap && k_dim < 256 / elem_bytes {
        let wide = k_width == 16 / elem_bytes;
        let offset_index = if wide { 8 } else { 7 };
        let row16_index = log2(contig) as usize;
        if row16_index >= bases.len() || offset_index >= bases.len() {
            return Err(fail("the 16th row's basis"));
        }
        bases.swap(offset_index, row16_index);
    }
    Ok(Some(Plan {
        bases,
        interval,
        padding,
    }))
}

/// Gluon's `amd.cdna4.compute_efficient_padded_shared_layout(dot_operand_layout, shape, dtype,
/// is_k_contig)` for elements of `element_bits` bits: `Ok(None)` where Gluon returns `None`.
pub fn compute_efficient_padded_shared_layout(
    dot: &DotOperand,
    shape: &[u64],
    element_bits: u32,
    is_k_contig: bool,
) -> Result<Option<PaddedShared>> {
    let mfma = mfma_parent(dot)?;
    let Ok(shape2) = <[u64; 2]>::try_from(shape) else {
        return Ok(None);
    };
    let elem_bytes = u64::from(element_bits / 8).max(1);
    if !(1..=2).contains(&elem_bytes) || dot.op_idx >= 2 {
        return Ok(None);
    }
    let mfma_non_k = u64::from(
        mfma.instr_shape
            .get(dot.op_idx as usize)
            .copied()
            .unwrap_or(0),
    );
    if mfma_non_k != 16 && mfma_non_k != 32 {
        return Ok(None);
    }
    let k_width = u64::from(dot.k_width);
    if ![4, 8, 16].contains(&k_width) {
        return Ok(None);
    }
    if shape2.iter().any(|&s| s == 0 || !s.is_power_of_two()) {
        return Err(invalid(
            "shape",
            format!("the tile shape {shape:?} must be powers of 2"),
        ));
    }
    let Some(p) = plan(
        dot.op_idx,
        k_width,
        mfma_non_k,
        shape2,
        elem_bytes,
        is_k_contig,
    )?
    else {
        return Ok(None);
    };
    // The contiguous dim is `shape`'s dim 1 when K is contiguous in A or N in B.
    let contig_is_dim1 = is_k_contig == (dot.op_idx == 0);
    let offset_bases: Bases = p
        .bases
        .into_iter()
        .map(|b| if contig_is_dim1 { vec![b[1], b[0]] } else { b })
        .collect();
    let cga_layout = dot.cga_layout()?;
    // Triton lays the whole tile out per CTA, so a CGA that splits it leaves offsets that broadcast.
    if cga_layout.bases.iter().flatten().any(|&c| c != 0) {
        return Err(invalid(
            "cga_layout",
            "Broadcasting in offset dimension is not supported (the CGA splits the tile)",
        ));
    }
    let layout = PaddedShared {
        interval_padding_pairs: vec![(p.interval as u32, p.padding as u32)],
        offset_bases,
        cga_layout,
        shape: shape.to_vec(),
    };
    layout.validate()?;
    Ok(Some(layout))
}
