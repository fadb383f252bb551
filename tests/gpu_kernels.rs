//! Every ready-made kernel of `weft::codegen::kernels` (and the quickstart's `scale`), built by the
//! builder for sm_90, loaded from its PTX and run on the GPU: random inputs (never zeros), outputs
//! poisoned first (0xFF bytes = NaN), every element compared with a host reference, and the
//! poison past the end checked to be intact. Sizes that are not multiples of the block exercise
//! the masks (within each kernel's declared divisibility: `n` a multiple of 16). Without a driver
//! or GPU every test prints `SKIP: <reason>` and passes.
#![cfg(all(feature = "llvm", feature = "cuda"))]

mod common;

use approx::relative_eq;
use common::elementwise::{scale_kernel, CONFIGS_1D, TILES, TRANSPOSE_TILES};
use common::gpu::device;
use common::rng::Rng;
use weft::codegen::kernels::{self, Tile2d};
use weft::codegen::{Context, Kernel, Target};
use weft::runtime::cuda::{self, Buffer, Device};
use weft::runtime::prelude::*;
use weft::runtime::{
    check_args, check_config, ElemType, KernelArg, KernelArgs, KernelSignature, LaunchConfig,
    ParamType, RuntimeError,
};

const POISON: u32 = 0xFFFF_FFFF;
/// Elements allocated past each output, which must keep the poison.
const PAD: usize = 64;

/// A builder kernel loaded on `dev`, with its launch block size.
struct Loaded {
    kernel: cuda::Kernel,
    threads: u32,
}

fn load(dev: &Device, k: &Kernel<'_>) -> Loaded {
    let sig = k.signature();
    assert_eq!(sig.target, Some(Target::SM90));
    let ptx = k.ptx().expect("PTX");
    let kernel = dev
        .load_ptx(&ptx)
        .unwrap_or_else(|e| panic!("{}: load: {e}", sig.name))
        .kernel(sig.clone())
        .unwrap_or_else(|e| panic!("{}: kernel: {e}", sig.name));
    Loaded {
        kernel,
        threads: sig
            .threads_per_block
            .expect("builder kernels fix their block size"),
    }
}

/// A poisoned output of `n` elements plus [`PAD`].
fn poisoned(dev: &Device, n: usize) -> Buffer<f32> {
    let mut b = dev.alloc::<f32>(n + PAD).unwrap();
    b.fill_bytes(0xFF).unwrap();
    b
}

/// Checks `out[..want.len()]` against `want` (relative 1e-6, or bit-exact when `exact`) and that
/// the rest still holds the poison.
fn check(out: &[f32], want: &[f32], exact: bool, what: &str) {
    assert!(out.len() >= want.len());
    let mut bad = 0;
    for (i, (&g, &w)) in out.iter().zip(want).enumerate() {
        let ok = if exact {
            g.to_bits() == w.to_bits()
        } else {
            relative_eq!(g, w, max_relative = 1e-6)
        };
        if !ok {
            if bad < 5 {
                eprintln!("{what}: element {i}: got {g}, want {w}");
            }
            bad += 1;
        }
    }
    assert_eq!(bad, 0, "{what}: {bad} of {} elements differ", want.len());
    for (i, g) in out[want.len()..].iter().enumerate() {
        assert_eq!(
            g.to_bits(),
            POISON,
            "{what}: element {i} past the end was written"
        );
    }
}

/// Lengths (multiples of 16, as the kernels declare): shorter than a block, a ragged tail, exact.
fn lengths(block: u32) -> [usize; 4] {
    let b = block as usize;
    [16, 16 * 12_345, 3 * b + 16, 7 * b]
}

fn grid_1d(n: usize, block: u32) -> LaunchConfig {
    LaunchConfig::new(n.div_ceil(block as usize) as u32, 0, 0)
}

