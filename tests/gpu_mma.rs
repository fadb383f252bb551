//! The Ampere tensor-core path (kernels built for sm_80, which the H100/H200 run): `cp.async`
//! with zero fill on odd shapes and rings (bit for bit), `ldmatrix` and its `.trans` form and
//! fallback (bit for bit), `dot` for f16, bf16 and tf32 against an f64 host reference, and the
//! sm_80 GEMM on odd shapes for every configuration (and B transposed) and both input types,
//! within the output's rounding plus `Σ |a| |b|` times a small bound. Random data, outputs
//! poisoned first and the poison past the end checked; every comparison prints its max abs
//! error.
//!
//! Written once over the runtime's `Backend` traits: every test runs on the CPU backend (the
//! interpreter: 3 cp.async shapes in f16 and f32, ldmatrix in f16 and on 4 warps in bf16, 4 dot
//! shapes, the GEMM on 17 × 33 × 15 in every run, in bf16 on the first configuration, and a
//! divisible 48 × 32 × 64) and on a CUDA GPU when there is one (6 cp.async shapes in every type,
//! every ldmatrix case in both types, 6 dot shapes, the GEMM on 8 shapes up to 1000 × 777 × 333
//! in both types), which also times the GEMM (GPU only). Without a GPU the GPU tests print
//! `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::check::poison_intact;
use common::launch::{launch, load, poisoned, run_one_cta};
use common::mma::{
    cp_async_reference, cp_async_variant_kernel, cp_async_variants, dot_kernel, dot_reference,
    gemm_operands, ldmatrix_cases, ldmatrix_kernel, random, Elem, CP_ASYNC_TILE,
};
use common::rng::Rng;
use half::{bf16, f16};
use weft::codegen::kernels::{self, GemmSm80Config, GEMM_SM80_CONFIGS};
use weft::codegen::{Context, DType, Kernel, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs};

/// Kernels are built for sm_80 (the mma.sync path); an sm_90 GPU (and the CPU device emulating
/// sm_90a) runs them.
const TARGET: Target = Target::SM80;

fn bits<T: Elem>(v: T) -> u64 {
    u64::from(v.bits())
}

/// cp.async of every variant over `shapes` (m, n).
fn run_cp_async<B: Backend, T: Elem>(dev: &B::Device, rng: &mut Rng, shapes: &[(usize, usize)]) {
    let (rows, cols) = (CP_ASYNC_TILE, CP_ASYNC_TILE);
    for &(m, n) in shapes {
        let x: Vec<T> = random(rng, m * n);
        let dx = dev.upload(&x).unwrap();
        let (gm, gn) = (m.div_ceil(rows), n.div_ceil(cols));
        let (ym, yn) = (gm * rows, gn * cols);
        for v in cp_async_variants::<T>(n) {
            let what = format!(
                "cp.async {} {m}x{n} div {} ring {} {:?}",
                T::DTYPE,
                v.div_n,
                v.ring,
                v.shared
            );
            let ctx = Context::new();
            let k = cp_async_variant_kernel::<T>(&ctx, TARGET, &v)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let kernel = load::<B>(dev, &k, &what);
            let dy = poisoned::<B, T>(dev, ym * yn);
            let mut args = KernelArgs::new();
            args.ptr(&dx)
                .ptr(&dy)
                .scalar(m as i32)
                .scalar(n as i32)
                .scalar(yn as i32);
            let grid = (gn as u32, gm as u32, 1);
            // SAFETY: reads x[0..m*n) (masked), writes y[0..ym*yn).
            unsafe { launch::<B>(dev, &kernel, grid, &args, &what) };
            let y: Vec<T> = dy.to_vec().unwrap();
            let want = cp_async_reference(&x, m, n, ym, yn);
            let mut bad = 0;
            for (i, (g, &w)) in y.iter().zip(&want).enumerate() {
                if g.bits() != w {
                    if bad < 5 {
                        eprintln!(
                            "{what}: y[{}, {}] bits {:#x}, want {w:#x}",
                            i / yn,
                            i % yn,
                            g.bits()
                        );
                    }
                    bad += 1;
                }
            }
            assert_eq!(bad, 0, "{what}: {bad} of {} elements differ", ym * yn);
            poison_intact(&y, ym * yn, bits::<T>, &what);
            println!("{what} on {}: exact (max abs error 0)", B::KIND);
        }
    }
}

