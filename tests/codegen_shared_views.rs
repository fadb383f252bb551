//! Shared-memory views (`slice_shared`, `reshape_shared`, `reinterpret_shared`) on the CPU:
//! every view of every parent layout (row-major, swizzled, NVMMA of both majors, padded, linear)
//! either builds PTX that ptxas accepts for sm_90 (read through the view, and written through it)
//! or is refused with a typed error; which ones are refused is pinned; wgmma reads K slices of
//! NVMMA buffers; each misuse is a typed error naming its operands. The GPU runs the same kernels
//! in `gpu_shared_views.rs`.
#![cfg(feature = "llvm")]

mod common;

use common::views::{
    is_refusal, parents, tma_slices_kernel, view_kernel, views, wgmma_slices_kernel, SHAPE,
};
use weft::codegen::{CodegenError, Context, DType, KernelBuilder, Target};
use weft::layout::encoding::{Blocked, NvmmaShared, PaddedShared, SwizzledShared};

#[test]
fn every_view_of_every_parent_assembles_or_is_refused() {
    let ctx = Context::new();
    let mut refused: Vec<String> = Vec::new();
    for (name, parent) in parents() {
        for view in views() {
            for write in [false, true] {
                match view_kernel(&ctx, Target::SM90, &parent, &view, write) {
                    Ok(k) => {
                        let ptx = k.ptx().unwrap();
                        common::assemble(&ptx, "sm_90", &format!("{name} {view:?} {write}"));
                    }
                    Err(e) => {
                        assert!(is_refusal(&e), "{name} {view:?}: {e}");
                        if !write {
                            refused.push(format!("{name} {view:?}"));
                        }
                    }
                }
            }
        }
    }
    // The refusals: slices that cut a swizzle atom (the swizzle XORs the sliced bit into the
    // other dim's offsets) or that leave the view's offsets no base-plus-layout form (a 4-wide
    // phase of swizzled(4,2,4) moves a slice's 8 columns over 16), slices that start inside a
    // padding interval, and padded buffers reinterpreted (their padding is bytes the views lack).
    let want = [
        "swizzled(8,1,8) Slice { dim: 1, start: 32, len: 32 }",
        "swizzled(8,1,8) Slice { dim: 1, start: 16, len: 8 }",
        "swizzled(4,2,4) Slice { dim: 1, start: 16, len: 8 }",
        "nvmma128 Slice { dim: 1, start: 32, len: 32 }",
        "nvmma128 Slice { dim: 1, start: 16, len: 8 }",
        "nvmma64-transposed Slice { dim: 0, start: 8, len: 8 }",
        "padded(64,8) Slice { dim: 1, start: 32, len: 32 }",
        "padded(64,8) Slice { dim: 1, start: 16, len: 8 }",
    ];
    let padded_reinterprets = refused
        .iter()
        .filter(|r| r.starts_with("padded") && r.contains("Reinterpret"))
        .count();
    assert_eq!(padded_reinterprets, 2, "{refused:#?}");
    let slices: Vec<&String> = refused.iter().filter(|r| r.contains("Slice")).collect();
    assert_eq!(slices, want.iter().collect::<Vec<_>>(), "{refused:#?}");
}

fn kb(ctx: &Context) -> KernelBuilder<'_> {
    KernelBuilder::new(ctx, Target::SM90, "k", 4).unwrap()
}

#[test]
fn slices_are_checked() {
    let ctx = Context::new();
    let mut kb = kb(&ctx);
    let nv = kb
        .alloc_shared(DType::F16, &SHAPE, NvmmaShared::new(128, 16, 2, false))
        .unwrap();
    for (dim, start, len, what) in [
        (2, 0, 8, "dim 2"),
        (0, 0, 3, "power of two"),
        (0, 4, 8, "multiple"),
        (0, 64, 8, "inside"),
        (1, 0, 0, "power of two"),
    ] {
        let e = kb.slice_shared(nv, dim, start, len).unwrap_err();
        assert!(
            matches!(e.cause(), CodegenError::InvalidArgument { .. }),
            "{e}"
        );
        let msg = e.to_string();
        assert!(
            msg.contains(what) && msg.contains("shared<64x64xf16, NVMMASharedLayout>"),
            "{msg}"
        );
    }
    // Half an atom of rows: the swizzle pattern would be cut.
    let e = kb.slice_shared(nv, 0, 4, 4).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::BadLayout { .. }), "{e}");
    assert!(e.to_string().contains("swizzle"), "{e}");
    // Whole atoms are fine, and slices of slices.
    let rows = kb.slice_shared(nv, 0, 32, 32).unwrap();
    let rows = kb.slice_shared(rows, 0, 8, 8).unwrap();
    assert_eq!(kb.shape(rows).unwrap(), vec![8, 64]);
    // A padded buffer sliced inside a padding interval.
    let padded = kb
        .alloc_shared(
            DType::F16,
            &SHAPE,
            PaddedShared::with_identity_for(&[(64, 8)], &SHAPE, &[1, 0]),
        )
        .unwrap();
    let e = kb.slice_shared(padded, 1, 16, 16).unwrap_err();
    assert!(e.to_string().contains("padding"), "{e}");
    kb.slice_shared(padded, 0, 16, 16).unwrap();
    // Not a descriptor.
    let t = kb.zeros(
        (Blocked::new(&[1, 4], &[8, 4], &[4, 1], &[1, 0]), SHAPE),
        DType::F16,
    );
    let e = kb.slice_shared(t.unwrap(), 0, 0, 8).unwrap_err();
    assert!(matches!(e.cause(), CodegenError::WrongKind { .. }), "{e}");
    kb.finish().unwrap();
}

