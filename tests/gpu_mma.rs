//! The Ampere tensor-core path on the GPU (kernels built for sm_80, which the H100/H200 run):
//! `cp.async` with zero fill on odd shapes (bit for bit), `ldmatrix` and its `.trans` form and
//! fallback (bit for bit), `dot` for f16, bf16 and tf32 against an f64 host reference, and the
//! sm_80 GEMM on odd shapes for every configuration and both input types. Random data, outputs
//! poisoned first with poisoned padding past the end; every comparison prints its max abs
//! error. Without a driver or GPU every test prints `SKIP: <reason>` and passes.
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use common::gpu::{device, load_kernel as load};
use common::mma::{
    cp_async_tile_kernel, dot_kernel, dot_reference, ldmatrix_kernel, mma_layouts, nvmma, random,
    Elem,
};
use common::rng::Rng;
use half::{bf16, f16};
use weft::codegen::kernels::{self, size_divisibility, GemmSm80Config, GEMM_SM80_CONFIGS};
use weft::codegen::{Context, DType, Kernel, Target};
use weft::layout::encoding::{Encoding, SwizzledShared};
use weft::runtime::bench::{bench, BenchOptions};
use weft::runtime::cuda::{Buffer, Device};
use weft::runtime::prelude::*;
use weft::runtime::{DeviceElem, KernelArgs, LaunchConfig};

/// Kernels are built for sm_80 (the mma.sync path); an sm_90 GPU runs them.
const TARGET: Target = Target::SM80;
/// Elements allocated past each output, which must keep the poison.
const PAD: usize = 64;

fn poisoned<T: DeviceElem>(dev: &Device, n: usize) -> Buffer<T> {
    let mut b = dev.alloc::<T>(n + PAD).unwrap();
    b.fill_bytes(0xFF).unwrap();
    b
}

/// The poison (all-ones) bits of `T`.
fn poison_bits<T: Elem>() -> u32 {
    (((1u64) << (T::DTYPE.mem_bytes() * 8)) - 1) as u32
}

fn check_padding<T: Elem>(out: &[T], len: usize, what: &str) {
    for (i, g) in out[len..].iter().enumerate() {
        assert_eq!(
            g.bits(),
            poison_bits::<T>(),
            "{what}: element {i} past the end was written"
        );
    }
}

fn run_cp_async<T: Elem>(dev: &Device, rng: &mut Rng) {
    let bits = (T::DTYPE.mem_bytes() * 8) as u32;
    let per = (16 / T::DTYPE.mem_bytes()) as u32;
    let (rows, cols) = (64u32, 64u32);
    let shareds: [Encoding; 2] = [
        nvmma([rows as u64, cols as u64], bits),
        SwizzledShared::new(per, 2, 4, &[1, 0]).into(),
    ];
    for (m, n) in [
        (100usize, 77usize),
        (64, 64),
        (1, 1),
        (130, 200),
        (65, 2),
        (3, 1000),
    ] {
        let x: Vec<T> = random(rng, m * n);
        let dx = dev.upload(&x).unwrap();
        let (gm, gn) = (m.div_ceil(rows as usize), n.div_ceil(cols as usize));
        let (ym, yn) = (gm * rows as usize, gn * cols as usize);
        for shared in &shareds {
            for (div_n, ring) in [(size_divisibility(n as u64), 1), (1, 1), (16, 3)] {
                if !(n as u64).is_multiple_of(div_n) {
                    continue;
                }
                let what = format!(
                    "cp.async {} {m}x{n} div {div_n} ring {ring} {shared:?}",
                    T::DTYPE
                );
                let ctx = Context::new();
                let k = cp_async_tile_kernel(
                    &ctx,
                    TARGET,
                    T::DTYPE,
                    rows,
                    cols,
                    per,
                    shared,
                    4,
                    div_n,
                    ring,
                )
                .unwrap_or_else(|e| panic!("{what}: {e}"));
                let kernel = load(dev, &k);
                let dy = poisoned::<T>(dev, ym * yn);
                let mut args = KernelArgs::new();
                args.ptr(&dx)
                    .ptr(&dy)
                    .scalar(m as i32)
                    .scalar(n as i32)
                    .scalar(yn as i32);
                let cfg =
                    LaunchConfig::for_kernel((gn as u32, gm as u32, 1), k.signature()).unwrap();
                let stream = dev.stream();
                // SAFETY: reads x[0..m*n) (masked), writes y[0..ym*yn).
                unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
                stream.synchronize().unwrap();
                let y: Vec<T> = dy.to_vec().unwrap();
                let mut bad = 0;
                for i in 0..ym {
                    for j in 0..yn {
                        let want = if i < m && j < n {
                            x[i * n + j].bits()
                        } else {
                            0
                        };
                        let got = y[i * yn + j].bits();
                        if got != want {
                            if bad < 5 {
                                eprintln!("{what}: y[{i}, {j}] bits {got:#x}, want {want:#x}");
                            }
                            bad += 1;
                        }
                    }
                }
                assert_eq!(bad, 0, "{what}: {bad} of {} elements differ", ym * yn);
                check_padding(&y, ym * yn, &what);
                println!("{what}: exact (max abs error 0)");
            }
        }
    }
}

