//! The shared-memory suites (`gpu_transpose`, `gpu_convert`, `gpu_shared_reuse`,
//! `gpu_shared_views`) in the interpreter: the same kernels (transposes through shared memory,
//! layout conversions of every class, `stmatrix`/`ldmatrix` plans, reductions, scratch reuse,
//! shared views, wgmma over K slices, TMA through slices) on the GPU suites' odd shapes (fewer
//! of the large ones), random or distinct inputs, poisoned outputs, the same host references.
//! Data movement is compared bit for bit. A run is also a racecheck and initcheck of each
//! kernel's shared-memory traffic: a barrier missing between a write and a read fails it.
#![cfg(feature = "llvm")]

mod common;

use common::interp as ci;
use common::kernels::{
    convert_kernel, flat, matrix_pairs, random_layout, random_matrix_pairs, random_perm,
    reduce_kernel, reduce_reference, rows_cols, shuffle_pair, triton_matrix_cases, MATRIX_PAIRS,
    MATRIX_PAIRS_SEED,
};
use common::reuse::{chain_kernel, column_stats_kernel, free_reuse_kernel, replica_stats_kernel};
use common::rng::Rng;
use common::views::{
    is_refusal, parents, reference, tma_slices_kernel, view_kernel, views, wgmma_slices_kernel,
    SHAPE,
};
use common::wgmma::small_values;
use half::{bf16, f16};
use weft::codegen::interp::{HostElem, LaunchArg, Memory, TensorMapArg};
use weft::codegen::kernels::{self, TransposeConfig};
use weft::codegen::{Context, DType, ReduceOp, Target};
use weft::layout::convert::{plan_conversion, ConversionKind};
use weft::layout::LinearLayout;

const TARGET: Target = Target::SM90;

/// Runs the transpose kernel of `c` on the `m × n` matrix `x` and checks it bit for bit.
fn run_transpose(k: &weft::codegen::Kernel<'_>, c: TransposeConfig, x: &[f32], m: usize, n: usize) {
    let what = format!("transpose {m}x{n} {c:?}");
    let mut mem = Memory::new();
    let dx = mem.upload(x);
    let dy = ci::poisoned::<f32>(&mut mem, m * n);
    let args = [
        LaunchArg::Buffer(dx),
        LaunchArg::Buffer(dy),
        LaunchArg::I32(m as i32),
        LaunchArg::I32(n as i32),
    ];
    ci::launch(k, c.grid(m as u64, n as u64), &args, &mut mem, &what);
    let y: Vec<f32> = mem.download(dy);
    let want: Vec<f32> = (0..m * n).map(|i| x[(i % m) * n + i / m]).collect();
    ci::exact(&y, &want, ci::f32_bits, &what);
    ci::poison_intact(&y, m * n, ci::f32_bits, &what);
}

#[test]
fn transpose_through_shared_memory_is_exact_on_odd_shapes() {
    let mut configs = kernels::TRANSPOSE_CONFIGS.to_vec();
    configs.push(TransposeConfig::new(16, 32, 1));
    let mut rng = Rng(4242);
    for (m, n) in [(100, 77), (33, 129), (1, 1), (16, 1040)] {
        let x = rng.vec(m * n);
        for &c in &configs {
            let ctx = Context::new();
            let k = kernels::transpose_smem_kernel_for_shape(&ctx, TARGET, c, m as u64, n as u64)
                .unwrap_or_else(|e| panic!("transpose {m}x{n} {c:?}: {e}"));
            run_transpose(&k, c, &x, m, n);
        }
    }
    // Declared for multiples of 16 (16-byte vectors both ways), on sizes off the tile.
    for c in kernels::TRANSPOSE_CONFIGS {
        let ctx = Context::new();
        let k = kernels::transpose_smem_kernel(&ctx, TARGET, c).unwrap();
        for (m, n) in [(48, 80), (16, 144)] {
            run_transpose(&k, c, &rng.vec(m * n), m, n);
        }
    }
}

