//! The block-scaled fp8 GEMM (`gemm_blockscaled_kernel`: 1×128 scales on A, 128×128 on B,
//! each K block's partial promoted while the next block's wgmma runs) against its f64 host
//! reference on ragged shapes: on the CPU backend (the interpreter) always, on the GPU when there
//! is one; and its PTX through ptxas (no spills, no serialised wgmma). Every way of loading the
//! scales (`ScaleLoads`): from global memory with their block or a block ahead, or staged by TMA
//! through the ring from M-/N-major copies (`scales_mn_major`).
#![cfg(feature = "llvm")]

mod common;

use common::blockscaled::DeviceScales;
use common::check::{close, Tol};
use common::gemm::quarters;
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use weft::codegen::kernels::{
    gemm_blockscaled_error_bound, gemm_blockscaled_kernel, gemm_blockscaled_kernel_with,
    gemm_blockscaled_reference, mn_major_stride, scales_mn_major, GemmConfig, ScaleLoads,
    B_SCALES_SPREAD, SCALE_BLOCK,
};
use weft::codegen::{CodegenError, Context, DType, Target};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, KernelArgs, F8E4M3};

/// A problem's host operands: A `[M, K]`, B `[N, K]` (values exact in e4m3) and their scales.
struct Operands {
    a: Vec<f32>,
    b: Vec<f32>,
    sa: Vec<f32>,
    sb: Vec<f32>,
}

impl Operands {
    /// Quarters (exact in e4m3, and their sums in the fp8 tensor cores' 14 bits) with random
    /// scales in [1/4, 2).
    fn quarters([m, n, k]: [usize; 3]) -> Operands {
        let mut rng = Rng(29);
        let (a, b) = (quarters(&mut rng, m * k), quarters(&mut rng, n * k));
        let kbs = k.div_ceil(SCALE_BLOCK);
        let mut scales = |len: usize| -> Vec<f32> {
            (0..len)
                .map(|_| 0.25 + 1.75 * (rng.next_u64() % 1024) as f32 / 1024.0)
                .collect()
        };
        let sa = scales(m * kbs);
        let sb = scales(n.div_ceil(SCALE_BLOCK) * kbs);
        Operands { a, b, sa, sb }
    }

    /// As the GPU example draws them: values uniform in [-2, 2) rounded to e4m3 (whose sums
    /// need more than 14 bits), scales in [1/2, 2).
    fn uniform([m, n, k]: [usize; 3]) -> Operands {
        let mut rng = Rng(7);
        let mut fp8 = |len: usize| -> Vec<f32> {
            (0..len)
                .map(|_| F8E4M3::from_f32(rng.uniform(-2.0, 2.0) as f32).to_f32())
                .collect()
        };
        let (a, b) = (fp8(m * k), fp8(n * k));
        let kbs = k.div_ceil(SCALE_BLOCK);
        let mut scales =
            |len: usize| -> Vec<f32> { (0..len).map(|_| rng.uniform(0.5, 2.0) as f32).collect() };
        let sa = scales(m * kbs);
        let sb = scales(n.div_ceil(SCALE_BLOCK) * kbs);
        Operands { a, b, sa, sb }
    }
}

