//! `associative_scan` and the cumsum kernel without a GPU: PTX that ptxas accepts for sm_80 and
//! sm_90 (with `shfl.sync.up` where lanes step along the axis, a barrier where warps do), the
//! AMDGPU build for gfx942, and the typed errors.
#![cfg(feature = "llvm")]

mod common;
#[path = "common/scan_kernel.rs"]
mod scan_kernel;

use common::assemble;
use scan_kernel::{scan_kernel, scan_layouts};
use weft::codegen::kernels::{self, CUMSUM_TILES};
use weft::codegen::{CodegenError, Context, DType, KernelBuilder, ScanOp, Target};
use weft::layout::encoding::{Blocked, Encoding};

const SHAPES: [[u64; 2]; 3] = [[16, 32], [64, 64], [8, 128]];

#[test]
fn scans_assemble_for_sm80_and_sm90() {
    for target in [Target::SM80, Target::SM90] {
        for (l, w) in scan_layouts() {
            for shape in SHAPES {
                for axis in [0, 1] {
                    for (op, dt) in [
                        (Some(ScanOp::Sum), DType::I32),
                        (Some(ScanOp::Sum), DType::F32),
                        (Some(ScanOp::Max), DType::F32),
                        (None, DType::I32),
                    ] {
                        let what = format!("scan {l:?} {shape:?} axis {axis} {op:?} {dt}");
                        let ctx = Context::new();
                        let k = scan_kernel(&ctx, target, &l, shape, axis, op, dt, w)
                            .unwrap_or_else(|e| panic!("{what}: {e}"));
                        let ptx = k.ptx().unwrap_or_else(|e| panic!("{what}: {e}"));
                        assemble(&ptx, &target.to_string(), &what);
                    }
                }
            }
        }
    }
}

#[test]
fn lanes_along_the_axis_use_shfl_up_and_warps_a_barrier() {
    // Lanes along the columns, warps along the rows: shuffles, no shared memory.
    let ctx = Context::new();
    let l = Blocked::new(&[1, 4], &[1, 32], &[4, 1], &[1, 0]);
    let k = scan_kernel(
        &ctx,
        Target::SM90,
        &l,
        [4, 128],
        1,
        Some(ScanOp::Sum),
        DType::F32,
        4,
    )
    .unwrap();
    let ptx = k.ptx().unwrap();
    assert!(ptx.contains("shfl.sync.up"), "{ptx}");
    assert!(!ptx.contains("bar.sync"), "{ptx}");
    // Along the rows, warps step the axis: a barrier and shared memory.
    let k = scan_kernel(
        &ctx,
        Target::SM90,
        &l,
        [4, 128],
        0,
        Some(ScanOp::Sum),
        DType::F32,
        4,
    )
    .unwrap();
    let ptx = k.ptx().unwrap();
    assert!(ptx.contains("bar.sync"), "{ptx}");
    assert!(ptx.contains("st.shared"), "{ptx}");
    assert!(k.signature().shared_bytes > 0);
}

#[test]
fn cumsum_assembles_for_sm80_and_sm90() {
    for target in [Target::SM80, Target::SM90] {
        for t in CUMSUM_TILES {
            let what = format!("cumsum {t:?} ({target})");
            let ctx = Context::new();
            let k =
                kernels::cumsum_kernel(&ctx, target, t).unwrap_or_else(|e| panic!("{what}: {e}"));
            let ptx = k.ptx().unwrap();
            assemble(&ptx, &target.to_string(), &what);
            assert!(ptx.contains("shfl.sync.up"), "{what}");
            assert!(ptx.contains("ld.global.v4"), "{what}");
        }
        let ctx = Context::new();
        let k = kernels::cumsum_kernel_for_shape(&ctx, target, CUMSUM_TILES[0], 1001).unwrap();
        assemble(&k.ptx().unwrap(), &target.to_string(), "cumsum n = 1001");
    }
}

#[cfg(feature = "amdgpu")]
#[test]
fn scan_and_cumsum_build_for_gfx942() {
    let ctx = Context::new();
    let t = Target::GFX942;
    for tile in CUMSUM_TILES {
        let k = kernels::cumsum_kernel(&ctx, t, tile).unwrap();
        let obj = k.amdgpu_object(weft::codegen::OptLevel::O3).unwrap();
        assert_eq!(&obj[..4], b"\x7fELF");
    }
    let l = Blocked::new(&[1, 2], &[4, 16], &[2, 2], &[1, 0]);
    for axis in [0, 1] {
        let k = scan_kernel(
            &ctx,
            t,
            &l,
            [16, 64],
            axis,
            Some(ScanOp::Sum),
            DType::I32,
            4,
        )
        .unwrap();
        let obj = k.amdgpu_object(weft::codegen::OptLevel::O3).unwrap();
        assert_eq!(&obj[..4], b"\x7fELF");
    }
}

#[test]
fn scan_errors_are_typed() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "e", 4).unwrap();
    let l = Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
    let enc: Encoding = l.into();
    let z = kb.zeros((&enc, [16u64, 32]), DType::F32).unwrap();
    let e = kb.associative_scan(z, 2, ScanOp::Sum).unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::InvalidArgument { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("out of range"), "{e}");
    // A linear layout whose lane bit moves both dims at once.
    let ll = weft::layout::LinearLayout::from_bases(
        [
            ("register", vec![vec![0u64, 1], vec![0, 2]]),
            (
                "lane",
                vec![vec![1, 1], vec![2, 0], vec![4, 0], vec![8, 0], vec![0, 4]],
            ),
            ("warp", vec![vec![0, 8], vec![0, 16]]),
        ],
        [("dim0", 16u64), ("dim1", 32)],
        false,
    )
    .unwrap();
    let z = kb.zeros(&ll, DType::F32).unwrap();
    for axis in [0, 1] {
        let e = kb.associative_scan(z, axis, ScanOp::Sum).unwrap_err();
        assert!(matches!(e.cause(), CodegenError::BadLayout { .. }), "{e}");
        assert!(e.to_string().contains("at once"), "{e}");
    }
    // Lane bits along dim1 that are not consecutive (lane bits 0 and 2).
    let ll = weft::layout::LinearLayout::from_bases(
        [
            ("register", vec![vec![0u64, 1], vec![0, 2]]),
            (
                "lane",
                vec![vec![0, 4], vec![1, 0], vec![0, 8], vec![2, 0], vec![4, 0]],
            ),
            ("warp", vec![vec![8, 0], vec![0, 16]]),
        ],
        [("dim0", 16u64), ("dim1", 32)],
        false,
    )
    .unwrap();
    let z = kb.zeros(&ll, DType::F32).unwrap();
    let e = kb.associative_scan(z, 1, ScanOp::Sum).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::BadLayout { .. }), "{e}");
    // Along dim0 its lane bits (1, 3, 4) are not consecutive either.
    let e = kb.associative_scan(z, 0, ScanOp::Sum).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::BadLayout { .. }), "{e}");
    // Pointer tiles are refused.
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "p", 4).unwrap();
    let p = kb.arg_ptr("p", DType::F32, 4).unwrap();
    let offs = kb.zeros((&enc, [16u64, 32]), DType::I32).unwrap();
    let ptrs = kb.add(p, offs).unwrap();
    let e = kb.associative_scan(ptrs, 1, ScanOp::Sum).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::InvalidType { .. }), "{e}");
}