/// Runs the conversion kernel of `a → b` on `x` and checks `y == x` bit for bit.
fn run_convert<T: HostElem + std::fmt::Debug>(
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
    let y: Vec<T> = ci::run_one_cta(&k, x, x.len(), what);
    ci::exact(&y, x, bits, what);
}

#[test]
fn conversions_between_random_encodings_move_every_element_where_the_algebra_says() {
    let mut rng = Rng(2024);
    for i in 0..24 {
        let (na, a) = random_layout(&mut rng, 32, 64, 32, 4);
        let (nb, b) = random_layout(&mut rng, 32, 64, 32, 4);
        let what = format!("pair {i}: {na} → {nb}");
        let n = 32 * 64;
        let x: Vec<f32> = (0..n).map(|i| i as f32 + 0.5).collect();
        run_convert(&a, &b, DType::F32, &x, ci::f32_bits, &what);
        if i % 6 == 0 {
            let x16: Vec<i16> = (0..n).map(|i| i as i16 - 1000).collect();
            run_convert(
                &a,
                &b,
                DType::I16,
                &x16,
                |v| u64::from(v as u16),
                &format!("{what} i16"),
            );
            let x8: Vec<i8> = (0..n).map(|i| (i * 7 + i / 256) as i8).collect();
            run_convert(
                &a,
                &b,
                DType::I8,
                &x8,
                |v| u64::from(v as u8),
                &format!("{what} i8"),
            );
            let x64: Vec<f64> = (0..n).map(|i| i as f64 * 1e10 + 0.25).collect();
            run_convert(
                &a,
                &b,
                DType::F64,
                &x64,
                f64::to_bits,
                &format!("{what} f64"),
            );
        }
    }
}

#[test]
fn transposing_conversion_and_warp_shuffles_are_exact() {
    let (a, b) = rows_cols();
    let x: Vec<f32> = (0..4096).map(|i| i as f32).collect();
    run_convert(&a, &b, DType::F32, &x, ci::f32_bits, "rows → cols");
    run_convert(&b, &a, DType::F32, &x, ci::f32_bits, "cols → rows");
    let (s, d) = shuffle_pair();
    assert_eq!(
        plan_conversion(&flat(&s), &flat(&d), 32, TARGET)
            .unwrap()
            .kind,
        ConversionKind::WarpShuffle
    );
    let x: Vec<f32> = (0..32).map(|i| i as f32).collect();
    run_convert(&s, &d, DType::F32, &x, ci::f32_bits, "shuffle f32");
    let x: Vec<i8> = (0..32).map(|i| i as i8).collect();
    run_convert(&s, &d, DType::I8, &x, |v| u64::from(v as u8), "shuffle i8");
    let x: Vec<f64> = (0..32).map(|i| i as f64 * 3.0).collect();
    run_convert(&s, &d, DType::F64, &x, f64::to_bits, "shuffle f64");
}

/// Runs `a → b` on distinct values of `dtype` in a random order.
fn run_random(a: &LinearLayout, b: &LinearLayout, dtype: DType, rng: &mut Rng, what: &str) {
    let n: u64 = a.out_dims().map(|(_, s)| s).product();
    let perm = random_perm(rng, n);
    let what = format!("{what} {dtype}");
    match dtype {
        DType::F16 => {
            let x: Vec<f16> = perm.iter().map(|&i| f16::from_bits(i as u16)).collect();
            run_convert(a, b, dtype, &x, |v| u64::from(v.to_bits()), &what)
        }
        DType::BF16 => {
            let x: Vec<bf16> = perm.iter().map(|&i| bf16::from_bits(i as u16)).collect();
            run_convert(a, b, dtype, &x, |v| u64::from(v.to_bits()), &what)
        }
        DType::I8 => {
            let x: Vec<i8> = perm.iter().map(|&i| (i ^ i >> 8) as i8).collect();
            run_convert(a, b, dtype, &x, |v| u64::from(v as u8), &what)
        }
        DType::F32 => {
            let x: Vec<f32> = perm.iter().map(|&i| i as f32 + 0.25).collect();
            run_convert(a, b, dtype, &x, ci::f32_bits, &what)
        }
        other => panic!("{what}: no host data for {other}"),
    }
}

