//! No input makes the tensor-memory and AMD scale / partitioned layouts panic: proptest feeds arbitrary
//! parameters, bases, shapes, element widths and warp counts; each call must return `Ok` or `Err`.
//! Failures persist in `proptest-regressions/encodings_new_no_panic.txt`.

use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use weft::layout::encoding::{
    amd_mfma_scale_layout, amd_wmma_scale_layout, scaled_upcast_fp4_scale_layout, tmem_reg_layout,
    Blocked, CgaLayout, Encoding, PartitionedShared, SwizzledShared, TensorMemory,
    TensorMemoryScales, TmemMessage, WmmaScaleParams,
};
use weft::layout::Bases;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/encodings_new_no_panic.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// Mostly plausible values, sometimes anything.
fn small() -> impl Strategy<Value = u32> {
    prop_oneof![4 => (0u32..9).prop_map(|b| 1 << b), 1 => any::<u32>(), 1 => 0u32..3]
}

/// One of the values a parameter takes, often, else anything.
fn one_of(valid: Vec<u32>) -> impl Strategy<Value = u32> {
    prop_oneof![6 => proptest::sample::select(valid), 1 => small()]
}

/// Extents: mostly powers of two up to 512, sometimes anything.
fn extent() -> impl Strategy<Value = u64> {
    prop_oneof![4 => (0u32..10).prop_map(|b| 1u64 << b), 1 => any::<u64>(), 1 => (0u32..64).prop_map(|b| 1u64 << b)]
}

fn shape() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![4 => proptest::collection::vec(extent(), 2), 1 => proptest::collection::vec(extent(), 0..4)]
}

/// Shapes a tensor-memory tile or a scale tensor has, often, else anything.
fn tile_shape() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![
        3 => ((6u32..9), (0u32..9)).prop_map(|(m, n)| vec![1u64 << m, 1u64 << n]),
        1 => shape(),
    ]
}

/// CGA layouts: mostly none, sometimes anything.
fn cga() -> impl Strategy<Value = Bases> {
    prop_oneof![3 => Just(Vec::new()), 1 => Just(vec![vec![1, 0]]), 1 => bases()]
}

fn bases() -> impl Strategy<Value = Bases> {
    proptest::collection::vec(
        prop_oneof![
            4 => proptest::collection::vec(0u64..4, 2),
            1 => proptest::collection::vec(any::<u64>(), 0..4),
        ],
        0..4,
    )
}

fn message() -> impl Strategy<Value = TmemMessage> {
    proptest::sample::select(vec![
        TmemMessage::I32x32b,
        TmemMessage::I16x64b,
        TmemMessage::I16x128b,
        TmemMessage::I16x256b,
        TmemMessage::I32x32bSplitN,
    ])
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn tensor_memory_never_panics(
        (bm, bn, cs) in (one_of(vec![64, 128]), small(), one_of(vec![1, 2, 4])),
        (cga, two, fp4) in (cga(), any::<bool>(), any::<bool>()),
        s in tile_shape(),
        alloc in tile_shape(),
        (bits, warps, msg) in (one_of(vec![8, 16, 32]), one_of(vec![4, 8, 16]), message()),
    ) {
        let t = TensorMemory { block_m: bm, block_n: bn, col_stride: cs, cga_layout: CgaLayout::new(cga.clone()), two_ctas: two, fp4_padded: fp4 };
        let _ = t.check_type(&s, bits);
        let _ = t.to_linear_layout(&s);
        let _ = tmem_reg_layout(bits, &s, &alloc, &Encoding::TensorMemory(t), warps, msg);
        let sc = TensorMemoryScales { cga_layout: CgaLayout::new(cga) };
        let _ = sc.to_linear_layout(&s);
        let _ = tmem_reg_layout(bits, &s, &alloc, &Encoding::TensorMemoryScales(sc), warps, msg);
        let _ = TmemMessage::parse(&format!("{bm}x{bn}b"));
    }

    #[test]
    fn partitioned_shared_never_panics(
        (p, g, d) in (one_of(vec![2, 4]), one_of(vec![1, 2]), one_of(vec![0, 1])),
        (vec, per, max) in (small(), small(), small()),
        order in proptest::collection::vec(0u32..4, 0..4),
        s in shape(),
    ) {
        let inner = Encoding::SwizzledShared(SwizzledShared { vec, per_phase: per, max_phase: max, order, cga_layout: CgaLayout::single() });
        let part = PartitionedShared { num_partitions: p, num_groups: g, partition_dim: d, partition_layout: Arc::new(inner) };
        let _ = Encoding::PartitionedShared(part.clone()).to_linear_layout(&s);
        // Nested once more.
        let outer = PartitionedShared { partition_layout: Arc::new(Encoding::PartitionedShared(part)), ..PartitionedShared { num_partitions: 2, num_groups: 1, partition_dim: 0, partition_layout: Arc::new(Encoding::TensorMemoryScales(TensorMemoryScales::default())) } };
        let _ = Encoding::PartitionedShared(outer).to_linear_layout(&s);
    }

    #[test]
    fn amd_scale_layouts_never_panic(
        (op, m, n) in (0u32..3, one_of(vec![16, 32]), one_of(vec![16, 32])),
        (tr, sf) in (any::<bool>(), one_of(vec![16, 32])),
        (reg, warp, cga) in (bases(), bases(), cga()),
        tiles in proptest::collection::vec(one_of(vec![1, 2]), 0..3),
        warps in proptest::collection::vec(small(), 0..3),
        s in tile_shape(),
    ) {
        let _ = amd_mfma_scale_layout(op, &s, m, &tiles, &warps);
        let p = WmmaScaleParams { op_idx: op, m_dim: m, n_dim: n, transposed: tr, scale_factor: sf, reg_bases: reg, warp_bases: warp, cga_layout: CgaLayout::new(cga) };
        let _ = amd_wmma_scale_layout(&p, &s);
        let src = Encoding::Blocked(Blocked::new(&[1, sf.min(64)], &[8, 8], &[m.min(64), 1], &[1, 0]));
        let _ = scaled_upcast_fp4_scale_layout(&src, &s, u64::from(n), op as usize);
        let _ = scaled_upcast_fp4_scale_layout(&Encoding::TensorMemoryScales(TensorMemoryScales::default()), &s, 1, 0);
    }
}
