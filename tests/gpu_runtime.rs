//! The launchers, one suite generic over the [`Backend`] and instantiated for CUDA (feature
//! `cuda`), HIP (feature `hip`) and the CPU (feature `llvm`; the interpreter): random inputs
//! (never zeros), outputs poisoned first (0xFF bytes = NaN), every element compared with a host
//! reference, and the region past `n` checked to be untouched. On a machine without a driver or
//! GPU every GPU test prints `SKIP: <reason>` and passes; a kernel test also skips on a GPU
//! backend for which `tests/ptx` holds no image of its kernel (the hand-written kernels are PTX,
//! so HIP runs the kernel-free tests). The CPU runs the kernel-free tests here and weft's own
//! kernels in `cpu_backend.rs` (it cannot run PTX).
#![cfg(any(feature = "cuda", feature = "hip", feature = "llvm"))]
// With the CPU backend alone, the GPU-only tests and their helpers are unused.
#![cfg_attr(
    not(any(feature = "cuda", feature = "hip")),
    allow(dead_code, unused_imports)
)]

mod common;

use approx::relative_eq;
use common::gpu::open;
use common::rng::Rng;
use weft::runtime::prelude::*;
use weft::runtime::{
    bf16, f16, Backend, BackendKind, Buffer, Device, ElemType, KernelArgs, KernelImage,
    KernelSignature, LaunchConfig, LaunchProblem, RuntimeError, Stream,
};
use weft::target::Vendor;

const SAXPY: &str = include_str!("ptx/saxpy.ptx");
const COPY_V4: &str = include_str!("ptx/copy_v4.ptx");
const SMEM_REVERSE: &str = include_str!("ptx/smem_reverse.ptx");
const ADD_V4: &str = include_str!("ptx/add_v4.ptx");
const COPY_ROWS_V4: &str = include_str!("ptx/copy_rows_v4.ptx");
const POISON: u32 = 0xFFFF_FFFF;

/// What each backend brings to the suite: its images of the hand-written kernels.
trait Fixtures: Backend {
    /// The image of kernel `name`, or `None` when `tests/ptx` has none for this backend.
    fn image(name: &str) -> Option<KernelImage<'static>>;
    /// An image this backend does not load.
    const FOREIGN: KernelImage<'static>;
    /// The driver status an illegal store leaves behind.
    const ILLEGAL_ADDRESS: &'static str;
}

#[cfg(feature = "cuda")]
impl Fixtures for weft::runtime::cuda::Cuda {
    fn image(name: &str) -> Option<KernelImage<'static>> {
        Some(KernelImage::Ptx(match name {
            "saxpy" => SAXPY,
            "copy_v4" => COPY_V4,
            "smem_reverse" => SMEM_REVERSE,
            "add_v4" => ADD_V4,
            "copy_rows_v4" => COPY_ROWS_V4,
            "bad_store" => BAD_STORE,
            _ => return None,
        }))
    }
    const FOREIGN: KernelImage<'static> = KernelImage::CodeObject(b"\x7fELF");
    const ILLEGAL_ADDRESS: &'static str = "CUDA_ERROR_ILLEGAL_ADDRESS";
}

#[cfg(feature = "llvm")]
impl Fixtures for weft::runtime::cpu::Cpu {
    fn image(_name: &str) -> Option<KernelImage<'static>> {
        None
    }
    const FOREIGN: KernelImage<'static> = KernelImage::Ptx(SAXPY);
    const ILLEGAL_ADDRESS: &'static str = "out of bounds";
}

#[cfg(feature = "hip")]
impl Fixtures for weft::runtime::hip::Hip {
    fn image(_name: &str) -> Option<KernelImage<'static>> {
        None
    }
    const FOREIGN: KernelImage<'static> = KernelImage::Ptx(SAXPY);
    const ILLEGAL_ADDRESS: &'static str = "hipErrorIllegalAddress";
}

/// Loads kernel `sig.name` of backend `B`, or prints why the test is skipped.
fn kernel<B: Fixtures>(dev: &B::Device, sig: KernelSignature) -> Option<B::Kernel> {
    let Some(image) = B::image(&sig.name) else {
        // The CPU runs weft's own kernels (`cpu_backend.rs`), never PTX: nothing is skipped there.
        if B::KIND != BackendKind::Cpu {
            println!("SKIP: tests/ptx has no {} image of `{}`", B::KIND, sig.name);
        }
        return None;
    };
    Some(dev.load_kernel(image, sig).unwrap())
}

fn saxpy_sig() -> KernelSignature {
    KernelSignature::parse("saxpy(*f32, *f32, *f32, f32, u32)").unwrap()
}

/// Checks out[..n] against `want` and that out[n..] still holds the poison.
fn check(out: &[f32], want: &[f32], what: &str) {
    assert!(out.len() >= want.len());
    let mut bad = 0;
    for (i, (&g, &w)) in out.iter().zip(want).enumerate() {
        if !relative_eq!(g, w, max_relative = 1e-6) {
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
            "{what}: element n+{i} past the end was written"
        );
    }
}

/// A poisoned output buffer of `len` f32.
fn poisoned<B: Backend>(dev: &B::Device, len: usize) -> B::Buffer<f32> {
    let mut out = dev.alloc::<f32>(len).unwrap();
    out.fill_bytes(0xFF).unwrap();
    out
}

// ---------------------------------------------------------------- without kernels

