//! The Ampere tensor-core suite (`gpu_mma`) in the interpreter: the same kernels built for
//! sm_80 — `cp.async` with zero fill on odd shapes and rings, `ldmatrix` (and `.trans`, and its
//! fallback) into MMA operands, `dot` for f16, bf16 and tf32, the sm_80 GEMM in every
//! configuration (and B transposed) on odd shapes — with random data, poisoned outputs and the
//! same f64 host reference and bounds. Copies are compared bit for bit.
#![cfg(feature = "llvm")]

mod common;

use common::interp as ci;
use common::mma::{
    cp_async_reference, cp_async_variant_kernel, cp_async_variants, dot_kernel, dot_reference,
    gemm_operands, ldmatrix_cases, ldmatrix_kernel, random, Elem, CP_ASYNC_TILE,
};
use common::rng::Rng;
use half::{bf16, f16};
use weft::codegen::interp::{LaunchArg, Memory};
use weft::codegen::kernels::{self, GemmSm80Config, GEMM_SM80_CONFIGS};
use weft::codegen::{Context, DType, Kernel, Target};

/// Kernels are built for sm_80 (the mma.sync path), as on the GPU.
const TARGET: Target = Target::SM80;

fn bits<T: Elem>(v: T) -> u64 {
    u64::from(v.bits())
}

fn run_cp_async<T: Elem>(rng: &mut Rng) {
    let (rows, cols) = (CP_ASYNC_TILE, CP_ASYNC_TILE);
    // Ragged in both dims, one element, a narrow strip.
    for (m, n) in [(100usize, 77usize), (1, 1), (3, 160)] {
        let x: Vec<T> = random(rng, m * n);
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
            let mut mem = Memory::new();
            let dx = mem.upload(&x);
            let dy = ci::poisoned::<T>(&mut mem, ym * yn);
            let args = [
                LaunchArg::Buffer(dx),
                LaunchArg::Buffer(dy),
                LaunchArg::I32(m as i32),
                LaunchArg::I32(n as i32),
                LaunchArg::I32(yn as i32),
            ];
            ci::launch(&k, (gn as u32, gm as u32, 1), &args, &mut mem, &what);
            let y: Vec<T> = mem.download(dy);
            let got: Vec<u32> = y.iter().map(|v| v.bits()).collect();
            let want = cp_async_reference(&x, m, n, ym, yn);
            ci::exact(&got, &want, u64::from, &what);
            ci::poison_intact(&y, ym * yn, bits::<T>, &what);
        }
    }
}

#[test]
fn cp_async_copies_inside_and_zero_fills_outside_on_odd_shapes() {
    let mut rng = Rng(8080);
    // bf16 moves as f16 does (16-bit elements, the same copies): f16 and f32 cover the widths.
    run_cp_async::<f16>(&mut rng);
    run_cp_async::<f32>(&mut rng);
}

fn run_ldmatrix<T: Elem>(rng: &mut Rng, warp_counts: &[u32], rings: &[u64]) {
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
            let y: Vec<T> = ci::run_one_cta(&k, &x, n + ci::PAD, &what);
            ci::exact(&y, &x, bits::<T>, &what);
            ci::poison_intact(&y, n, bits::<T>, &what);
        }
    }
}

#[test]
fn ldmatrix_reads_mma_operands_exactly() {
    let mut rng = Rng(1234);
    // Every case in f16 over 4 and 8 warps with and without a ring; bf16 (the same bits moved)
    // over 4 warps.
    run_ldmatrix::<f16>(&mut rng, &[4, 8], &[1, 2]);
    run_ldmatrix::<bf16>(&mut rng, &[4], &[1]);
}

fn run_dot<T: Elem>(rng: &mut Rng, rel: f64) {
    for (mnk, warps) in [
        ([16u64, 8, 16], 1u32),
        ([64, 64, 32], 4),
        ([32, 32, 16], 2),
        ([128, 64, 64], 8),
    ] {
        let [m, n, k] = mnk.map(|x| x as usize);
        let what = format!("dot {} {m}x{n}x{k} {warps} warps", T::DTYPE);
        let a: Vec<T> = random(rng, m * k);
        let b: Vec<T> = random(rng, k * n);
        let c: Vec<f32> = (0..m * n).map(|_| rng.f32()).collect();
        let ctx = Context::new();
        let kern = dot_kernel(&ctx, TARGET, T::DTYPE, mnk, warps)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let mut mem = Memory::new();
        let (da, db, dc) = (mem.upload(&a), mem.upload(&b), mem.upload(&c));
        let dd = ci::poisoned::<f32>(&mut mem, m * n);
        let args = [da, db, dc, dd].map(LaunchArg::Buffer);
        ci::launch(&kern, 1u32, &args, &mut mem, &what);
        let d: Vec<f32> = mem.download(dd);
        let af: Vec<f32> = a.iter().map(|x| x.to_f32()).collect();
        let bf: Vec<f32> = b.iter().map(|x| x.to_f32()).collect();
        let (want, mag) = dot_reference(&af, &bf, Some(&c), m, n, k);
        for i in 0..m * n {
            let err = (f64::from(d[i]) - want[i]).abs();
            assert!(
                err <= rel * mag[i] + 1e-6,
                "{what}: d[{}, {}] = {}, want {}",
                i / n,
                i % n,
                d[i],
                want[i]
            );
        }
        ci::poison_intact(&d, m * n, ci::f32_bits, &what);
    }
}

