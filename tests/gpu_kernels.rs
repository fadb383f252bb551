//! Every ready-made element-wise and register kernel of `weft::codegen::kernels` (memcpy, add,
//! copy_2d, the register transpose) and the quickstart's `scale`, built by the builder for sm_90:
//! random inputs (never zeros), outputs poisoned first (0xFF bytes = NaN), every element compared
//! with a host reference (bit for bit where the kernel moves data; within 1e-6 relative for one
//! f32 add or multiply), and the poison past the end checked to be intact. Sizes that are not
//! multiples of the block exercise the masks (within each kernel's declared divisibility: `n` a
//! multiple of 16). Launches are checked against the builder's signature.
//!
//! Written once over the runtime's `Backend` traits: every test runs on the CPU backend (the
//! interpreter) on lengths up to two blocks and 128 × 128 transposes, and on a CUDA GPU when
//! there is one on lengths up to 16 × 12 345 and 384 × 384. Without a GPU the GPU tests print
//! `SKIP: <reason>`.
#![cfg(feature = "llvm")]

mod common;

use common::check::{close, exact, f32_bits, poison_intact, widen, Tol};
use common::elementwise::{scale_kernel, CONFIGS_1D, TILES, TRANSPOSE_TILES};
use common::launch::{launch, load, poisoned};
use common::rng::Rng;
use weft::codegen::kernels::{self, Tile2d};
use weft::codegen::{Context, Target};
use weft::runtime::cpu::Cpu;
use weft::runtime::prelude::*;
use weft::runtime::{
    check_args, check_config, Backend, Dim3, ElemType, KernelArg, KernelArgs, KernelSignature,
    LaunchConfig, ParamType, RuntimeError,
};

/// One f32 add or multiply, correctly rounded on both backends: within 1e-6 relative (and
/// f32::EPSILON absolute near zero).
const ONE_OP: Tol = Tol {
    rel: 1e-6,
    abs: f32::EPSILON as f64,
};

/// Checks `out[..want.len()]` against `want` (bit for bit when `tol` is `None`) and that the rest
/// still holds the poison.
fn check(out: &[f32], want: &[f32], tol: Option<Tol>, what: &str) {
    match tol {
        None => exact(out, want, f32_bits, what),
        Some(t) => {
            close(&widen(out), &widen(want), t, what);
        }
    }
    poison_intact(out, want.len(), f32_bits, what);
}

/// Lengths (multiples of 16, as the kernels declare): shorter than a block, a ragged tail, exact
/// blocks. The interpreter's are the same kinds, fewer blocks.
fn lengths(block: u32, on_gpu: bool) -> [usize; 4] {
    let b = block as usize;
    if on_gpu {
        [16, 16 * 12_345, 3 * b + 16, 7 * b]
    } else {
        [16, b + 16 * 7, 2 * b, 2 * b + 16]
    }
}

/// Launches `kernel` over `grid` with `args` and checks the poisoned output `y` against `want`.
#[allow(clippy::too_many_arguments)]
fn run_and_check<B: Backend>(
    dev: &B::Device,
    kernel: &B::Kernel,
    grid: impl Into<Dim3>,
    args: &KernelArgs<'_>,
    y: &B::Buffer<f32>,
    want: &[f32],
    tol: Option<Tol>,
    what: &str,
) {
    // SAFETY: each caller's kernel touches only its inputs and y[0..want.len()) (masked), and
    // every buffer holds what the kernel indexes.
    unsafe { launch::<B>(dev, kernel, grid, args, what) };
    check(&y.to_vec().unwrap(), want, tol, what);
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

fn memcpy_copies_every_element<B: Backend>(dev: &B::Device, on_gpu: bool) {
    let ctx = Context::new();
    for (ci, &(block, per_thread, warps)) in CONFIGS_1D.iter().enumerate() {
        let what = format!("memcpy block {block} per_thread {per_thread} warps {warps}");
        let k = kernels::memcpy_kernel(&ctx, Target::SM90, block, per_thread, warps).unwrap();
        let kernel = load::<B>(dev, &k, &what);
        for n in lengths(block, on_gpu) {
            let x = Rng(100 + ci as u64).vec(n);
            let dx = dev.upload(&x).unwrap();
            let y = poisoned::<B, f32>(dev, n);
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&y).scalar(n as i32);
            let grid = n.div_ceil(block as usize) as u32;
            let what = format!("{what} n {n}");
            run_and_check::<B>(dev, &kernel, grid, &args, &y, &x, None, &what);
        }
    }
}

