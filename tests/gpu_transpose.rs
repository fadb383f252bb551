//! The shared-memory transpose and the row sum of `weft::codegen::kernels` (sm_90): random data
//! (never zeros), odd and even shapes (masked edges, scalar and vector accesses), outputs
//! poisoned first (0xFF bytes = NaN) and the poison past the end checked to be intact. The
//! transpose is compared bit for bit; row sums against an f64 host reference within
//! `check::sum_bound` (from `Σ|x|`).
//!
//! Written once over the runtime's `Backend` traits: every test runs on the CPU backend (the
//! interpreter) on shapes up to 100 × 77 and 16 × 1040, where a run is also a racecheck and
//! initcheck of the transpose's shared-memory traffic, and on a CUDA GPU when there is one on
//! shapes up to 4096 × 4096. Without a GPU the GPU tests print `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::check::{exact, f32_bits, poison_intact, sum_bound};
use common::kernels::row_tiles;
use common::launch::run_xy;
use common::rng::Rng;
use weft::codegen::kernels::{self, TransposeConfig};
use weft::codegen::{Context, Kernel, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::Backend;

/// The GPU's odd and even shapes.
#[cfg(feature = "cuda")]
const GPU_SHAPES: [(usize, usize); 6] = [
    (1000, 777),
    (4096, 4096),
    (33, 2049),
    (1, 1),
    (2048, 48),
    (16, 1040),
];

/// The interpreter's: the same kinds of edges, smaller.
const CPU_SHAPES: [(usize, usize); 4] = [(100, 77), (33, 129), (1, 1), (16, 1040)];

/// Runs the transpose kernel `k` (built for `c`) on the `m × n` matrix `x` into a poisoned output
/// and checks it bit for bit, and the poison past its end.
fn run_transpose<B: Backend>(
    dev: &B::Device,
    k: &Kernel<'_>,
    c: TransposeConfig,
    x: &[f32],
    m: usize,
    n: usize,
) {
    let what = format!("transpose {m}x{n} {c:?}");
    let grid = c.grid(m as u64, n as u64);
    let y: Vec<f32> = run_xy::<B, _, _>(dev, k, grid, x, m * n, m, n, &what);
    let want: Vec<f32> = (0..m * n).map(|i| x[(i % m) * n + i / m]).collect();
    exact(&y, &want, f32_bits, &what);
    poison_intact(&y, m * n, f32_bits, &what);
}

fn transpose_through_shared_memory_is_exact_on_odd_shapes<B: Backend>(
    dev: &B::Device,
    shapes: &[(usize, usize)],
) {
    let mut configs = kernels::TRANSPOSE_CONFIGS.to_vec();
    configs.push(TransposeConfig::new(16, 32, 1));
    let mut rng = Rng(4242);
    for &(m, n) in shapes {
        let x = rng.vec(m * n);
        for &c in &configs {
            let ctx = Context::new();
            let k =
                kernels::transpose_smem_kernel_for_shape(&ctx, Target::SM90, c, m as u64, n as u64)
                    .unwrap_or_else(|e| panic!("transpose {m}x{n} {c:?}: {e}"));
            run_transpose::<B>(dev, &k, c, &x, m, n);
        }
    }
}

/// The kernel declared for multiples of 16 (16-byte vectors both ways), on sizes that are not
/// multiples of the tile: the masked edge tiles still vectorise.
fn transpose_with_vector_accesses_on_multiples_of_16<B: Backend>(
    dev: &B::Device,
    shapes: &[(usize, usize)],
) {
    let mut rng = Rng(99);
    for c in kernels::TRANSPOSE_CONFIGS {
        let ctx = Context::new();
        let k = kernels::transpose_smem_kernel(&ctx, Target::SM90, c).unwrap();
        for &(m, n) in shapes {
            run_transpose::<B>(dev, &k, c, &rng.vec(m * n), m, n);
        }
    }
}

fn row_sums_match_an_f64_host_reference<B: Backend>(dev: &B::Device, shapes: &[(usize, usize)]) {
    let mut rng = Rng(31337);
    for &(m, n) in shapes {
        let x = rng.vec(m * n);
        // Sums of |x| bound the rounding error of any summation order.
        let want: Vec<(f64, f64)> = x
            .chunks(n)
            .map(|row| {
                (
                    row.iter().map(|&v| f64::from(v)).sum(),
                    row.iter().map(|&v| f64::from(v).abs()).sum(),
                )
            })
            .collect();
        for t in row_tiles(&kernels::ROW_SUM_TILES) {
            let what = format!("row_sum {m}x{n} {t:?}");
            let ctx = Context::new();
            let k = kernels::row_sum_kernel_for_shape(&ctx, Target::SM90, t, n as u64)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let grid = kernels::row_sum_grid(t, m as u64);
            let y: Vec<f32> = run_xy::<B, _, _>(dev, &k, grid, &x, m, m, n, &what);
            for (r, (&g, &(w, abs))) in y.iter().zip(&want).enumerate() {
                let bound = sum_bound(n, abs);
                assert!(
                    (f64::from(g) - w).abs() <= bound,
                    "{what}: row {r}: got {g}, want {w} (bound {bound})"
                );
            }
            poison_intact(&y, m, f32_bits, &what);
        }
    }
}

#[test]
fn transpose_through_shared_memory_is_exact_on_odd_shapes_in_the_interpreter() {
    transpose_through_shared_memory_is_exact_on_odd_shapes::<Cpu>(&common::gpu::cpu(), &CPU_SHAPES);
}

#[test]
fn transpose_with_vector_accesses_on_multiples_of_16_in_the_interpreter() {
    let shapes = [(48, 80), (16, 144)];
    transpose_with_vector_accesses_on_multiples_of_16::<Cpu>(&common::gpu::cpu(), &shapes);
}

#[test]
fn row_sums_match_an_f64_host_reference_in_the_interpreter() {
    let shapes = [(9, 777), (33, 129), (1, 1), (16, 1040)];
    row_sums_match_an_f64_host_reference::<Cpu>(&common::gpu::cpu(), &shapes);
}

#[cfg(feature = "cuda")]
#[test]
fn transpose_through_shared_memory_is_exact_on_odd_shapes_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        transpose_through_shared_memory_is_exact_on_odd_shapes::<weft::runtime::cuda::Cuda>(
            dev,
            &GPU_SHAPES,
        )
    });
}

#[cfg(feature = "cuda")]
#[test]
fn transpose_with_vector_accesses_on_multiples_of_16_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        let shapes = [(1008, 784), (16, 2064), (4096, 16), (2048, 2048)];
        transpose_with_vector_accesses_on_multiples_of_16::<weft::runtime::cuda::Cuda>(
            dev, &shapes,
        );
    });
}

#[cfg(feature = "cuda")]
#[test]
fn row_sums_match_an_f64_host_reference_on_the_gpu() {
    common::gpu::on_cuda(|dev| {
        row_sums_match_an_f64_host_reference::<weft::runtime::cuda::Cuda>(dev, &GPU_SHAPES)
    });
}