/// Runs the kernel of `c` (its scales loaded as `loads` says) on an `m × n × k` problem of `ops`
/// over `programs` persistent programs; checks the poison past C and returns C (bf16, widened).
fn launch_on<B: Backend>(
    dev: &B::Device,
    (c, loads): (GemmConfig, ScaleLoads),
    [m, n, k]: [usize; 3],
    programs: u32,
    ops: &Operands,
    what: &str,
) -> Vec<f64> {
    let ctx = Context::new();
    let kern = gemm_blockscaled_kernel_with(&ctx, Target::SM90A, c, loads).unwrap();
    let kernel = load::<B>(dev, &kern, what);
    let f8 = |x: &[f32]| x.iter().map(|&v| F8E4M3::from_f32(v)).collect::<Vec<_>>();
    let (da, db) = (
        dev.upload(&f8(&ops.a)).unwrap(),
        dev.upload(&f8(&ops.b)).unwrap(),
    );
    let rows = [m, n.div_ceil(SCALE_BLOCK)];
    let scales = DeviceScales::<B>::upload(dev, [&ops.sa, &ops.sb], rows, k, loads).unwrap();
    let dc = poisoned::<B, bf16>(dev, m * n);
    let (mu, nu, ku) = (m as u64, n as u64, k as u64);
    let sw = c.swizzle();
    let a_map = dev
        .tensor_map(&da, &[mu, ku], &[ku], &c.a_box(), sw)
        .unwrap();
    let b_map = dev
        .tensor_map(&db, &[nu, ku], &[ku], &c.b_box(), sw)
        .unwrap();
    let c_map = dev
        .tensor_map(&dc, &[mu, nu], &[nu], &c.c_box(), sw)
        .unwrap();
    let scale_maps = scales.maps(dev, &c).unwrap();
    let mut args = KernelArgs::new();
    args.tensor_map(&a_map)
        .tensor_map(&b_map)
        .tensor_map(&c_map);
    args.scalar(m as i32).scalar(n as i32).scalar(k as i32);
    scales.push(&mut args, scale_maps.as_ref());
    let grid = c.grid_persistent(mu, nu, programs);
    // SAFETY: the maps cover A, B, C and the staged scales; scales behind pointers are read
    // where row < m and K block < ⌈k/128⌉.
    unsafe { launch::<B>(dev, &kernel, grid, &args, what) };
    let out = dc.to_vec().unwrap();
    assert!(
        out[m * n..].iter().all(|x| x.to_bits() == 0xFFFF),
        "{what}: wrote past C"
    );
    out[..m * n].iter().map(|x| x.to_f64()).collect()
}

/// Runs the kernel of `c` on an `m × n × k` problem of quarters over `programs` persistent
/// programs; checks C (bf16: an ulp, or 1e-3 near zero: the sums are exact, even in the fp8
/// tensor cores) and the poison past it. Returns the largest error.
fn run<B: Backend>(dev: &B::Device, c: GemmConfig, mnk: [usize; 3], programs: u32) -> f64 {
    run_with::<B>(dev, (c, ScaleLoads::WithTheBlock), mnk, programs)
}

/// [`run`] with the scales loaded as the second of `c` says.
fn run_with<B: Backend>(
    dev: &B::Device,
    c: (GemmConfig, ScaleLoads),
    mnk: [usize; 3],
    programs: u32,
) -> f64 {
    let [m, n, k] = mnk;
    let what = format!("gemm_blockscaled {m}x{n}x{k} on {programs} programs, {c:?}");
    let ops = Operands::quarters(mnk);
    let want = gemm_blockscaled_reference([&ops.a, &ops.b], [&ops.sa, &ops.sb], mnk).unwrap();
    let got = launch_on::<B>(dev, c, mnk, programs, &ops, &what);
    let want: Vec<f64> = want.iter().map(|&x| f64::from(x)).collect();
    close(
        &got,
        &want,
        Tol {
            rel: 1.0 / 128.0,
            abs: 1e-3,
        },
        &what,
    )
}

#[test]
fn block_scales_promote_each_k_block_in_the_interpreter() {
    let dev = common::gpu::cpu();
    // Two row tiles (the second ragged), two column tiles (the second with its own B scales,
    // ragged), three K blocks (the last ragged); three programs, so one walks two tiles.
    let worst =
        run::<weft::runtime::cpu::Cpu>(&dev, GemmConfig::block_scaled(), [136, 200, 304], 3);
    println!("136x200x304: max error {worst:.2e}");
    // 40 rows: 64-row tiles over one consumer warpgroup, 64-column tiles (4 tiles < 132 SMs).
    let c = GemmConfig::block_scaled_for(40, 200, 132);
    assert_eq!((c.block_m, c.num_warps, c.block_n), (64, 4, 64));
    run::<weft::runtime::cpu::Cpu>(&dev, c, [40, 200, 304], 2);
    // One K block: the peeled first block alone.
    let mut c = GemmConfig::block_scaled();
    c.block_n = 64;
    c.stages = 2;
    run::<weft::runtime::cpu::Cpu>(&dev, c, [40, 72, 48], 1);
}

