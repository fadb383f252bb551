//! The Hopper pieces on the GPU (sm_90a): TMA loads of odd shapes with out-of-bounds zero fill, TMA
//! stores that clip, mbarrier phases over a ring, wgmma through the GEMM kernel (f16 and bf16,
//! A·B and A·Bᵀ, shapes that are not multiples of the tile), each checked against a host
//! reference on random data. Without a driver or GPU every test prints `SKIP: <reason>` and passes.
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use common::gemm::{quarters, tma_roundtrip_kernel};
use common::gpu::{device, load_kernel};
use common::rng::Rng;
use weft::codegen::kernels::{gemm_kernel, gemm_reference, GemmConfig};
use weft::codegen::{Context, DType, Kernel, Target};
use weft::runtime::cuda::{self, Device, TensorMap};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, f16, KernelArgs, LaunchConfig, F8E4M3, F8E5M2};

fn hopper(dev: &Device) -> bool {
    let t = dev.target().unwrap();
    if !t.supports(weft::target::Feature::Wgmma) {
        println!("SKIP: {t} has no wgmma/TMA (needs sm_90a)");
        return false;
    }
    true
}

#[test]
fn tma_loads_zero_fill_past_the_edge_and_stores_clip() {
    let Some(dev) = device() else { return };
    if !hopper(&dev) {
        return;
    }
    let ctx = Context::new();
    let k = tma_roundtrip_kernel(&ctx);
    let kernel = load_kernel(&dev, &k);
    let (rows, cols) = (100usize, 72usize); // odd rows; 72 f16 = 144 bytes per row
    let mut rng = Rng(7);
    let host: Vec<f16> = (0..rows * cols).map(|_| f16::from_f32(rng.f32())).collect();
    let src = dev.upload(&host).unwrap();
    let mut dst = dev.alloc::<f16>(rows * cols).unwrap();
    dst.fill_bytes(0xFF).unwrap();
    let out = dev.alloc::<f16>(64 * 64).unwrap();
    for (r0, c0) in [(0i32, 0i32), (64, 40), (50, 8)] {
        let src_map = TensorMap::tiled(
            &src,
            &[rows as u64, cols as u64],
            &[cols as u64],
            &[64, 32],
            64,
        )
        .unwrap();
        let dst_map = TensorMap::tiled(
            &dst,
            &[rows as u64, cols as u64],
            &[cols as u64],
            &[64, 32],
            64,
        )
        .unwrap();
        let mut args = KernelArgs::new();
        args.tensor_map(&src_map)
            .tensor_map(&dst_map)
            .ptr(&out)
            .scalar(r0)
            .scalar(c0);
        let cfg = LaunchConfig::for_kernel(1, k.signature()).unwrap();
        // SAFETY: the kernel writes out[0..4096) and the tile of dst inside its map.
        unsafe { dev.stream().launch(&kernel, &cfg, &args).unwrap() };
        let got = out.to_vec().unwrap();
        let stored = dst.to_vec().unwrap();
        for i in 0..64usize {
            for j in 0..64usize {
                let (r, c) = (r0 as usize + i, c0 as usize + j);
                let want = if r < rows && c < cols {
                    host[r * cols + c]
                } else {
                    f16::from_f32(0.0)
                };
                assert_eq!(
                    got[i * 64 + j].to_bits(),
                    want.to_bits(),
                    "tile at ({r0}, {c0}): element ({i}, {j})"
                );
                if r < rows && c < cols {
                    assert_eq!(
                        stored[r * cols + c].to_bits(),
                        host[r * cols + c].to_bits(),
                        "TMA store at ({r}, {c})"
                    );
                }
            }
        }
        println!("tma tile at ({r0}, {c0}) of {rows}x{cols}: ok");
    }
    // What no tile covered keeps the poison: the store clipped at the edge.
    let stored = dst.to_vec().unwrap();
    assert_eq!(
        stored[71].to_bits(), // row 0, column 71
        0xFFFF,
        "column 71 was never stored to"
    );
}

