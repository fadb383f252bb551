//! Layout conversions and reductions run on the GPU (sm_90), checked element by element against
//! the host.
//!
//! Conversions: for random pairs of layouts drawn from the encodings (blocked with varied
//! parameters, slices of 3-D blocked layouts, NVIDIA MMA v2), a kernel loads a tile in layout A
//! (offset `i` from `arange` in A), converts it to B and stores it at the offsets `arange` gives
//! in B: every element must land exactly where it came from, whatever class the planner chose
//! (register permutation, warp shuffle, shared memory). Conversions the planner runs with
//! `stmatrix`/`ldmatrix` (`.trans` too, over several repetitions): the fixed pairs of
//! `codegen_convert` and random pairs of MMA accumulators, dot operands and blocked layouts, on
//! distinct values in a random order, in f16, bf16, i8 and f32. Reductions: row and column sum, max and
//! min of random data on odd (masked) sizes against a host reference. Without a driver or GPU
//! every test prints `SKIP: <reason>` and passes.
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use common::gpu::{device, load_kernel, run_one_cta};
use common::kernels::{
    convert_kernel, flat, matrix_pairs, random_layout, random_matrix_pairs, random_perm,
    reduce_kernel, reduce_reference, rows_cols, shuffle_pair, triton_matrix_cases, MATRIX_PAIRS,
    MATRIX_PAIRS_SEED,
};
use common::rng::Rng;
use half::{bf16, f16};
use weft::codegen::{Context, DType, ReduceOp, Target};
use weft::layout::convert::{plan_conversion, plan_shared, ConversionKind, Instruction};
use weft::layout::encoding::Blocked;
use weft::layout::LinearLayout;
use weft::runtime::cuda::Device;
use weft::runtime::prelude::*;
use weft::runtime::{DeviceElem, KernelArgs, LaunchConfig};

const TARGET: Target = Target::SM90;

/// Runs the conversion kernel of `a → b` on `x` and checks `y == x`.
fn run_convert<T: DeviceElem + PartialEq + std::fmt::Debug>(
    dev: &Device,
    a: &LinearLayout,
    b: &LinearLayout,
    dtype: DType,
    x: &[T],
    what: &str,
) {
    let ctx = Context::new();
    let warps = 1u32 << a.in_dim_size_log2("warp").unwrap_or(0);
    let k = convert_kernel(&ctx, TARGET, "cvt", &flat(a), &flat(b), dtype, warps)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    // The kernel reads x[0..len) and writes y[0..len).
    let y = run_one_cta(dev, &k, x, x.len());
    let bad: Vec<usize> = (0..x.len()).filter(|&i| y[i] != x[i]).collect();
    assert!(
        bad.is_empty(),
        "{what}: {} of {} elements misplaced, first at {}: got {:?}, want {:?}",
        bad.len(),
        x.len(),
        bad[0],
        y[bad[0]],
        x[bad[0]]
    );
}

#[test]
fn conversions_between_random_encodings_move_every_element_where_the_algebra_says() {
    let Some(dev) = device() else { return };
    let mut rng = Rng(2024);
    let mut kinds = std::collections::BTreeMap::new();
    for i in 0..60 {
        let (na, a) = random_layout(&mut rng, 32, 64, 32, 4);
        let (nb, b) = random_layout(&mut rng, 32, 64, 32, 4);
        let kind = plan_conversion(&flat(&a), &flat(&b), 32, TARGET)
            .unwrap()
            .kind;
        *kinds.entry(format!("{kind:?}")).or_insert(0) += 1;
        let what = format!("pair {i} ({kind:?}): {na} → {nb}");
        let n = 32 * 64;
        let x: Vec<f32> = (0..n).map(|i| i as f32 + 0.5).collect();
        run_convert(&dev, &a, &b, DType::F32, &x, &what);
        if i % 6 == 0 {
            let x16: Vec<i16> = (0..n).map(|i| i as i16 - 1000).collect();
            run_convert(&dev, &a, &b, DType::I16, &x16, &format!("{what} i16"));
            let x8: Vec<i8> = (0..n).map(|i| (i * 7 + i / 256) as i8).collect();
            run_convert(&dev, &a, &b, DType::I8, &x8, &format!("{what} i8"));
            let x64: Vec<f64> = (0..n).map(|i| i as f64 * 1e10 + 0.25).collect();
            run_convert(&dev, &a, &b, DType::F64, &x64, &format!("{what} f64"));
        }
    }
    println!("conversion classes exercised: {kinds:?}");
}