fn device_properties_are_sane<B: Fixtures>(dev: &B::Device) {
    let limits = dev.limits();
    println!(
        "{} device {}: {} ({}), limits {limits:?}",
        B::KIND,
        dev.ordinal(),
        dev.name(),
        dev.arch()
    );
    assert!(limits.max_threads_per_block >= 1024);
    assert!(limits.max_shared_per_block_optin >= limits.max_shared_per_block);
    assert!(B::device_count().unwrap() >= 1);
    let target = dev.target().unwrap();
    assert_eq!(target.warp_size(), limits.warp_size);
    match B::KIND {
        BackendKind::Cuda => {
            assert_eq!(target.vendor(), Vendor::Nvidia);
            assert_eq!(limits.warp_size, 32);
            assert!(dev.arch().starts_with("sm_"), "{}", dev.arch());
            assert!(target.to_string().starts_with(dev.arch()), "{target}");
        }
        BackendKind::Hip => {
            assert_eq!(target.vendor(), Vendor::Amd);
            assert!(
                dev.arch().starts_with(&target.to_string()),
                "{}",
                dev.arch()
            );
        }
        BackendKind::Cpu => assert_eq!(dev.arch(), target.to_string()),
    }
}

fn copies_round_trip<B: Fixtures>(dev: &B::Device) {
    fn round_trip<B: Backend, T: weft::runtime::DeviceElem + PartialEq + std::fmt::Debug>(
        dev: &B::Device,
        host: &[T],
    ) {
        let b = dev.upload(host).unwrap();
        assert_eq!(b.len(), host.len());
        assert_eq!(b.size_bytes(), std::mem::size_of_val(host));
        assert_eq!(b.to_vec().unwrap(), host, "{}", T::ELEM);
    }
    let x = Rng(11).vec(4099);
    round_trip::<B, f32>(dev, &x);
    round_trip::<B, f16>(
        dev,
        &x.iter().map(|&v| f16::from_f32(v)).collect::<Vec<_>>(),
    );
    round_trip::<B, bf16>(
        dev,
        &x.iter().map(|&v| bf16::from_f32(v)).collect::<Vec<_>>(),
    );
    round_trip::<B, u64>(
        dev,
        &x.iter()
            .map(|v| v.to_bits() as u64 * 0x1_0000_0001)
            .collect::<Vec<_>>(),
    );
    round_trip::<B, i8>(
        dev,
        &(0..300)
            .map(|i| (i * 7 % 256 - 128) as i8)
            .collect::<Vec<_>>(),
    );
    round_trip::<B, f32>(dev, &[]);

    let zeros = dev.alloc_zeroed::<u32>(1000).unwrap();
    assert!(zeros.to_vec().unwrap().iter().all(|&v| v == 0));
    let nan = poisoned::<B>(dev, 10);
    assert!(nan.to_vec().unwrap().iter().all(|v| v.to_bits() == POISON));

    // A device-to-device copy on a side stream, then on the default stream back into a third.
    let src = dev.upload(&x).unwrap();
    let mut mid = poisoned::<B>(dev, x.len());
    let side = dev.new_stream().unwrap();
    side.copy_async(&src, &mut mid).unwrap();
    side.synchronize().unwrap();
    assert_eq!(mid.to_vec().unwrap(), x);
    let mut last = poisoned::<B>(dev, x.len());
    last.copy_from(&mid).unwrap();
    assert_eq!(last.to_vec().unwrap(), x);
    let mut short = dev.alloc::<f32>(x.len() - 1).unwrap();
    assert!(matches!(
        side.copy_async(&src, &mut short),
        Err(RuntimeError::LengthMismatch { .. })
    ));
}

fn host_copies_check_lengths<B: Fixtures>(dev: &B::Device) {
    let mut b = dev.alloc::<f32>(8).unwrap();
    assert!(matches!(
        b.copy_from_host(&[1.0; 7]),
        Err(RuntimeError::LengthMismatch {
            device: 8,
            host: 7,
            ..
        })
    ));
    let mut host = [0f32; 9];
    assert!(matches!(
        b.copy_to_host(&mut host),
        Err(RuntimeError::LengthMismatch { .. })
    ));
    let data = Rng(7).vec(8);
    b.copy_from_host(&data).unwrap();
    let mut c = dev.alloc::<f32>(8).unwrap();
    c.copy_from(&b).unwrap();
    assert_eq!(c.to_vec().unwrap(), data);
}

fn events_time_stream_work<B: Fixtures>(dev: &B::Device) {
    let n = 1 << 22;
    let src = dev.upload(&Rng(12).vec(n)).unwrap();
    let mut dst = dev.alloc::<f32>(n).unwrap();
    let stream = dev.new_stream().unwrap();
    let times = stream
        .time_ms(1, 5, |s| s.copy_async(&src, &mut dst))
        .unwrap();
    println!("{} copy of {} MiB: {times:?} ms", B::KIND, (4 * n) >> 20);
    assert_eq!(times.len(), 5);
    assert!(times.iter().all(|&t| t > 0.0 && t.is_finite()), "{times:?}");
    // An event recorded on one stream orders another.
    let other = dev.new_stream().unwrap();
    let done = stream.record().unwrap();
    other.wait(&done).unwrap();
    other.synchronize().unwrap();
    assert_eq!(dst.to_vec().unwrap(), src.to_vec().unwrap());
}

#[cfg(any(feature = "cuda", feature = "hip"))]
fn bench_times_work_within_the_budget<B: Fixtures>(dev: &B::Device) {
    use weft::runtime::bench::{bench, BenchOptions};
    let n = 1 << 24;
    let src = dev.upload(&Rng(13).vec(n)).unwrap();
    let mut dst = dev.alloc::<f32>(n).unwrap();
    let stream = dev.new_stream().unwrap();
    let o = BenchOptions::default();
    let t = bench(&stream, &o, |s| s.copy_async(&src, &mut dst)).unwrap();
    println!(
        "{} bench of a {} MiB copy: {t}, {} warm-up runs",
        B::KIND,
        (4 * n) >> 20,
        t.n_warmup
    );
    assert!(
        t.min > 0.0 && t.min <= t.median && t.median <= t.max,
        "{t:?}"
    );
    // The counts come from the estimate: about rep_ms of timed runs (the flush is not timed, so
    // the estimate, which includes it, gives fewer runs than rep_ms / median).
    assert!(!t.samples.is_empty() && t.samples.len() <= o.max_repeat);
    assert!(t.samples.len() as f64 * t.median <= 2.0 * o.rep_ms, "{t:?}");
    let q = t.quantiles(&[0.2, 0.5, 0.8]).unwrap();
    assert!(q[0] <= q[1] && q[1] <= q[2] && q[1] == t.median);
    let fixed = bench(&stream, &BenchOptions::fixed(2, 7), |s| {
        s.copy_async(&src, &mut dst)
    })
    .unwrap();
    assert_eq!((fixed.samples.len(), fixed.n_warmup), (7, 2));
}

