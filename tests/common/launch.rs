//! Launching a built kernel on any backend, written once for every kernel suite: the suites run
//! each test on the CPU backend (the interpreter, reduced sizes) and on a CUDA GPU when there is
//! one (full sizes), through the same code. Each helper panics naming what ran and carrying the
//! backend's typed error (on the CPU, an interpreter finding names the op and the line).

use weft::codegen::Kernel;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, DeviceElem, Dim3, KernelArgs, LaunchConfig};

/// Elements allocated past each output, which must keep the poison (the GPU suites' 64).
pub const PAD: usize = 64;

/// `k` loaded on `dev` (PTX on a GPU, the recorded program on the CPU), checked against its
/// signature.
pub fn load<B: Backend>(dev: &B::Device, k: &Kernel<'_>, what: &str) -> B::Kernel {
    k.load_on::<B>(dev)
        .unwrap_or_else(|e| panic!("{what}: load on {}: {e}", B::KIND))
}

/// An output of `len` elements plus [`PAD`], every byte 0xFF (NaN for floats) so that elements
/// left unwritten, or written past the end, show.
pub fn poisoned<B: Backend, T: DeviceElem>(dev: &B::Device, len: usize) -> B::Buffer<T> {
    let mut b = dev.alloc::<T>(len + PAD).expect("alloc");
    b.fill_bytes(0xFF).expect("poison");
    b
}

/// Launches `kernel` over `grid` with its signature's block and shared memory (checked against
/// the signature and the device's limits) and waits for it.
///
/// # Safety
/// As [`Stream::launch`](weft::runtime::Stream::launch): the kernel, given `args`, accesses
/// memory only inside the buffers passed, which stay alive until this returns.
pub unsafe fn launch<B: Backend>(
    dev: &B::Device,
    kernel: &B::Kernel,
    grid: impl Into<Dim3>,
    args: &KernelArgs<'_>,
    what: &str,
) {
    let cfg = LaunchConfig::for_kernel(grid, kernel.signature())
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let stream = dev.stream();
    // SAFETY: forwarded from the caller.
    unsafe { stream.launch(kernel, &cfg, args) }
        .unwrap_or_else(|e| panic!("{what} on {}: {e}", B::KIND));
    stream
        .synchronize()
        .unwrap_or_else(|e| panic!("{what} on {}: {e}", B::KIND));
}

/// Launches `k(x, y)` as one CTA on `x` uploaded and a poisoned `y` of `ylen` elements (plus
/// [`PAD`]), and returns all of `y`. The kernel must read only `x` and write only `y[0..ylen)`.
pub fn run_one_cta<B: Backend, X: DeviceElem, Y: DeviceElem>(
    dev: &B::Device,
    k: &Kernel<'_>,
    x: &[X],
    ylen: usize,
    what: &str,
) -> Vec<Y> {
    run_x_to_y::<B, X, Y>(dev, k, 1u32.into(), x, ylen, &[], what)
}

/// Launches `k(x, y, m, n)` over `grid` on `x` uploaded and a poisoned `y` of `ylen` elements
/// (plus [`PAD`]); returns all of `y`. The kernel must read only `x` and write only `y[0..ylen)`.
#[allow(clippy::too_many_arguments)]
pub fn run_xy<B: Backend, X: DeviceElem, Y: DeviceElem>(
    dev: &B::Device,
    k: &Kernel<'_>,
    grid: impl Into<Dim3>,
    x: &[X],
    ylen: usize,
    m: usize,
    n: usize,
    what: &str,
) -> Vec<Y> {
    let scalars = [m as i32, n as i32];
    run_x_to_y::<B, X, Y>(dev, k, grid.into(), x, ylen, &scalars, what)
}

/// Launches `k(x, y, scalars…)` over `grid` with `x` uploaded and a poisoned `y` of `ylen`
/// elements (plus [`PAD`]); returns all of `y`.
fn run_x_to_y<B: Backend, X: DeviceElem, Y: DeviceElem>(
    dev: &B::Device,
    k: &Kernel<'_>,
    grid: Dim3,
    x: &[X],
    ylen: usize,
    scalars: &[i32],
    what: &str,
) -> Vec<Y> {
    let kernel = load::<B>(dev, k, what);
    let dx = dev.upload(x).expect("upload");
    let dy = poisoned::<B, Y>(dev, ylen);
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy);
    for &s in scalars {
        args.scalar(s);
    }
    // SAFETY: the callers' kernels read x[0..x.len()) and write y[0..ylen), both allocated.
    unsafe { launch::<B>(dev, &kernel, grid, &args, what) };
    dy.to_vec().expect("download")
}

/// Where a split-K GEMM finishes: its f32 partials, Y, and a ticket per output tile (zero).
pub struct SplitOutputs<B: Backend, O: DeviceElem> {
    pub part: B::Buffer<f32>,
    pub y: B::Buffer<O>,
    pub tickets: B::Buffer<i32>,
}

impl<B: Backend, O: DeviceElem> SplitOutputs<B, O> {
    /// `splits · m · n` partials and `m · n` outputs, [`poisoned`], and `tiles` zero tickets.
    pub fn new(dev: &B::Device, [m, n, splits]: [usize; 3], tiles: u64) -> Self {
        SplitOutputs {
            part: poisoned::<B, f32>(dev, splits * m * n),
            y: poisoned::<B, O>(dev, m * n),
            tickets: dev.alloc_zeroed::<i32>(tiles as usize).expect("alloc"),
        }
    }
}

/// Launches a split-K partial-product kernel over `grid`, its arguments before `part` in `args`
/// and `scalars` (`m, n, k, splits`) after, and finishes the sum: in the kernel when `finish` (Y
/// and the tickets follow `part`; the tickets must be back at zero afterwards), else with the
/// reduction kernel `reduce` over the `m · n` outputs (512 a program).
///
/// # Safety
/// As [`launch`], for both kernels.
#[allow(clippy::too_many_arguments)]
pub unsafe fn launch_split_k<'a, B: Backend, O: DeviceElem>(
    dev: &B::Device,
    (partial, reduce): (&B::Kernel, &B::Kernel),
    mut args: KernelArgs<'a>,
    out: &'a SplitOutputs<B, O>,
    finish: bool,
    [m, n, k, splits]: [usize; 4],
    grid: impl Into<Dim3>,
    what: &str,
) {
    args.ptr(&out.part);
    if finish {
        args.ptr(&out.y).ptr(&out.tickets);
    }
    for s in [m, n, k, splits] {
        args.scalar(s as i32);
    }
    // SAFETY: forwarded from the caller.
    unsafe { launch::<B>(dev, partial, grid, &args, what) };
    if finish {
        let t = out.tickets.to_vec().unwrap();
        assert!(t.iter().all(|&x| x == 0), "{what}: tickets left {t:?}");
        return;
    }
    let mut r = KernelArgs::new();
    r.ptr(&out.part)
        .ptr(&out.y)
        .scalar((m * n) as i32)
        .scalar(splits as i32);
    // SAFETY: the reduction reads splits · m · n partials and writes m · n outputs.
    unsafe { launch::<B>(dev, reduce, ((m * n).div_ceil(512) as u32, 1, 1), &r, what) };
}
