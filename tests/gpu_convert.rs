//! Layout conversions and reductions (sm_90), checked element by element against
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
//! min of random data on odd (masked) sizes against a host reference. Data movement is compared
//! bit for bit, and the poison (0xFF bytes) past each output checked to be intact.
//!
//! Written once over the runtime's `Backend` traits: every test runs on the CPU backend (the
//! interpreter: 24 random pairs, the matrix pairs in f16, i8 and f32, every fourth random matrix
//! pair in bf16, every third Triton case, 3 reduction shapes), where a run is also a racecheck
//! and initcheck of each conversion's shared-memory traffic, and on a CUDA GPU when there is one
//! (60 random pairs, every matrix pair and Triton case in every type, 5 reduction shapes).
//! Without a GPU the GPU tests print `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::check::{exact, f32_bits, poison_intact};
use common::kernels::{
    convert_kernel, flat, matrix_pairs, random_layout, random_matrix_pairs, random_perm,
    reduce_kernel, reduce_reference, rows_cols, shuffle_pair, triton_matrix_cases, MATRIX_PAIRS,
    MATRIX_PAIRS_SEED,
};
use common::launch::{run_one_cta, run_xy};
use common::rng::Rng;
use half::{bf16, f16};
use weft::codegen::{Context, DType, ReduceOp, Target};
use weft::layout::convert::{plan_conversion, plan_shared, ConversionKind, Instruction};
use weft::layout::encoding::Blocked;
use weft::layout::LinearLayout;
use weft::runtime::cpu::Cpu;
use weft::runtime::{Backend, DeviceElem};

const TARGET: Target = Target::SM90;

/// Runs the conversion kernel of `a → b` on `x` and checks `y == x` bit for bit (by `bits`),
/// and the poison past its end.
fn run_convert<B: Backend, T: DeviceElem + Copy + std::fmt::Debug>(
    dev: &B::Device,
    a: &LinearLayout,
    b: &LinearLayout,
    dtype: DType,
    x: &[T],
    bits: fn(T) -> u64,
    what: &str,
) {
    let ctx = Context::new();
    let warps = 1u32 << a.in_dim_size_log2("warp").unwrap_or(0);
    let k = convert_kernel(&ctx, TARGET, "cvt", &flat(a), &flat(b), dtype, warps)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    // The kernel reads x[0..len) and writes y[0..len).
    let y: Vec<T> = run_one_cta::<B, T, T>(dev, &k, x, x.len(), what);
    exact(&y, x, bits, what);
    poison_intact(&y, x.len(), bits, what);
}

fn i16_bits(v: i16) -> u64 {
    u64::from(v as u16)
}

fn i8_bits(v: i8) -> u64 {
    u64::from(v as u8)
}

fn f16_bits(v: f16) -> u64 {
    u64::from(v.to_bits())
}

fn bf16_bits(v: bf16) -> u64 {
    u64::from(v.to_bits())
}

/// `pairs` random pairs; every sixth also in i16, i8 and f64.
fn conversions_between_random_encodings_move_every_element_where_the_algebra_says<B: Backend>(
    dev: &B::Device,
    pairs: usize,
) {
    let mut rng = Rng(2024);
    let mut kinds = std::collections::BTreeMap::new();
    for i in 0..pairs {
        let (na, a) = random_layout(&mut rng, 32, 64, 32, 4);
        let (nb, b) = random_layout(&mut rng, 32, 64, 32, 4);
        let kind = plan_conversion(&flat(&a), &flat(&b), 32, TARGET)
            .unwrap()
            .kind;
        *kinds.entry(format!("{kind:?}")).or_insert(0) += 1;
        let what = format!("pair {i} ({kind:?}): {na} → {nb}");
        let n = 32 * 64;
        let x: Vec<f32> = (0..n).map(|i| i as f32 + 0.5).collect();
        run_convert::<B, _>(dev, &a, &b, DType::F32, &x, f32_bits, &what);
        if i % 6 == 0 {
            let x16: Vec<i16> = (0..n).map(|i| i as i16 - 1000).collect();
            let what16 = format!("{what} i16");
            run_convert::<B, _>(dev, &a, &b, DType::I16, &x16, i16_bits, &what16);
            let x8: Vec<i8> = (0..n).map(|i| (i * 7 + i / 256) as i8).collect();
            let what8 = format!("{what} i8");
            run_convert::<B, _>(dev, &a, &b, DType::I8, &x8, i8_bits, &what8);
            let x64: Vec<f64> = (0..n).map(|i| i as f64 * 1e10 + 0.25).collect();
            let what64 = format!("{what} f64");
            run_convert::<B, _>(dev, &a, &b, DType::F64, &x64, f64::to_bits, &what64);
        }
    }
    println!("conversion classes exercised on {}: {kinds:?}", B::KIND);
}