#[test]
fn cp_async_copies_inside_and_zero_fills_outside_on_odd_shapes() {
    let Some(dev) = device() else { return };
    let mut rng = Rng(8080);
    run_cp_async::<f16>(&dev, &mut rng);
    run_cp_async::<bf16>(&dev, &mut rng);
    run_cp_async::<f32>(&dev, &mut rng);
}

fn run_ldmatrix<T: Elem>(dev: &Device, rng: &mut Rng) {
    for warps in [4u32, 8] {
        let (_, da, db) = mma_layouts(128, 128, warps, 16);
        let sw = |vec, max_phase, order: [u32; 2]| -> Encoding {
            SwizzledShared::new(vec, 1, max_phase, &order).into()
        };
        let cases = [
            ([128, 32], nvmma([128, 32], 16), &da, "A, NVMMA (x4)"),
            ([128, 64], sw(8, 8, [1, 0]), &da, "A, swizzled (x4)"),
            ([128, 32], sw(1, 1, [0, 1]), &da, "A, column-major (.trans)"),
            ([128, 32], sw(1, 8, [1, 0]), &da, "A, scattered (ld.shared)"),
            ([32, 128], nvmma([32, 128], 16), &db, "B, NVMMA (.trans)"),
            ([64, 128], sw(8, 8, [1, 0]), &db, "B, swizzled (.trans)"),
            ([32, 128], sw(1, 1, [0, 1]), &db, "B, column-major (x4)"),
        ];
        for ((shape, shared, dot, name), ring) in
            cases.into_iter().flat_map(|c| [(c.clone(), 1), (c, 2)])
        {
            let what = format!(
                "ldmatrix {} {name} {shape:?} {warps} warps ring {ring}",
                T::DTYPE
            );
            let n = (shape[0] * shape[1]) as usize;
            let x: Vec<T> = random(rng, n);
            let ctx = Context::new();
            let k = ldmatrix_kernel(&ctx, TARGET, T::DTYPE, shape, &shared, dot, warps, ring)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let uses = k.ptx().unwrap().contains("ldmatrix.sync");
            let kernel = load(dev, &k);
            let dx = dev.upload(&x).unwrap();
            let dy = poisoned::<T>(dev, n);
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&dy);
            let cfg = LaunchConfig::for_kernel((1, 1, 1), k.signature()).unwrap();
            let stream = dev.stream();
            // SAFETY: reads x[0..n), writes y[0..n).
            unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
            stream.synchronize().unwrap();
            let y: Vec<T> = dy.to_vec().unwrap();
            let bad: Vec<usize> = (0..n).filter(|&i| y[i].bits() != x[i].bits()).collect();
            for &i in bad.iter().take(5) {
                eprintln!(
                    "{what}: element ({}, {}) = {:?}, want {:?}",
                    i as u64 / shape[1],
                    i as u64 % shape[1],
                    y[i],
                    x[i]
                );
            }
            assert!(
                bad.is_empty(),
                "{what}: {} of {n} elements differ",
                bad.len()
            );
            check_padding(&y, n, &what);
            println!("{what}: exact (ldmatrix used: {uses})");
        }
    }
}

