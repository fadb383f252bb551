//! The interpreter and the GPU agree: the same kernels on the same random inputs, run on the
//! H100/H200 and in `codegen::interp`, give the same bits where a kernel only moves data or adds
//! exactly, and agree within stated tolerances where the GPU's `.approx` math or its summation
//! order differ (softmax: 2e-6 relative; an f16 GEMM: one f16 ulp plus the f32 summation-order bound),
//! and so does every shipped kernel on a small problem through the runtime traits. Without a driver or GPU each
//! test prints `SKIP: <reason>` and passes (the kernel suites, `gpu_*.rs`, run their kernels in the interpreter without a GPU).
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

/// How two runs of shipped kernel `name` may differ: not at all where it moves data or adds
/// exactly; else by the GPU's `.approx` math and summation order, within `(rel, abs)`.
fn allowed(name: &str, elem_bytes: usize) -> Option<(f64, f64)> {
    match name {
        "memcpy"
        | "add"
        | "copy_2d"
        | "transpose"
        | "transpose_smem"
        | "smem_round_trip"
        | "smem_round_trip_swizzled" => None,
        // Sums of up to 272 values in [-4, 4), added in another order.
        "row_sum" | "cumsum" => Some((1e-5, 1e-3)),
        "softmax" => Some((1e-5, 1e-6)),
        // Outputs of order |x̂·w| + |b| ≤ 16: one that cancels to near zero keeps their error (the
        // GPU suite's bound, 1e-5 of max(|y|, 1)).
        "layernorm" => Some((1e-5, 1e-5)),
        // f16 outputs (GEMM C, attention O): an f16 ulp and the 16-bit rounding of P; attention's
        // f32 log-sum-exp within 1e-3.
        "attention" | "attention_pp" if elem_bytes == 2 => Some((0.0, 4e-3)),
        _ if elem_bytes == 2 => Some((1.0 / 1024.0, 1e-3)),
        _ => Some((1e-3, 1e-3)),
    }
}

/// The value of element `i` of an output of `elem_bytes`-byte floats.
fn element(bytes: &[u8], elem_bytes: usize, i: usize) -> f64 {
    let b = &bytes[i * elem_bytes..(i + 1) * elem_bytes];
    if elem_bytes == 2 {
        f16::from_le_bytes([b[0], b[1]]).to_f64()
    } else {
        f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Every shipped kernel (`EXAMPLE_KERNELS`), on the catalogue's small ragged problem with the
/// same random inputs, on the GPU and in the interpreter (both through the runtime traits).
#[test]
fn every_shipped_kernel_agrees_with_the_interpreter() {
    use common::catalogue::{problem, run, target_of};
    use weft::codegen::kernels::{example_kernel, EXAMPLE_KERNELS};
    let Some(dev) = device() else { return };
    let cpu = common::gpu::cpu();
    let ctx = Context::new();
    for (index, name) in EXAMPLE_KERNELS.iter().enumerate() {
        let k = example_kernel(&ctx, name, target_of(name)).unwrap();
        let p = problem(name, &mut Rng(7000 + index as u64));
        let on_gpu = run::<weft::runtime::cuda::Cuda>(&dev, &k, &p)
            .unwrap_or_else(|e| panic!("{name} on the GPU: {e}"));
        let in_interp = run::<weft::runtime::cpu::Cpu>(&cpu, &k, &p)
            .unwrap_or_else(|e| panic!("{name} in the interpreter: {e}"));
        let mut worst = 0.0f64;
        for (o, (g, c)) in on_gpu.iter().zip(&in_interp).enumerate() {
            assert_eq!(g.unwritten(), 0, "{name} output {o}: unwritten on the GPU");
            match allowed(name, g.elem_bytes) {
                None => assert!(g.bytes == c.bytes, "{name} output {o}: bits differ"),
                Some((rel, abs)) => {
                    for i in 0..g.bytes.len() / g.elem_bytes {
                        let (a, b) = (
                            element(&g.bytes, g.elem_bytes, i),
                            element(&c.bytes, g.elem_bytes, i),
                        );
                        let err = (a - b).abs();
                        assert!(
                            err <= abs || err <= rel * b.abs(),
                            "{name} output {o} element {i}: GPU {a}, interpreter {b}"
                        );
                        worst = worst.max(err);
                    }
                }
            }
        }
        println!("{name}: GPU and interpreter agree (largest difference {worst:.2e})");
    }
}
