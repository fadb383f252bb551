//! The interpreter and the GPU agree: the same kernels on the same random inputs, run on the
//! H100/H200 and in `codegen::interp`, give the same bits where a kernel only moves data or adds
//! exactly, and agree within stated tolerances where the GPU's `.approx` math or its summation
//! order differ (softmax: 2e-6 relative; an f16 GEMM: one f16 ulp plus the f32 summation-order bound). Without a driver or GPU each
//! test prints `SKIP: <reason>` and passes (the interpreter-only checks are `interp_kernels.rs`).
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use common::gpu::{device, load_kernel};
use common::rng::Rng;
use half::f16;
use weft::codegen::interp::{self, LaunchArg, Memory, TensorMapArg};
use weft::codegen::kernels::{self, GemmConfig, SoftmaxConfig};
use weft::codegen::{Context, DType, Kernel, Target};
use weft::runtime::cuda::TensorMap;
use weft::runtime::prelude::*;
use weft::runtime::{KernelArgs, LaunchConfig};

fn cfg(k: &Kernel<'_>, grid: (u32, u32, u32)) -> LaunchConfig {
    LaunchConfig::for_kernel(grid, k.signature()).unwrap()
}

#[test]
fn data_movement_and_exact_arithmetic_agree_bit_for_bit() {
    let Some(dev) = device() else { return };
    let ctx = Context::new();
    let stream = dev.stream();
    let n = 3 * 512 + 16;
    let x = Rng(11).vec(n);
    let y = Rng(12).vec(n);
    for (name, k) in [
        (
            "memcpy",
            kernels::memcpy_kernel(&ctx, Target::SM90, 512, 4, 4).unwrap(),
        ),
        (
            "add",
            kernels::add_kernel(&ctx, Target::SM90, 512, 4, 4).unwrap(),
        ),
    ] {
        let kernel = load_kernel(&dev, &k);
        let dx = dev.upload(&x).unwrap();
        let dy = dev.upload(&y).unwrap();
        let mut dz = dev.alloc::<f32>(n).unwrap();
        dz.fill_bytes(0xFF).unwrap();
        let mut args = KernelArgs::new();
        args.ptr(&dx);
        if name == "add" {
            args.ptr(&dy);
        }
        args.ptr(&dz).scalar(n as i32);
        let grid = ((n as u32).div_ceil(512), 1, 1);
        // SAFETY: both kernels touch elements [0, n) of buffers of n elements only.
        unsafe { stream.launch(&kernel, &cfg(&k, grid), &args).unwrap() };
        stream.synchronize().unwrap();
        let gpu = dz.to_vec().unwrap();

        let mut mem = Memory::new();
        let (hx, hy) = (mem.upload(&x), mem.upload(&y));
        let hz = mem.alloc_poisoned::<f32>(n);
        let mut a = vec![LaunchArg::Buffer(hx)];
        if name == "add" {
            a.push(LaunchArg::Buffer(hy));
        }
        a.extend([LaunchArg::Buffer(hz), LaunchArg::I32(n as i32)]);
        interp::run(&k, [grid.0, 1, 1], &a, &mut mem).unwrap();
        let host: Vec<f32> = mem.download(hz);
        let same = gpu
            .iter()
            .zip(&host)
            .filter(|(g, h)| g.to_bits() == h.to_bits())
            .count();
        assert_eq!(same, n, "{name}: {} of {n} elements differ", n - same);
    }
}

#[test]
fn softmax_agrees_within_the_approximate_exponential() {
    let Some(dev) = device() else { return };
    let ctx = Context::new();
    let (m, n) = (7usize, 1000usize);
    let c = SoftmaxConfig::for_n(n as u32, 1, 4, 4);
    let k = kernels::softmax_kernel(&ctx, Target::SM90, c).unwrap();
    let x = Rng(5).vec(m * n);
    let kernel = load_kernel(&dev, &k);
    let dx = dev.upload(&x).unwrap();
    let mut dy = dev.alloc::<f32>(m * n).unwrap();
    dy.fill_bytes(0xFF).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
    // SAFETY: one row per program over m rows of n elements.
    unsafe {
        dev.stream()
            .launch(&kernel, &cfg(&k, (m as u32, 1, 1)), &args)
            .unwrap()
    };
    dev.stream().synchronize().unwrap();
    let gpu = dy.to_vec().unwrap();
    let mut mem = Memory::new();
    let hx = mem.upload(&x);
    let hy = mem.alloc_poisoned::<f32>(m * n);
    let a = [
        LaunchArg::Buffer(hx),
        LaunchArg::Buffer(hy),
        LaunchArg::I32(m as i32),
        LaunchArg::I32(n as i32),
    ];
    interp::run(&k, [m as u32, 1, 1], &a, &mut mem).unwrap();
    let host: Vec<f32> = mem.download(hy);
    for (i, (g, h)) in gpu.iter().zip(&host).enumerate() {
        assert!(
            (g - h).abs() <= 2e-6 * h.abs() + 1e-12,
            "element {i}: GPU {g}, interpreter {h}"
        );
    }
}