/// Runs the GEMM for `c` on an `m × n × k` problem of random values exact in every input type
/// and checks every element of C against the host.
fn run_gemm(dev: &Device, c: GemmConfig, m: usize, n: usize, kdim: usize, seed: u64) {
    let ctx = Context::new();
    let k = gemm_kernel(&ctx, Target::SM90A, c).unwrap();
    let kernel = load_kernel(dev, &k);
    let mut rng = Rng(seed);
    let a = quarters(&mut rng, m * kdim);
    let b = quarters(&mut rng, kdim * n);
    let want = gemm_reference(&a, &b, m, n, kdim, c.b_transposed);
    let b_shape = if c.b_transposed {
        [n as u64, kdim as u64]
    } else {
        [kdim as u64, n as u64]
    };
    let what = format!(
        "gemm {:?}->{:?} {m}x{n}x{kdim} b_transposed={}",
        c.dtype, c.out_dtype, c.b_transposed
    );
    let prob = (m, n, kdim);
    let got: Vec<f32> = match (c.dtype, c.out_dtype) {
        (DType::F16, _) => gemm_on(
            dev,
            &kernel,
            &k,
            c,
            prob,
            &a,
            &b,
            b_shape,
            f16::from_f32,
            |x: f16| x.to_f32(),
        ),
        (DType::BF16, _) => gemm_on(
            dev,
            &kernel,
            &k,
            c,
            prob,
            &a,
            &b,
            b_shape,
            bf16::from_f32,
            |x: bf16| x.to_f32(),
        ),
        (DType::F8E4M3, _) => gemm_on(
            dev,
            &kernel,
            &k,
            c,
            prob,
            &a,
            &b,
            b_shape,
            F8E4M3::from_f32,
            |x: bf16| x.to_f32(),
        ),
        (DType::F8E5M2, _) => gemm_on(
            dev,
            &kernel,
            &k,
            c,
            prob,
            &a,
            &b,
            b_shape,
            F8E5M2::from_f32,
            |x: bf16| x.to_f32(),
        ),
        _ => gemm_on(
            dev,
            &kernel,
            &k,
            c,
            prob,
            &a,
            &b,
            b_shape,
            |x: f32| x,
            |x: f32| x,
        ),
    };
    // f32 accumulation of exact products; the only error is the final rounding of C.
    let ulp = match c.out_dtype {
        DType::F16 => 1.0 / 1024.0,
        DType::BF16 => 1.0 / 128.0,
        _ => 1e-6,
    };
    let mut max_err = 0f32;
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let err = (g - w).abs();
        max_err = max_err.max(err);
        assert!(
            err <= w.abs() * ulp + 1e-3,
            "{what}: C[{}, {}] = {g}, want {w}",
            i / n,
            i % n
        );
    }
    println!("{what}: ok, max abs error {max_err}");
}

/// Uploads A and B converted by `to`, runs the kernel into a poisoned C and reads C back
/// through `from`.
#[allow(clippy::too_many_arguments)]
fn gemm_on<I: weft::runtime::DeviceElem, O: weft::runtime::DeviceElem>(
    dev: &Device,
    kernel: &cuda::Kernel,
    k: &Kernel<'_>,
    c: GemmConfig,
    (m, n, kdim): (usize, usize, usize),
    a: &[f32],
    b: &[f32],
    b_shape: [u64; 2],
    to: impl Fn(f32) -> I,
    from: impl Fn(O) -> f32,
) -> Vec<f32> {
    let da = dev
        .upload(&a.iter().map(|&x| to(x)).collect::<Vec<_>>())
        .unwrap();
    let db = dev
        .upload(&b.iter().map(|&x| to(x)).collect::<Vec<_>>())
        .unwrap();
    let mut dc = dev.alloc::<O>(m * n).unwrap();
    dc.fill_bytes(0xFF).unwrap();
    launch_gemm(dev, kernel, k, c, (m, n, kdim), &da, &db, &dc, b_shape);
    dc.to_vec().unwrap().into_iter().map(from).collect()
}