#[test]
fn transposing_conversion_and_warp_shuffles_are_exact() {
    let Some(dev) = device() else { return };
    let (a, b) = rows_cols();
    let x: Vec<f32> = (0..4096).map(|i| i as f32).collect();
    run_convert(&dev, &a, &b, DType::F32, &x, "rows → cols");
    run_convert(&dev, &b, &a, DType::F32, &x, "cols → rows");
    let (s, d) = shuffle_pair();
    assert_eq!(
        plan_conversion(&flat(&s), &flat(&d), 32, TARGET)
            .unwrap()
            .kind,
        ConversionKind::WarpShuffle
    );
    let x: Vec<f32> = (0..32).map(|i| i as f32).collect();
    run_convert(&dev, &s, &d, DType::F32, &x, "shuffle f32");
    let x: Vec<i8> = (0..32).map(|i| i as i8).collect();
    run_convert(&dev, &s, &d, DType::I8, &x, "shuffle i8");
    let x: Vec<f64> = (0..32).map(|i| i as f64 * 3.0).collect();
    run_convert(&dev, &s, &d, DType::F64, &x, "shuffle f64");
}

/// Runs `a → b` on distinct values of `dtype` in a random order (16-bit ones finite, so that
/// equal means the same bits), each of which only a correct conversion puts in its place.
fn run_random(
    dev: &Device,
    a: &LinearLayout,
    b: &LinearLayout,
    dtype: DType,
    rng: &mut Rng,
    what: &str,
) {
    let n: u64 = a.out_dims().map(|(_, s)| s).product();
    let perm = random_perm(rng, n);
    let what = format!("{what} {dtype}");
    match dtype {
        DType::F16 => {
            let x: Vec<f16> = perm.iter().map(|&i| f16::from_bits(i as u16)).collect();
            run_convert(dev, a, b, dtype, &x, &what)
        }
        DType::BF16 => {
            let x: Vec<bf16> = perm.iter().map(|&i| bf16::from_bits(i as u16)).collect();
            run_convert(dev, a, b, dtype, &x, &what)
        }
        DType::I8 => {
            let x: Vec<i8> = perm.iter().map(|&i| (i ^ i >> 8) as i8).collect();
            run_convert(dev, a, b, dtype, &x, &what)
        }
        DType::F32 => {
            let x: Vec<f32> = perm.iter().map(|&i| i as f32 + 0.25).collect();
            run_convert(dev, a, b, dtype, &x, &what)
        }
        other => panic!("{what}: no host data for {other}"),
    }
}

/// [`run_random`] for the element types of the matrix conversions: 16-bit ones (the
/// instructions' own), 8- and 32-bit ones (packed four to, or one per, matrix register where
/// their plans pick the instructions).
fn run_matrix_dtypes(dev: &Device, a: &LinearLayout, b: &LinearLayout, rng: &mut Rng, what: &str) {
    for dtype in [DType::F16, DType::BF16, DType::I8, DType::F32] {
        run_random(dev, a, b, dtype, rng, what);
    }
}

/// The matrix instructions of the sm_90 plan of `a → b` for `bits`-bit elements, and its
/// repetitions.
fn matrix_plan(a: &LinearLayout, b: &LinearLayout, bits: u32) -> (Instruction, Instruction, u64) {
    let p = plan_shared(&flat(a), &flat(b), bits, TARGET).unwrap();
    (p.store_instruction, p.load_instruction, p.repetitions())
}

