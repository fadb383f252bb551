//! Shared-memory views (sm_90): for every parent layout (row-major, swizzled, NVMMA of
//! both majors, padded, linear) and every view the builder accepts (row and column slices,
//! reshapes to 1-D, 2-D and 3-D, reinterpretations as `i32` and under another swizzle), a tile
//! stored through the parent is read back through the view, and a tile stored through the view
//! is read back through the parent, each compared with a host reference that models the bytes
//! (`common::views::reference`). Then two wgmmas over K slices of NVMMA buffers against the host
//! product, and TMA loads and stores through row slices.
//!
//! Written once over the runtime's `Backend` traits: every test runs, on the same cases, on the
//! CPU backend (the interpreter, emulating sm_90a; a run is also its racecheck and initcheck of
//! the view's shared-memory traffic) and on a CUDA GPU when there is one. Without a GPU the GPU
//! tests print `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::launch::{launch, load};
use common::rng::Rng;
use common::views::{
    is_refusal, parents, reference, tma_slices_kernel, view_kernel, views, wgmma_slices_kernel,
    SHAPE,
};
use common::wgmma::small_values;
use weft::codegen::{Context, DType, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs};

fn every_view_reads_and_writes_what_the_host_expects<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let mut rng = Rng(41);
    let (mut ran, mut refused) = (0, 0);
    for (name, parent) in parents() {
        for view in views() {
            for write in [false, true] {
                let what = format!("{name} {view:?} write={write}");
                let k = match view_kernel(&ctx, Target::SM90, &parent, &view, write) {
                    Ok(k) => k,
                    Err(e) => {
                        assert!(is_refusal(&e), "{what}: {e}");
                        refused += 1;
                        continue;
                    }
                };
                let kernel = load::<B>(dev, &k, &what);
                let n = (SHAPE[0] * SHAPE[1]) as usize;
                let vn: usize = view.shape().iter().product::<u64>() as usize;
                let x: Vec<i16> = (0..n).map(|_| rng.next_u64() as i16).collect();
                let dx = dev.upload(&x).unwrap();
                let x64: Vec<i64> = x.iter().map(|&v| i64::from(v)).collect();
                let z: Vec<i64> = (0..vn)
                    .map(|_| match view.dtype() {
                        DType::I32 => i64::from(rng.next_u64() as i32),
                        _ => i64::from(rng.next_u64() as i16),
                    })
                    .collect();
                let ylen = if write { n } else { vn };
                let y_i32 = !write && view.dtype() == DType::I32;
                let got = match (view.dtype(), y_i32) {
                    (DType::I32, true) => run::<B, i32, i32>(dev, &kernel, &dx, &z, ylen, &what),
                    (DType::I32, false) => run::<B, i32, i16>(dev, &kernel, &dx, &z, ylen, &what),
                    _ => run::<B, i16, i16>(dev, &kernel, &dx, &z, ylen, &what),
                };
                let z64 = z;
                let want = reference(&parent, &view, write, &x64, &z64);
                let bad: Vec<usize> = (0..want.len()).filter(|&i| got[i] != want[i]).collect();
                assert!(
                    bad.is_empty(),
                    "{what}: {} of {} wrong, first at {}: got {}, want {}",
                    bad.len(),
                    want.len(),
                    bad[0],
                    got[bad[0]],
                    want[bad[0]]
                );
                ran += 1;
            }
        }
    }
    assert!(ran > 80, "{ran} kernels ran");
    println!(
        "shared views on {}: {ran} kernels match the host ({refused} views refused at build time)",
        B::KIND
    );
}

/// Launches a view kernel with `z` (as `Z`) and a `y` of `ylen` elements (as `Y`); returns `y`.
fn run<B: Backend, Z, Y>(
    dev: &B::Device,
    kernel: &B::Kernel,
    dx: &B::Buffer<i16>,
    z: &[i64],
    ylen: usize,
    what: &str,
) -> Vec<i64>
where
    Z: weft::runtime::DeviceElem + TryFrom<i64>,
    <Z as TryFrom<i64>>::Error: std::fmt::Debug,
    Y: weft::runtime::DeviceElem + Into<i64>,
{
    let z: Vec<Z> = z.iter().map(|&v| Z::try_from(v).unwrap()).collect();
    let dz = dev.upload(&z).unwrap();
    let mut dy = dev.alloc::<Y>(ylen).unwrap();
    dy.fill_bytes(0xAB).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(dx).ptr(&dz).ptr(&dy);
    // SAFETY: the kernel reads x[0..4096) and z[0..z.len()) and writes y[0..ylen).
    unsafe { launch::<B>(dev, kernel, 1u32, &args, what) };
    dy.to_vec().unwrap().into_iter().map(Into::into).collect()
}