#[test]
fn conversions_through_stmatrix_and_ldmatrix_are_exact() {
    let mut rng = Rng(31);
    for (what, a, b, _, _) in matrix_pairs() {
        for dtype in [DType::F16, DType::I8, DType::F32] {
            run_random(&a, &b, dtype, &mut rng, &what);
        }
    }
    let mut pairs_rng = Rng(MATRIX_PAIRS_SEED);
    for (i, (what, a, b)) in random_matrix_pairs(&mut pairs_rng, MATRIX_PAIRS, TARGET)
        .into_iter()
        .enumerate()
        .step_by(4)
    {
        run_random(&a, &b, DType::BF16, &mut rng, &format!("pair {i} {what}"));
    }
    for c in triton_matrix_cases().iter().step_by(3) {
        run_random(&c.src, &c.dst, c.dtype, &mut rng, &c.what);
    }
}

#[test]
fn row_and_column_reductions_match_the_host() {
    let layouts = [
        weft::layout::encoding::Blocked::new(&[1, 4], &[2, 16], &[4, 1], &[1, 0]),
        weft::layout::encoding::Blocked::new(&[4, 1], &[16, 2], &[1, 4], &[0, 1]),
        weft::layout::encoding::Blocked::new(&[2, 2], &[4, 8], &[2, 2], &[1, 0]),
    ];
    let mut rng = Rng(77);
    for (li, layout) in layouts.iter().enumerate() {
        for (m, n) in [(50usize, 37usize), (1, 63), (33, 1)] {
            for axis in [0usize, 1] {
                for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min] {
                    let ctx = Context::new();
                    let k = reduce_kernel(&ctx, TARGET, layout, [64, 64], axis, op, 4).unwrap();
                    let x = rng.vec(m * n);
                    let want = reduce_reference(&x, m, n, axis, op);
                    let what = format!("layout {li} {m}x{n} axis {axis} {op:?}");
                    let mut mem = Memory::new();
                    let dx = mem.upload(&x);
                    let dy = ci::poisoned::<f32>(&mut mem, want.len());
                    let args = [
                        LaunchArg::Buffer(dx),
                        LaunchArg::Buffer(dy),
                        LaunchArg::I32(m as i32),
                        LaunchArg::I32(n as i32),
                    ];
                    ci::launch(&k, 1u32, &args, &mut mem, &what);
                    let y: Vec<f32> = mem.download(dy);
                    for (i, (&g, &w)) in y.iter().zip(&want).enumerate() {
                        let ok = match op {
                            // The GPU suite's bound on a sum of up to 64 terms in any order.
                            ReduceOp::Sum => {
                                (g - w).abs() <= 1e-4 * (1.0 + w.abs()) * n.max(m) as f32
                            }
                            _ => g.to_bits() == w.to_bits(),
                        };
                        assert!(ok, "{what}: result {i}: got {g}, want {w}");
                    }
                    ci::poison_intact(&y, want.len(), ci::f32_bits, &what);
                }
            }
        }
    }
}

/// Random `f32` in [-64, 64) on a 1/8 grid: sums of 64 are exact.
fn grid_data(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| (rng.next_u64() % 1024) as f32 / 8.0 - 64.0)
        .collect()
}

