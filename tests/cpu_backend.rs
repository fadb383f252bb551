//! The CPU backend: weft's kernels launched through the same runtime traits as on a GPU
//! (`Device`, `Buffer`, `Stream`, checked launches, tensor maps), run by the interpreter. Results
//! are compared with host references; faults a GPU would report late or not at all are typed
//! errors at the launch that caused them.
#![cfg(feature = "llvm")]

mod common;

use common::gemm::tma_roundtrip_kernel;
use common::rng::Rng;
use half::f16;
use weft::codegen::interp::InterpError;
use weft::codegen::kernels::{add_kernel, softmax_kernel, softmax_reference, SoftmaxConfig};
use weft::codegen::{Context, Target};
use weft::runtime::cpu::{self, Cpu};
use weft::runtime::prelude::*;
use weft::runtime::{
    Backend, BackendKind, Device, DevicePointer, KernelArgs, KernelImage, LaunchConfig,
    RuntimeError,
};

const POISON: u32 = 0xFFFF_FFFF;

/// `add` over `n` elements of random data, written into a poisoned buffer `pad` elements longer.
fn add_on<B: Backend>(dev: &B::Device, n: usize, pad: usize) -> (Vec<f32>, Vec<f32>) {
    let ctx = Context::new();
    let k = add_kernel(&ctx, Target::SM90, 1024, 4, 4).unwrap();
    let kernel = k.load_on::<B>(dev).unwrap();
    let mut rng = Rng(5);
    let (x, y) = (rng.vec(n), rng.vec(n));
    let (dx, dy) = (dev.upload(&x).unwrap(), dev.upload(&y).unwrap());
    let mut dz = dev.alloc::<f32>(n + pad).unwrap();
    dz.fill_bytes(0xFF).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).ptr(&dz).scalar(n as i32);
    let cfg = LaunchConfig::for_kernel(n.div_ceil(1024) as u32, k.signature()).unwrap();
    // SAFETY: add reads x, y and writes z below n; all hold at least n elements.
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let want = x.iter().zip(&y).map(|(a, b)| a + b).collect();
    (dz.to_vec().unwrap(), want)
}

#[test]
fn the_backend_is_always_there() {
    assert!(Cpu::is_available());
    assert_eq!(Cpu::device_count().unwrap(), 1);
    let dev = Cpu::open(0).unwrap();
    assert_eq!(dev.target().unwrap(), Target::SM90A);
    assert_eq!(
        dev.limits().max_shared_per_block_optin,
        Target::SM90A.max_shared_bytes()
    );
    assert!(matches!(
        Cpu::open(1),
        Err(RuntimeError::DeviceOutOfRange {
            backend: BackendKind::Cpu,
            ordinal: 1,
            count: 1
        })
    ));
    // Another target's limits: an sm_80 device offers sm_80's shared memory.
    let a100 = cpu::Device::new(Target::SM80).unwrap();
    assert_eq!(
        a100.limits().max_shared_per_block_optin,
        Target::SM80.max_shared_bytes()
    );
    assert_ne!(a100, dev, "each device has its own memory");
}

#[test]
fn add_matches_the_host_and_leaves_the_poison() {
    let dev = Cpu::open(0).unwrap();
    let n = 5008; // not a multiple of the block (the mask matters), of 16 (as the kernel assumes)
    let (got, want) = add_on::<Cpu>(&dev, n, 64);
    assert_eq!(&got[..n], &want[..]);
    assert!(got[n..].iter().all(|v| v.to_bits() == POISON));
}

#[test]
fn softmax_matches_f64() {
    let dev = Cpu::open(0).unwrap();
    let (m, n) = (5usize, 1000usize);
    let c = SoftmaxConfig::for_n(n as u32, 2, 4, 4);
    let ctx = Context::new();
    let k = softmax_kernel(&ctx, Target::SM90, c).unwrap();
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    let x = Rng(3).vec(m * n);
    let dx = dev.upload(&x).unwrap();
    let dy = dev.alloc::<f32>(m * n).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
    let cfg = LaunchConfig::for_kernel(c.grid(m), k.signature()).unwrap();
    // SAFETY: softmax reads x and writes y below m·n.
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let got = dy.to_vec().unwrap();
    for (i, (&g, w)) in got.iter().zip(softmax_reference(&x, n)).enumerate() {
        assert!((g as f64 - w).abs() <= 1e-5 * w, "element {i}: {g} vs {w}");
    }
}