fn wgmma_over_k_slices_matches_the_host<B: Backend>(dev: &B::Device) {
    use weft::runtime::f16;
    if !dev.target().unwrap().supports(weft::target::Feature::Wgmma) {
        println!("SKIP: no wgmma on this GPU");
        return;
    }
    let ctx = Context::new();
    let k = wgmma_slices_kernel(&ctx);
    let kernel = load::<B>(dev, &k, "wgmma over K slices");
    let mut rng = Rng(7);
    // Small integers and halves: exact in f16 and in the f32 sums.
    let a = small_values(&mut rng, 64 * 128);
    let b = small_values(&mut rng, 128 * 64);
    let to16 = |v: &[f32]| -> Vec<f16> { v.iter().map(|&x| f16::from_f32(x)).collect() };
    let da = dev.upload(&to16(&a)).unwrap();
    let db = dev.upload(&to16(&b)).unwrap();
    let mut dc = dev.alloc::<f32>(64 * 64).unwrap();
    dc.fill_bytes(0xFF).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&da).ptr(&db).ptr(&dc);
    // SAFETY: reads a[0..8192), b[0..8192); writes c[0..4096).
    unsafe { launch::<B>(dev, &kernel, 1u32, &args, "wgmma over K slices") };
    let c = dc.to_vec().unwrap();
    for i in 0..64 {
        for j in 0..64 {
            let want: f32 = (0..128).map(|kk| a[i * 128 + kk] * b[kk * 64 + j]).sum();
            assert_eq!(c[i * 64 + j], want, "c[{i}][{j}]");
        }
    }
    println!(
        "wgmma over two K slices on {}: 64 × 64 × 128 matches the host",
        B::KIND
    );
}

fn tma_loads_and_stores_through_slices<B: Backend>(dev: &B::Device) {
    use weft::runtime::f16;
    if !dev.target().unwrap().supports(weft::target::Feature::Tma) {
        println!("SKIP: no TMA on this GPU");
        return;
    }
    let ctx = Context::new();
    let k = tma_slices_kernel(&ctx).unwrap();
    let kernel = load::<B>(dev, &k, "TMA through slices");
    let mut rng = Rng(17);
    let host: Vec<f16> = (0..128 * 64).map(|_| f16::from_f32(rng.f32())).collect();
    let src = dev.upload(&host).unwrap();
    let mut dst = dev.alloc::<f16>(128 * 64).unwrap();
    dst.fill_bytes(0xFF).unwrap();
    let mut out = dev.alloc::<f16>(128 * 64).unwrap();
    out.fill_bytes(0xFF).unwrap();
    let src_map = dev
        .tensor_map(&src, &[128, 64], &[64], &[64, 64], 128)
        .unwrap();
    let dst_map = dev
        .tensor_map(&dst, &[128, 64], &[64], &[64, 64], 128)
        .unwrap();
    let mut args = KernelArgs::new();
    args.tensor_map(&src_map).tensor_map(&dst_map).ptr(&out);
    // SAFETY: the kernel writes out[0..8192) and the two tiles of dst inside its map.
    unsafe { launch::<B>(dev, &kernel, 1u32, &args, "TMA through slices") };
    let got = out.to_vec().unwrap();
    for r in 0..128 {
        for c in 0..64 {
            let want = host[((r + 64) % 128) * 64 + c];
            assert_eq!(got[r * 64 + c].to_bits(), want.to_bits(), "out[{r}][{c}]");
        }
    }
    let back = dst.to_vec().unwrap();
    assert!(
        back.iter()
            .zip(&host)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "TMA stores from the slices put the halves back"
    );
    println!(
        "TMA through row slices on {}: loads swapped, stores restored, as on the host",
        B::KIND
    );
}

#[test]
fn every_view_reads_and_writes_what_the_host_expects_in_the_interpreter() {
    every_view_reads_and_writes_what_the_host_expects::<Cpu>(&common::gpu::cpu());
}

#[test]
fn wgmma_over_k_slices_matches_the_host_in_the_interpreter() {
    wgmma_over_k_slices_matches_the_host::<Cpu>(&common::gpu::cpu());
}

#[test]
fn tma_loads_and_stores_through_slices_in_the_interpreter() {
    tma_loads_and_stores_through_slices::<Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
mod on_the_gpu {
    //! The same tests on a CUDA GPU.
    use weft::runtime::cuda::Cuda;

    #[test]
    fn every_view_reads_and_writes_what_the_host_expects() {
        super::common::gpu::on_cuda(|dev| {
            super::every_view_reads_and_writes_what_the_host_expects::<Cuda>(dev)
        });
    }

    #[test]
    fn wgmma_over_k_slices_matches_the_host() {
        super::common::gpu::on_cuda(super::wgmma_over_k_slices_matches_the_host::<Cuda>);
    }

    #[test]
    fn tma_loads_and_stores_through_slices() {
        super::common::gpu::on_cuda(super::tma_loads_and_stores_through_slices::<Cuda>);
    }
}