/// The block-scaled GEMM in clusters of two CTAs along M (`cluster_m = 2`): each CTA loads half
/// of the B box the two share and multicasts it, so a CTA's B stage is half its own load, half
/// its peer's. Ragged M (the second CTA's rows partly or wholly past M), ragged N and K; one
/// cluster walking several tiles, and several clusters; tasks and clusters in random orders.
#[test]
fn a_cluster_of_two_multicasting_b_matches_the_reference_in_the_interpreter() {
    let dev = common::gpu::cpu();
    let c2 = |c: GemmConfig| GemmConfig { cluster_m: 2, ..c };
    let bs = c2(GemmConfig::block_scaled());
    assert_eq!(bs.b_box(), [64, 128]);
    // Two clusters, one tile each (rows 128.. of the only row tile are 8 rows).
    run::<weft::runtime::cpu::Cpu>(&dev, bs, [136, 200, 304], 4);
    // One cluster walking two tiles (the second ragged), four K blocks: the ring wraps.
    run::<weft::runtime::cpu::Cpu>(&dev, bs, [300, 72, 400], 2);
    // 64-row tiles over one consumer warpgroup, 64-column tiles; the second CTA's rows all past M.
    let small = c2(GemmConfig::block_scaled_for(40, 200, 132));
    assert_eq!((small.block_m, small.block_n), (64, 64));
    run::<weft::runtime::cpu::Cpu>(&dev, small, [40, 200, 304], 4);
    use weft::codegen::interp::{Options, Schedule};
    let options = Options {
        schedule: Schedule::Random { seed: 3 },
    };
    let dev = weft::runtime::cpu::Device::with_options(Target::SM90A, options).unwrap();
    run::<weft::runtime::cpu::Cpu>(&dev, bs, [72, 136, 304], 2);
}

/// The scales loaded a block ahead (`ScaleLoads::OneBlockAhead`): each partial still meets
/// its own block's scale, over 1, 3 and 4 K blocks (the peeled block alone, a pair and an even
/// tail, a pair and an odd tail) and past the last one (its loads masked).
#[test]
fn scales_loaded_a_block_ahead_meet_their_own_k_block_in_the_interpreter() {
    let dev = common::gpu::cpu();
    let ahead = |c: GemmConfig| (c, ScaleLoads::OneBlockAhead);
    run_with::<weft::runtime::cpu::Cpu>(
        &dev,
        ahead(GemmConfig::block_scaled()),
        [136, 200, 304],
        3,
    );
    run_with::<weft::runtime::cpu::Cpu>(&dev, ahead(GemmConfig::block_scaled()), [72, 136, 400], 2);
    let small = GemmConfig::block_scaled_for(40, 200, 132);
    run_with::<weft::runtime::cpu::Cpu>(&dev, ahead(small), [40, 72, 48], 1);
}