#[test]
fn dot_matches_an_f64_host_reference_for_f16_bf16_and_tf32() {
    let mut rng = Rng(777);
    // f16 and bf16 products are exact in f32; only the f32 sums round.
    run_dot::<f16>(&mut rng, 1e-5);
    run_dot::<bf16>(&mut rng, 1e-5);
    // tf32 keeps 10 mantissa bits of each input.
    run_dot::<f32>(&mut rng, 2.0 * 2f64.powi(-10));
}

/// Runs the sm_80 GEMM `kern` (built for `c`) and checks C: the output's own rounding plus
/// `Σ |a| |b|` times a small bound (the GPU suite's).
#[allow(clippy::too_many_arguments)]
fn run_gemm<T: Elem>(
    kern: &Kernel<'_>,
    c: GemmSm80Config,
    a: &[T],
    b: &[T],
    want: &(Vec<f64>, Vec<f64>),
    (m, n, k): (usize, usize, usize),
    eps_out: f64,
) {
    let what = format!("gemm_sm80 {} {m}x{n}x{k} {c:?}", T::DTYPE);
    let mut mem = Memory::new();
    let (da, db) = (mem.upload(a), mem.upload(b));
    let dc = ci::poisoned::<T>(&mut mem, m * n);
    let args = [
        LaunchArg::Buffer(da),
        LaunchArg::Buffer(db),
        LaunchArg::Buffer(dc),
        LaunchArg::I32(m as i32),
        LaunchArg::I32(n as i32),
        LaunchArg::I32(k as i32),
    ];
    ci::launch(kern, c.grid(m as u64, n as u64), &args, &mut mem, &what);
    let out: Vec<T> = mem.download(dc);
    let (ref_c, mag) = want;
    for i in 0..m * n {
        let g = f64::from(out[i].to_f32());
        let err = (g - ref_c[i]).abs();
        assert!(
            err <= eps_out * ref_c[i].abs() + 1e-5 * mag[i] + 1e-6,
            "{what}: c[{}, {}] = {g}, want {}",
            i / n,
            i % n,
            ref_c[i]
        );
    }
    ci::poison_intact(&out, m * n, bits::<T>, &what);
}

/// The sm_80 GEMM of each `(config, B transposed)` in `runs` on each of `shapes`.
fn gemm_on_odd_shapes<T: Elem>(
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
            run_gemm(&kern, c, &a, bm, &want, (m, n, k), eps_out);
        }
    }
}

/// Every configuration, and B transposed on the largest and smallest tiles.
fn every_run() -> Vec<(GemmSm80Config, bool)> {
    let mut v: Vec<_> = GEMM_SM80_CONFIGS.iter().map(|&c| (c, false)).collect();
    v.extend([(GEMM_SM80_CONFIGS[1], true), (GEMM_SM80_CONFIGS[4], true)]);
    v
}

#[test]
fn the_sm80_gemm_matches_an_f64_reference_on_odd_shapes() {
    let mut rng = Rng(2718);
    // f16 in every run on a ragged problem; bf16 (the same kernels but for the MMA's type) on
    // the first configuration both ways; one element.
    gemm_on_odd_shapes::<f16>(&mut rng, &[(17, 33, 15)], &every_run(), 2f64.powi(-11));
    let first = [(GEMM_SM80_CONFIGS[0], false), (GEMM_SM80_CONFIGS[0], true)];
    gemm_on_odd_shapes::<bf16>(&mut rng, &[(17, 33, 15), (1, 1, 1)], &first, 2f64.powi(-8));
    // The kernel declared for multiples of 16 (16-byte copies) on sizes that are.
    let (m, n, k) = (48usize, 32usize, 64usize);
    let (a, b, want) = gemm_operands::<f16>(&mut rng, m, n, k);
    let c = GEMM_SM80_CONFIGS[0];
    let ctx = Context::new();
    let kern = kernels::gemm_sm80_kernel(&ctx, TARGET, c, DType::F16).unwrap();
    run_gemm(&kern, c, &a, &b, &want, (m, n, k), 2f64.powi(-11));
}