fn transposing_conversion_and_warp_shuffles_are_exact<B: Backend>(dev: &B::Device) {
    let (a, b) = rows_cols();
    let x: Vec<f32> = (0..4096).map(|i| i as f32).collect();
    run_convert::<B, _>(dev, &a, &b, DType::F32, &x, f32_bits, "rows → cols");
    run_convert::<B, _>(dev, &b, &a, DType::F32, &x, f32_bits, "cols → rows");
    let (s, d) = shuffle_pair();
    assert_eq!(
        plan_conversion(&flat(&s), &flat(&d), 32, TARGET)
            .unwrap()
            .kind,
        ConversionKind::WarpShuffle
    );
    let x: Vec<f32> = (0..32).map(|i| i as f32).collect();
    run_convert::<B, _>(dev, &s, &d, DType::F32, &x, f32_bits, "shuffle f32");
    let x: Vec<i8> = (0..32).map(|i| i as i8).collect();
    run_convert::<B, _>(dev, &s, &d, DType::I8, &x, i8_bits, "shuffle i8");
    let x: Vec<f64> = (0..32).map(|i| i as f64 * 3.0).collect();
    run_convert::<B, _>(dev, &s, &d, DType::F64, &x, f64::to_bits, "shuffle f64");
}

/// Runs `a → b` on distinct values of `dtype` in a random order (16-bit ones finite), each of
/// which only a correct conversion puts in its place.
fn run_random<B: Backend>(
    dev: &B::Device,
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
            run_convert::<B, _>(dev, a, b, dtype, &x, f16_bits, &what)
        }
        DType::BF16 => {
            let x: Vec<bf16> = perm.iter().map(|&i| bf16::from_bits(i as u16)).collect();
            run_convert::<B, _>(dev, a, b, dtype, &x, bf16_bits, &what)
        }
        DType::I8 => {
            let x: Vec<i8> = perm.iter().map(|&i| (i ^ i >> 8) as i8).collect();
            run_convert::<B, _>(dev, a, b, dtype, &x, i8_bits, &what)
        }
        DType::F32 => {
            let x: Vec<f32> = perm.iter().map(|&i| i as f32 + 0.25).collect();
            run_convert::<B, _>(dev, a, b, dtype, &x, f32_bits, &what)
        }
        other => panic!("{what}: no host data for {other}"),
    }
}

/// The element types of the matrix conversions: 16-bit ones (the instructions' own), 8- and
/// 32-bit ones (packed four to, or one per, matrix register where their plans pick the
/// instructions). The interpreter runs a subset.
fn matrix_dtypes(on_gpu: bool) -> &'static [DType] {
    if on_gpu {
        &[DType::F16, DType::BF16, DType::I8, DType::F32]
    } else {
        &[DType::F16, DType::I8, DType::F32]
    }
}

/// The matrix instructions of the sm_90 plan of `a → b` for `bits`-bit elements, and its
/// repetitions.
fn matrix_plan(a: &LinearLayout, b: &LinearLayout, bits: u32) -> (Instruction, Instruction, u64) {
    let p = plan_shared(&flat(a), &flat(b), bits, TARGET).unwrap();
    (p.store_instruction, p.load_instruction, p.repetitions())
}

