//! Ahead-of-time bundles from the builder: a kernel becomes a `BundleEntry` (signature, target
//! and PTX together), survives the bundle's bytes unchanged, and the runtime picks the image a
//! device can run.
use weft::codegen::kernels::{self, GemmConfig};
use weft::codegen::{Context, DType, Target};
use weft::runtime::{Bundle, ImageKind};

#[test]
fn builder_kernels_round_trip_through_a_bundle() {
    let ctx = Context::new();
    let memcpy = kernels::memcpy_kernel(&ctx, Target::SM80, 1024, 4, 4).unwrap();
    let (memcpy_sig, memcpy_ptx) = (memcpy.signature().clone(), memcpy.ptx().unwrap());
    let gemm = kernels::gemm_kernel(&ctx, Target::SM90A, GemmConfig::new(DType::F16)).unwrap();
    let gemm_sig = gemm.signature().clone();

    let mut bundle = Bundle::new();
    bundle.push(memcpy.into_bundle_entry().unwrap()).unwrap();
    bundle.push(gemm.into_bundle_entry().unwrap()).unwrap();
    let back = Bundle::from_bytes(&bundle.to_bytes()).unwrap();
    assert_eq!(back, bundle);

    let e = back.select(&memcpy_sig.name, Target::SM90A).unwrap();
    assert_eq!((e.kind, e.target), (ImageKind::Ptx, Target::SM80));
    assert_eq!(
        e.signature, memcpy_sig,
        "the launch checks need the whole signature"
    );
    assert_eq!(
        e.ptx().unwrap(),
        memcpy_ptx,
        "into_bundle_entry emits the same PTX as ptx()"
    );

    let g = back.select(&gemm_sig.name, Target::SM90A).unwrap();
    assert_eq!(g.signature, gemm_sig);
    assert!(g.signature.shared_bytes > 0 && g.signature.threads_per_block.is_some());
    assert!(g.ptx().unwrap().contains(".target sm_90a"));
    // The wgmma kernel is arch-specific PTX: an sm_80 device gets a clear error.
    let err = back
        .select(&gemm_sig.name, Target::SM80)
        .unwrap_err()
        .to_string();
    assert!(err.contains("runs on sm_80"), "{err}");
}

#[cfg(feature = "amdgpu")]
#[test]
fn amd_kernels_are_not_bundled_as_ptx() {
    let ctx = Context::new();
    let k = kernels::memcpy_kernel(&ctx, Target::GFX942, 1024, 4, 4).unwrap();
    assert!(k.into_bundle_entry().is_err());
}