#[test]
fn builder_signatures_carry_what_the_code_assumes() {
    // Needs no GPU: the signature the builder hands the launcher, and the checks made with it.
    let ctx = Context::new();
    let k = kernels::memcpy_kernel(&ctx, Target::SM90, 1024, 4, 4).unwrap();
    let sig = k.signature();
    assert_eq!(
        sig.to_string(),
        "memcpy(x: *f32 {divisibility = 16}, y: *f32 {divisibility = 16}, n: i32 {divisibility = 16}) [threads = 128, target = sm_90]"
    );
    assert_eq!(&KernelSignature::parse(&sig.to_string()).unwrap(), sig);
    let ptr = |addr| KernelArg::Ptr {
        elem: ElemType::F32,
        addr,
    };
    check_args(sig, &[ptr(0x1000), ptr(0x2000), KernelArg::I32(32)]).unwrap();
    // A pointer off the 16-byte alignment the vector accesses assume is refused, naming it.
    let e = check_args(sig, &[ptr(0x1000), ptr(0x2004), KernelArg::I32(32)]).unwrap_err();
    assert!(e.to_string().contains("`y`"), "{e}");
    // And so is a length that is not the multiple of 16 the masks were folded for.
    let e = check_args(sig, &[ptr(0x1000), ptr(0x2000), KernelArg::I32(7)]).unwrap_err();
    assert!(e.to_string().contains("`n`"), "{e}");
    // So is a block of another size than the code was built for.
    check_config(sig, &LaunchConfig::new(8, 128, 0)).unwrap();
    let e = check_config(sig, &LaunchConfig::new(8, 256, 0)).unwrap_err();
    assert!(e.to_string().contains("128 threads"), "{e}");
    let ptx = k.ptx().unwrap();
    assert!(ptx.contains(".reqntid 128"), "PTX declares the block size");
    let k = kernels::copy_2d_kernel(
        &ctx,
        Target::SM90,
        Tile2d {
            rows: 32,
            cols: 128,
            per_thread: 4,
            num_warps: 4,
        },
    )
    .unwrap();
    let types: Vec<ParamType> = k.signature().param_types().collect();
    assert_eq!(
        types,
        [
            ParamType::Ptr(ElemType::F32),
            ParamType::Ptr(ElemType::F32),
            ParamType::I32,
            ParamType::I32,
            ParamType::I32
        ]
    );
}

#[test]
fn memcpy_copies_every_element() {
    let Some(dev) = device() else { return };
    let stream = dev.stream();
    let ctx = Context::new();
    for (ci, &(block, per_thread, warps)) in CONFIGS_1D.iter().enumerate() {
        let k = kernels::memcpy_kernel(&ctx, Target::SM90, block, per_thread, warps).unwrap();
        let l = load(&dev, &k);
        for n in lengths(block) {
            let x = Rng(100 + ci as u64).vec(n);
            let dx = dev.upload(&x).unwrap();
            let y = poisoned(&dev, n);
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&y).scalar(n as i32);
            let mut cfg = grid_1d(n, block);
            cfg.block = l.threads.into();
            // SAFETY: memcpy touches x[0..n) and y[0..n) only (masked by n); both hold n elements.
            unsafe { stream.launch(&l.kernel, &cfg, &args).unwrap() };
            stream.synchronize().unwrap();
            let what = format!("memcpy block {block} per_thread {per_thread} warps {warps} n {n}");
            check(&y.to_vec().unwrap(), &x, true, &what);
        }
    }
}

#[test]
fn add_matches_host_sum() {
    let Some(dev) = device() else { return };
    let stream = dev.stream();
    let ctx = Context::new();
    for (ci, &(block, per_thread, warps)) in CONFIGS_1D.iter().enumerate() {
        let k = kernels::add_kernel(&ctx, Target::SM90, block, per_thread, warps).unwrap();
        let l = load(&dev, &k);
        for n in lengths(block) {
            let mut rng = Rng(200 + ci as u64);
            let (x, y) = (rng.vec(n), rng.vec(n));
            let (dx, dy) = (dev.upload(&x).unwrap(), dev.upload(&y).unwrap());
            let z = poisoned(&dev, n);
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&dy).ptr(&z).scalar(n as i32);
            let mut cfg = grid_1d(n, block);
            cfg.block = l.threads.into();
            // SAFETY: add touches x, y, z [0..n) only; all hold n elements.
            unsafe { stream.launch(&l.kernel, &cfg, &args).unwrap() };
            stream.synchronize().unwrap();
            let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
            let what = format!("add block {block} per_thread {per_thread} warps {warps} n {n}");
            check(&z.to_vec().unwrap(), &want, false, &what);
        }
    }
}

#[test]
fn quickstart_scale_matches_host() {
    let Some(dev) = device() else { return };
    let stream = dev.stream();
    let ctx = Context::new();
    let block = 512;
    let l = load(&dev, &scale_kernel(&ctx, block));
    for n in lengths(block) {
        let mut rng = Rng(300);
        let (x, a) = (rng.vec(n), rng.f32());
        let dx = dev.upload(&x).unwrap();
        let y = poisoned(&dev, n);
        let mut args = KernelArgs::new();
        args.ptr(&dx).ptr(&y).scalar(a).scalar(n as i32);
        let mut cfg = grid_1d(n, block);
        cfg.block = l.threads.into();
        // SAFETY: scale touches x, y [0..n) only.
        unsafe { stream.launch(&l.kernel, &cfg, &args).unwrap() };
        stream.synchronize().unwrap();
        let want: Vec<f32> = x.iter().map(|v| a * v).collect();
        check(&y.to_vec().unwrap(), &want, false, &format!("scale n {n}"));
    }
}