fn cp_async_copies_inside_and_zero_fills_outside_on_odd_shapes<B: Backend>(
    dev: &B::Device,
    on_gpu: bool,
) {
    let mut rng = Rng(8080);
    if on_gpu {
        let shapes = [(100, 77), (64, 64), (1, 1), (130, 200), (65, 2), (3, 1000)];
        run_cp_async::<B, f16>(dev, &mut rng, &shapes);
        run_cp_async::<B, bf16>(dev, &mut rng, &shapes);
        run_cp_async::<B, f32>(dev, &mut rng, &shapes);
    } else {
        // Ragged in both dims, one element, a narrow strip. bf16 moves as f16 does (16-bit
        // elements, the same copies): f16 and f32 cover the widths.
        let shapes = [(100, 77), (1, 1), (3, 160)];
        run_cp_async::<B, f16>(dev, &mut rng, &shapes);
        run_cp_async::<B, f32>(dev, &mut rng, &shapes);
    }
}

/// Every ldmatrix case over `warp_counts`, each with the rings in `rings`.
fn run_ldmatrix<B: Backend, T: Elem>(
    dev: &B::Device,
    rng: &mut Rng,
    warp_counts: &[u32],
    rings: &[u64],
) {
    for &warps in warp_counts {
        let cases = ldmatrix_cases(warps);
        for ((shape, shared, dot, name), ring) in cases
            .into_iter()
            .flat_map(|c| rings.iter().map(move |&r| (c.clone(), r)))
        {
            let what = format!(
                "ldmatrix {} {name} {shape:?} {warps} warps ring {ring}",
                T::DTYPE
            );
            let n = (shape[0] * shape[1]) as usize;
            let x: Vec<T> = random(rng, n);
            let ctx = Context::new();
            let k = ldmatrix_kernel(&ctx, TARGET, T::DTYPE, shape, &shared, &dot, warps, ring)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let uses = k.ptx().unwrap().contains("ldmatrix.sync");
            // Reads x[0..n), writes y[0..n).
            let y: Vec<T> = run_one_cta::<B, T, T>(dev, &k, &x, n, &what);
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
            poison_intact(&y, n, bits::<T>, &what);
            println!("{what} on {}: exact (ldmatrix used: {uses})", B::KIND);
        }
    }
}

fn ldmatrix_reads_mma_operands_exactly<B: Backend>(dev: &B::Device, on_gpu: bool) {
    let mut rng = Rng(1234);
    run_ldmatrix::<B, f16>(dev, &mut rng, &[4, 8], &[1, 2]);
    if on_gpu {
        run_ldmatrix::<B, bf16>(dev, &mut rng, &[4, 8], &[1, 2]);
    } else {
        // bf16 moves the same bits: 4 warps, no ring.
        run_ldmatrix::<B, bf16>(dev, &mut rng, &[4], &[1]);
    }
}

/// `dot` on each of `cases` ((m, n, k), warps), held to `rel · Σ|a·b| + 1e-6`.
fn run_dot<B: Backend, T: Elem>(
    dev: &B::Device,
    rng: &mut Rng,
    rel: f64,
    cases: &[([u64; 3], u32)],
) {
    for &(mnk, warps) in cases {
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
        let kernel = load::<B>(dev, &kern, &what);
        let (da, db, dc) = (
            dev.upload(&a).unwrap(),
            dev.upload(&b).unwrap(),
            dev.upload(&c).unwrap(),
        );
        let dd = poisoned::<B, f32>(dev, m * n);
        let mut args = KernelArgs::new();
        args.ptr(&da).ptr(&db).ptr(&dc).ptr(&dd);
        // SAFETY: reads a, b, c of their sizes, writes d[0..m*n).
        unsafe { launch::<B>(dev, &kernel, 1u32, &args, &what) };
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
        println!("{what} on {}: max abs error {max_err:.3e}", B::KIND);
        assert_eq!(bad, 0, "{what}: {bad} of {} elements off", m * n);
        poison_intact(&d, m * n, common::check::f32_bits, &what);
    }
}