fn conversions_through_stmatrix_and_ldmatrix_are_exact<B: Backend>(dev: &B::Device, on_gpu: bool) {
    let mut rng = Rng(31);
    for (what, a, b, store, load) in matrix_pairs() {
        let (st, ld, reps) = matrix_plan(&a, &b, 16);
        assert_eq!((st, ld), (store, load), "{what}: the plan changed");
        for &dtype in matrix_dtypes(on_gpu) {
            run_random::<B>(dev, &a, &b, dtype, &mut rng, &what);
        }
        println!(
            "{what}: exact on {} ({st:?}/{ld:?}, {reps} repetitions)",
            B::KIND
        );
    }
}

/// Every `step`-th random matrix pair, in `dtypes`.
fn random_conversions_through_stmatrix_and_ldmatrix_are_exact<B: Backend>(
    dev: &B::Device,
    step: usize,
    dtypes: &[DType],
) {
    let mut pairs_rng = Rng(MATRIX_PAIRS_SEED);
    let mut rng = Rng(77);
    let mut forms = std::collections::BTreeMap::new();
    for (i, (what, a, b)) in random_matrix_pairs(&mut pairs_rng, MATRIX_PAIRS, TARGET)
        .into_iter()
        .enumerate()
        .step_by(step)
    {
        let what = format!("pair {i} {what}");
        let (st, ld, reps) = matrix_plan(&a, &b, 16);
        *forms
            .entry(format!("{st:?}/{ld:?}, {reps} repetitions"))
            .or_insert(0) += 1;
        for &dtype in dtypes {
            run_random::<B>(dev, &a, &b, dtype, &mut rng, &what);
        }
    }
    println!(
        "matrix conversions exercised on {} (16-bit plans): {forms:?}",
        B::KIND
    );
}

/// Triton 3.9's matrix conversions, every `step`-th (codegen_convert checks that weft's PTX has
/// the same matrix instructions, as many, wherever it also goes through shared memory); on the
/// GPU the f16 ones in bf16 too.
fn triton_fixture_conversions_through_stmatrix_and_ldmatrix_are_exact<B: Backend>(
    dev: &B::Device,
    on_gpu: bool,
) {
    let mut rng = Rng(5);
    let step = if on_gpu { 1 } else { 3 };
    for c in triton_matrix_cases().iter().step_by(step) {
        run_random::<B>(dev, &c.src, &c.dst, c.dtype, &mut rng, &c.what);
        if on_gpu && c.dtype == DType::F16 {
            run_random::<B>(dev, &c.src, &c.dst, DType::BF16, &mut rng, &c.what);
        }
    }
}

/// Row and column sums, maxima and minima over `shapes` (m, n): maxima and minima bit for bit,
/// sums within `1e-4 · (1 + |w|) · max(m, n)`.
fn row_and_column_reductions_match_the_host<B: Backend>(
    dev: &B::Device,
    shapes: &[(usize, usize)],
) {
    let layouts = [
        Blocked::new(&[1, 4], &[2, 16], &[4, 1], &[1, 0]),
        Blocked::new(&[4, 1], &[16, 2], &[1, 4], &[0, 1]),
        Blocked::new(&[2, 2], &[4, 8], &[2, 2], &[1, 0]),
    ];
    let mut rng = Rng(77);
    for (li, layout) in layouts.iter().enumerate() {
        for &(m, n) in shapes {
            for axis in [0usize, 1] {
                for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min] {
                    let ctx = Context::new();
                    let k = reduce_kernel(&ctx, TARGET, layout, [64, 64], axis, op, 4).unwrap();
                    let x = rng.vec(m * n);
                    let want = reduce_reference(&x, m, n, axis, op);
                    let what = format!("layout {li} {m}x{n} axis {axis} {op:?}");
                    let y: Vec<f32> = run_xy::<B, _, _>(dev, &k, 1u32, &x, want.len(), m, n, &what);
                    for (i, (&g, &w)) in y.iter().zip(&want).enumerate() {
                        let ok = match op {
                            ReduceOp::Sum => {
                                (g - w).abs() <= 1e-4 * (1.0 + w.abs()) * n.max(m) as f32
                            }
                            _ => g.to_bits() == w.to_bits(),
                        };
                        assert!(ok, "{what}: result {i}: got {g}, want {w}");
                    }
                    poison_intact(&y, want.len(), f32_bits, &what);
                }
            }
        }
    }
}

