//! The Hopper pieces (sm_90a): TMA loads of odd shapes with out-of-bounds zero fill, TMA stores
//! that clip, mbarrier phases over a ring, and wgmma through the GEMM kernel in every type (f16,
//! bf16, fp8 e4m3 and e5m2, tf32) and schedule (A·B and A·Bᵀ, smaller tiles, two stages,
//! persistent, warp-specialised one tile per program and persistent), on shapes that are not
//! multiples of the tile; each checked against a host reference on random data: the TMA round
//! trip bit for bit, C within an ulp of its type (`common::gemm::c_bound`: the inputs are exact
//! quarters, so only C's final rounding errs), and the poison past C intact.
//!
//! Written once over the runtime's `Backend` traits: every test runs on the CPU backend (the
//! interpreter, emulating sm_90a; problems up to 150 × 200 × 192, warp roles as cooperating tasks)
//! and on a CUDA GPU with wgmma when there is one (problems up to 1000 × 776 × 520 and
//! 64 × 64 × 4096). Without a GPU the GPU tests print `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::gemm::{run_gemm, tma_roundtrip_kernel};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use weft::codegen::kernels::GemmConfig;
use weft::codegen::{Context, DType};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{f16, Backend, KernelArgs};

/// The `[64, 64]` tile at three corners of a 100 × 72 f16 tensor (odd rows; 144 bytes a row):
/// loaded with zero fill past the edge, and stored back clipped.
fn tma_loads_zero_fill_past_the_edge_and_stores_clip<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let k = tma_roundtrip_kernel(&ctx);
    let kernel = load::<B>(dev, &k, "tma_roundtrip");
    let (rows, cols) = (100usize, 72usize);
    let mut rng = Rng(7);
    let host: Vec<f16> = (0..rows * cols).map(|_| f16::from_f32(rng.f32())).collect();
    let src = dev.upload(&host).unwrap();
    let dst = poisoned::<B, f16>(dev, rows * cols);
    let out = poisoned::<B, f16>(dev, 64 * 64);
    let shape = [rows as u64, cols as u64];
    for (r0, c0) in [(0i32, 0i32), (64, 40), (50, 8)] {
        let what = format!("tma tile at ({r0}, {c0}) of {rows}x{cols}");
        let src_map = dev
            .tensor_map(&src, &shape, &[cols as u64], &[64, 32], 64)
            .unwrap();
        let dst_map = dev
            .tensor_map(&dst, &shape, &[cols as u64], &[64, 32], 64)
            .unwrap();
        let mut args = KernelArgs::new();
        args.tensor_map(&src_map)
            .tensor_map(&dst_map)
            .ptr(&out)
            .scalar(r0)
            .scalar(c0);
        // SAFETY: the kernel writes out[0..4096) and the tile of dst inside its map.
        unsafe { launch::<B>(dev, &kernel, 1u32, &args, &what) };
        let got = out.to_vec().unwrap();
        let stored = dst.to_vec().unwrap();
        for i in 0..64usize {
            for j in 0..64usize {
                let (r, c) = (r0 as usize + i, c0 as usize + j);
                let inside = r < rows && c < cols;
                let want = if inside {
                    host[r * cols + c]
                } else {
                    f16::ZERO
                };
                assert_eq!(
                    got[i * 64 + j].to_bits(),
                    want.to_bits(),
                    "{what}: element ({i}, {j})"
                );
                if inside {
                    assert_eq!(
                        stored[r * cols + c].to_bits(),
                        want.to_bits(),
                        "{what}: TMA store at ({r}, {c})"
                    );
                }
            }
        }
        println!("{what} on {}: ok", B::KIND);
    }
    // What no tile covered keeps the poison: the store clipped at the edge.
    let stored = dst.to_vec().unwrap();
    assert_eq!(
        stored[71].to_bits(), // row 0, column 71
        0xFFFF,
        "column 71 was never stored to"
    );
    assert!(
        stored[rows * cols..].iter().all(|x| x.to_bits() == 0xFFFF),
        "a store went past the tensor"
    );
}

/// The GPU's shapes: ragged against the tile in every dim, one K step, deep K.
#[cfg(feature = "cuda")]
const GPU_SHAPES: [(usize, usize, usize); 5] = [
    (128, 256, 64),
    (256, 512, 1024),
    (1000, 776, 520),
    (129, 264, 8),
    (64, 64, 4096),
];

/// The interpreter's: ragged in every dim with one K step, and a deeper K.
const CPU_SHAPES: [(usize, usize, usize); 2] = [(129, 264, 8), (100, 72, 192)];