fn dot_matches_an_f64_host_reference_for_f16_bf16_and_tf32<B: Backend>(
    dev: &B::Device,
    on_gpu: bool,
) {
    let cases: &[([u64; 3], u32)] = if on_gpu {
        &[
            ([16, 8, 16], 1),
            ([64, 64, 32], 4),
            ([128, 64, 64], 8),
            ([32, 32, 16], 2),
            ([128, 128, 32], 4),
            ([64, 128, 128], 8),
        ]
    } else {
        &[
            ([16, 8, 16], 1),
            ([64, 64, 32], 4),
            ([32, 32, 16], 2),
            ([128, 64, 64], 8),
        ]
    };
    let mut rng = Rng(777);
    // f16 and bf16 products are exact in f32; only the f32 sums round.
    run_dot::<B, f16>(dev, &mut rng, 1e-5, cases);
    run_dot::<B, bf16>(dev, &mut rng, 1e-5, cases);
    // tf32 keeps 10 mantissa bits of each input.
    run_dot::<B, f32>(dev, &mut rng, 2.0 * 2f64.powi(-10), cases);
}

/// Runs the GEMM kernel `kern` (built for `c`) on `m × n × k` random inputs and checks it against
/// an f64 reference: the output's own rounding plus `Σ |a| |b|` times a small bound.
#[allow(clippy::too_many_arguments)]
fn run_gemm<B: Backend, T: Elem>(
    dev: &B::Device,
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
    let kernel = load::<B>(dev, kern, &what);
    let (da, db) = (dev.upload(a).unwrap(), dev.upload(b).unwrap());
    let dc = poisoned::<B, T>(dev, m * n);
    let mut args = KernelArgs::new();
    args.ptr(&da)
        .ptr(&db)
        .ptr(&dc)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(k as i32);
    // SAFETY: reads a[0..m*k), b[0..k*n), writes c[0..m*n).
    unsafe { launch::<B>(dev, &kernel, c.grid(m as u64, n as u64), &args, &what) };
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
    println!("{what} on {}: max abs error {max_err:.3e}", B::KIND);
    assert_eq!(bad, 0, "{what}: {bad} of {} elements off", m * n);
    poison_intact(&out, m * n, bits::<T>, &what);
}

/// The sm_80 GEMM of each `(config, B transposed)` in `runs` on each of `shapes`, and the kernel
/// declared for multiples of 16 (16-byte copies) on the shapes that are.
fn gemm_on_odd_shapes<B: Backend, T: Elem>(
    dev: &B::Device,
    rng: &mut Rng,
    shapes: &[(usize, usize, usize)],
    runs: &[(GemmSm80Config, bool)],
    eps_out: f64,
) {
    for &(m, n, k) in shapes {
        let (a, b, want) = gemm_operands::<T>(rng, m, n, k);
        // B given transposed: an N × K matrix.
        let bt: Vec<T> = (0..n * k).map(|i| b[(i % k) * n + i / k]).collect();
        for &(c, transposed) in runs {
            let c = c.with_b_transposed(transposed);
            let bm = if transposed { &bt } else { &b };
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
            run_gemm::<B, T>(dev, &kern, c, &a, bm, &want, (m, n, k), eps_out);
        }
        if m % 16 == 0 && n % 16 == 0 && k % 16 == 0 {
            let c = GEMM_SM80_CONFIGS[0];
            let ctx = Context::new();
            let kern = kernels::gemm_sm80_kernel(&ctx, TARGET, c, T::DTYPE).unwrap();
            run_gemm::<B, T>(dev, &kern, c, &a, &b, &want, (m, n, k), eps_out);
        }
    }
}

/// Every configuration, and B transposed on the largest and smallest tiles.
fn every_run() -> Vec<(GemmSm80Config, bool)> {
    let mut v: Vec<_> = GEMM_SM80_CONFIGS.iter().map(|&c| (c, false)).collect();
    v.extend([(GEMM_SM80_CONFIGS[1], true), (GEMM_SM80_CONFIGS[4], true)]);
    v
}

/// The output's rounding: 2⁻¹¹ for f16, 2⁻⁸ for bf16.
const F16_OUT: f64 = 1.0 / 2048.0;
const BF16_OUT: f64 = 1.0 / 256.0;