fn releases_leave_no_drop_errors<B: Fixtures>(dev: &B::Device) {
    dev.synchronize().unwrap();
    let _ = dev.take_drop_errors();
    {
        let stream = dev.new_stream().unwrap();
        let a = stream.record().unwrap();
        let b = stream.record().unwrap();
        b.synchronize().unwrap();
        let _ = a.elapsed_ms(&b).unwrap();
        let _buffers = (
            dev.alloc::<f32>(1 << 20).unwrap(),
            dev.upload(&[1u8; 3]).unwrap(),
        );
        if let Some(k) = kernel::<B>(dev, saxpy_sig()) {
            drop(k); // unloads the module
        }
    }
    dev.synchronize().unwrap();
    let errors = dev.take_drop_errors();
    assert!(
        errors.is_empty(),
        "successful releases recorded errors: {errors:?}"
    );
}

fn foreign_images_are_refused<B: Fixtures>(dev: &B::Device) {
    match dev.load(B::FOREIGN) {
        Err(e @ RuntimeError::InvalidImage { .. }) => {
            assert!(
                e.to_string()
                    .contains(&format!("the {} backend loads", B::KIND)),
                "{e}"
            )
        }
        other => panic!("expected InvalidImage, got {other:?}"),
    }
}

// ---------------------------------------------------------------- hand-written kernels

fn saxpy_matches_host_reference<B: Fixtures>(dev: &B::Device) {
    let Some(kernel) = kernel::<B>(dev, saxpy_sig()) else {
        return;
    };
    let n = 1_000_003usize; // not a multiple of the block size: the bounds guard matters
    let mut rng = Rng(1);
    let (x, y, a) = (rng.vec(n), rng.vec(n), rng.f32());
    println!("saxpy: {:?}", kernel.attrs());
    let dx = dev.upload(&x).unwrap();
    let dy = dev.upload(&y).unwrap();
    let out = poisoned::<B>(dev, n + 64);
    let cfg = LaunchConfig::for_items(n as u64, 256, 256).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&out).ptr(&dx).ptr(&dy).scalar(a).scalar(n as u32);
    let stream = dev.stream();
    // SAFETY: saxpy touches out/x/y[0..n) only; all three hold at least n elements.
    unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
    stream.synchronize().unwrap();
    let want: Vec<f32> = x.iter().zip(&y).map(|(&x, &y)| a.mul_add(x, y)).collect();
    check(&out.to_vec().unwrap(), &want, "saxpy");

    let times = stream
        // SAFETY: as above.
        .time_ms(2, 10, |s| unsafe { s.launch(&kernel, &cfg, &args) })
        .unwrap();
    let mut sorted = times.clone();
    sorted.sort_by(f32::total_cmp);
    let median = sorted[sorted.len() / 2];
    println!(
        "saxpy n={n}: median {median:.4} ms = {:.0} GB/s",
        (12 * n) as f64 / (median as f64 * 1e6)
    );
    assert!(times.iter().all(|&t| t > 0.0 && t.is_finite()));
}

fn copy_v4_copies_every_element_on_a_side_stream<B: Fixtures>(dev: &B::Device) {
    let sig = KernelSignature::parse("copy_v4(*f32, *f32, u64)").unwrap();
    let Some(kernel) = kernel::<B>(dev, sig) else {
        return;
    };
    let n4 = (1usize << 20) + 5;
    let n = 4 * n4;
    let input = Rng(3).vec(n);
    let din = dev.upload(&input).unwrap();
    let out = poisoned::<B>(dev, n + 64);
    let mut args = KernelArgs::new();
    args.ptr(&out).ptr(&din).scalar(n4 as u64);
    let stream = dev.new_stream().unwrap();
    let start = stream.record().unwrap();
    // SAFETY: copy_v4 touches [0, 4*n4) of both buffers, which hold at least n = 4*n4 elements.
    unsafe {
        stream
            .launch(
                &kernel,
                &LaunchConfig::for_items(n4 as u64, 4 * 256, 256).unwrap(),
                &args,
            )
            .unwrap()
    };
    let end = stream.record().unwrap();
    let ms = start.elapsed_ms(&end).unwrap();
    println!("copy_v4 {} MiB on a side stream: {ms:.4} ms", (n * 4) >> 20);
    assert!(ms > 0.0);
    check(&out.to_vec().unwrap(), &input, "copy_v4");
}

fn add_v4_matches_host_reference<B: Fixtures>(dev: &B::Device) {
    let sig = KernelSignature::parse("add_v4(*f32, *f32, *f32, u64)").unwrap();
    let Some(kernel) = kernel::<B>(dev, sig) else {
        return;
    };
    let n4 = (1usize << 18) + 3;
    let n = 4 * n4;
    let mut rng = Rng(8);
    let (a, b) = (rng.vec(n), rng.vec(n));
    let (da, db) = (dev.upload(&a).unwrap(), dev.upload(&b).unwrap());
    let out = poisoned::<B>(dev, n + 64);
    let mut args = KernelArgs::new();
    args.ptr(&out).ptr(&da).ptr(&db).scalar(n4 as u64);
    // SAFETY: add_v4 touches [0, 4*n4) of each buffer; all hold at least n = 4*n4 elements.
    unsafe {
        dev.stream()
            .launch(
                &kernel,
                &LaunchConfig::for_items(n4 as u64, 1024, 256).unwrap(),
                &args,
            )
            .unwrap()
    };
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    check(&out.to_vec().unwrap(), &want, "add_v4");
}