#[test]
fn copy_2d_takes_every_other_row_of_a_strided_matrix() {
    let Some(dev) = device() else { return };
    let stream = dev.stream();
    let ctx = Context::new();
    // (rows of y, columns, row stride of x): ragged in both dims, x's rows padded past n.
    let shapes = [(37usize, 144usize, 176usize), (64, 1024, 1024), (5, 16, 48)];
    for (ti, &t) in TILES.iter().enumerate() {
        let l = load(
            &dev,
            &kernels::copy_2d_kernel(&ctx, Target::SM90, t).unwrap(),
        );
        for &(m_out, n, stride) in &shapes {
            let m = 2 * m_out;
            let x = Rng(400 + ti as u64).vec(m * stride);
            let dx = dev.upload(&x).unwrap();
            let y = poisoned(&dev, m_out * n);
            let mut args = KernelArgs::new();
            args.ptr(&dx)
                .ptr(&y)
                .scalar(m_out as i32)
                .scalar(n as i32)
                .scalar(stride as i32);
            let grid = (
                n.div_ceil(t.cols as usize) as u32,
                m_out.div_ceil(t.rows as usize) as u32,
                1,
            );
            let cfg = LaunchConfig::new(grid, l.threads, 0);
            // SAFETY: copy_2d reads x[2r*stride + c] for r < m_out, c < n (inside m*stride) and
            // writes y[r*n + c] (inside m_out*n), masked in both dims.
            unsafe { stream.launch(&l.kernel, &cfg, &args).unwrap() };
            stream.synchronize().unwrap();
            let want: Vec<f32> = (0..m_out * n)
                .map(|i| x[2 * (i / n) * stride + i % n])
                .collect();
            let what = format!("copy_2d {t:?} m_out {m_out} n {n} stride {stride}");
            check(&y.to_vec().unwrap(), &want, true, &what);
        }
    }
}

#[test]
fn transpose_matches_host() {
    let Some(dev) = device() else { return };
    let stream = dev.stream();
    let ctx = Context::new();
    let tiles = TRANSPOSE_TILES;
    for (ti, &t) in tiles.iter().enumerate() {
        let l = load(
            &dev,
            &kernels::transpose_kernel(&ctx, Target::SM90, t).unwrap(),
        );
        // The kernel has no mask: n a multiple of both tile sizes.
        for n in [128usize, 384] {
            let x = Rng(500 + ti as u64).vec(n * n);
            let dx = dev.upload(&x).unwrap();
            let y = poisoned(&dev, n * n);
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&y).scalar(n as i32);
            let grid = (
                (n / t.rows as usize) as u32,
                (n / t.cols as usize) as u32,
                1,
            );
            let cfg = LaunchConfig::new(grid, l.threads, 0);
            // SAFETY: n is a multiple of the tile sizes: every access is inside n*n.
            unsafe { stream.launch(&l.kernel, &cfg, &args).unwrap() };
            stream.synchronize().unwrap();
            let want: Vec<f32> = (0..n * n).map(|i| x[(i % n) * n + i / n]).collect();
            check(
                &y.to_vec().unwrap(),
                &want,
                true,
                &format!("transpose {t:?} n {n}"),
            );
        }
    }
}

#[test]
fn launch_of_a_builder_kernel_is_checked_against_its_signature() {
    let Some(dev) = device() else { return };
    let ctx = Context::new();
    let l = load(
        &dev,
        &kernels::memcpy_kernel(&ctx, Target::SM90, 1024, 4, 4).unwrap(),
    );
    let x = dev.upload(&Rng(600).vec(1024)).unwrap();
    let y = poisoned(&dev, 1024);
    // `n` passed as u32 where the builder declared i32: refused before the driver sees it.
    let mut args = KernelArgs::new();
    args.ptr(&x).ptr(&y).scalar(1024u32);
    let cfg = LaunchConfig::new(1, l.threads, 0);
    // SAFETY: refused by the signature check, never launched.
    let err = unsafe { dev.stream().launch(&l.kernel, &cfg, &args) }.unwrap_err();
    match err {
        RuntimeError::ArgType {
            kernel,
            index,
            expected,
            got,
        } => {
            assert_eq!((kernel.as_str(), index), ("memcpy", 2));
            assert_eq!((expected, got), (ParamType::I32, ParamType::U32));
        }
        other => panic!("expected ArgType, got {other}"),
    }
    check(&y.to_vec().unwrap(), &[], true, "refused launch");
}