/// The scales staged through the ring (`ScaleLoads::Staged`): the producer copies each K
/// block's column of A's M-major scales and B's scale into the stage, the consumers read them
/// there. M not a multiple of 4 (A's scale rows padded) nor of the tile (the tail's scales
/// zero-filled), ragged N (a second B scale block) and K; 128- and 64-row tiles; one K block;
/// clusters of two; a random schedule (a stage's scales read before it is released); and C bit
/// for bit as with the scales read from global memory.
#[test]
fn staged_scales_meet_their_own_k_block_in_the_interpreter() {
    use weft::codegen::interp::{Options, Schedule};
    let dev = common::gpu::cpu();
    let staged = |c: GemmConfig| (c, ScaleLoads::Staged);
    let bs = GemmConfig::block_scaled();
    let worst = run_with::<weft::runtime::cpu::Cpu>(&dev, staged(bs), [137, 200, 304], 3);
    println!("staged 137x200x304: max error {worst:.2e}");
    // Where the scales come from changes nothing else: the same products, bit for bit.
    let mnk = [137, 72, 304];
    let ops = Operands::uniform(mnk);
    let [global, from_stages] = [ScaleLoads::WithTheBlock, ScaleLoads::Staged].map(|loads| {
        let what = format!("{mnk:?} {loads:?}");
        launch_on::<weft::runtime::cpu::Cpu>(&dev, (bs, loads), mnk, 2, &ops, &what)
    });
    assert!(
        global
            .iter()
            .zip(&from_stages)
            .all(|(g, s)| g.to_bits() == s.to_bits()),
        "staged scales give other results than global ones"
    );
    let small = GemmConfig::block_scaled_for(41, 200, 132);
    run_with::<weft::runtime::cpu::Cpu>(&dev, staged(small), [41, 200, 304], 2);
    run_with::<weft::runtime::cpu::Cpu>(&dev, staged(small), [41, 72, 48], 1);
    let c2 = GemmConfig { cluster_m: 2, ..bs };
    run_with::<weft::runtime::cpu::Cpu>(&dev, staged(c2), [137, 200, 304], 4);
    let options = Options {
        schedule: Schedule::Random { seed: 5 },
    };
    let dev = weft::runtime::cpu::Device::with_options(Target::SM90A, options).unwrap();
    run_with::<weft::runtime::cpu::Cpu>(&dev, staged(bs), [75, 136, 400], 2);
}

/// `scales_mn_major`: element (row, K block) of the row-major scales lands at (K block, row ·
/// spread) of rows `mn_major_stride` apart, every other element is zero, and bad sizes are
/// errors.
#[test]
fn scales_made_m_major_keep_every_element_and_pad_with_zeros() {
    let mut rng = Rng(3);
    for spread in [1, B_SCALES_SPREAD] {
        for (rows, kbs) in [(1, 1), (3, 2), (4, 5), (137, 3), (6, 0)] {
            let what = format!("{rows}×{kbs} spread {spread}");
            let sa: Vec<f32> = (0..rows * kbs).map(|_| 1.0 + rng.f32()).collect();
            let t = scales_mn_major(&sa, rows, kbs, spread).unwrap();
            let cols = rows * spread;
            let stride = mn_major_stride(cols);
            assert!(
                stride >= cols && stride.is_multiple_of(4) && stride - cols < 4,
                "{what}"
            );
            assert_eq!(t.len(), stride * kbs.max(1), "{what}");
            for (i, &x) in t.iter().enumerate() {
                let (kt, col) = (i / stride, i % stride);
                let want = if col < cols && col % spread == 0 && kt < kbs {
                    sa[col / spread * kbs + kt]
                } else {
                    0.0
                };
                assert_eq!(x, want, "{what}: element ({kt}, {col})");
            }
        }
    }
    // Every N block's scale starts a 16-byte aligned TMA box.
    assert_eq!(B_SCALES_SPREAD * 4 % 16, 0);
    assert!(scales_mn_major(&[1.0; 5], 3, 2, 1).is_err());
    assert!(scales_mn_major(&[1.0; 6], 3, 2, 0).is_err());
    assert!(scales_mn_major(&[], usize::MAX, 2, 1).is_err());
    assert!(scales_mn_major(&[], usize::MAX / 2, 0, 1).is_err());
    assert!(scales_mn_major(&[], usize::MAX / 2, 0, 4).is_err());
}

/// Producer and consumer hand stages over through mbarriers and the consumer releases each
/// stage only after its partial is promoted: right in whatever order the interpreter runs tasks
/// and programs.
#[test]
fn block_scales_hold_under_random_schedules() {
    use weft::codegen::interp::{Options, Schedule};
    for seed in 0..2 {
        let options = Options {
            schedule: Schedule::Random { seed },
        };
        let dev = weft::runtime::cpu::Device::with_options(Target::SM90A, options).unwrap();
        run::<weft::runtime::cpu::Cpu>(&dev, GemmConfig::block_scaled(), [72, 136, 400], 2);
    }
}