#[allow(clippy::too_many_arguments)]
fn launch_gemm<T: weft::runtime::DeviceElem, O: weft::runtime::DeviceElem>(
    dev: &Device,
    kernel: &cuda::Kernel,
    k: &Kernel<'_>,
    c: GemmConfig,
    (m, n, kdim): (usize, usize, usize),
    da: &cuda::Buffer<T>,
    db: &cuda::Buffer<T>,
    dc: &cuda::Buffer<O>,
    b_shape: [u64; 2],
) {
    let sw = c.swizzle();
    let a_map =
        TensorMap::tiled(da, &[m as u64, kdim as u64], &[kdim as u64], &c.a_box(), sw).unwrap();
    let b_map = TensorMap::tiled(db, &b_shape, &[b_shape[1]], &c.b_box(), sw).unwrap();
    let c_map = TensorMap::tiled(dc, &[m as u64, n as u64], &[n as u64], &c.c_box(), sw).unwrap();
    let mut args = KernelArgs::new();
    args.tensor_map(&a_map)
        .tensor_map(&b_map)
        .tensor_map(&c_map)
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(kdim as i32);
    // A persistent kernel gets 3 programs here: each walks many tiles (and the ring runs on
    // across tile boundaries) even on small problems.
    let grid = if c.persistent {
        c.grid_persistent(m as u64, n as u64, 3)
    } else {
        c.grid(m as u64, n as u64)
    };
    let cfg = LaunchConfig::for_kernel(grid, k.signature()).unwrap();
    // SAFETY: the kernel reads A and B and writes C only through the maps, which cover them.
    unsafe { dev.stream().launch(kernel, &cfg, &args).unwrap() };
    dev.stream().synchronize().unwrap();
}

const SHAPES: [(usize, usize, usize); 5] = [
    (128, 256, 64),
    (256, 512, 1024),
    (1000, 776, 520),
    (129, 264, 8),
    (64, 64, 4096),
];

#[test]
fn gemm_f16_matches_the_host() {
    let Some(dev) = device() else { return };
    if !hopper(&dev) {
        return;
    }
    for (i, &(m, n, k)) in SHAPES.iter().enumerate() {
        run_gemm(&dev, GemmConfig::new(DType::F16), m, n, k, i as u64);
    }
}

#[test]
fn gemm_bf16_and_transposed_b_match_the_host() {
    let Some(dev) = device() else { return };
    if !hopper(&dev) {
        return;
    }
    for (i, &(m, n, k)) in SHAPES.iter().enumerate() {
        run_gemm(&dev, GemmConfig::new(DType::BF16), m, n, k, 10 + i as u64);
        let mut t = GemmConfig::new(DType::F16);
        t.b_transposed = true;
        run_gemm(&dev, t, m, n, k, 20 + i as u64);
    }
}

#[test]
fn gemm_variants_match_the_host() {
    let Some(dev) = device() else { return };
    if !hopper(&dev) {
        return;
    }
    let mut small = GemmConfig::new(DType::F16);
    small.block_n = 128;
    small.num_warps = 4;
    small.stages = 4;
    run_gemm(&dev, small, 300, 200, 704, 31);
    for dtype in [DType::F8E4M3, DType::F8E5M2, DType::F32] {
        for (i, &(m, n, k)) in SHAPES.iter().enumerate() {
            // K-major rows must be 16-byte multiples: K a multiple of 16 for fp8, 4 for f32.
            let k = k.next_multiple_of(16);
            run_gemm(&dev, GemmConfig::new(dtype), m, n, k, 40 + i as u64);
        }
    }
    for dtype in [DType::F16, DType::F8E4M3] {
        let mut p = GemmConfig::new(dtype);
        p.persistent = true;
        for (i, &(m, n, k)) in SHAPES.iter().enumerate() {
            run_gemm(&dev, p, m, n, k.next_multiple_of(16), 60 + i as u64);
        }
        p.block_n = 128;
        p.stages = 4;
        run_gemm(&dev, p, 700, 520, 96, 70);
    }
    // Warp-specialised: one tile per CTA, and persistent (3 programs walking many tiles, the
    // ring and the "empty" barriers running on across tiles); one consumer warpgroup too.
    for (dtype, persistent) in [
        (DType::F16, false),
        (DType::F16, true),
        (DType::F8E4M3, true),
    ] {
        let mut w = GemmConfig::new(dtype);
        w.warp_specialized = true;
        w.persistent = persistent;
        for (i, &(m, n, k)) in SHAPES.iter().enumerate() {
            run_gemm(&dev, w, m, n, k.next_multiple_of(16), 80 + i as u64);
        }
    }
    let mut w = GemmConfig::new(DType::BF16);
    w.warp_specialized = true;
    w.persistent = true;
    w.b_transposed = true;
    w.block_n = 128;
    w.num_warps = 4;
    w.stages = 4;
    run_gemm(&dev, w, 700, 520, 96, 90);
    let mut two = GemmConfig::new(DType::BF16);
    two.stages = 2;
    two.block_n = 64;
    two.b_transposed = true;
    run_gemm(&dev, two, 256, 136, 1000, 32);
}
