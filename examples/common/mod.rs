//! Shared by the examples that launch kernels: the target argument, the GPU (if any), the
//! interpreter (without one), random data, and timing a kernel next to a device-to-device copy.
//!
//! Each example writes its launching code once, generic over the runtime's `Backend`: on a CUDA
//! GPU it runs the full problem and times it; without one it runs the same kernels on
//! `weft::runtime::cpu::Cpu` (the interpreter) on a small ragged problem, checks them against the
//! same host reference, and ends with [`interpreted`]'s line.
#![allow(dead_code)]

use weft::runtime::{Backend, KernelArgs, LaunchConfig};

#[cfg(feature = "llvm")]
pub mod attention;
#[cfg(feature = "llvm")]
pub mod attention_bwd;
#[cfg(feature = "llvm")]
pub mod blockscaled;
#[cfg(feature = "llvm")]
pub mod gemm_tutorial;
#[cfg(feature = "llvm")]
pub mod tma_add;

pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The target named by the first argument (default `sm_90`).
pub fn target_arg() -> Result<weft::codegen::Target> {
    Ok(std::env::args()
        .nth(1)
        .as_deref()
        .unwrap_or("sm_90")
        .parse()?)
}

/// The target named by the first argument when it is one (`sm_…`, `gfx…`), else `default`: the
/// GEMM and attention examples take other arguments after it or instead of it.
pub fn target_arg_or(default: weft::codegen::Target) -> Result<weft::codegen::Target> {
    match std::env::args()
        .nth(1)
        .filter(|a| a.starts_with("sm_") || a.starts_with("gfx"))
    {
        Some(t) => Ok(t.parse()?),
        None => Ok(default),
    }
}

/// Prints the kernel's configuration, signature, report (what the builder predicted for each
/// access and conversion) and assembly: what a reader without a GPU can still inspect.
pub fn print_kernel(
    config: &dyn std::fmt::Debug,
    kernel: &weft::codegen::Kernel<'_>,
) -> Result<()> {
    println!("// {config:?}");
    println!("// signature: {}", kernel.signature());
    for line in kernel.report().to_string().lines() {
        println!("// {line}");
    }
    println!("{}", kernel.assembly(weft::codegen::OptLevel::O3)?);
    Ok(())
}

/// The interpreter as a device emulating `target`: where the examples run without a GPU.
pub fn interpreter(target: weft::codegen::Target) -> Result<weft::runtime::cpu::Device> {
    Ok(weft::runtime::cpu::Device::new(target)?)
}

/// The last line of an example run in the interpreter: what it checked, and how closely.
/// `scripts/run_examples_without_gpu.sh` looks for its prefix.
pub fn interpreted(what: &str) {
    println!("checked in the interpreter (no GPU): {what}");
}

/// Three numbers on the command line (a GEMM's `M N K`, an attention's `B H S`), if exactly
/// three of the arguments are numbers.
pub fn three_numbers_arg() -> Option<(usize, usize, usize)> {
    let a: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    (a.len() == 3).then(|| (a[0], a[1], a[2]))
}

/// The value of `key=value` on the command line, if given; a value that does not parse is an
/// error (a sweep must not time the default by mistake).
pub fn number_arg<T: std::str::FromStr>(key: &str) -> Result<Option<T>> {
    let prefix = format!("{key}=");
    match std::env::args().find_map(|a| a.strip_prefix(&prefix).map(str::to_owned)) {
        None => Ok(None),
        Some(v) => match v.parse() {
            Ok(x) => Ok(Some(x)),
            Err(_) => Err(format!("{key}={v}: not a number").into()),
        },
    }
}

/// The `B H S` of an attention example's timed shape: three numbers on the command line, else
/// `default`.
pub fn bhs_arg(default: (usize, usize, usize)) -> (usize, usize, usize) {
    three_numbers_arg().unwrap_or(default)
}

/// Random f32 in [-4, 4) (SplitMix64), never zero.
pub fn random(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let v = ((z >> 40) as f32 / (1u64 << 24) as f32) * 8.0 - 4.0;
            if v == 0.0 {
                0.5
            } else {
                v
            }
        })
        .collect()
}

/// The rows a check compares element by element: every row of a small matrix (an interpreter
/// run), else those of `large` below `m`.
pub fn sample_rows(m: usize, large: &[usize]) -> Vec<usize> {
    if m <= 64 {
        return (0..m).collect();
    }
    let mut rows: Vec<usize> = large.iter().copied().filter(|&r| r < m).collect();
    rows.sort_unstable();
    rows.dedup();
    rows
}

/// A and B on the device, and their host copies (empty for a timed run).
pub type AddInputs<B> = (
    weft::runtime::backend::BufferOf<B, f32>,
    weft::runtime::backend::BufferOf<B, f32>,
    Vec<f32>,
    Vec<f32>,
);

/// The two `n`-element inputs of an elementwise add: random ones uploaded (returned with their
/// host copies) for a checked run; for a timed run (gigabytes) two constants filled on the device
/// instead, with no host copies, since generating and uploading them would outlast the timing.
pub fn inputs<B: Backend>(dev: &B::Device, n: usize, timed: bool) -> Result<AddInputs<B>> {
    use weft::runtime::prelude::*;
    if timed {
        let (mut a, mut b) = (dev.alloc::<f32>(n)?, dev.alloc::<f32>(n)?);
        a.fill_bytes(0x3c)?;
        b.fill_bytes(0x3d)?;
        return Ok((a, b, Vec::new(), Vec::new()));
    }
    let (ha, hb) = (random(n, 3), random(n, 4));
    Ok((dev.upload(&ha)?, dev.upload(&hb)?, ha, hb))
}