fn add_matches_host_sum<B: Backend>(dev: &B::Device, on_gpu: bool) {
    let ctx = Context::new();
    for (ci, &(block, per_thread, warps)) in CONFIGS_1D.iter().enumerate() {
        let what = format!("add block {block} per_thread {per_thread} warps {warps}");
        let k = kernels::add_kernel(&ctx, Target::SM90, block, per_thread, warps).unwrap();
        let kernel = load::<B>(dev, &k, &what);
        for n in lengths(block, on_gpu) {
            let mut rng = Rng(200 + ci as u64);
            let (x, y) = (rng.vec(n), rng.vec(n));
            let (dx, dy) = (dev.upload(&x).unwrap(), dev.upload(&y).unwrap());
            let z = poisoned::<B, f32>(dev, n);
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&dy).ptr(&z).scalar(n as i32);
            let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
            let grid = n.div_ceil(block as usize) as u32;
            let what = format!("{what} n {n}");
            run_and_check::<B>(dev, &kernel, grid, &args, &z, &want, Some(ONE_OP), &what);
        }
    }
}

fn quickstart_scale_matches_host<B: Backend>(dev: &B::Device, on_gpu: bool) {
    let ctx = Context::new();
    let block = 512;
    let kernel = load::<B>(dev, &scale_kernel(&ctx, block), "scale");
    for n in lengths(block, on_gpu) {
        let mut rng = Rng(300);
        let (x, a) = (rng.vec(n), rng.f32());
        let dx = dev.upload(&x).unwrap();
        let y = poisoned::<B, f32>(dev, n);
        let mut args = KernelArgs::new();
        args.ptr(&dx).ptr(&y).scalar(a).scalar(n as i32);
        let want: Vec<f32> = x.iter().map(|v| a * v).collect();
        let grid = n.div_ceil(block as usize) as u32;
        let what = format!("scale n {n}");
        run_and_check::<B>(dev, &kernel, grid, &args, &y, &want, Some(ONE_OP), &what);
    }
}

/// `shapes`: (rows of y, columns, row stride of x), ragged in both dims, x's rows padded past n.
fn copy_2d_takes_every_other_row_of_a_strided_matrix<B: Backend>(
    dev: &B::Device,
    shapes: &[(usize, usize, usize)],
) {
    let ctx = Context::new();
    for (ti, &t) in TILES.iter().enumerate() {
        let k = kernels::copy_2d_kernel(&ctx, Target::SM90, t).unwrap();
        let kernel = load::<B>(dev, &k, &format!("copy_2d {t:?}"));
        for &(m_out, n, stride) in shapes {
            let m = 2 * m_out;
            let x = Rng(400 + ti as u64).vec(m * stride);
            let dx = dev.upload(&x).unwrap();
            let y = poisoned::<B, f32>(dev, m_out * n);
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
            let want: Vec<f32> = (0..m_out * n)
                .map(|i| x[2 * (i / n) * stride + i % n])
                .collect();
            let what = format!("copy_2d {t:?} m_out {m_out} n {n} stride {stride}");
            // copy_2d reads x[2r*stride + c] for r < m_out, c < n (inside m*stride) and writes
            // y[r*n + c] (inside m_out*n), masked in both dims.
            run_and_check::<B>(dev, &kernel, grid, &args, &y, &want, None, &what);
        }
    }
}