fn gemm_f16_matches_the_host<B: Backend>(dev: &B::Device, shapes: &[(usize, usize, usize)]) {
    for (i, &(m, n, k)) in shapes.iter().enumerate() {
        run_gemm::<B>(dev, GemmConfig::new(DType::F16), m, n, k, i as u64);
    }
}

fn gemm_bf16_and_transposed_b_match_the_host<B: Backend>(
    dev: &B::Device,
    shapes: &[(usize, usize, usize)],
) {
    for (i, &(m, n, k)) in shapes.iter().enumerate() {
        run_gemm::<B>(dev, GemmConfig::new(DType::BF16), m, n, k, 10 + i as u64);
        let mut t = GemmConfig::new(DType::F16);
        t.b_transposed = true;
        run_gemm::<B>(dev, t, m, n, k, 20 + i as u64);
    }
}

/// Every other type on `shapes`, and the schedules on their own problems: `persistent_shapes`
/// for the persistent kernel's default tiles, `small` for the smaller tiles, `persistent` for the
/// persistent ones with smaller tiles, `two_stage` for the two-stage ring, `ws_shapes` for the
/// warp-specialised ones of each (input type, persistent) in `ws`.
struct Variants<'a> {
    shapes: &'a [(usize, usize, usize)],
    persistent_shapes: &'a [(usize, usize, usize)],
    small: (usize, usize, usize),
    persistent: (usize, usize, usize),
    two_stage: (usize, usize, usize),
    ws: &'a [(DType, bool)],
    ws_shapes: &'a [(usize, usize, usize)],
}

fn gemm_variants_match_the_host<B: Backend>(dev: &B::Device, v: &Variants<'_>) {
    let run = |c: GemmConfig, (m, n, k): (usize, usize, usize), seed: u64| {
        run_gemm::<B>(dev, c, m, n, k, seed);
    };
    let mut small = GemmConfig::new(DType::F16);
    small.block_n = 128;
    small.num_warps = 4;
    small.stages = 4;
    run(small, v.small, 31);
    for dtype in [DType::F8E4M3, DType::F8E5M2, DType::F32] {
        for (i, &(m, n, k)) in v.shapes.iter().enumerate() {
            // K-major rows must be 16-byte multiples: K a multiple of 16 for fp8, 4 for f32.
            run(
                GemmConfig::new(dtype),
                (m, n, k.next_multiple_of(16)),
                40 + i as u64,
            );
        }
    }
    for dtype in [DType::F16, DType::F8E4M3] {
        let mut p = GemmConfig::new(dtype);
        p.persistent = true;
        for (i, &(m, n, k)) in v.persistent_shapes.iter().enumerate() {
            run(p, (m, n, k.next_multiple_of(16)), 60 + i as u64);
        }
        p.block_n = 128;
        p.stages = 4;
        run(p, v.persistent, 70);
    }
    // Warp-specialised: one tile per CTA, and persistent (3 programs walking many tiles, the
    // ring and the "empty" barriers running on across tiles); one consumer warpgroup too.
    for &(dtype, persistent) in v.ws {
        let mut w = GemmConfig::new(dtype);
        w.warp_specialized = true;
        w.persistent = persistent;
        for (i, &(m, n, k)) in v.ws_shapes.iter().enumerate() {
            run(w, (m, n, k.next_multiple_of(16)), 80 + i as u64);
        }
    }
    let mut w = GemmConfig::new(DType::BF16);
    w.warp_specialized = true;
    w.persistent = true;
    w.b_transposed = true;
    w.block_n = 128;
    w.num_warps = 4;
    w.stages = 4;
    run(w, v.persistent, 90);
    let mut two = GemmConfig::new(DType::BF16);
    two.stages = 2;
    two.block_n = 64;
    two.b_transposed = true;
    run(two, v.two_stage, 32);
}

