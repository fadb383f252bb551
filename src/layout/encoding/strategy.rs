//! proptest strategies (feature `proptest`) that generate valid encodings of every kind, and valid
//! (encoding, shape) pairs, so users can property-test their own conversions and codegen.

use proptest::prelude::*;
use proptest::sample::select;

use super::{
    AmdMfma, AmdWmma, Blocked, CgaLayout, DistributedLinear, DotOperand, Encoding, NvidiaMma,
    NvmmaShared, PaddedShared, PartitionedShared, SharedLinear, Slice, SwizzledShared,
    TensorMemory, TensorMemoryScales,
};

/// Splits `2^bits` over `rank` dims at random: one power of two per dim, product `2^bits`.
fn split(bits: u32, rank: usize) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(0..rank, bits as usize).prop_map(move |picks| {
        let mut v = vec![1u32; rank];
        for p in picks {
            v[p] *= 2;
        }
        v
    })
}

/// A random order (permutation of `0..rank`).
fn order(rank: usize) -> impl Strategy<Value = Vec<u32>> {
    Just((0..rank as u32).collect::<Vec<_>>()).prop_shuffle()
}

/// Block bases for up to `max_bits` bits of block id over `rank` dims; a zero basis (broadcast CTAs) is
/// allowed. Each dim's non-zero bases are 1, 2, 4, … in order.
fn cga(rank: usize, max_bits: u32) -> impl Strategy<Value = CgaLayout> {
    (0..=max_bits)
        .prop_flat_map(move |bits| proptest::collection::vec(0..=rank, bits as usize))
        .prop_map(move |picks| {
            let mut next = vec![1u64; rank];
            CgaLayout::new(
                picks
                    .into_iter()
                    .map(|d| {
                        let mut b = vec![0u64; rank];
                        if d < rank {
                            b[d] = next[d];
                            next[d] *= 2;
                        }
                        b
                    })
                    .collect(),
            )
        })
}

/// Blocked layouts of rank 1–3 with 32 threads per warp and 1–8 warps (multi-CTA included).
pub fn blocked() -> impl Strategy<Value = Blocked> {
    (1usize..=3, 0u32..=3).prop_flat_map(|(rank, warp_bits)| {
        (
            proptest::collection::vec(select(vec![1u32, 2, 4, 8]), rank),
            split(5, rank),
            split(warp_bits, rank),
            order(rank),
            cga(rank, 1),
        )
            .prop_map(|(spt, tpw, wpc, order, cga_layout)| Blocked {
                size_per_thread: spt,
                threads_per_warp: tpw,
                warps_per_cta: wpc,
                order,
                cga_layout,
            })
    })
}

/// NVIDIA MMA layouts: Ampere (16×8, 1–8 warps) and Hopper (16×N×16, N a power of two up to 256, 4 or 8
/// warps).
pub fn nvidia_mma() -> impl Strategy<Value = NvidiaMma> {
    prop_oneof![
        (0u32..=3)
            .prop_flat_map(|b| split(b, 2))
            .prop_map(|w| NvidiaMma::ampere(&w)),
        (
            select(vec![8u32, 16, 32, 64, 128, 256]),
            select(vec![[4u32, 1], [8, 1], [4, 2]])
        )
            .prop_map(|(n, w)| NvidiaMma::hopper(&w, n, 16)),
    ]
}

/// AMD MFMA layouts of rank 2 (every instruction shape, transposed or not, tiles per warp, 64-bit).
pub fn amd_mfma() -> impl Strategy<Value = AmdMfma> {
    (
        1u32..=4,
        select(vec![[32u32, 32, 8], [16, 16, 16], [4, 64, 4], [64, 4, 4]]),
        any::<bool>(),
        (0u32..=3).prop_flat_map(|b| split(b, 2)),
        split(1, 2),
        any::<bool>(),
    )
        .prop_map(|(version, instr, transposed, warps, tiles, wide)| {
            let transposed = transposed || instr[..2] == [64, 4];
            AmdMfma {
                version,
                instr_shape: instr.to_vec(),
                transposed,
                tiles_per_warp: tiles,
                element_bitwidth: if wide && instr[..2] == [16, 16] {
                    64
                } else {
                    32
                },
                cga_layout: CgaLayout::single(),
                warps_per_cta: warps,
            }
        })
}

/// AMD WMMA layouts of rank 2 (versions 1–3 with their instruction shapes; warps as bases).
pub fn amd_wmma() -> impl Strategy<Value = AmdWmma> {
    (
        select(vec![
            (1u32, [16u32, 16, 16]),
            (2, [16, 16, 16]),
            (2, [16, 16, 32]),
            (3, [16, 16, 32]),
            (3, [16, 16, 64]),
            (3, [32, 16, 128]),
        ]),
        any::<bool>(),
        select(vec![
            vec![vec![0u64, 1], vec![1, 0]],
            vec![vec![1, 0], vec![0, 1]],
            vec![vec![1, 0], vec![2, 0]],
            vec![vec![0, 1]],
            vec![],
        ]),
    )
        .prop_map(|((version, instr), transposed, warps)| AmdWmma {
            version,
            transposed,
            warp_bases: warps,
            reg_bases: Vec::new(),
            instr_shape: instr.to_vec(),
            cga_layout: CgaLayout::single(),
            rank: 2,
        })
}