#[test]
fn the_tensor_core_gemm_agrees_within_an_f16_ulp_and_the_summation_order() {
    let Some(dev) = device() else { return };
    let ctx = Context::new();
    let c = GemmConfig::new(DType::F16);
    let k = kernels::gemm_kernel(&ctx, Target::SM90A, c).unwrap();
    let (m, n, kd) = (136usize, 264usize, 200usize);
    let mut rng = Rng(9);
    let a: Vec<f16> = (0..m * kd).map(|_| f16::from_f32(rng.f32())).collect();
    let b: Vec<f16> = (0..kd * n).map(|_| f16::from_f32(rng.f32())).collect();
    let kernel = load_kernel(&dev, &k);
    let (da, db) = (dev.upload(&a).unwrap(), dev.upload(&b).unwrap());
    let mut dc = dev.alloc::<f16>(m * n).unwrap();
    dc.fill_bytes(0xFF).unwrap();
    let sw = c.swizzle();
    let am = TensorMap::tiled(&da, &[m as u64, kd as u64], &[kd as u64], &c.a_box(), sw).unwrap();
    let bm = TensorMap::tiled(&db, &[kd as u64, n as u64], &[n as u64], &c.b_box(), sw).unwrap();
    let cm = TensorMap::tiled(&dc, &[m as u64, n as u64], &[n as u64], &c.c_box(), sw).unwrap();
    let mut args = KernelArgs::new();
    args.tensor_map(&am).tensor_map(&bm).tensor_map(&cm);
    args.scalar(m as i32).scalar(n as i32).scalar(kd as i32);
    let grid = c.grid(m as u64, n as u64);
    // SAFETY: the kernel reads A, B and writes C only through the maps, which cover them.
    unsafe { dev.stream().launch(&kernel, &cfg(&k, grid), &args).unwrap() };
    dev.stream().synchronize().unwrap();
    let gpu = dc.to_vec().unwrap();
    let mut mem = Memory::new();
    let (ha, hb) = (mem.upload(&a), mem.upload(&b));
    let hc = mem.alloc_poisoned::<f16>(m * n);
    let args = [
        LaunchArg::TensorMap(TensorMapArg::dense(ha, DType::F16, &[m as u64, kd as u64])),
        LaunchArg::TensorMap(TensorMapArg::dense(hb, DType::F16, &[kd as u64, n as u64])),
        LaunchArg::TensorMap(TensorMapArg::dense(hc, DType::F16, &[m as u64, n as u64])),
        LaunchArg::I32(m as i32),
        LaunchArg::I32(n as i32),
        LaunchArg::I32(kd as i32),
    ];
    interp::run(&k, [grid.0, grid.1, grid.2], &args, &mut mem).unwrap();
    let host: Vec<f16> = mem.download(hc);
    // Both accumulate in f32, in different orders: the sums may differ by the f32 rounding of the
    // terms (bounded through the sum of |a·b|, which matters where the terms cancel), then by one
    // f16 rounding.
    for (i, (g, h)) in gpu.iter().zip(&host).enumerate() {
        let (r, c) = (i / n, i % n);
        let terms: f64 = (0..kd)
            .map(|p| f64::from(a[r * kd + p].to_f32() * b[p * n + c].to_f32()).abs())
            .sum();
        let (g, h) = (g.to_f32(), h.to_f32());
        let ulp = f16::from_f32(h.abs()).to_f32().max(6.1e-5) / 1024.0;
        let tol = f64::from(ulp) * 1.01 + terms * f64::powi(2.0, -16);
        assert!(
            f64::from((g - h).abs()) <= tol,
            "element {i}: GPU {g}, interpreter {h}"
        );
    }
}