#[test]
fn ldmatrix_reads_mma_operands_exactly() {
    let Some(dev) = device() else { return };
    let mut rng = Rng(1234);
    run_ldmatrix::<f16>(&dev, &mut rng);
    run_ldmatrix::<bf16>(&dev, &mut rng);
}

fn run_dot<T: Elem>(dev: &Device, rng: &mut Rng, rel: f64) {
    for (mnk, warps) in [
        ([16u64, 8, 16], 1u32),
        ([64, 64, 32], 4),
        ([128, 64, 64], 8),
        ([32, 32, 16], 2),
        ([128, 128, 32], 4),
        ([64, 128, 128], 8),
    ] {
        let [m, n, k] = mnk.map(|x| x as usize);
        if T::DTYPE == DType::F32 && k % 8 != 0 {
            continue;
        }
        let what = format!("dot {} {m}x{n}x{k} {warps} warps", T::DTYPE);
        let a: Vec<T> = random(rng, m * k);
        let b: Vec<T> = random(rng, k * n);
        let c: Vec<f32> = (0..m * n).map(|_| rng.f32()).collect();
        let ctx = Context::new();
        let kern = dot_kernel(&ctx, TARGET, T::DTYPE, mnk, warps)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let kernel = load(dev, &kern);
        let (da, db, dc) = (
            dev.upload(&a).unwrap(),
            dev.upload(&b).unwrap(),
            dev.upload(&c).unwrap(),
        );
        let dd = poisoned::<f32>(dev, m * n);
        let mut args = KernelArgs::new();
        args.ptr(&da).ptr(&db).ptr(&dc).ptr(&dd);
        let cfg = LaunchConfig::for_kernel((1, 1, 1), kern.signature()).unwrap();
        let stream = dev.stream();
        // SAFETY: reads a, b, c of their sizes, writes d[0..m*n).
        unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
        stream.synchronize().unwrap();
        let d: Vec<f32> = dd.to_vec().unwrap();
        let af: Vec<f32> = a.iter().map(|x| x.to_f32()).collect();
        let bf: Vec<f32> = b.iter().map(|x| x.to_f32()).collect();
        let (want, mag) = dot_reference(&af, &bf, Some(&c), m, n, k);
        let mut max_err = 0f64;
        let mut bad = 0;
        for i in 0..m * n {
            let err = (d[i] as f64 - want[i]).abs();
            max_err = max_err.max(err);
            if err.is_nan() || err > rel * mag[i] + 1e-6 {
                if bad < 5 {
                    eprintln!(
                        "{what}: d[{}, {}] = {}, want {}",
                        i / n,
                        i % n,
                        d[i],
                        want[i]
                    );
                }
                bad += 1;
            }
        }
        println!("{what}: max abs error {max_err:.3e}");
        assert_eq!(bad, 0, "{what}: {bad} of {} elements off", m * n);
        check_padding(&d, m * n, &what);
    }
}

#[test]
fn dot_matches_an_f64_host_reference_for_f16_bf16_and_tf32() {
    let Some(dev) = device() else { return };
    let mut rng = Rng(777);
    // f16 and bf16 products are exact in f32; only the f32 sums round.
    run_dot::<f16>(&dev, &mut rng, 1e-5);
    run_dot::<bf16>(&dev, &mut rng, 1e-5);
    // tf32 keeps 10 mantissa bits of each input.
    run_dot::<f32>(&dev, &mut rng, 2.0 * 2f64.powi(-10));
}

