//! The accurate math lowering on the GPU: one `y = op(x)` kernel per function and type (sm_90
//! PTX), run on random inputs across the whole range plus the special values (the same inputs
//! as `codegen_math.rs`), every element compared with the host reference within the ulp bound.
//! Also prints the max error of Triton's default (`Approx`) f32 lowering on the same inputs,
//! as the baseline. Without a driver or GPU every test prints `SKIP: <reason>` and passes.
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use common::gpu::device;
use common::math_ref::{self, ulp_f32, BLOCK, FUNCS, MAX_ULP};
use weft::codegen::{Context, DType, MathOp, MathPrecision, Target};
use weft::runtime::cuda::{self, Device};
use weft::runtime::prelude::*;
use weft::runtime::{DeviceElem, KernelArgs, LaunchConfig};

/// Random inputs per function and type.
const N: usize = 1 << 20;

/// The `y = op(x)` kernel loaded on `dev`, with its block size.
fn load(dev: &Device, op: MathOp, dt: DType, p: MathPrecision) -> (cuda::Kernel, u32) {
    let ctx = Context::new();
    let k = math_ref::math_kernel(&ctx, Target::SM90, op, dt, p).unwrap();
    let sig = k.signature();
    let kernel = dev
        .load_ptx(&k.ptx().unwrap())
        .unwrap()
        .kernel(sig.clone())
        .unwrap();
    (kernel, sig.threads_per_block.unwrap())
}

fn config(n: usize, threads: u32) -> LaunchConfig {
    let mut cfg = LaunchConfig::new(n.div_ceil(BLOCK as usize) as u32, 0, 0);
    cfg.block = threads.into();
    cfg
}

/// Runs `y = op(x)` on the GPU.
fn run<T: DeviceElem + Copy>(
    dev: &Device,
    op: MathOp,
    dt: DType,
    p: MathPrecision,
    x: &[T],
) -> Vec<T> {
    let (kernel, threads) = load(dev, op, dt, p);
    let stream = dev.stream();
    let dx = dev.upload(x).unwrap();
    let mut dy = dev.alloc::<T>(x.len()).unwrap();
    dy.fill_bytes(0xFF).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(x.len() as i32);
    // SAFETY: the kernel touches x[0..n) and y[0..n) only (masked by n); both hold n elements.
    unsafe {
        stream
            .launch(&kernel, &config(x.len(), threads), &args)
            .unwrap()
    };
    stream.synchronize().unwrap();
    dy.to_vec().unwrap()
}

/// Median kernel time in microseconds of `y = op(x)` over `x`.
fn time_us<T: DeviceElem + Copy>(
    dev: &Device,
    op: MathOp,
    dt: DType,
    p: MathPrecision,
    x: &[T],
) -> f64 {
    let (kernel, threads) = load(dev, op, dt, p);
    let stream = dev.stream();
    let dx = dev.upload(x).unwrap();
    let dy = dev.alloc::<T>(x.len()).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(x.len() as i32);
    let cfg = config(x.len(), threads);
    let mut t = stream
        .time_ms(3, 21, |s| {
            // SAFETY: as in `run`.
            unsafe { s.launch(&kernel, &cfg, &args) }
        })
        .unwrap();
    t.sort_by(f32::total_cmp);
    t[t.len() / 2] as f64 * 1e3
}

/// Kernel times of the accurate lowering against Triton's default (f32 `Approx`) and against
/// `floor` (the same kernel doing no math: the memory-bound floor), 2^24 elements of the
/// function's usual range, on the same GPU in the same run. Prints; asserts nothing but that
/// the kernels run.
#[test]
fn accurate_against_approx_timings() {
    let Some(dev) = device() else { return };
    let n = 1 << 24;
    let floor32 = time_us(
        &dev,
        MathOp::Floor,
        DType::F32,
        MathPrecision::Approx,
        &vec![1.5f32; n],
    );
    let floor64 = time_us(
        &dev,
        MathOp::Floor,
        DType::F64,
        MathPrecision::Approx,
        &vec![1.5f64; n],
    );
    println!("floor (memory only), 2^24 elements: f32 {floor32:.1} us, f64 {floor64:.1} us");
    for op in FUNCS {
        let mut rng = common::rng::Rng(7);
        let (lo, hi) = match op {
            MathOp::Log | MathOp::Log2 | MathOp::Rsqrt => (1e-3, 1e3),
            MathOp::Erf => (-4.0, 4.0),
            _ => (-20.0, 20.0),
        };
        let x64: Vec<f64> = (0..n).map(|_| rng.uniform(lo, hi)).collect();
        let x32: Vec<f32> = x64.iter().map(|&v| v as f32).collect();
        let fast = time_us(&dev, op, DType::F32, MathPrecision::Approx, &x32);
        let acc = time_us(&dev, op, DType::F32, MathPrecision::Accurate, &x32);
        let acc64 = time_us(&dev, op, DType::F64, MathPrecision::Accurate, &x64);
        println!(
            "{op:?}: f32 approx {fast:.1} us, f32 accurate {acc:.1} us ({:.2}x approx), \
             f64 accurate {acc64:.1} us ({:.2}x floor f64)",
            acc / fast,
            acc64 / floor64
        );
    }
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
            let (r, e, exact_ok) = math_ref::judge_f64(op, xi, yi);
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
        println!(
            "GPU {op:?} f64 accurate: max {:.3} ulp at {:e}",
            worst.0, worst.1
        );
        assert_eq!(
            bad,
            0,
            "{op:?} f64: {bad} of {} outside {MAX_ULP} ulp",
            x.len()
        );
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
            let (r, e, exact_ok) = math_ref::judge_f32(op, xi, yi);
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
        assert_eq!(
            bad,
            0,
            "{op:?} f32: {bad} of {} outside {MAX_ULP} ulp",
            x.len()
        );
    }
}

#[test]
fn approx_ftz_flushes_only_subnormal_results() {
    let Some(dev) = device() else { return };
    let x = math_ref::ftz_inputs(N);
    let ftz = run(&dev, MathOp::Exp2, DType::F32, MathPrecision::ApproxFtz, &x);
    let fast = run(&dev, MathOp::Exp2, DType::F32, MathPrecision::Approx, &x);
    let flushed = math_ref::check_ftz(&x, &ftz, &fast);
    println!(
        "GPU exp2 ftz: equal to approx on normal results, {flushed} subnormal results flushed"
    );
}