fn the_sm80_gemm_matches_an_f64_reference_on_odd_shapes<B: Backend>(dev: &B::Device, on_gpu: bool) {
    let mut rng = Rng(2718);
    if on_gpu {
        let shapes = [
            (1, 1, 1),
            (17, 33, 15),
            (128, 128, 32),
            (129, 65, 97),
            (1000, 777, 333),
            (256, 512, 1024),
            (77, 130, 66),
            (64, 8, 200),
        ];
        gemm_on_odd_shapes::<B, f16>(dev, &mut rng, &shapes, &every_run(), F16_OUT);
        gemm_on_odd_shapes::<B, bf16>(dev, &mut rng, &shapes, &every_run(), BF16_OUT);
    } else {
        // f16 in every run on a ragged problem; bf16 (the same kernels but for the MMA's type)
        // on the first configuration both ways; one element; a divisible problem.
        gemm_on_odd_shapes::<B, f16>(dev, &mut rng, &[(17, 33, 15)], &every_run(), F16_OUT);
        let first = [(GEMM_SM80_CONFIGS[0], false), (GEMM_SM80_CONFIGS[0], true)];
        let shapes = [(17, 33, 15), (1, 1, 1)];
        gemm_on_odd_shapes::<B, bf16>(dev, &mut rng, &shapes, &first, BF16_OUT);
        gemm_on_odd_shapes::<B, f16>(dev, &mut rng, &[(48, 32, 64)], &[], F16_OUT);
    }
}

/// One small odd GEMM per default configuration: quick enough to run under `compute-sanitizer`
/// (memcheck and racecheck) with `--test gpu_mma small_gemm`.
fn small_gemm_is_exact_enough_for_the_sanitizer<B: Backend>(
    dev: &B::Device,
    (m, n, k): (usize, usize, usize),
) {
    let mut rng = Rng(99);
    let (a, b, want) = gemm_operands::<f16>(&mut rng, m, n, k);
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
        run_gemm::<B, f16>(dev, &kern, c, &a, &b, &want, (m, n, k), F16_OUT);
    }
}

#[test]
fn cp_async_copies_inside_and_zero_fills_outside_on_odd_shapes_in_the_interpreter() {
    cp_async_copies_inside_and_zero_fills_outside_on_odd_shapes::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn ldmatrix_reads_mma_operands_exactly_in_the_interpreter() {
    ldmatrix_reads_mma_operands_exactly::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn dot_matches_an_f64_host_reference_for_f16_bf16_and_tf32_in_the_interpreter() {
    dot_matches_an_f64_host_reference_for_f16_bf16_and_tf32::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn the_sm80_gemm_matches_an_f64_reference_on_odd_shapes_in_the_interpreter() {
    the_sm80_gemm_matches_an_f64_reference_on_odd_shapes::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn small_gemm_is_exact_enough_for_the_sanitizer_in_the_interpreter() {
    small_gemm_is_exact_enough_for_the_sanitizer::<Cpu>(&common::gpu::cpu(), (40, 24, 36));
}

#[cfg(feature = "cuda")]
mod on_the_gpu {
    //! The same tests on a CUDA GPU, with every case; and the GEMM's speed.
    use super::*;
    use weft::runtime::bench::{bench, BenchOptions};
    use weft::runtime::cuda::Cuda;

    #[test]
    fn cp_async_copies_inside_and_zero_fills_outside_on_odd_shapes() {
        common::gpu::on_cuda(|dev| {
            super::cp_async_copies_inside_and_zero_fills_outside_on_odd_shapes::<Cuda>(dev, true)
        });
    }

    #[test]
    fn ldmatrix_reads_mma_operands_exactly() {
        common::gpu::on_cuda(|dev| super::ldmatrix_reads_mma_operands_exactly::<Cuda>(dev, true));
    }

    #[test]
    fn dot_matches_an_f64_host_reference_for_f16_bf16_and_tf32() {
        common::gpu::on_cuda(|dev| {
            super::dot_matches_an_f64_host_reference_for_f16_bf16_and_tf32::<Cuda>(dev, true)
        });
    }

    #[test]
    fn the_sm80_gemm_matches_an_f64_reference_on_odd_shapes() {
        common::gpu::on_cuda(|dev| {
            super::the_sm80_gemm_matches_an_f64_reference_on_odd_shapes::<Cuda>(dev, true)
        });
    }

    #[test]
    fn small_gemm_is_exact_enough_for_the_sanitizer() {
        common::gpu::on_cuda(|dev| {
            super::small_gemm_is_exact_enough_for_the_sanitizer::<Cuda>(dev, (200, 136, 300))
        });
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
        common::gpu::on_cuda(|dev| {
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
                    let kernel = load::<Cuda>(dev, &kern, &format!("{c:?}"));
                    let mut args = KernelArgs::new();
                    args.ptr(&da)
                        .ptr(&db)
                        .ptr(&dc)
                        .scalar(m as i32)
                        .scalar(n as i32)
                        .scalar(k as i32);
                    let cfg = weft::runtime::LaunchConfig::for_kernel(
                        c.grid(m as u64, n as u64),
                        kern.signature(),
                    )
                    .unwrap();
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
        });
    }
}