/// Runs the GEMM kernel `k` (built for `c`) on `m × n × k` random inputs and checks it against
/// an f64 reference: the output's own rounding plus `Σ |a| |b|` times a small bound.
#[allow(clippy::too_many_arguments)]
fn run_gemm<T: Elem>(
    dev: &Device,
    kern: &Kernel<'_>,
    c: GemmSm80Config,
    a: &[T],
    b: &[T],
    want: &(Vec<f64>, Vec<f64>),
    mnk: (usize, usize, usize),
    eps_out: f64,
) {
    let (m, n, k) = mnk;
    let what = format!("gemm_sm80 {} {m}x{n}x{k} {c:?}", T::DTYPE);
    let kernel = load(dev, kern);
    let (da, db) = (dev.upload(a).unwrap(), dev.upload(b).unwrap());
    let dc = poisoned::<T>(dev, m * n);
    let mut args = KernelArgs::new();
    args.ptr(&da)
        .ptr(&db)
        .ptr(&dc)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(k as i32);
    let cfg = LaunchConfig::for_kernel(c.grid(m as u64, n as u64), kern.signature()).unwrap();
    let stream = dev.stream();
    // SAFETY: reads a[0..m*k), b[0..k*n), writes c[0..m*n).
    unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
    stream.synchronize().unwrap();
    let out: Vec<T> = dc.to_vec().unwrap();
    let (ref_c, mag) = want;
    let mut max_err = 0f64;
    let mut bad = 0;
    for i in 0..m * n {
        let g = out[i].to_f32() as f64;
        let err = (g - ref_c[i]).abs();
        if err.is_nan() || err > max_err {
            max_err = if err.is_nan() { f64::INFINITY } else { err };
        }
        if err.is_nan() || err > eps_out * ref_c[i].abs() + 1e-5 * mag[i] + 1e-6 {
            if bad < 5 {
                eprintln!("{what}: c[{}, {}] = {g}, want {}", i / n, i % n, ref_c[i]);
            }
            bad += 1;
        }
    }
    println!("{what}: max abs error {max_err:.3e}");
    assert_eq!(bad, 0, "{what}: {bad} of {} elements off", m * n);
    check_padding(&out, m * n, &what);
}

fn gemm_on_odd_shapes<T: Elem>(dev: &Device, rng: &mut Rng, eps_out: f64) {
    let shapes = [
        (1usize, 1usize, 1usize),
        (17, 33, 15),
        (128, 128, 32),
        (129, 65, 97),
        (1000, 777, 333),
        (256, 512, 1024),
        (77, 130, 66),
        (64, 8, 200),
    ];
    for (m, n, k) in shapes {
        let a: Vec<T> = random(rng, m * k);
        let b: Vec<T> = random(rng, k * n);
        let af: Vec<f32> = a.iter().map(|x| x.to_f32()).collect();
        let bf: Vec<f32> = b.iter().map(|x| x.to_f32()).collect();
        let want = dot_reference(&af, &bf, None, m, n, k);
        // Every configuration; and B given transposed (an N × K matrix) on the largest and
        // smallest tiles.
        let bt: Vec<T> = (0..n * k).map(|i| b[(i % k) * n + i / k]).collect();
        let transposed = [GEMM_SM80_CONFIGS[1], GEMM_SM80_CONFIGS[4]]
            .map(|c| (c.with_b_transposed(true), &bt[..]));
        let runs = GEMM_SM80_CONFIGS.map(|c| (c, &b[..]));
        for (c, bm) in runs.into_iter().chain(transposed) {
            let ctx = Context::new();
            let kern = kernels::gemm_sm80_kernel_for_shape(
                &ctx,
                TARGET,
                c,
                T::DTYPE,
                m as u64,
                n as u64,
                k as u64,
            )
            .unwrap_or_else(|e| panic!("gemm {m}x{n}x{k} {c:?}: {e}"));
            run_gemm(dev, &kern, c, &a, bm, &want, (m, n, k), eps_out);
        }
        // The kernel declared for multiples of 16 (16-byte copies) on sizes that are.
        if m % 16 == 0 && n % 16 == 0 && k % 16 == 0 {
            let c = GEMM_SM80_CONFIGS[0];
            let ctx = Context::new();
            let kern = kernels::gemm_sm80_kernel(&ctx, TARGET, c, T::DTYPE).unwrap();
            run_gemm(dev, &kern, c, &a, &b, &want, (m, n, k), eps_out);
        }
    }
}