#[test]
fn conversions_between_random_encodings_move_every_element_where_the_algebra_says_in_the_interpreter(
) {
    conversions_between_random_encodings_move_every_element_where_the_algebra_says::<Cpu>(
        &common::gpu::cpu(),
        24,
    );
}

#[test]
fn transposing_conversion_and_warp_shuffles_are_exact_in_the_interpreter() {
    transposing_conversion_and_warp_shuffles_are_exact::<Cpu>(&common::gpu::cpu());
}

#[test]
fn conversions_through_stmatrix_and_ldmatrix_are_exact_in_the_interpreter() {
    conversions_through_stmatrix_and_ldmatrix_are_exact::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn random_conversions_through_stmatrix_and_ldmatrix_are_exact_in_the_interpreter() {
    random_conversions_through_stmatrix_and_ldmatrix_are_exact::<Cpu>(
        &common::gpu::cpu(),
        4,
        &[DType::BF16],
    );
}

#[test]
fn triton_fixture_conversions_through_stmatrix_and_ldmatrix_are_exact_in_the_interpreter() {
    triton_fixture_conversions_through_stmatrix_and_ldmatrix_are_exact::<Cpu>(
        &common::gpu::cpu(),
        false,
    );
}

#[test]
fn row_and_column_reductions_match_the_host_in_the_interpreter() {
    let shapes = [(50, 37), (1, 63), (33, 1)];
    row_and_column_reductions_match_the_host::<Cpu>(&common::gpu::cpu(), &shapes);
}

#[cfg(feature = "cuda")]
mod on_the_gpu {
    //! The same tests on a CUDA GPU, with every case.
    use super::*;
    use weft::runtime::cuda::Cuda;

    #[test]
    fn conversions_between_random_encodings_move_every_element_where_the_algebra_says() {
        common::gpu::on_cuda(|dev| {
            super::conversions_between_random_encodings_move_every_element_where_the_algebra_says::<
                Cuda,
            >(dev, 60)
        });
    }

    #[test]
    fn transposing_conversion_and_warp_shuffles_are_exact() {
        common::gpu::on_cuda(|dev| {
            super::transposing_conversion_and_warp_shuffles_are_exact::<Cuda>(dev)
        });
    }

    #[test]
    fn conversions_through_stmatrix_and_ldmatrix_are_exact() {
        common::gpu::on_cuda(|dev| {
            super::conversions_through_stmatrix_and_ldmatrix_are_exact::<Cuda>(dev, true)
        });
    }

    #[test]
    fn random_conversions_through_stmatrix_and_ldmatrix_are_exact() {
        common::gpu::on_cuda(|dev| {
            super::random_conversions_through_stmatrix_and_ldmatrix_are_exact::<Cuda>(
                dev,
                1,
                matrix_dtypes(true),
            )
        });
    }

    #[test]
    fn triton_fixture_conversions_through_stmatrix_and_ldmatrix_are_exact() {
        common::gpu::on_cuda(|dev| {
            super::triton_fixture_conversions_through_stmatrix_and_ldmatrix_are_exact::<Cuda>(
                dev, true,
            )
        });
    }

    #[test]
    fn row_and_column_reductions_match_the_host() {
        common::gpu::on_cuda(|dev| {
            let shapes = [(50, 37), (64, 64), (1, 63), (33, 1), (17, 64)];
            super::row_and_column_reductions_match_the_host::<Cuda>(dev, &shapes);
        });
    }
}