/// fp8 tensor cores keep about 14 bits of a running sum, and the interpreter models it
/// (`interp/tensor_core.rs`). On data whose sums need more (values uniform in [-2, 2), K = 1552
/// as the GPU example checks), a check that allows only C's rounding and 1e-2 near zero fails
/// here as it did on an H200, while every element stays within
/// [`gemm_blockscaled_error_bound`]: the errors are lost low bits of each sum, far below what a
/// K block promoted twice, never, or with another block's scale would cost.
#[test]
fn fp8_sums_lose_the_same_low_bits_here_as_on_hopper() {
    let dev = common::gpu::cpu();
    let mnk = [136, 72, 1552];
    let what = format!("gemm_blockscaled {mnk:?} on uniform e4m3");
    let ops = Operands::uniform(mnk);
    let scales = [&ops.sa[..], &ops.sb[..]];
    let want = gemm_blockscaled_reference([&ops.a, &ops.b], scales, mnk).unwrap();
    let bound = gemm_blockscaled_error_bound([&ops.a, &ops.b], scales, mnk).unwrap();
    let got = launch_on::<weft::runtime::cpu::Cpu>(
        &dev,
        (GemmConfig::block_scaled(), ScaleLoads::WithTheBlock),
        mnk,
        3,
        &ops,
        &what,
    );
    let (mut strict_misses, mut worst) = (0, 0f64);
    for (i, ((&g, &w), &b)) in got.iter().zip(&want).zip(&bound).enumerate() {
        let (w, b) = (f64::from(w), f64::from(b));
        let e = (g - w).abs();
        assert!(
            e <= w.abs() / 128.0 + b,
            "{what}: element {i}: {g} vs {w}, beyond the fp8 bound {b}"
        );
        if e > w.abs() / 128.0 + 1e-2 {
            strict_misses += 1;
        }
        // The part of the error beyond C's rounding (half a bf16 ulp), in bounds.
        worst = worst.max((e - w.abs() / 256.0).max(0.0) / b);
    }
    println!(
        "{what}: {strict_misses} beyond the strict check, worst sum error {worst:.3} of the bound"
    );
    assert!(
        strict_misses > 0,
        "{what}: every sum kept its low bits; is the fp8 model gone?"
    );
    // The bound still sees a kernel bug: a result with K block 5 never promoted is beyond it
    // almost everywhere.
    let kbs = mnk[2].div_ceil(SCALE_BLOCK);
    let mut dropped = ops.sa.clone();
    dropped
        .iter_mut()
        .skip(5)
        .step_by(kbs)
        .for_each(|s| *s = 0.0);
    let wrong = gemm_blockscaled_reference([&ops.a, &ops.b], [&dropped, &ops.sb], mnk).unwrap();
    let caught = wrong
        .iter()
        .zip(&want)
        .zip(&bound)
        .filter(|((&x, &w), &b)| (x - w).abs() > w.abs() / 128.0 + b)
        .count();
    assert!(
        caught * 10 > got.len() * 9,
        "{what}: a missing K block is within the bound at {} of {} elements",
        got.len() - caught,
        got.len()
    );
}

#[cfg(feature = "cuda")]
#[test]
fn block_scales_promote_each_k_block_on_the_gpu() {
    let Some(dev) = common::gpu::device() else {
        return;
    };
    let sms = dev.props().sm_count;
    for (mnk, programs) in [
        ([1000, 776, 1552], sms),
        ([257, 1024, 4096], sms),
        ([64, 128, 128], 1),
        ([4096, 2048, 1040], 7),
    ] {
        for loads in [
            ScaleLoads::WithTheBlock,
            ScaleLoads::OneBlockAhead,
            ScaleLoads::Staged,
        ] {
            let c = (GemmConfig::block_scaled(), loads);
            run_with::<weft::runtime::cuda::Cuda>(&dev, c, mnk, programs);
        }
        let c2 = GemmConfig {
            cluster_m: 2,
            ..GemmConfig::block_scaled()
        };
        run::<weft::runtime::cuda::Cuda>(&dev, c2, mnk, programs);
        run_with::<weft::runtime::cuda::Cuda>(&dev, (c2, ScaleLoads::Staged), mnk, programs);
    }
}