fn copy_rows_v4_takes_every_other_row<B: Fixtures>(dev: &B::Device) {
    let sig = KernelSignature::parse("copy_rows_v4(*f32, *f32, u32, u64)").unwrap();
    let Some(kernel) = kernel::<B>(dev, sig) else {
        return;
    };
    // x[::2] of a 64 x 1036 matrix: 259 float4 per row, not a multiple of a block's 1024.
    let (rows, cols) = (64usize, 1036usize);
    let cols4 = cols / 4;
    let input = Rng(9).vec(rows * cols);
    let din = dev.upload(&input).unwrap();
    let out_rows = rows / 2;
    let out = poisoned::<B>(dev, out_rows * cols + 64);
    let mut args = KernelArgs::new();
    args.ptr(&out)
        .ptr(&din)
        .scalar(cols4 as u32)
        .scalar(2 * cols4 as u64);
    let cfg = LaunchConfig::new((cols4.div_ceil(1024) as u32, out_rows as u32, 1), 256, 0);
    // SAFETY: output rows r < 32 and input rows 2r < 64, columns < cols4 vectors.
    unsafe { dev.stream().launch(&kernel, &cfg, &args).unwrap() };
    let want: Vec<f32> = (0..out_rows * cols)
        .map(|i| input[(2 * (i / cols)) * cols + i % cols])
        .collect();
    check(&out.to_vec().unwrap(), &want, "copy_rows_v4");
}

fn dynamic_shared_memory_above_48k_is_opted_in<B: Fixtures>(dev: &B::Device) {
    let sig = KernelSignature::parse("smem_reverse(*f32, *f32, u32)").unwrap();
    let Some(kernel) = kernel::<B>(dev, sig) else {
        return;
    };
    let (t, blocks) = (256usize, 64usize);
    let n = t * blocks;
    let bytes = 100 * 1024u32; // above the default 48 KB: needs the opt-in attribute
    let input = Rng(4).vec(n);
    let din = dev.upload(&input).unwrap();
    let out = poisoned::<B>(dev, n + 64);
    let mut args = KernelArgs::new();
    args.ptr(&out).ptr(&din).scalar(bytes / 4);
    let cfg = LaunchConfig::new(blocks as u32, t as u32, bytes);
    // SAFETY: the kernel touches [0, grid*T) of both buffers and smem words [words-T, words).
    unsafe { dev.stream().launch(&kernel, &cfg, &args).unwrap() };
    let want: Vec<f32> = (0..n)
        .map(|g| input[(g / t) * t + (t - 1 - g % t)])
        .collect();
    check(&out.to_vec().unwrap(), &want, "smem_reverse");

    let too_much = LaunchConfig::new(
        blocks as u32,
        t as u32,
        dev.limits().max_shared_per_block_optin + 4,
    );
    // SAFETY: rejected before reaching the driver.
    match unsafe { dev.stream().launch(&kernel, &too_much, &args) } {
        Err(RuntimeError::LaunchConfig {
            kernel,
            problem: LaunchProblem::SharedMemory { .. },
        }) => {
            assert_eq!(kernel, "smem_reverse")
        }
        other => panic!("expected a shared-memory LaunchConfig error, got {other:?}"),
    }
}

fn signature_mismatches_never_reach_the_gpu<B: Fixtures>(dev: &B::Device) {
    let Some(kernel) = kernel::<B>(dev, saxpy_sig()) else {
        return;
    };
    let n = 1000usize;
    let x = dev.upload(&Rng(5).vec(n)).unwrap();
    let halves = dev.upload(&vec![f16::from_f32(1.0); n]).unwrap();
    let out = poisoned::<B>(dev, n);
    let cfg = LaunchConfig::for_items(n as u64, 256, 256).unwrap();
    let stream = dev.stream();

    let mut missing_n = KernelArgs::new();
    missing_n.ptr(&out).ptr(&x).ptr(&x).scalar(2.0f32);
    // SAFETY: rejected by the signature check.
    match unsafe { stream.launch(&kernel, &cfg, &missing_n) } {
        Err(RuntimeError::ArgCount {
            kernel,
            expected: 5,
            got: 4,
            ..
        }) => assert_eq!(kernel, "saxpy"),
        other => panic!("expected ArgCount, got {other:?}"),
    }
    let mut wrong_type = KernelArgs::new();
    wrong_type
        .ptr(&out)
        .ptr(&halves)
        .ptr(&x)
        .scalar(2.0f32)
        .scalar(n as u32);
    // SAFETY: rejected by the signature check.
    match unsafe { stream.launch(&kernel, &cfg, &wrong_type) } {
        Err(RuntimeError::ArgType { index: 1, got, .. }) => {
            assert_eq!(got, weft::runtime::ParamType::Ptr(ElemType::F16))
        }
        other => panic!("expected ArgType at 1, got {other:?}"),
    }
    let mut n_as_i64 = KernelArgs::new();
    n_as_i64
        .ptr(&out)
        .ptr(&x)
        .ptr(&x)
        .scalar(2.0f32)
        .scalar(n as i64);
    // SAFETY: rejected by the signature check.
    assert!(matches!(
        unsafe { stream.launch(&kernel, &cfg, &n_as_i64) },
        Err(RuntimeError::ArgType { index: 4, .. })
    ));
    assert!(
        out.to_vec().unwrap().iter().all(|v| v.to_bits() == POISON),
        "nothing may have run"
    );
}