/// Distributed linear layouts: a random permutation matrix (every basis one bit of one dim) with some zero
/// (broadcast) lane and warp bases, rank 1–3.
pub fn linear() -> impl Strategy<Value = DistributedLinear> {
    (1usize..=3, 0usize..=3, 0usize..=2, 0usize..=2).prop_flat_map(|(rank, regs, zl, warps)| {
        let lanes = 5 - zl;
        let total = regs + lanes + warps;
        (split(total as u32, rank), Just((rank, regs, zl, warps)))
            .prop_flat_map(|(sizes, p)| {
                // One basis per bit of each dim, shuffled over register, lane and warp.
                let mut bases: Vec<Vec<u64>> = Vec::new();
                for (d, &s) in sizes.iter().enumerate() {
                    let mut b = 1u64;
                    while b < u64::from(s) {
                        let mut v = vec![0; sizes.len()];
                        v[d] = b;
                        bases.push(v);
                        b *= 2;
                    }
                }
                (Just(bases).prop_shuffle(), Just(sizes), Just(p))
            })
            .prop_map(|(bases, sizes, (rank, regs, zl, _))| {
                let lanes = 5 - zl;
                let mut it = bases.into_iter();
                let reg_bases: Vec<_> = it.by_ref().take(regs).collect();
                let mut lane_bases: Vec<_> = it.by_ref().take(lanes).collect();
                lane_bases.extend((0..zl).map(|_| vec![0; rank]));
                let warp_bases: Vec<_> = it.collect();
                DistributedLinear {
                    reg_bases,
                    lane_bases,
                    warp_bases,
                    block_bases: Vec::new(),
                    shape: sizes.into_iter().map(u64::from).collect(),
                }
            })
    })
}

/// Slices of blocked, MMA and linear parents.
pub fn slice() -> impl Strategy<Value = Slice> {
    prop_oneof![
        blocked().prop_map(Encoding::Blocked),
        nvidia_mma().prop_map(Encoding::NvidiaMma),
        linear().prop_map(Encoding::Linear),
    ]
    .prop_filter("parent rank >= 2", |p| p.rank().unwrap_or(0) >= 2)
    .prop_flat_map(|p| {
        let r = p.rank().unwrap_or(2) as u32;
        (0..r, Just(p))
    })
    .prop_map(|(d, p)| Slice::new(d, p))
}

/// Dot operands of MMA v2 (A and B, `k_width` 1–8), MMA v3 (A) and blocked parents.
pub fn dot_operand() -> impl Strategy<Value = DotOperand> {
    prop_oneof![
        (
            0u32..=1,
            select(vec![1u32, 2, 4, 8]),
            (0u32..=3).prop_flat_map(|b| split(b, 2))
        )
            .prop_map(|(op, kw, w)| DotOperand::new(op, NvidiaMma::ampere(&w).into(), kw)),
        (
            select(vec![1u32, 2, 4]),
            nvidia_mma().prop_filter("hopper", NvidiaMma::is_hopper)
        )
            .prop_map(|(kw, m)| DotOperand::new(0, m.into(), kw)),
        (
            0u32..=1,
            blocked().prop_filter("rank >= 2", |b| b.rank() >= 2)
        )
            .prop_map(|(op, b)| DotOperand::new(op, b.into(), 0)),
    ]
}

/// Swizzled shared layouts of rank 1–3.
pub fn swizzled_shared() -> impl Strategy<Value = SwizzledShared> {
    (1usize..=3).prop_flat_map(|rank| {
        (
            select(vec![1u32, 2, 4, 8, 16]),
            select(vec![1u32, 2, 4, 8]),
            select(vec![1u32, 2, 4, 8]),
            order(rank),
            cga(rank, 1),
        )
            .prop_map(
                |(vec, per_phase, max_phase, order, cga_layout)| SwizzledShared {
                    vec,
                    per_phase,
                    max_phase,
                    order,
                    cga_layout,
                },
            )
    })
}

/// NVMMA shared layouts of rank 2–3 (every swizzle, element width, transposition; fp4 padded).
pub fn nvmma_shared() -> impl Strategy<Value = NvmmaShared> {
    (
        select(vec![0u32, 32, 64, 128]),
        select(vec![8u32, 16, 32]),
        2usize..=3,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(swizzle, bits, rank, transposed, fp4)| {
            let fp4 = fp4 && swizzle == 128 && bits == 8;
            NvmmaShared {
                swizzle_byte_width: swizzle,
                element_bitwidth: bits,
                rank,
                transposed,
                fp4_padded: fp4,
                cga_layout: CgaLayout::single(),
            }
        })
}

