//! gfx1250's `make_partitioned_dot_layouts` (Gluon's `amd.cdna5` / `amd.gfx1250`): the shared layouts of
//! a GEMM's two operands split over two LDS partitions, and the WMMA layout whose warps read them without
//! partition conflicts, as Triton 3.9 builds them.
//!
//! The WMMA layout tiles `slice_m × slice_n` in logical instruction tiles: warp bit 0 moves half the
//! slice down and one N piece across, warp bit 1 one M piece down (so the two warps of a pair read
//! different partitions), registers walk N within a piece, then M within a piece, then to the other M
//! group (an 8-warp CTA gives that step to warp bit 2). Each operand's padded layout is cut along M (A) or
//! N (B) into `2 × block / slice` pieces, each with the same padding over an identity layout.

use std::sync::Arc;

use crate::layout::{Bases, Result};

use super::{invalid, AmdWmma, CgaLayout, Encoding, PaddedShared, PartitionedShared};

/// LDS partitions the operands are split over.
const NUM_PARTITIONS: u32 = 2;

/// The arguments of `make_partitioned_dot_layouts`, in Gluon's order and with its defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionedDotRequest {
    /// M of the shared A buffer (at least four logical instruction tiles).
    pub block_m: u64,
    /// N of the shared B buffer (at least two logical instruction tiles).
    pub block_n: u64,
    /// A's padded layout, its contiguous axis at dim 1 (`[block_m, block_k]`, or `[block_k, block_m]` when
    /// `a_transposed`).
    pub layout_a: PaddedShared,
    /// B's padded layout (`[block_k, block_n]`, or `[block_n, block_k]` when `b_transposed`).
    pub layout_b: PaddedShared,
    /// Warps per CTA: 4 or 8.
    pub num_warps: u32,
    /// The physical WMMA instruction `[M, N, K]`.
    pub instr_shape: Vec<u32>,
    /// M, not K, is A's contiguous axis.
    pub a_transposed: bool,
    /// K, not N, is B's contiguous axis.
    pub b_transposed: bool,
    /// M of one dot after slicing (default `block_m`).
    pub slice_m: Option<u64>,
    /// N of one dot after slicing (default `block_n`).
    pub slice_n: Option<u64>,
    /// The WMMA result layout is transposed (Gluon's default: true).
    pub transposed: bool,
}

/// What `make_partitioned_dot_layouts` returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionedDotLayouts {
    /// A's shared layout.
    pub shared_a: PartitionedShared,
    /// B's shared layout.
    pub shared_b: PartitionedShared,
    /// The WMMA layout, for a `slice_m × slice_n` result.
    pub wmma: AmdWmma,
}

fn pow2(n: u64) -> bool {
    n > 0 && n.is_power_of_two()
}

fn log2(n: u64) -> u32 {
    63 - n.max(1).leading_zeros()
}

/// `sublayout` cut along `partition_dim` into `NUM_PARTITIONS × num_groups` pieces, each an identity
/// padded layout with the same padding (Gluon's `_make_partitioned_dot_operand_layout`).
fn partitioned_operand(
    sublayout: &PaddedShared,
    partition_dim: u32,
    num_groups: u64,
) -> Result<PartitionedShared> {
    if !pow2(num_groups) {
        return Err(invalid(
            "num_groups",
            format!("num_groups = {num_groups} must be a power of 2"),
        ));
    }
    let pieces = u64::from(NUM_PARTITIONS) * num_groups;
    let mut inner_shape = sublayout.shape.clone();
    let order = [1u32, 0];
    if inner_shape.len() != order.len() {
        return Err(invalid(
            "shape",
            format!(
                "the operand layouts must be rank 2, got rank {}",
                inner_shape.len()
            ),
        ));
    }
    let extent = inner_shape[partition_dim as usize];
    if !extent.is_multiple_of(pieces) {
        return Err(invalid(
            "shape",
            format!("partitioned dim ({extent}) must be divisible by num_partitions * num_groups = {pieces}"),
        ));
    }
    inner_shape[partition_dim as usize] /= pieces;
    if !inner_shape.iter().all(|&s| pow2(s)) {
        return Err(invalid(
            "shape",
            format!("the piece shape {inner_shape:?} must be powers of 2"),
        ));
    }
    let per_cta = sublayout.cga_layout.shape_per_cta(&inner_shape)?;
    let mut inner =
        PaddedShared::with_identity_for(&sublayout.interval_padding_pairs, &per_cta, &order);
    inner.shape = inner_shape;
    inner.cga_layout = sublayout.cga_layout.clone();
    let l = PartitionedShared {
        num_partitions: NUM_PARTITIONS,
        num_groups: num_groups as u32,
        partition_dim,
        partition_layout: Arc::new(Encoding::PaddedShared(inner)),
    };
    l.validate()?;
    Ok(l)
}