/// The warp-specialised GEMM in clusters of two CTAs along M (`cluster_m = 2`: the two share
/// each B box, each loading half and multicasting it), fp8 with 128-column tiles, bf16 with
/// 64 × 64 tiles over one warpgroup (both B `[N, K]`: split by rows), and f16 with B `[K, N]`
/// (split by 128-byte columns), persistent, on `shapes` (M ragged, so the second CTA's rows run
/// past M; K deeper than the ring).
fn gemm_in_clusters_matches_the_host<B: Backend>(
    dev: &B::Device,
    shapes: &[(usize, usize, usize)],
) {
    let mut f8 = GemmConfig::new(DType::F8E4M3);
    f8.warp_specialized = true;
    f8.persistent = true;
    f8.block_n = 128;
    f8.stages = 2;
    f8.cluster_m = 2;
    let mut b16 = GemmConfig::new(DType::BF16);
    b16.warp_specialized = true;
    b16.persistent = true;
    b16.b_transposed = true;
    b16.block_m = 64;
    b16.block_n = 64;
    b16.num_warps = 4;
    b16.stages = 2;
    b16.cluster_m = 2;
    let mut f16 = GemmConfig::new(DType::F16);
    f16.warp_specialized = true;
    f16.persistent = true;
    f16.block_n = 128;
    f16.stages = 2;
    f16.cluster_m = 2;
    for (i, &(m, n, k)) in shapes.iter().enumerate() {
        run_gemm::<B>(dev, f8, m, n, k.next_multiple_of(16), 100 + i as u64);
        run_gemm::<B>(dev, b16, m, n, k.next_multiple_of(16), 110 + i as u64);
        run_gemm::<B>(dev, f16, m, n, k, 120 + i as u64);
    }
}

#[test]
fn gemm_in_clusters_matches_the_host_in_the_interpreter() {
    gemm_in_clusters_matches_the_host::<Cpu>(&common::gpu::cpu(), &[(136, 136, 320)]);
}

#[test]
fn tma_loads_zero_fill_past_the_edge_and_stores_clip_in_the_interpreter() {
    tma_loads_zero_fill_past_the_edge_and_stores_clip::<Cpu>(&common::gpu::cpu());
}

#[test]
fn gemm_f16_matches_the_host_in_the_interpreter() {
    gemm_f16_matches_the_host::<Cpu>(&common::gpu::cpu(), &CPU_SHAPES);
}

#[test]
fn gemm_bf16_and_transposed_b_match_the_host_in_the_interpreter() {
    gemm_bf16_and_transposed_b_match_the_host::<Cpu>(&common::gpu::cpu(), &CPU_SHAPES[..1]);
}

#[test]
fn gemm_variants_match_the_host_in_the_interpreter() {
    let v = Variants {
        shapes: &[(65, 72, 48)],
        persistent_shapes: &[],
        small: (150, 200, 192),
        // Rows of 264 16-bit elements: 528 bytes, the 16-byte multiple TMA needs.
        persistent: (200, 264, 64),
        two_stage: (136, 72, 136),
        // f16 only (fp8 moves through the same roles and ring).
        ws: &[(DType::F16, false), (DType::F16, true)],
        // One k-tile, and more k-tiles than stages (the ring wraps under the roles).
        ws_shapes: &[(129, 264, 64), (136, 72, 320)],
    };
    gemm_variants_match_the_host::<Cpu>(&common::gpu::cpu(), &v);
}

#[cfg(feature = "cuda")]
mod on_the_gpu {
    //! The same tests on a CUDA GPU with wgmma and TMA (sm_90a), on the full shapes.
    use super::*;
    use weft::runtime::cuda::Cuda;

    /// Runs `f` on the GPU if it has wgmma and TMA (sm_90a).
    fn on_hopper(f: impl FnOnce(&weft::runtime::cuda::Device)) {
        common::gpu::on_cuda_with(&[weft::target::Feature::Wgmma], f)
    }

    #[test]
    fn tma_loads_zero_fill_past_the_edge_and_stores_clip() {
        on_hopper(super::tma_loads_zero_fill_past_the_edge_and_stores_clip::<Cuda>);
    }

    #[test]
    fn gemm_in_clusters_matches_the_host_on_the_gpu() {
        on_hopper(|dev| super::gemm_in_clusters_matches_the_host::<Cuda>(dev, &GPU_SHAPES));
    }

    #[test]
    fn gemm_f16_matches_the_host() {
        on_hopper(|dev| super::gemm_f16_matches_the_host::<Cuda>(dev, &GPU_SHAPES));
    }

    #[test]
    fn gemm_bf16_and_transposed_b_match_the_host() {
        on_hopper(|dev| super::gemm_bf16_and_transposed_b_match_the_host::<Cuda>(dev, &GPU_SHAPES));
    }

    #[test]
    fn gemm_variants_match_the_host() {
        let v = Variants {
            shapes: &GPU_SHAPES,
            persistent_shapes: &GPU_SHAPES,
            small: (300, 200, 704),
            persistent: (700, 520, 96),
            two_stage: (256, 136, 1000),
            ws: &[
                (DType::F16, false),
                (DType::F16, true),
                (DType::F8E4M3, true),
            ],
            ws_shapes: &GPU_SHAPES,
        };
        on_hopper(|dev| super::gemm_variants_match_the_host::<Cuda>(dev, &v));
    }
}