/// `sizes`: n of the n × n matrices, multiples of both tile sizes (the kernel has no mask).
fn transpose_matches_host<B: Backend>(dev: &B::Device, sizes: &[usize]) {
    let ctx = Context::new();
    for (ti, &t) in TRANSPOSE_TILES.iter().enumerate() {
        let k = kernels::transpose_kernel(&ctx, Target::SM90, t).unwrap();
        let kernel = load::<B>(dev, &k, &format!("transpose {t:?}"));
        for &n in sizes {
            let x = Rng(500 + ti as u64).vec(n * n);
            let dx = dev.upload(&x).unwrap();
            let y = poisoned::<B, f32>(dev, n * n);
            let mut args = KernelArgs::new();
            args.ptr(&dx).ptr(&y).scalar(n as i32);
            let grid = (
                (n / t.rows as usize) as u32,
                (n / t.cols as usize) as u32,
                1,
            );
            let want: Vec<f32> = (0..n * n).map(|i| x[(i % n) * n + i / n]).collect();
            let what = format!("transpose {t:?} n {n}");
            run_and_check::<B>(dev, &kernel, grid, &args, &y, &want, None, &what);
        }
    }
}

/// `n` passed as u32 where the builder declared i32: refused before the backend sees it, and
/// nothing written.
fn launch_of_a_builder_kernel_is_checked_against_its_signature<B: Backend>(dev: &B::Device) {
    let ctx = Context::new();
    let k = kernels::memcpy_kernel(&ctx, Target::SM90, 1024, 4, 4).unwrap();
    let kernel = load::<B>(dev, &k, "memcpy");
    let x = dev.upload(&Rng(600).vec(1024)).unwrap();
    let y = poisoned::<B, f32>(dev, 1024);
    let mut args = KernelArgs::new();
    args.ptr(&x).ptr(&y).scalar(1024u32);
    let cfg = LaunchConfig::for_kernel(1u32, k.signature()).unwrap();
    // SAFETY: refused by the signature check, never launched.
    let err = unsafe { dev.stream().launch(&kernel, &cfg, &args) }.unwrap_err();
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
    check(&y.to_vec().unwrap(), &[], None, "refused launch");
}

#[test]
fn memcpy_copies_every_element_in_the_interpreter() {
    memcpy_copies_every_element::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn add_matches_host_sum_in_the_interpreter() {
    add_matches_host_sum::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn quickstart_scale_matches_host_in_the_interpreter() {
    quickstart_scale_matches_host::<Cpu>(&common::gpu::cpu(), false);
}

#[test]
fn copy_2d_takes_every_other_row_of_a_strided_matrix_in_the_interpreter() {
    let shapes = [(37, 144, 176), (5, 16, 48)];
    copy_2d_takes_every_other_row_of_a_strided_matrix::<Cpu>(&common::gpu::cpu(), &shapes);
}

#[test]
fn transpose_matches_host_in_the_interpreter() {
    transpose_matches_host::<Cpu>(&common::gpu::cpu(), &[128]);
}

#[test]
fn launch_of_a_builder_kernel_is_checked_against_its_signature_in_the_interpreter() {
    launch_of_a_builder_kernel_is_checked_against_its_signature::<Cpu>(&common::gpu::cpu());
}

#[cfg(feature = "cuda")]
mod on_the_gpu {
    //! The same tests on a CUDA GPU, at the full sizes.
    use super::*;
    use weft::runtime::cuda::Cuda;

    #[test]
    fn memcpy_copies_every_element() {
        common::gpu::on_cuda(|dev| super::memcpy_copies_every_element::<Cuda>(dev, true));
    }

    #[test]
    fn add_matches_host_sum() {
        common::gpu::on_cuda(|dev| super::add_matches_host_sum::<Cuda>(dev, true));
    }

    #[test]
    fn quickstart_scale_matches_host() {
        common::gpu::on_cuda(|dev| super::quickstart_scale_matches_host::<Cuda>(dev, true));
    }

    #[test]
    fn copy_2d_takes_every_other_row_of_a_strided_matrix() {
        common::gpu::on_cuda(|dev| {
            let shapes = [(37, 144, 176), (64, 1024, 1024), (5, 16, 48)];
            super::copy_2d_takes_every_other_row_of_a_strided_matrix::<Cuda>(dev, &shapes);
        });
    }

    #[test]
    fn transpose_matches_host() {
        common::gpu::on_cuda(|dev| super::transpose_matches_host::<Cuda>(dev, &[128, 384]));
    }

    #[test]
    fn launch_of_a_builder_kernel_is_checked_against_its_signature() {
        common::gpu::on_cuda(|dev| {
            super::launch_of_a_builder_kernel_is_checked_against_its_signature::<Cuda>(dev)
        });
    }
}