/// Gluon's `make_partitioned_dot_layouts`: `(shared_a, shared_b, wmma)`, or the rule the arguments break.
pub fn make_partitioned_dot_layouts(r: &PartitionedDotRequest) -> Result<PartitionedDotLayouts> {
    if r.num_warps != 4 && r.num_warps != 8 {
        return Err(invalid(
            "num_warps",
            format!(
                "Only 4 or 8 warps are currently supported, got {}",
                r.num_warps
            ),
        ));
    }
    let [phys_m, phys_n, ..] = r.instr_shape[..] else {
        return Err(invalid("instr_shape", "expected [M, N, K]"));
    };
    let (instr_m, instr_n) = if r.transposed {
        (u64::from(phys_n), u64::from(phys_m))
    } else {
        (u64::from(phys_m), u64::from(phys_n))
    };
    let (block_m, block_n) = (r.block_m, r.block_n);
    let slice_m = r.slice_m.unwrap_or(block_m);
    let slice_n = r.slice_n.unwrap_or(block_n);
    if !pow2(instr_m) || !pow2(instr_n) {
        return Err(invalid(
            "instr_shape",
            format!(
                "instr_shape M/N must be powers of 2, got {:?}",
                r.instr_shape
            ),
        ));
    }
    if !block_m.is_multiple_of(instr_m) || !block_n.is_multiple_of(instr_n) {
        return Err(invalid(
            "block",
            format!("block ({block_m}, {block_n}) must be a multiple of logical WMMA tile ({instr_m}, {instr_n})"),
        ));
    }
    if !pow2(slice_m) || !pow2(slice_n) {
        return Err(invalid(
            "slice",
            format!("slice_m / slice_n must be powers of 2, got ({slice_m}, {slice_n})"),
        ));
    }
    if !block_m.is_multiple_of(slice_m) || !block_n.is_multiple_of(slice_n) {
        return Err(invalid(
            "slice",
            format!("slice ({slice_m}, {slice_n}) must divide block ({block_m}, {block_n})"),
        ));
    }
    if !slice_m.is_multiple_of(instr_m) || !slice_n.is_multiple_of(instr_n) {
        return Err(invalid(
            "slice",
            format!("slice ({slice_m}, {slice_n}) must be a multiple of logical WMMA tile ({instr_m}, {instr_n})"),
        ));
    }
    let per_slice_m = slice_m / instr_m;
    let per_slice_n = slice_n / instr_n;
    let (per_partition_m, per_partition_n) = (2, 1);
    let parts = u64::from(NUM_PARTITIONS);
    if per_slice_m < parts * per_partition_m {
        return Err(invalid(
            "slice_m",
            format!(
                "slice_m ({slice_m}) must be at least {} * logical instruction M ({instr_m})",
                parts * per_partition_m
            ),
        ));
    }
    if per_slice_n < parts * per_partition_n {
        return Err(invalid(
            "slice_n",
            format!(
                "slice_n ({slice_n}) must be at least {} * logical instruction N ({instr_n})",
                parts * per_partition_n
            ),
        ));
    }
    let piece_m = per_slice_m / (parts * per_partition_m);
    let piece_n = per_slice_n / (parts * per_partition_n);
    let mut warp_bases: Bases = vec![vec![per_slice_m / 2, piece_n], vec![piece_m, 0]];
    let mut m_group = vec![piece_m * 2];
    if r.num_warps == 8 {
        // The tile warp 0 would repeat goes to warp 4.
        warp_bases.push(vec![piece_m * 2, 0]);
        m_group.clear();
    }
    let mut reg_bases: Bases = (0..log2(piece_n)).map(|i| vec![0, 1 << i]).collect();
    reg_bases.extend((0..log2(piece_m)).map(|i| vec![1 << i, 0]));
    reg_bases.extend(m_group.into_iter().map(|w| vec![w, 0]));
    let wmma = AmdWmma {
        version: 3,
        transposed: r.transposed,
        warp_bases,
        reg_bases,
        instr_shape: r.instr_shape.clone(),
        cga_layout: CgaLayout::single(),
        rank: 2,
    };
    wmma.validate()?;
    let shared_a = partitioned_operand(
        &r.layout_a,
        if r.a_transposed { 1 } else { 0 },
        block_m / slice_m,
    )?;
    let shared_b = partitioned_operand(
        &r.layout_b,
        if r.b_transposed { 0 } else { 1 },
        block_n / slice_n,
    )?;
    Ok(PartitionedDotLayouts {
        shared_a,
        shared_b,
        wmma,
    })
}