fn driver_launch_failure_names_the_kernel<B: Fixtures>(dev: &B::Device) {
    let Some(kernel) = kernel::<B>(dev, saxpy_sig()) else {
        return;
    };
    let x = dev.upload(&Rng(6).vec(16)).unwrap();
    let mut args = KernelArgs::new();
    args.ptr(&x).ptr(&x).ptr(&x).scalar(1.0f32).scalar(0u32);
    let cfg = LaunchConfig::new(1, (64, 32, 1), 0); // every axis within limits, 2048 threads in all
                                                    // SAFETY: n = 0, so the kernel would touch nothing; the launch is refused anyway.
    match unsafe { dev.stream().launch(&kernel, &cfg, &args) } {
        Err(RuntimeError::LaunchConfig {
            kernel,
            problem: LaunchProblem::TooManyThreads { .. },
        }) => {
            assert_eq!(kernel, "saxpy")
        }
        other => panic!("expected the checked launch to refuse 2048 threads, got {other:?}"),
    }
    // SAFETY: as above; the driver refuses the block size.
    match unsafe { dev.stream().launch_unchecked(&kernel, &cfg, &args) } {
        Err(e @ RuntimeError::Launch { .. }) => {
            println!("driver said: {e}");
            assert!(
                e.to_string().contains("launch of kernel `saxpy` failed"),
                "{e}"
            );
        }
        other => panic!("expected a driver launch error, got {other:?}"),
    }
    dev.synchronize().unwrap(); // a refused launch leaves the context usable
}

/// Run only in a child process (see `kernel_fault_names_the_kernel`): a fault poisons the GPU
/// context for the rest of the process.
fn child_faulting_kernel<B: Fixtures>(dev: &B::Device) {
    let sig = KernelSignature::parse("bad_store(*u32)").unwrap();
    let Some(kernel) = kernel::<B>(dev, sig) else {
        return;
    };
    let mut args = KernelArgs::new();
    args.raw_ptr(ElemType::U32, 0x10);
    // SAFETY: deliberately not: the kernel writes to address 0x10. It faults on the device, which
    // the driver reports; host memory is not involved. This runs in a throw-away process.
    unsafe {
        dev.stream()
            .launch(&kernel, &LaunchConfig::new(1, 1, 0), &args)
            .unwrap()
    };
    match dev.synchronize() {
        Err(e) => println!("FAULT: {e}"),
        Ok(()) => println!("FAULT: none reported"),
    }
}