/// Checks `c == a + b` bit for bit, naming the first differing element of the `y`-wide matrix.
pub fn check_sum(c: &[f32], a: &[f32], b: &[f32], y: usize) -> Result<()> {
    let bad = (0..a.len()).find(|&i| c[i].to_bits() != (a[i] + b[i]).to_bits());
    match bad {
        Some(i) => Err(format!("C[{}][{}] = {} differs from A + B", i / y, i % y, c[i]).into()),
        None => Ok(()),
    }
}

/// Launches `kernel` once on the device's default stream and waits for it.
///
/// # Safety
/// As [`weft::runtime::Stream::launch`]: the kernel, given `args`, stays inside the buffers it is
/// passed (the interpreter checks it; a GPU does not).
pub unsafe fn launch_once<B: Backend>(
    dev: &B::Device,
    kernel: &B::Kernel,
    cfg: &LaunchConfig,
    args: &KernelArgs<'_>,
) -> Result<()> {
    use weft::runtime::{Device as _, Stream as _};
    let stream = dev.stream();
    // SAFETY: forwarded from the caller.
    unsafe { stream.launch(kernel, cfg, args)? };
    stream.synchronize()?;
    Ok(())
}

/// Median milliseconds of the kernel and of a D2D copy of `copy_bytes` (reading and writing
/// `2 · copy_bytes`), each timed by `weft::runtime::bench` (Triton's budget, L2 flushed before
/// each run), the copy right after the kernel.
#[cfg(feature = "cuda")]
pub fn time_against_d2d<B: Backend>(
    dev: &B::Device,
    kernel: &B::Kernel,
    cfg: &LaunchConfig,
    args: &KernelArgs,
    copy_bytes: usize,
) -> Result<(f64, f64)> {
    use weft::runtime::bench::{bench, BenchOptions};
    use weft::runtime::prelude::*;
    let stream = dev.stream();
    let options = BenchOptions::default();
    let mut src = dev.alloc::<u8>(copy_bytes)?;
    src.fill_bytes(0x3c)?;
    let mut dst = dev.alloc::<u8>(copy_bytes)?;
    // SAFETY: the caller ran this launch once already (checked against the host).
    let t = bench(&stream, &options, |s| unsafe {
        s.launch(kernel, cfg, args)
    })?;
    let base = bench(&stream, &options, |s| s.copy_async(&src, &mut dst))?;
    Ok((t.median, base.median))
}

/// Median milliseconds of `work` on the device's default stream, timed by
/// `weft::runtime::bench` (Triton's budget, L2 flushed before each run).
#[cfg(feature = "cuda")]
pub fn time<B: Backend>(
    dev: &B::Device,
    work: impl FnMut(&B::Stream) -> weft::runtime::Result<()>,
) -> Result<f64> {
    use weft::runtime::bench::{bench, BenchOptions};
    use weft::runtime::Device as _;
    Ok(bench(&dev.stream(), &BenchOptions::default(), work)?.median)
}

/// One machine-readable result line: `result IMPL NAME MS SIZE`. `IMPL` is `weft` for the
/// tutorial's kernel, or the baseline timed beside it (`d2d`, `gemm_kernel`); `NAME` is the
/// workload as `scripts/anchors/gluon_tutorials.py` names it in its own `result gluon …` lines,
/// so a ratio table is a join on `NAME`.
pub fn result_line(implementation: &str, name: &str, ms: f64, size: &str) {
    println!("result {implementation} {name} {ms:.4} {size}");
}

/// Timing needs `weft::runtime::bench` (feature `cuda`); without it the examples run in the
/// interpreter only and never time.
#[cfg(not(feature = "cuda"))]
pub fn time_against_d2d<B: Backend>(
    _dev: &B::Device,
    _kernel: &B::Kernel,
    _cfg: &LaunchConfig,
    _args: &KernelArgs,
    _copy_bytes: usize,
) -> Result<(f64, f64)> {
    Err("timing needs the `cuda` feature".into())
}

/// See the `cuda` version: without the feature nothing is timed.
#[cfg(not(feature = "cuda"))]
pub fn time<B: Backend>(
    _dev: &B::Device,
    _work: impl FnMut(&B::Stream) -> weft::runtime::Result<()>,
) -> Result<f64> {
    Err("timing needs the `cuda` feature".into())
}

#[cfg(feature = "cuda")]
pub mod gpu {
    use weft::runtime::cuda::{self, Device};

    /// The first CUDA GPU, if there is a driver and one.
    pub fn device() -> Option<Device> {
        if !cuda::is_available() {
            return None;
        }
        Device::new(0).ok()
    }

    /// One line naming the device.
    pub fn describe(dev: &Device) -> String {
        let p = dev.props();
        format!(
            "{} ({}, theoretical {:.0} GB/s)",
            p.name,
            p.arch(),
            p.peak_bandwidth_gbs()
        )
    }
}