#[test]
fn tensor_maps_move_tiles_with_zero_fill_and_clipping() {
    let dev = Cpu::open(0).unwrap();
    let ctx = Context::new();
    let k = tma_roundtrip_kernel(&ctx);
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    let (rows, cols) = (100usize, 72usize);
    let mut rng = Rng(7);
    let host: Vec<f16> = (0..rows * cols).map(|_| f16::from_f32(rng.f32())).collect();
    let src = dev.upload(&host).unwrap();
    let mut dst = dev.alloc::<f16>(rows * cols).unwrap();
    dst.fill_bytes(0xFF).unwrap();
    let out = dev.alloc::<f16>(64 * 64).unwrap();
    let shape = [rows as u64, cols as u64];
    let src_map = dev
        .tensor_map(&src, &shape, &[cols as u64], &[64, 32], 64)
        .unwrap();
    let dst_map = dev
        .tensor_map(&dst, &shape, &[cols as u64], &[64, 32], 64)
        .unwrap();
    let (r0, c0) = (64i32, 40i32);
    let mut args = KernelArgs::new();
    args.tensor_map(&src_map)
        .tensor_map(&dst_map)
        .ptr(&out)
        .scalar(r0)
        .scalar(c0);
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // SAFETY: the maps cover src and dst exactly; out holds the 64×64 tile.
    unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap();
    let (got, stored) = (out.to_vec().unwrap(), dst.to_vec().unwrap());
    for i in 0..64 {
        for j in 0..64 {
            let (r, c) = (r0 as usize + i, c0 as usize + j);
            let inside = r < rows && c < cols;
            let want = if inside {
                host[r * cols + c]
            } else {
                f16::ZERO
            };
            assert_eq!(got[i * 64 + j].to_bits(), want.to_bits(), "tile ({i}, {j})");
            if inside {
                assert_eq!(
                    stored[r * cols + c].to_bits(),
                    want.to_bits(),
                    "stored ({r}, {c})"
                );
            }
        }
    }
    // Outside the stored tile, dst keeps its poison.
    assert_eq!(stored[0].to_bits(), 0xFFFF);
    // A map that does not fit its buffer is refused before any launch.
    let e = dev.tensor_map(
        &src,
        &[rows as u64 + 1, cols as u64],
        &[cols as u64],
        &[64, 32],
        64,
    );
    assert!(matches!(e, Err(RuntimeError::TensorMap { .. })), "{e:?}");
}

#[test]
fn an_out_of_bounds_launch_is_an_error_naming_the_kernel_and_op() {
    let dev = Cpu::open(0).unwrap();
    let ctx = Context::new();
    let k = add_kernel(&ctx, Target::SM90, 1024, 4, 4).unwrap();
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    let x = dev.upload(&vec![1.0f32; 1024]).unwrap();
    let z = dev.alloc::<f32>(1024).unwrap();
    let mut args = KernelArgs::new();
    // n says 2048 elements, the buffers hold 1024.
    args.ptr(&x).ptr(&x).ptr(&z).scalar(2048i32);
    let cfg = LaunchConfig::for_kernel(2u32, k.signature()).unwrap();
    // SAFETY: deliberately wrong; the interpreter checks every access.
    let e = unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap_err();
    let RuntimeError::Interpreter { kernel, source } = &e else {
        panic!("expected an interpreter error, got {e:?}");
    };
    assert_eq!(kernel, "add");
    assert!(
        matches!(&**source, InterpError::OutOfBounds { op, .. } if op == "load"),
        "{source:?}"
    );
    assert!(e.to_string().starts_with("kernel `add`: "), "{e}");
}

#[test]
fn a_freed_buffer_is_out_of_bounds() {
    let dev = Cpu::open(0).unwrap();
    let ctx = Context::new();
    let k = add_kernel(&ctx, Target::SM90, 1024, 4, 4).unwrap();
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    let x = dev.upload(&vec![1.0f32; 1024]).unwrap();
    let gone = dev.alloc::<f32>(1024).unwrap();
    let mut args = KernelArgs::new();
    args.raw_ptr(weft::runtime::ElemType::F32, gone.device_addr())
        .ptr(&x)
        .ptr(&x)
        .scalar(1024i32);
    drop(gone);
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // SAFETY: deliberately wrong: the first pointer was freed.
    let e = unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap_err();
    assert!(e.to_string().contains("freed buffer"), "{e}");
}

#[test]
fn launches_are_checked_as_on_a_gpu() {
    let dev = Cpu::open(0).unwrap();
    let ctx = Context::new();
    let k = add_kernel(&ctx, Target::SM90, 1024, 4, 4).unwrap();
    let kernel = k.load_on::<Cpu>(&dev).unwrap();
    let x = dev.upload(&[1.0f32; 16]).unwrap();
    let stream = dev.stream();
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // A wrong argument type never reaches the interpreter.
    let mut args = KernelArgs::new();
    args.ptr(&x).ptr(&x).ptr(&x).scalar(16.0f32);
    // SAFETY: refused before launch.
    let e = unsafe { stream.launch(&kernel, &cfg, &args) }.unwrap_err();
    assert!(matches!(e, RuntimeError::ArgType { index: 3, .. }), "{e:?}");
    // Nor a block of the wrong size.
    let mut args = KernelArgs::new();
    args.ptr(&x).ptr(&x).ptr(&x).scalar(16i32);
    let bad = LaunchConfig::new(1, 64, 0);
    // SAFETY: refused before launch.
    let e = unsafe { stream.launch(&kernel, &bad, &args) }.unwrap_err();
    assert!(matches!(e, RuntimeError::LaunchConfig { .. }), "{e:?}");
    // PTX is not for the CPU; a program is not for a kernel of another name.
    let e = dev.load(KernelImage::Ptx(".version 8.0")).unwrap_err();
    assert!(
        e.to_string()
            .contains("the CPU backend loads tile IR programs"),
        "{e}"
    );
    let other = k.program().clone();
    let module = dev.load(KernelImage::Program(&other)).unwrap();
    let mut sig = k.signature().clone();
    sig.name = "not_add".into();
    assert!(matches!(
        module.kernel(sig),
        Err(RuntimeError::SignatureName { .. })
    ));
    // A buffer of another device is refused.
    let elsewhere = Cpu::open(0).unwrap();
    let kernel_elsewhere = k.load_on::<Cpu>(&elsewhere).unwrap();
    // SAFETY: refused before launch.
    let e = unsafe { stream.launch(&kernel_elsewhere, &cfg, &args) }.unwrap_err();
    assert!(matches!(e, RuntimeError::WrongDevice { .. }), "{e:?}");
}