/// Runs `child` (this binary's `<backend>::child_faulting_kernel`) and checks what it printed.
fn kernel_fault_names_the_kernel<B: Fixtures>(_dev: &B::Device, child: &str) {
    if B::image("bad_store").is_none() {
        println!("SKIP: tests/ptx has no {} image of `bad_store`", B::KIND);
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new(exe)
        .args([
            "--ignored",
            "--exact",
            child,
            "--nocapture",
            "--test-threads=1",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.contains("FAULT:"))
        .unwrap_or("<no FAULT line>");
    println!("child: {line}");
    let want = format!(
        "kernel `bad_store` (the last kernel launched on this device) failed while running: {}",
        B::ILLEGAL_ADDRESS
    );
    assert!(line.contains(&want), "child printed: {stdout}");
}

/// Stores to the address it is given: with a bogus address, an illegal-address fault.
const BAD_STORE: &str = "
.version 8.0
.target sm_80
.address_size 64
.visible .entry bad_store(.param .u64 bad_store_p)
{
    .reg .b64 %rd<3>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [bad_store_p];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, 7;
    st.global.u32 [%rd2], %r1;
    ret;
}
";

/// The kernel-free tests, for backend `$backend` in module `$module` (with `dev()` in scope).
macro_rules! kernel_free {
    ($backend:ty) => {
        suite!(@tests $backend;
            device_properties_are_sane,
            copies_round_trip,
            host_copies_check_lengths,
            events_time_stream_work,
            releases_leave_no_drop_errors,
            foreign_images_are_refused,
        );
    };
}

/// One `#[test]` per generic test above, for GPU backend `$backend` in module `$module`.
macro_rules! suite {
    ($module:ident, $backend:ty) => {
        mod $module {
            use super::*;

            fn dev() -> Option<<$backend as Backend>::Device> {
                open::<$backend>()
            }

            kernel_free!($backend);
            suite!(@tests $backend;
                bench_times_work_within_the_budget,
                saxpy_matches_host_reference,
                copy_v4_copies_every_element_on_a_side_stream,
                add_v4_matches_host_reference,
                copy_rows_v4_takes_every_other_row,
                dynamic_shared_memory_above_48k_is_opted_in,
                signature_mismatches_never_reach_the_gpu,
                driver_launch_failure_names_the_kernel,
            );

            #[test]
            #[ignore = "faults the GPU context; run in a child process by kernel_fault_names_the_kernel"]
            fn child_faulting_kernel() {
                let Some(dev) = dev() else { return };
                super::child_faulting_kernel::<$backend>(&dev);
            }

            #[test]
            fn kernel_fault_names_the_kernel() {
                let Some(dev) = dev() else { return };
                let child = concat!(stringify!($module), "::child_faulting_kernel");
                super::kernel_fault_names_the_kernel::<$backend>(&dev, child);
            }
        }
    };
    (@tests $backend:ty; $($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            let Some(dev) = dev() else { return };
            super::$name::<$backend>(&dev);
        }
    )*};
}

#[cfg(feature = "cuda")]
suite!(cuda, weft::runtime::cuda::Cuda);

#[cfg(feature = "hip")]
suite!(hip, weft::runtime::hip::Hip);

/// The interpreter behind the same traits: the kernel-free tests (weft's own kernels on the CPU
/// backend are `cpu_backend.rs`).
#[cfg(feature = "llvm")]
mod cpu {
    use super::*;

    fn dev() -> Option<<weft::runtime::cpu::Cpu as Backend>::Device> {
        open::<weft::runtime::cpu::Cpu>()
    }

    kernel_free!(weft::runtime::cpu::Cpu);
}

// ---------------------------------------------------------------- CUDA only

#[cfg(feature = "cuda")]
mod cuda_only {
    use super::*;
    use common::gpu::device;
    #[cfg(feature = "cudarc")]
    use weft::runtime::cuda::cudarc::driver::{CudaContext, CudaSlice};
    use weft::runtime::cuda::{self, KernelCache};

    const SAXPY_CUBIN_SM90: &[u8] = include_bytes!("ptx/saxpy.sm_90.cubin");

    #[test]
    fn bench_graph_removes_launch_overhead() {
        use weft::runtime::bench::{bench, bench_graph, BenchOptions};
        let Some(dev) = device() else { return };
        let n = 1 << 10;
        let kernel = dev
            .load_ptx(COPY_V4)
            .unwrap()
            .kernel(KernelSignature::parse("copy_v4(*f32, *f32, u64)").unwrap())
            .unwrap();
        let src = dev.upload(&Rng(14).vec(n)).unwrap();
        let dst = poisoned::<cuda::Cuda>(&dev, n);
        let mut args = KernelArgs::new();
        args.ptr(&dst)
            .ptr(&src)
            .push(weft::runtime::KernelArg::U64((n / 4) as u64));
        let cfg = LaunchConfig::new(1, 256, 0);
        let stream = dev.new_stream().unwrap();
        // SAFETY: copy_v4 reads n/4 float4 of src and writes them to dst; both hold n f32.
        let launch = |s: &cuda::Stream| unsafe { s.launch(&kernel, &cfg, &args) };
        let o = BenchOptions::default();
        let events = bench(&stream, &o, launch).unwrap();
        let graph = bench_graph(&stream, &o, launch).unwrap();
        println!(
            "tiny copy: events {events}; graph {graph} ({} launches per replay)",
            graph.n_repeat
        );
        assert_eq!(graph.samples.len(), o.graph_replays);
        assert!(graph.n_repeat >= 1);
        assert!(
            graph.median > 0.0 && graph.median <= events.median * 1.5,
            "{graph} vs {events}"
        );
        assert_eq!(dst.to_vec().unwrap(), src.to_vec().unwrap());
        // The legacy default stream cannot be captured: a typed error, not a driver abort.
        use weft::runtime::bench::GraphStream;
        let e = dev.stream().capture(&mut |_| Ok(())).unwrap_err();
        assert!(e.to_string().contains("legacy default stream"), "{e}");
    }

    #[test]
    fn device_properties_are_sane() {
        let Some(dev) = device() else { return };
        let p = dev.props();
        println!(
            "device {}: {} ({}), {} SMs, {:.1} GiB, L2 {} MiB, peak {:.0} GB/s, driver CUDA {}.{}",
            p.ordinal,
            p.name,
            p.arch(),
            p.sm_count,
            p.total_mem_bytes as f64 / (1u64 << 30) as f64,
            p.l2_bytes >> 20,
            p.peak_bandwidth_gbs(),
            p.driver_version.0,
            p.driver_version.1
        );
        println!("limits: {:?}", p.limits);
        assert!(p.limits.max_threads_per_block >= 1024);
        assert_eq!(p.limits.warp_size, 32);
        assert!(p.limits.max_shared_per_block_optin >= p.limits.max_shared_per_block);
        assert!(p.sm_count > 0 && p.total_mem_bytes > 0);
        assert!(cuda::Device::count().unwrap() >= 1);
        assert_eq!(dev.arch(), p.arch());
        if p.compute_capability == (9, 0) {
            assert_eq!(dev.target().unwrap(), weft::target::Target::SM90A);
        }
    }

    #[test]
    fn cubin_loads_and_runs() {
        let Some(dev) = device() else { return };
        if dev.props().compute_capability != (9, 0) {
            println!(
                "SKIP: the committed cubin is for sm_90, this GPU is {}",
                dev.arch()
            );
            return;
        }
        let kernel = dev
            .load_cubin(SAXPY_CUBIN_SM90)
            .unwrap()
            .kernel(saxpy_sig())
            .unwrap();
        let n = 4099usize;
        let mut rng = Rng(2);
        let (x, y, a) = (rng.vec(n), rng.vec(n), rng.f32());
        let (dx, dy) = (dev.upload(&x).unwrap(), dev.upload(&y).unwrap());
        let out = poisoned::<cuda::Cuda>(&dev, n + 64);
        let mut args = KernelArgs::new();
        args.ptr(&out).ptr(&dx).ptr(&dy).scalar(a).scalar(n as u32);
        // SAFETY: bounds as in saxpy_matches_host_reference.
        unsafe {
            dev.stream()
                .launch(
                    &kernel,
                    &LaunchConfig::for_items(n as u64, 128, 128).unwrap(),
                    &args,
                )
                .unwrap()
        };
        let want: Vec<f32> = x.iter().zip(&y).map(|(&x, &y)| a.mul_add(x, y)).collect();
        check(&out.to_vec().unwrap(), &want, "saxpy (cubin)");
    }

    #[test]
    fn ptx_too_new_and_broken_ptx_are_explained() {
        let Some(dev) = device() else { return };
        let newer = SAXPY.replace(".version 8.0", ".version 9.9");
        match dev.load_ptx(&newer) {
            Err(e @ RuntimeError::PtxTooNew { .. }) => {
                println!("{e}");
                assert!(e.to_string().contains("PTX ISA 9.9 is too new"), "{e}");
            }
            other => panic!("expected PtxTooNew, got {other:?}"),
        }
        let broken = SAXPY.replace("fma.rn.f32", "fma.rn.f33");
        match dev.load_ptx(&broken) {
            Err(e @ RuntimeError::ModuleLoad { .. }) => {
                println!("{e}");
                if let RuntimeError::ModuleLoad { log, .. } = &e {
                    assert!(!log.is_empty(), "the JIT log explains the error");
                }
            }
            other => panic!("expected ModuleLoad, got {other:?}"),
        }
        let module = dev.load_ptx(SAXPY).unwrap();
        assert!(matches!(
            module.kernel(KernelSignature::parse("saxpy2(*f32)").unwrap()),
            Err(RuntimeError::KernelNotFound { name, .. }) if name == "saxpy2"
        ));
        assert!(matches!(
            dev.load_ptx("  \n"),
            Err(RuntimeError::InvalidImage { .. })
        ));
        assert!(matches!(
            dev.load_cubin(b"not a cubin"),
            Err(RuntimeError::InvalidImage { .. })
        ));
    }

    #[test]
    fn kernel_cache_jits_once_per_content() {
        let Some(dev) = device() else { return };
        let cache = KernelCache::new();
        let t0 = std::time::Instant::now();
        let k1 = cache.ptx(&dev, SAXPY, saxpy_sig()).unwrap();
        let cold = t0.elapsed();
        let t1 = std::time::Instant::now();
        let k2 = cache.ptx(&dev, SAXPY, saxpy_sig()).unwrap();
        let warm = t1.elapsed();
        println!(
            "saxpy load: cold (JIT) {:.3} ms, cached {:.3} ms",
            cold.as_secs_f64() * 1e3,
            warm.as_secs_f64() * 1e3
        );
        assert_eq!((cache.misses(), cache.hits(), cache.len()), (1, 1, 1));
        assert_eq!(k1.name(), k2.name());
        let other = SAXPY.replace("// out[i]", "// variant: out[i]");
        cache.ptx(&dev, &other, saxpy_sig()).unwrap();
        assert_eq!(
            (cache.misses(), cache.len()),
            (2, 2),
            "different content, different entry"
        );
    }

    /// A user's own cudarc context, stream and `CudaSlice`s: a weft kernel runs on that stream
    /// with the slices (and a view of one) as arguments, and cudarc reads the result back.
    #[cfg(feature = "cudarc")]
    #[test]
    fn saxpy_runs_on_a_cudarc_stream_with_cudarc_slices() {
        if device().is_none() {
            return;
        }
        let ctx = CudaContext::new(0).unwrap();
        let stream = ctx.new_stream().unwrap();
        let n = 100_003usize;
        let mut rng = Rng(13);
        let (x, y, a) = (rng.vec(n), rng.vec(n), rng.f32());
        let dx: CudaSlice<f32> = stream.clone_htod(&x).unwrap();
        // y lives in the second half of a larger slice: passed as a view.
        let mut y2 = vec![0f32; n];
        y2.extend_from_slice(&y);
        let dy2: CudaSlice<f32> = stream.clone_htod(&y2).unwrap();
        let dy = dy2.slice(n..);
        let poison = vec![f32::from_bits(POISON); n + 64];
        let out: CudaSlice<f32> = stream.clone_htod(&poison).unwrap();

        let wstream = cuda::Stream::from_cudarc(stream.clone()).unwrap();
        assert!(std::sync::Arc::ptr_eq(
            wstream.cudarc_stream().unwrap(),
            &stream
        ));
        let kernel = wstream
            .device()
            .load_kernel(KernelImage::Ptx(SAXPY), saxpy_sig())
            .unwrap();
        let mut args = KernelArgs::new();
        args.ptr(&out).ptr(&dx).ptr(&dy).scalar(a).scalar(n as u32);
        assert_eq!(
            args.types()[..3],
            [weft::runtime::ParamType::Ptr(ElemType::F32); 3]
        );
        let cfg = LaunchConfig::for_items(n as u64, 256, 256).unwrap();
        // SAFETY: saxpy touches out/x/y[0..n) only; all three hold at least n elements, and the
        // launch is on the stream that wrote them.
        unsafe { wstream.launch(&kernel, &cfg, &args).unwrap() };
        let got = stream.clone_dtoh(&out).unwrap();
        let want: Vec<f32> = x.iter().zip(&y).map(|(&x, &y)| a.mul_add(x, y)).collect();
        check(&got, &want, "saxpy on a cudarc stream");

        // A u32 slice is not an f32 pointer: the signature check still applies.
        let words: CudaSlice<u32> = stream.alloc_zeros(n).unwrap();
        let mut wrong = KernelArgs::new();
        wrong
            .ptr(&out)
            .ptr(&words)
            .ptr(&dy)
            .scalar(a)
            .scalar(n as u32);
        // SAFETY: rejected by the signature check.
        assert!(matches!(
            unsafe { wstream.launch(&kernel, &cfg, &wrong) },
            Err(RuntimeError::ArgType { index: 1, .. })
        ));
    }

    /// A stream and memory owned elsewhere, passed by raw handle and address: the framework
    /// path that names no cudarc type. The owner (here weft's own buffers, moved away) lives as
    /// long as the `RawBuffer`s.
    #[test]
    fn saxpy_runs_on_a_raw_stream_with_raw_buffers() {
        use weft::runtime::{DeviceArray, DevicePointer, RawBuffer};
        let Some(dev) = device() else { return };
        let owner_stream = dev.new_stream().unwrap();
        // SAFETY: `owner_stream` outlives `stream` (both end with this test).
        let stream = unsafe { cuda::Stream::from_raw(&dev, owner_stream.as_raw()) }.unwrap();
        assert_eq!(stream.as_raw(), owner_stream.as_raw());
        let n = 50_001usize;
        let mut rng = Rng(17);
        let (x, y, a) = (rng.vec(n), rng.vec(n), rng.f32());
        let wrap = |b: cuda::Buffer<f32>| {
            let (addr, len) = (b.device_addr(), b.len());
            RawBuffer::<f32>::from_raw_parts(addr, len, b)
        };
        let (dx, dy) = (wrap(dev.upload(&x).unwrap()), wrap(dev.upload(&y).unwrap()));
        let out = wrap(poisoned::<cuda::Cuda>(&dev, n));
        assert_eq!(out.elem_count(), n);
        let kernel = dev
            .load_kernel(KernelImage::Ptx(SAXPY), saxpy_sig())
            .unwrap();
        let mut args = KernelArgs::new();
        args.ptr(&out).ptr(&dx).ptr(&dy).scalar(a).scalar(n as u32);
        let cfg = LaunchConfig::for_items(n as u64, 256, 256).unwrap();
        // SAFETY: saxpy touches out/x/y[0..n) only; each buffer holds n elements.
        unsafe { stream.launch(&kernel, &cfg, &args).unwrap() };
        stream.synchronize().unwrap();
        let got = RawBuffer::slice(&out, 0, n).unwrap();
        let mut host = vec![0f32; n];
        let back = dev.upload(&host).unwrap();
        // Read back through a device copy into a weft buffer: a D2D copy on the raw stream.
        // SAFETY: both ranges hold n f32 and do not overlap.
        unsafe {
            stream
                .copy_async_unchecked(got.addr(), back.device_addr(), n * 4)
                .unwrap()
        };
        stream.synchronize().unwrap();
        back.copy_to_host(&mut host).unwrap();
        let want: Vec<f32> = x.iter().zip(&y).map(|(&x, &y)| a.mul_add(x, y)).collect();
        check(&host, &want, "saxpy on a raw stream");
    }

    /// The persistent cache: the first load compiles and stores a cubin, a second cache over the
    /// same folder (as a second process would) loads it without the JIT; a damaged entry or
    /// another PTX compiles again; writers racing on one entry leave a whole file.
    #[test]
    fn disk_cache_stores_cubins_and_survives_damage_and_races() {
        use weft::runtime::cuda::{DiskCache, Source};
        let Some(dev) = device() else { return };
        let dir = tempfile::tempdir().unwrap();
        let first = DiskCache::new(dir.path())
            .load_ptx(&dev, SAXPY, saxpy_sig())
            .unwrap();
        assert_eq!(
            (first.source, first.store_error.clone()),
            (Source::Compiled, None)
        );
        let path = DiskCache::new(dir.path()).entry_path(&dev, SAXPY);
        assert!(path.exists(), "{} was not written", path.display());
        let again = DiskCache::new(dir.path())
            .load_ptx(&dev, SAXPY, saxpy_sig())
            .unwrap();
        assert_eq!(again.source, Source::Cached);
        // The cached kernel computes what the PTX does.
        let n = 4099usize;
        let mut rng = Rng(21);
        let (x, y, a) = (rng.vec(n), rng.vec(n), rng.f32());
        let (dx, dy) = (dev.upload(&x).unwrap(), dev.upload(&y).unwrap());
        let out = poisoned::<cuda::Cuda>(&dev, n);
        let mut args = KernelArgs::new();
        args.ptr(&out).ptr(&dx).ptr(&dy).scalar(a).scalar(n as u32);
        let cfg = LaunchConfig::for_items(n as u64, 256, 256).unwrap();
        // SAFETY: saxpy touches out/x/y[0..n) only; each holds n elements.
        unsafe { dev.stream().launch(&again.kernel, &cfg, &args).unwrap() };
        let want: Vec<f32> = x.iter().zip(&y).map(|(&x, &y)| a.mul_add(x, y)).collect();
        check(&out.to_vec().unwrap(), &want, "saxpy from the cached cubin");

        // A truncated entry is compiled again and rewritten whole.
        let len = std::fs::metadata(&path).unwrap().len();
        std::fs::write(&path, &std::fs::read(&path).unwrap()[..len as usize - 100]).unwrap();
        let repaired = DiskCache::new(dir.path())
            .load_ptx(&dev, SAXPY, saxpy_sig())
            .unwrap();
        assert_eq!(repaired.source, Source::Compiled);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), len);

        // Racing writers of one entry in a fresh folder: every load succeeds, the file is whole.
        let race = tempfile::tempdir().unwrap();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    DiskCache::new(race.path())
                        .load_ptx(&dev, SAXPY, saxpy_sig())
                        .unwrap();
                });
            }
        });
        let hit = DiskCache::new(race.path())
            .load_ptx(&dev, SAXPY, saxpy_sig())
            .unwrap();
        assert_eq!(hit.source, Source::Cached);
        let leftovers = std::fs::read_dir(race.path()).unwrap().count();
        assert_eq!(leftovers, 1, "temporary files left behind");
    }

    /// A bundle's PTX loads through `load_bundled` and through the cache's warm-up.
    #[test]
    fn bundled_kernels_load_with_their_signatures() {
        use weft::runtime::cuda::{DiskCache, Source};
        use weft::runtime::{Bundle, BundleEntry, ImageKind};
        let Some(dev) = device() else { return };
        let mut bundle = Bundle::new();
        let sm80 = weft::target::Target::parse("sm_80").unwrap();
        bundle
            .push(BundleEntry::new(
                saxpy_sig(),
                sm80,
                ImageKind::Ptx,
                SAXPY.as_bytes().to_vec(),
            ))
            .unwrap();
        let bundle = Bundle::from_bytes(&bundle.to_bytes()).unwrap();
        let k = dev.load_bundled(&bundle, "saxpy").unwrap();
        assert_eq!(k.signature(), &saxpy_sig());
        assert!(matches!(
            dev.load_bundled(&bundle, "nope"),
            Err(RuntimeError::Bundle { .. })
        ));
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::new(dir.path());
        assert_eq!(cache.warm_up(&dev, &bundle).unwrap(), 1);
        assert_eq!(
            cache.warm_up(&dev, &bundle).unwrap(),
            0,
            "warm-up compiles once"
        );
        let loaded = cache.load_bundled(&dev, &bundle, "saxpy").unwrap();
        assert_eq!(loaded.source, Source::Cached);
    }
}