/// Column sums, maxima and minima of the 64 × 64 `x` (row-major), in that order.
fn column_stats(x: &[f32]) -> Vec<f32> {
    let col = |c: usize| (0..64).map(move |r| x[r * 64 + c]);
    let sums = (0..64).map(|c| col(c).sum::<f32>());
    let maxs = (0..64).map(|c| col(c).fold(f32::NEG_INFINITY, f32::max));
    let mins = (0..64).map(|c| col(c).fold(f32::INFINITY, f32::min));
    sums.chain(maxs).chain(mins).collect()
}

#[test]
fn shared_scratch_reuse_matches_the_host() {
    let ctx = Context::new();
    let mut rng = Rng(3);
    for hops in 1..=4 {
        for iters in [0, 3] {
            let what = format!("{hops} hops, {iters} iterations");
            let k = chain_kernel(&ctx, TARGET, hops, iters).unwrap();
            let x = grid_data(&mut rng, 4096);
            let y: Vec<f32> = ci::run_one_cta(&k, &x, 4096, &what);
            let want: Vec<f32> = x.iter().map(|v| v + iters as f32).collect();
            ci::exact(&y, &want, ci::f32_bits, &what);
        }
    }
    let k = column_stats_kernel(&ctx, TARGET).unwrap();
    let x = grid_data(&mut rng, 4096);
    let y: Vec<f32> = ci::run_one_cta(&k, &x, 192, "column stats");
    ci::exact(&y, &column_stats(&x), ci::f32_bits, "column stats");
    let k = free_reuse_kernel(&ctx, TARGET).unwrap();
    let x = grid_data(&mut rng, 4096);
    let y: Vec<f32> = ci::run_one_cta(&k, &x, 4096, "free then alloc");
    let want: Vec<f32> = x.iter().map(|v| 2.0 * v).collect();
    ci::exact(&y, &want, ci::f32_bits, "free then alloc");
}

/// Two replicas of a warp role, each reducing on its own reused scratch, run as cooperating
/// tasks: per replica, the column sums and maxima of its half of `x` (the GPU suite's check; the
/// data are multiples of 1/8 below 64, so the sums are exact in any order).
#[test]
fn replicas_reuse_their_own_scratch() {
    let ctx = Context::new();
    let k = replica_stats_kernel(&ctx).unwrap();
    let x = grid_data(&mut Rng(13), 2 * 4096);
    let y: Vec<f32> = ci::run_one_cta(&k, &x, 256, "replica stats");
    for q in 0..2 {
        for c in 0..64 {
            let col: Vec<f32> = (0..64).map(|r| x[4096 * q + r * 64 + c]).collect();
            let sum: f32 = col.iter().sum();
            let max = col.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(y[128 * q + c], sum, "replica {q} sum of {c}");
            assert_eq!(y[128 * q + 64 + c], max, "replica {q} max of {c}");
        }
    }
}

#[test]
fn every_view_reads_and_writes_what_the_host_expects() {
    let ctx = Context::new();
    let mut rng = Rng(41);
    let (mut ran, mut refused) = (0, 0);
    for (name, parent) in parents() {
        for view in views() {
            for write in [false, true] {
                let what = format!("{name} {view:?} write={write}");
                let k = match view_kernel(&ctx, TARGET, &parent, &view, write) {
                    Ok(k) => k,
                    Err(e) => {
                        assert!(is_refusal(&e), "{what}: {e}");
                        refused += 1;
                        continue;
                    }
                };
                let n = (SHAPE[0] * SHAPE[1]) as usize;
                let vn: usize = view.shape().iter().product::<u64>() as usize;
                let x: Vec<i16> = (0..n).map(|_| rng.next_u64() as i16).collect();
                let z: Vec<i64> = (0..vn)
                    .map(|_| match view.dtype() {
                        DType::I32 => i64::from(rng.next_u64() as i32),
                        _ => i64::from(rng.next_u64() as i16),
                    })
                    .collect();
                let ylen = if write { n } else { vn };
                let mut mem = Memory::new();
                let dx = mem.upload(&x);
                let dz = match view.dtype() {
                    DType::I32 => mem.upload(&z.iter().map(|&v| v as i32).collect::<Vec<_>>()),
                    _ => mem.upload(&z.iter().map(|&v| v as i16).collect::<Vec<_>>()),
                };
                let y_i32 = !write && view.dtype() == DType::I32;
                let dy = if y_i32 {
                    mem.alloc_poisoned::<i32>(ylen)
                } else {
                    mem.alloc_poisoned::<i16>(ylen)
                };
                let args = [
                    LaunchArg::Buffer(dx),
                    LaunchArg::Buffer(dz),
                    LaunchArg::Buffer(dy),
                ];
                ci::launch(&k, 1u32, &args, &mut mem, &what);
                let got: Vec<i64> = if y_i32 {
                    mem.download::<i32>(dy).into_iter().map(i64::from).collect()
                } else {
                    mem.download::<i16>(dy).into_iter().map(i64::from).collect()
                };
                let x64: Vec<i64> = x.iter().map(|&v| i64::from(v)).collect();
                let want = reference(&parent, &view, write, &x64, &z);
                ci::exact(&got, &want, |v| v as u64, &what);
                ran += 1;
            }
        }
    }
    assert!(ran > 80, "{ran} kernels ran ({refused} refused)");
}