#[test]
fn conversions_through_stmatrix_and_ldmatrix_are_exact() {
    let Some(dev) = device() else { return };
    let mut rng = Rng(31);
    for (what, a, b, store, load) in matrix_pairs() {
        let (st, ld, reps) = matrix_plan(&a, &b, 16);
        assert_eq!((st, ld), (store, load), "{what}: the plan changed");
        run_matrix_dtypes(&dev, &a, &b, &mut rng, &what);
        println!("{what}: exact ({st:?}/{ld:?}, {reps} repetitions)");
    }
}

#[test]
fn random_conversions_through_stmatrix_and_ldmatrix_are_exact() {
    let Some(dev) = device() else { return };
    let mut pairs_rng = Rng(MATRIX_PAIRS_SEED);
    let mut rng = Rng(77);
    let mut forms = std::collections::BTreeMap::new();
    for (i, (what, a, b)) in random_matrix_pairs(&mut pairs_rng, MATRIX_PAIRS, TARGET)
        .into_iter()
        .enumerate()
    {
        let what = format!("pair {i} {what}");
        let (st, ld, reps) = matrix_plan(&a, &b, 16);
        *forms
            .entry(format!("{st:?}/{ld:?}, {reps} repetitions"))
            .or_insert(0) += 1;
        run_matrix_dtypes(&dev, &a, &b, &mut rng, &what);
    }
    println!("matrix conversions exercised (16-bit plans): {forms:?}");
}

#[test]
fn triton_fixture_conversions_through_stmatrix_and_ldmatrix_are_exact() {
    // Triton 3.9's matrix conversions (codegen_convert checks that weft's PTX has the same
    // matrix instructions, as many, wherever it also goes through shared memory).
    let Some(dev) = device() else { return };
    let mut rng = Rng(5);
    for c in triton_matrix_cases() {
        run_random(&dev, &c.src, &c.dst, c.dtype, &mut rng, &c.what);
        if c.dtype == DType::F16 {
            run_random(&dev, &c.src, &c.dst, DType::BF16, &mut rng, &c.what);
        }
    }
}

#[test]
fn row_and_column_reductions_match_the_host() {
    let Some(dev) = device() else { return };
    let stream = dev.stream();
    let layouts = [
        Blocked::new(&[1, 4], &[2, 16], &[4, 1], &[1, 0]),
        Blocked::new(&[4, 1], &[16, 2], &[1, 4], &[0, 1]),
        Blocked::new(&[2, 2], &[4, 8], &[2, 2], &[1, 0]),
    ];
    let mut rng = Rng(77);
    for (li, layout) in layouts.iter().enumerate() {
        for (m, n) in [(50usize, 37usize), (64, 64), (1, 63), (33, 1), (17, 64)] {
            for axis in [0usize, 1] {
                for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min] {
                    let ctx = Context::new();
                    let k = reduce_kernel(&ctx, TARGET, layout, [64, 64], axis, op, 4).unwrap();
                    let kernel = load_kernel(&dev, &k);
                    let x = rng.vec(m * n);
                    let want = reduce_reference(&x, m, n, axis, op);
                    let dx = dev.upload(&x).unwrap();
                    let mut dy = dev.alloc::<f32>(want.len() + 16).unwrap();
                    dy.fill_bytes(0xFF).unwrap();
                    let mut args = KernelArgs::new();
                    args.ptr(&dx).ptr(&dy).scalar(m as i32).scalar(n as i32);
                    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
                    // SAFETY: reads x[0..m*n), writes y[0..m or n); y has 16 more.
                    unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
                    stream.synchronize().unwrap();
                    let y = dy.to_vec().unwrap();
                    let what = format!("layout {li} {m}x{n} axis {axis} {op:?}");
                    for (i, (&g, &w)) in y.iter().zip(&want).enumerate() {
                        let ok = match op {
                            ReduceOp::Sum => {
                                (g - w).abs() <= 1e-4 * (1.0 + w.abs()) * n.max(m) as f32
                            }
                            _ => g == w,
                        };
                        assert!(ok, "{what}: result {i}: got {g}, want {w}");
                    }
                    for g in &y[want.len()..] {
                        assert_eq!(g.to_bits(), u32::MAX, "{what}: wrote past the end");
                    }
                }
            }
        }
    }
}