#[test]
fn the_sm80_gemm_matches_an_f64_reference_on_odd_shapes() {
    let Some(dev) = device() else { return };
    let mut rng = Rng(2718);
    gemm_on_odd_shapes::<f16>(&dev, &mut rng, 2f64.powi(-11));
    gemm_on_odd_shapes::<bf16>(&dev, &mut rng, 2f64.powi(-8));
}

/// One small odd GEMM per default configuration and input type: quick enough to run under
/// `compute-sanitizer` (memcheck and racecheck) with `--test gpu_mma small_gemm`.
#[test]
fn small_gemm_is_exact_enough_for_the_sanitizer() {
    let Some(dev) = device() else { return };
    let mut rng = Rng(99);
    let (m, n, k) = (200usize, 136usize, 300usize);
    let a: Vec<f16> = random(&mut rng, m * k);
    let b: Vec<f16> = random(&mut rng, k * n);
    let af: Vec<f32> = a.iter().map(|x| x.to_f32()).collect();
    let bf: Vec<f32> = b.iter().map(|x| x.to_f32()).collect();
    let want = dot_reference(&af, &bf, None, m, n, k);
    for c in GEMM_SM80_CONFIGS {
        let ctx = Context::new();
        let kern = kernels::gemm_sm80_kernel_for_shape(
            &ctx,
            TARGET,
            c,
            DType::F16,
            m as u64,
            n as u64,
            k as u64,
        )
        .unwrap();
        run_gemm(&dev, &kern, c, &a, &b, &want, (m, n, k), 2f64.powi(-11));
    }
}

/// The configurations timed: the defaults, the first without grouped order, then deeper
/// pipelines, the transposed tile and `A · Bᵀ`.
const PERF_CONFIGS: [GemmSm80Config; 10] = [
    GEMM_SM80_CONFIGS[0],
    GEMM_SM80_CONFIGS[1],
    GEMM_SM80_CONFIGS[2],
    GEMM_SM80_CONFIGS[3],
    GEMM_SM80_CONFIGS[4],
    GEMM_SM80_CONFIGS[1].with_group_m(1),
    GemmSm80Config::new(128, 256, 64, 4, 8),
    GemmSm80Config::new(256, 128, 64, 3, 8),
    GemmSm80Config::new(128, 128, 32, 4, 4),
    GEMM_SM80_CONFIGS[1].with_b_transposed(true),
];

#[test]
fn the_sm80_gemm_reports_its_speed() {
    let Some(dev) = device() else { return };
    let mut rng = Rng(5);
    for size in [4096usize, 8192] {
        let (m, n, k) = (size, size, size);
        let a: Vec<f16> = random(&mut rng, m * k);
        let b: Vec<f16> = random(&mut rng, k * n);
        let (da, db) = (dev.upload(&a).unwrap(), dev.upload(&b).unwrap());
        let dc = dev.alloc::<f16>(m * n).unwrap();
        for c in PERF_CONFIGS {
            let ctx = Context::new();
            let Ok(kern) = kernels::gemm_sm80_kernel(&ctx, TARGET, c, DType::F16) else {
                println!("gemm_sm80 f16 {size}^3 {c:?}: not built");
                continue;
            };
            let kernel = load(&dev, &kern);
            let mut args = KernelArgs::new();
            args.ptr(&da)
                .ptr(&db)
                .ptr(&dc)
                .scalar(m as i32)
                .scalar(n as i32)
                .scalar(k as i32);
            let cfg =
                LaunchConfig::for_kernel(c.grid(m as u64, n as u64), kern.signature()).unwrap();
            let stream = dev.stream();
            let t = bench(&stream, &BenchOptions::default(), |s| {
                // SAFETY: reads a and b, writes c, all size × size.
                unsafe { s.launch(&kernel, &cfg, &args) }
            })
            .unwrap();
            let tflops = 2.0 * (m * n * k) as f64 / (t.median * 1e-3) / 1e12;
            println!(
                "gemm_sm80 f16 {size}^3 {c:?}: median {:.3} ms, {tflops:.1} TFLOP/s",
                t.median
            );
        }
    }
}