#[test]
fn the_block_scaled_gemm_assembles_without_spills_or_serialised_wgmma() {
    let mut narrow = GemmConfig::block_scaled();
    narrow.block_n = 64;
    let small = GemmConfig::block_scaled_for(64, 2112, 132);
    let ahead = ScaleLoads::OneBlockAhead;
    for (c, loads) in [
        (GemmConfig::block_scaled(), ScaleLoads::WithTheBlock),
        (narrow, ScaleLoads::WithTheBlock),
        (small, ScaleLoads::WithTheBlock),
        (GemmConfig::block_scaled(), ahead),
        (small, ahead),
        (GemmConfig::block_scaled(), ScaleLoads::Staged),
        (narrow, ScaleLoads::Staged),
        (small, ScaleLoads::Staged),
        (
            GemmConfig {
                cluster_m: 2,
                ..GemmConfig::block_scaled()
            },
            ScaleLoads::Staged,
        ),
        (
            GemmConfig {
                cluster_m: 2,
                ..GemmConfig::block_scaled()
            },
            ScaleLoads::WithTheBlock,
        ),
        (
            GemmConfig {
                cluster_m: 2,
                ..small
            },
            ScaleLoads::WithTheBlock,
        ),
    ] {
        let what = format!("gemm_blockscaled {c:?}, {loads:?}");
        let ctx = Context::new();
        let k = gemm_blockscaled_kernel_with(&ctx, Target::SM90A, c, loads).unwrap();
        let ptx = k.ptx().unwrap();
        common::assemble_without_spills(&ptx, "sm_90a", &what);
        // Each K block: one wgmma group issued, and the wait that leaves it in flight.
        assert!(ptx.contains("wgmma.wait_group.sync.aligned 1"), "{what}");
        // Staged: the scales come by TMA with A and B, no thread reads global memory.
        assert_eq!(
            !ptx.contains("ld.global"),
            loads == ScaleLoads::Staged,
            "{what}"
        );
    }
}

#[test]
fn configurations_it_cannot_build_are_typed_errors() {
    let ctx = Context::new();
    let arg = |c: GemmConfig| {
        let e = gemm_blockscaled_kernel(&ctx, Target::SM90A, c).unwrap_err();
        assert!(
            matches!(e.cause(), CodegenError::InvalidArgument { .. }),
            "{e}"
        );
        e.to_string()
    };
    let mut c = GemmConfig::block_scaled();
    c.block_n = 256;
    assert!(arg(c).contains("block_n 256"));
    let mut c = GemmConfig::block_scaled();
    c.warp_specialized = false;
    assert!(arg(c).contains("warp-specialised"));
    let mut c = GemmConfig::new(DType::BF16);
    c.block_n = 128;
    c.warp_specialized = true;
    assert!(arg(c).contains("f8e4m3"));
    let mut c = GemmConfig::block_scaled();
    c.cluster_m = 3;
    assert!(arg(c).contains("cluster_m 3"));
    c.cluster_m = 2;
    c.warp_specialized = false;
    assert!(arg(c).contains("cluster_m 2"));
    // Kernels without a cluster schedule refuse one.
    let mut c = GemmConfig::block_scaled();
    c.cluster_m = 2;
    let grouped = weft::codegen::kernels::GroupedLayout::Contiguous;
    let e =
        weft::codegen::kernels::gemm_grouped_kernel(&ctx, Target::SM90A, c, grouped).unwrap_err();
    assert!(e.to_string().contains("no cluster schedule"), "{e}");
    // The reference refuses slices shorter than the shape.
    assert!(
        gemm_blockscaled_reference([&[0.0; 4], &[0.0; 4]], [&[1.0], &[1.0]], [2, 2, 4]).is_err()
    );
    // An output too large to allocate is an error, not an abort.
    assert!(gemm_blockscaled_reference([&[], &[]], [&[], &[]], [usize::MAX / 2, 4, 0]).is_err());
}