#[test]
fn reshapes_and_reinterpretations_are_checked() {
    let ctx = Context::new();
    let mut kb = kb(&ctx);
    let sw = kb
        .alloc_shared(DType::F16, &SHAPE, SwizzledShared::new(8, 1, 8, &[1, 0]))
        .unwrap();
    for shape in [vec![64, 32], vec![3, 64], vec![]] {
        let e = kb.reshape_shared(sw, &shape).unwrap_err();
        assert!(
            matches!(e.cause(), CodegenError::ShapeMismatch { .. }),
            "{e}"
        );
        assert!(e.to_string().contains("shared<64x64xf16"), "{e}");
    }
    let row_major = SwizzledShared::new(1, 1, 1, &[1, 0]);
    // 8192 bytes are not 4096.
    let e = kb
        .reinterpret_shared(sw, DType::F16, &[64, 32], &row_major)
        .unwrap_err();
    assert!(
        matches!(e.cause(), CodegenError::ShapeMismatch { .. }),
        "{e}"
    );
    let msg = e.to_string();
    assert!(
        msg.contains("8192 bytes") && msg.contains("4096 bytes"),
        "{msg}"
    );
    // The same bytes as i32 or f8 are fine.
    kb.reinterpret_shared(sw, DType::I32, &[64, 32], &row_major)
        .unwrap();
    kb.reinterpret_shared(sw, DType::F8E4M3, &[64, 128], &row_major)
        .unwrap();
    // A 16-byte aligned buffer cannot be an NVMMA one (its atom is 1024-byte aligned).
    let nvmma = NvmmaShared::new(128, 16, 2, false);
    let e = kb
        .reinterpret_shared(sw, DType::F16, &SHAPE, &nvmma)
        .unwrap_err();
    assert!(e.to_string().contains("1024"), "{e}");
    // A column slice of a row-major buffer has holes: not one byte range.
    let rm = kb.alloc_shared(DType::F16, &SHAPE, &row_major).unwrap();
    let cols = kb.slice_shared(rm, 1, 0, 32).unwrap();
    let e = kb
        .reinterpret_shared(cols, DType::F16, &[64, 32], &row_major)
        .unwrap_err();
    assert!(e.to_string().contains("holes"), "{e}");
    // A row slice is one byte range.
    let rows = kb.slice_shared(rm, 0, 0, 32).unwrap();
    kb.reinterpret_shared(rows, DType::I32, &[32, 32], &row_major)
        .unwrap();
    kb.finish().unwrap();
}

#[test]
fn wgmma_reads_k_slices_of_nvmma_buffers() {
    let ctx = Context::new();
    let k = wgmma_slices_kernel(&ctx);
    let ptx = k.ptx().unwrap();
    // Two K halves of four 16-deep steps each.
    assert_eq!(ptx.matches("wgmma.mma_async").count(), 8, "{ptx}");
    common::assemble(&ptx, "sm_90a", "wgmma through slices");
    // A K slice that cuts a swizzle atom is refused before wgmma sees it.
    let mut kb = KernelBuilder::new(&ctx, Target::SM90A, "k", 4).unwrap();
    let sa = kb
        .alloc_shared(DType::F16, &[64, 128], NvmmaShared::new(128, 16, 2, false))
        .unwrap();
    assert!(kb.slice_shared(sa, 1, 32, 32).is_err());
}

#[test]
fn tma_copies_into_and_out_of_row_slices() {
    let ctx = Context::new();
    let k = tma_slices_kernel(&ctx).unwrap();
    let ptx = k.ptx().unwrap();
    assert_eq!(
        ptx.matches("cp.async.bulk.tensor.2d.shared").count(),
        2,
        "{ptx}"
    );
    assert_eq!(
        ptx.matches("cp.async.bulk.tensor.2d.global.shared").count(),
        2,
        "{ptx}"
    );
    // The lower half starts 64 rows × 128 bytes in.
    assert!(ptx.contains("8192"), "{ptx}");
    common::assemble(&ptx, "sm_90a", "TMA through slices");
}

/// A ring of one buffer keeps its leading dim, like any ring: `index_shared` gives the buffer
/// (a single-buffered pipeline stage written as `alloc_shared_buffers(…, 1, …)`).
#[test]
fn a_ring_of_one_buffer_is_indexed_like_any_ring() {
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, Target::SM90, "ring_of_one", 4).unwrap();
    let plain = SwizzledShared::new(1, 1, 1, &[1, 0]);
    for count in [1, 2, 3] {
        let ring = kb
            .alloc_shared_buffers(DType::F32, count, &[32, 64], &plain)
            .unwrap();
        assert_eq!(kb.shape(ring).unwrap(), vec![count, 32, 64]);
        let one = kb.index_shared(ring, 0).unwrap();
        assert_eq!(kb.shape(one).unwrap(), vec![32, 64]);
        assert!(
            kb.index_shared(ring, count as i32).is_err(),
            "index {count} of {count}"
        );
    }
    // A plain buffer has no ring dim.
    let single = kb.alloc_shared(DType::F32, &[32, 64], &plain).unwrap();
    assert_eq!(kb.shape(single).unwrap(), vec![32, 64]);
}