#[test]
fn wgmma_over_k_slices_matches_the_host() {
    let ctx = Context::new();
    let k = wgmma_slices_kernel(&ctx);
    let mut rng = Rng(7);
    // Small integers and halves: exact in f16 and in the f32 sums.
    let a = small_values(&mut rng, 64 * 128);
    let b = small_values(&mut rng, 128 * 64);
    let to16 = |v: &[f32]| -> Vec<f16> { v.iter().map(|&x| f16::from_f32(x)).collect() };
    let mut mem = Memory::new();
    let da = mem.upload(&to16(&a));
    let db = mem.upload(&to16(&b));
    let dc = mem.alloc_poisoned::<f32>(64 * 64);
    let args = [
        LaunchArg::Buffer(da),
        LaunchArg::Buffer(db),
        LaunchArg::Buffer(dc),
    ];
    ci::launch(&k, 1u32, &args, &mut mem, "wgmma over K slices");
    let c: Vec<f32> = mem.download(dc);
    let want: Vec<f32> = (0..64 * 64)
        .map(|ij| {
            (0..128)
                .map(|kk| a[ij / 64 * 128 + kk] * b[kk * 64 + ij % 64])
                .sum()
        })
        .collect();
    ci::exact(&c, &want, ci::f32_bits, "wgmma over K slices");
}

#[test]
fn tma_loads_and_stores_through_slices() {
    let ctx = Context::new();
    let k = tma_slices_kernel(&ctx).unwrap();
    let mut rng = Rng(17);
    let host: Vec<f16> = (0..128 * 64).map(|_| f16::from_f32(rng.f32())).collect();
    let mut mem = Memory::new();
    let src = mem.upload(&host);
    let dst = mem.alloc_poisoned::<f16>(128 * 64);
    let out = mem.alloc_poisoned::<f16>(128 * 64);
    let args = [
        LaunchArg::TensorMap(TensorMapArg::dense(src, DType::F16, &[128, 64])),
        LaunchArg::TensorMap(TensorMapArg::dense(dst, DType::F16, &[128, 64])),
        LaunchArg::Buffer(out),
    ];
    ci::launch(&k, 1u32, &args, &mut mem, "TMA through slices");
    let bits = |v: f16| u64::from(v.to_bits());
    let want: Vec<f16> = (0..128 * 64)
        .map(|i| host[((i / 64 + 64) % 128) * 64 + i % 64])
        .collect();
    ci::exact(
        &mem.download::<f16>(out),
        &want,
        bits,
        "loads through slices (halves swapped)",
    );
    ci::exact(
        &mem.download::<f16>(dst),
        &host,
        bits,
        "stores through slices (halves restored)",
    );
}
