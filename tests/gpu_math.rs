//! The accurate math lowering on the GPU: one `y = op(x)` kernel per function and type (sm_90
//! PTX), run on random inputs across the whole range plus the special values (the same inputs
//! as `codegen_math.rs`), every element compared with the host reference within the ulp bound.
//! Also prints the max error of Triton's default (`Approx`) f32 lowering on the same inputs,
//! as the baseline. Without a driver or GPU every test prints `SKIP: <reason>` and passes.
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use common::bridge::runtime_signature;
use common::gpu::device;
use common::math_ref::{self, ulp_f32, ulp_f64, BLOCK, FUNCS, MAX_ULP};
use weft::codegen::{Context, DType, MathOp, MathPrecision, Target};
use weft::runtime::cuda::{self, Device};
use weft::runtime::{DeviceElem, KernelArgs, LaunchConfig};

/// Random inputs per function and type.
const N: usize = 1 << 20;

/// Runs `y = op(x)` on the GPU.
fn run<T: DeviceElem + Copy>(dev: &Device, op: MathOp, dt: DType, p: MathPrecision, x: &[T]) -> Vec<T> {
    let ctx = Context::new();
    let k = math_ref::math_kernel(&ctx, Target::Sm90, op, dt, p).unwrap();
    let sig = k.signature();
    let threads = sig.threads_per_block;
    let kernel: cuda::Kernel = dev
        .load_ptx(&k.ptx().unwrap())
        .unwrap()
        .kernel(runtime_signature(sig).unwrap())
        .unwrap();
    let stream = dev.stream();
    let dx = dev.upload(x).unwrap();
    let mut dy = dev.alloc::<T>(x.len()).unwrap();
    dy.fill_bytes(0xFF).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(x.len() as i32);
    let mut cfg = LaunchConfig::new(x.len().div_ceil(BLOCK as usize) as u32, 0, 0);
    cfg.block = threads.into();
    // SAFETY: the kernel touches x[0..n) and y[0..n) only (masked by n); both hold n elements.
    unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
    stream.synchronize().unwrap();
    dy.to_vec().unwrap()
}

#[test]
fn accurate_f64_matches_host_within_bound() {
    let Some(dev) = device() else { return };
    for op in FUNCS {
        let x = math_ref::inputs_f64(op, N, 0x6A5 ^ op as u64);
        let y = run(&dev, op, DType::F64, MathPrecision::Accurate, &x);
        let mut worst = (0.0, 0.0);
        let mut bad = 0;
        for (&xi, &yi) in x.iter().zip(&y) {
            let r = math_ref::reference(op, xi);
            let e = math_ref::error_f64(op, xi, yi);
            let exact_ok = !(r == 0.0 || r.is_infinite()) || yi.to_bits() == r.to_bits();
            if e > worst.0 {
                worst = (e, xi);
            }
            if e > MAX_ULP || !exact_ok {
                if bad < 5 {
                    eprintln!("{op:?} f64: x = {xi:e}: got {yi:e}, want {r:e} ({e} ulp)");
                }
                bad += 1;
            }
        }
        println!("GPU {op:?} f64 accurate: max {:.3} ulp at {:e}", worst.0, worst.1);
        assert_eq!(bad, 0, "{op:?} f64: {bad} of {} outside {MAX_ULP} ulp", x.len());
    }
}

#[test]
fn accurate_f32_matches_host_within_bound() {
    let Some(dev) = device() else { return };
    for op in FUNCS {
        let x = math_ref::inputs_f32(op, N, 0x6A6 ^ op as u64);
        let y = run(&dev, op, DType::F32, MathPrecision::Accurate, &x);
        let fast = run(&dev, op, DType::F32, MathPrecision::Approx, &x);
        let (mut worst, mut worst_fast) = ((0.0, 0.0f32), 0.0f64);
        let mut bad = 0;
        for ((&xi, &yi), &fi) in x.iter().zip(&y).zip(&fast) {
            let r = math_ref::reference(op, xi as f64);
            let e = ulp_f32(yi, r);
            let rr = r as f32;
            let exact_ok = !(r == 0.0 || rr.is_infinite()) || yi.to_bits() == rr.to_bits();
            if e > worst.0 {
                worst = (e, xi);
            }
            worst_fast = worst_fast.max(ulp_f32(fi, r));
            if e > MAX_ULP || !exact_ok {
                if bad < 5 {
                    eprintln!("{op:?} f32: x = {xi:e}: got {yi:e}, want {r:e} ({e} ulp)");
                }
                bad += 1;
            }
        }
        println!(
            "GPU {op:?} f32 accurate: max {:.3} ulp at {:e} (approx, same inputs: max {worst_fast:.3e} ulp)",
            worst.0, worst.1
        );
        assert_eq!(bad, 0, "{op:?} f32: {bad} of {} outside {MAX_ULP} ulp", x.len());
    }
}