/// Shared linear layouts: a shuffled identity of rank 1–3 (a bijection).
pub fn shared_linear() -> impl Strategy<Value = SharedLinear> {
    (1usize..=3, 2u32..=10)
        .prop_flat_map(|(rank, bits)| split(bits, rank))
        .prop_flat_map(|sizes| {
            let mut bases = Vec::new();
            for (d, &s) in sizes.iter().enumerate() {
                let mut b = 1u64;
                while b < u64::from(s) {
                    let mut v = vec![0; sizes.len()];
                    v[d] = b;
                    bases.push(v);
                    b *= 2;
                }
            }
            (Just(bases).prop_shuffle(), select(vec![16u32, 128, 1024]))
        })
        .prop_filter("non-empty", |(b, _)| !b.is_empty())
        .prop_map(|(offset_bases, alignment)| SharedLinear {
            offset_bases,
            block_bases: Vec::new(),
            alignment,
        })
}

/// Padded shared layouts with an identity linear component.
pub fn padded_shared() -> impl Strategy<Value = PaddedShared> {
    (1usize..=3)
        .prop_flat_map(|rank| {
            (
                proptest::collection::vec(select(vec![1u64, 2, 4, 8, 16, 32, 64]), rank),
                order(rank),
                select(vec![
                    vec![(32u32, 4u32)],
                    vec![(64, 8)],
                    vec![(16, 1), (128, 4)],
                ]),
            )
        })
        .prop_map(|(shape, order, pairs)| PaddedShared::with_identity_for(&pairs, &shape, &order))
}

/// Blackwell tensor-memory layouts: blockM 64 or 128, blockN 1–512, every column stride, fp4 padding,
/// and two-CTA layouts over a cluster split along dim 0.
pub fn tensor_memory() -> impl Strategy<Value = TensorMemory> {
    (
        select(vec![64u32, 128]),
        0u32..=9,
        select(vec![1u32, 2, 4]),
        any::<bool>(),
        0u8..3,
    )
        .prop_map(|(block_m, n_log2, col_stride, fp4, ctas)| {
            let (cga_layout, two_ctas) = match ctas {
                0 => (CgaLayout::single(), false),
                1 => (CgaLayout::new(vec![vec![1, 0]]), false),
                _ => (CgaLayout::new(vec![vec![1, 0]]), true),
            };
            TensorMemory {
                block_m,
                block_n: 1 << n_log2,
                col_stride,
                cga_layout,
                two_ctas,
                fp4_padded: fp4 && col_stride == 1,
            }
        })
}

/// Tensor-memory scale layouts, single CTA or split over two.
pub fn tensor_memory_scales() -> impl Strategy<Value = TensorMemoryScales> {
    cga(2, 1).prop_map(|cga_layout| TensorMemoryScales { cga_layout })
}

/// gfx1250 partitioned shared layouts over a swizzled or NVMMA piece layout: 2–8 partitions, 1–4 groups.
pub fn partitioned_shared() -> impl Strategy<Value = PartitionedShared> {
    (
        prop_oneof![
            swizzled_shared().prop_map(Encoding::SwizzledShared),
            nvmma_shared().prop_map(Encoding::NvmmaShared),
        ],
        select(vec![2u32, 4, 8]),
        select(vec![1u32, 2, 4]),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(inner, num_partitions, num_groups, dim)| {
            let rank = inner.rank().unwrap_or(1).max(1);
            PartitionedShared {
                num_partitions,
                num_groups,
                partition_dim: dim.index(rank) as u32,
                partition_layout: std::sync::Arc::new(inner),
            }
        })
}

/// Any valid encoding.
pub fn encoding() -> impl Strategy<Value = Encoding> {
    prop_oneof![
        blocked().prop_map(Encoding::Blocked),
        slice().prop_map(Encoding::Slice),
        nvidia_mma().prop_map(Encoding::NvidiaMma),
        dot_operand().prop_map(Encoding::DotOperand),
        amd_mfma().prop_map(Encoding::AmdMfma),
        amd_wmma().prop_map(Encoding::AmdWmma),
        linear().prop_map(Encoding::Linear),
        swizzled_shared().prop_map(Encoding::SwizzledShared),
        nvmma_shared().prop_map(Encoding::NvmmaShared),
        shared_linear().prop_map(Encoding::SharedLinear),
        padded_shared().prop_map(Encoding::PaddedShared),
        partitioned_shared().prop_map(Encoding::PartitionedShared),
        tensor_memory().prop_map(Encoding::TensorMemory),
        tensor_memory_scales().prop_map(Encoding::TensorMemoryScales),
    ]
}

/// A valid encoding with a tensor shape it has a linear layout for (extents 1–256; smaller, equal and
/// larger than the layout's tile).
pub fn encoding_with_shape() -> impl Strategy<Value = (Encoding, Vec<u64>)> {
    encoding()
        .prop_filter("has a rank", |e| e.rank().is_ok())
        .prop_flat_map(|e| {
            let rank = e.rank().unwrap_or(1);
            (Just(e), proptest::collection::vec(0u32..=8, rank))
        })
        .prop_map(|(e, logs)| (e, logs.into_iter().map(|l| 1u64 << l).collect::<Vec<_>>()))
        .prop_filter("Triton gives a layout", |(e, s)| {
            e.to_linear_layout(s).is_ok()
        })
}
