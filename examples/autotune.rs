//! Autotuning with [`weft::runtime::autotune::Autotuner`]: the memcpy kernel
//! ([`weft::codegen::kernels::memcpy_kernel`]) over block size, elements per thread and warps,
//! then the row softmax ([`weft::codegen::kernels::softmax_kernel`]) over rows per CTA,
//! elements per thread and warps (`block_n` the next power of two ≥ the row length).
//!
//! ```sh
//! cargo run --release --features llvm,cuda --example autotune   # tunes, then sweeps to compare
//! cargo run --release --features llvm,cuda --example autotune   # again: a cache hit, nothing timed
//! # WEFT_PRINT_AUTOTUNING=1 prints the tuner's own report; WEFT_CACHE_DIR=dir moves the cache;
//! # WEFT_AUTOTUNE_MIB=256 sets the MiB per tensor (default 1024);
//! # WEFT_SOFTMAX_N=4096 sets the softmax's row length (default 16384; m = MiB per tensor / 4n);
//! # WEFT_AUTOTUNE_CHECK=1 checks every config's output against the first config's.
//! ```
//! For each kernel, the first run builds every config (checking each one's output when asked), times
//! each with `bench` (CUDA events, Triton's time budget, L2 flush), launches the best and writes
//! the choice to the cache; then it sweeps the same configs again, exhaustively, and says whether
//! the choice is within 2% of the sweep's best. A second run finds the choice in the cache: it
//! builds only the chosen config and times nothing. Without a GPU there is nothing to time: every
//! config of both kernels runs once in weft's interpreter on a small ragged problem (memcpy:
//! 9232 f32; softmax: 37 rows of up to 1000), each output checked as the tuner's choice is.
mod common;

use common::Result;
use weft::codegen::kernels::SoftmaxConfig;
use weft::codegen::{kernels, Context, Kernel, Target};
use weft::runtime::autotune::{Compiled, Config, ConfigSpace};
use weft::runtime::backend::{BufferOf, KernelOf, StreamOf};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

/// The configs: block ∈ {1024 … 8192} f32 per CTA, 4 or 8 per thread, 4 or 8 warps, less those
/// whose threads would hold more than the block (15 of 16).
fn configs() -> Result<Vec<Config>> {
    Ok(ConfigSpace::new()
        .param("block", [1024, 2048, 4096, 8192])
        .param("per_thread", [4, 8])
        .param("num_warps", [4, 8])
        .keep(|c| {
            let g = |n| c.get(n).unwrap_or(0);
            g("per_thread") * 32 * g("num_warps") <= g("block")
        })
        .configs()?)
}

/// The memcpy kernel of config `c` for `target`.
fn memcpy_for<'c>(ctx: &'c Context, c: &Config, target: Target) -> Result<Kernel<'c>> {
    Ok(kernels::memcpy_kernel(
        ctx,
        target,
        c.u32("block")?,
        c.u32("per_thread")?,
        c.u32("num_warps")?,
    )?)
}

/// Builds config `c` for `target`: PTX and the signature.
fn build(c: &Config, target: Target) -> Result<Compiled> {
    let ctx = Context::new();
    let k = memcpy_for(&ctx, c, target)?;
    Ok(Compiled::ptx(k.ptx()?, k.signature().clone()))
}

/// The row length of the softmax: `WEFT_SOFTMAX_N`, default 16384.
fn softmax_n() -> usize {
    std::env::var("WEFT_SOFTMAX_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n: &usize| (1..=1 << 16).contains(&n))
        .unwrap_or(16384)
}

/// The softmax's kernel config for rows of `n` from tuner config `c`.
fn softmax_config(c: &Config, n: usize) -> Result<SoftmaxConfig> {
    Ok(SoftmaxConfig::for_n(
        n as u32,
        c.u32("rows_per_cta")?,
        c.u32("per_thread")?,
        c.u32("num_warps")?,
    ))
}

/// The softmax configs for rows of `n`: rows per CTA ∈ {1, 2, 4}, 4 or 8 f32 per thread and
/// access, 4 to 32 warps, less those the kernel refuses (more than 128 f32 per thread) and those
/// whose threads would hold copies (more threads × per_thread than the tile): 18 for n = 16384.
fn softmax_configs(n: usize) -> Result<Vec<Config>> {
    Ok(ConfigSpace::new()
        .param("rows_per_cta", [1, 2, 4])
        .param("per_thread", [4, 8])
        .param("num_warps", [4, 8, 16, 32])
        .keep(move |c| {
            softmax_config(c, n).is_ok_and(|s| {
                let threads = 32 * s.num_warps as u64;
                s.layout(Target::SM90).is_ok()
                    && threads * s.per_thread as u64 <= s.rows_per_cta as u64 * s.block_n as u64
            })
        })
        .configs()?)
}

/// Builds softmax config `c` for rows of `n` for `target`.
fn build_softmax(c: &Config, n: usize, target: Target) -> Result<Compiled> {
    let ctx = Context::new();
    let k = kernels::softmax_kernel(&ctx, target, softmax_config(c, n)?)?;
    Ok(Compiled::ptx(k.ptx()?, k.signature().clone()))
}

/// The memcpy's arguments on backend `B`.
struct MemcpyArgs<B: Backend> {
    x: BufferOf<B, f32>,
    y: BufferOf<B, f32>,
    n: usize,
}

/// Launches the memcpy of config `c` (the tuner's launch, and the interpreter's).
fn launch_memcpy<B: Backend>(
    s: &StreamOf<B>,
    k: &KernelOf<B>,
    c: &Config,
    a: &MemcpyArgs<B>,
) -> weft::runtime::Result<()> {
    let block = param(c, "block")?;
    let config = LaunchConfig::for_kernel(a.n.div_ceil(block as usize) as u32, k.signature())?;
    let mut ka = KernelArgs::new();
    ka.ptr(&a.x)
        .ptr(&a.y)
        .push(weft::runtime::KernelArg::I32(a.n as i32));
    // SAFETY: the kernel reads x[i] and writes y[i] for i < n, both buffers hold n f32, and they
    // live until the caller synchronizes.
    unsafe { s.launch(k, &config, &ka) }
}

/// Whether the memcpy's output equals its input.
fn memcpy_verdict<B: Backend>(
    a: &MemcpyArgs<B>,
    host: &[f32],
) -> Result<std::result::Result<String, String>> {
    Ok(if a.y.to_vec()? == host {
        Ok("equals the input".into())
    } else {
        Err("the memcpy's output differs from its input".into())
    })
}

/// The softmax's arguments on backend `B`.
struct SoftmaxArgs<B: Backend> {
    x: BufferOf<B, f32>,
    y: BufferOf<B, f32>,
    m: usize,
    n: usize,
}

/// Launches the softmax of config `c` (the tuner's launch, and the interpreter's).
fn launch_softmax<B: Backend>(
    s: &StreamOf<B>,
    k: &KernelOf<B>,
    c: &Config,
    a: &SoftmaxArgs<B>,
) -> weft::runtime::Result<()> {
    let rows = param(c, "rows_per_cta")?;
    // Block size and shared bytes (the reductions' scratch) from the signature.
    let config = LaunchConfig::for_kernel(a.m.div_ceil(rows as usize) as u32, k.signature())?;
    let mut ka = KernelArgs::new();
    ka.ptr(&a.x).ptr(&a.y).scalar(a.m as i32).scalar(a.n as i32);
    // SAFETY: the kernel reads x[r * n + j] and writes y[r * n + j] for r < m, j < n (masked);
    // both buffers hold m * n f32 and live until the caller synchronizes.
    unsafe { s.launch(k, &config, &ka) }
}

/// Rows of `m × n` values uniform in [-4, 4), from a multiplicative hash of the index.
fn softmax_input(m: usize, n: usize) -> Vec<f32> {
    (0..m * n)
        .map(|i| ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as f32 / 2097152.0 - 4.0)
        .collect()
}

/// A few rows element by element against f64, and every row written and summing to 1.
fn softmax_verdict<B: Backend>(
    a: &SoftmaxArgs<B>,
    host: &[f32],
) -> Result<std::result::Result<String, String>> {
    let (m, n) = (a.m, a.n);
    let out = a.y.to_vec()?;
    let mut worst = 0.0f64;
    for r in [0, m / 2, m - 1] {
        let want = kernels::softmax_reference(&host[r * n..(r + 1) * n], n);
        for (j, (&g, &w)) in out[r * n..(r + 1) * n].iter().zip(&want).enumerate() {
            let rel = (g as f64 - w).abs() / w;
            if rel.is_nan() || rel > 1e-5 {
                return Ok(Err(format!("row {r} col {j}: got {g}, want {w}")));
            }
            worst = worst.max(rel);
        }
    }
    for (r, row) in out.chunks(n).enumerate() {
        let s: f64 = row.iter().map(|&v| v as f64).sum();
        if s.is_nan() || (s - 1.0).abs() > 1e-4 {
            return Ok(Err(format!("row {r} sums to {s}")));
        }
    }
    Ok(Ok(format!(
        "3 rows max rel error {worst:.1e} against f64, every row sums to 1"
    )))
}

/// A tuner config's `u32` parameter, as the launch's error type.
fn param(c: &Config, name: &str) -> weft::runtime::Result<u32> {
    c.u32(name)
        .map_err(|e| weft::runtime::RuntimeError::BadOption {
            what: "config",
            reason: e.to_string(),
        })
}

fn main() {
    if let Err(e) = run() {
        eprintln!("autotune: {e}");
        std::process::exit(1);
    }
}

/// Without a GPU: every config of both kernels runs once in the interpreter (nothing is timed:
/// the interpreter's speed says nothing of a GPU's), each output checked as the tuner checks its
/// choice.
fn interpret(reason: &str) -> Result<()> {
    use weft::runtime::cpu::Cpu;

    println!("# {reason}: every config runs in the interpreter instead, checked, not timed");
    let target = Target::SM90A;
    let dev = common::interpreter(target)?;
    let stream = dev.stream();
    let ctx = Context::new();
    // Past the largest block (8192) by a ragged tail, a multiple of 16 as the kernel declares.
    let n = 8192 + 1040;
    let host: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.5 - 7.0).collect();
    let mut args = MemcpyArgs::<Cpu> {
        x: dev.upload(&host)?,
        y: dev.alloc::<f32>(n)?,
        n,
    };
    let memcpy_configs = configs()?;
    for c in &memcpy_configs {
        let kernel = memcpy_for(&ctx, c, target)?.load_on::<Cpu>(&dev)?;
        args.y.fill_bytes(0xff)?;
        launch_memcpy::<Cpu>(&stream, &kernel, c, &args)?;
        stream.synchronize()?;
        memcpy_verdict(&args, &host)?.map_err(|e| format!("memcpy {c}: {e}"))?;
    }
    println!(
        "memcpy: {} configs, each output equals its input ({n} f32)",
        memcpy_configs.len()
    );

    let (m, sn) = (37, softmax_n().min(1000));
    let host = softmax_input(m, sn);
    let mut args = SoftmaxArgs::<Cpu> {
        x: dev.upload(&host)?,
        y: dev.alloc::<f32>(m * sn)?,
        m,
        n: sn,
    };
    let softmax_configs = softmax_configs(sn)?;
    let mut last = String::new();
    for c in &softmax_configs {
        let config = softmax_config(c, sn)?;
        config.check_shape(m, sn)?;
        let kernel = kernels::softmax_kernel(&ctx, target, config)?.load_on::<Cpu>(&dev)?;
        args.y.fill_bytes(0xff)?;
        launch_softmax::<Cpu>(&stream, &kernel, c, &args)?;
        stream.synchronize()?;
        last = softmax_verdict(&args, &host)?.map_err(|e| format!("softmax {c}: {e}"))?;
    }
    println!(
        "softmax: {} configs on {m} × {sn}, each correct (the last: {last})",
        softmax_configs.len()
    );
    common::interpreted(&format!(
        "every autotune config: {} memcpy ({n} f32) and {} softmax ({m}×{sn}) outputs match the host",
        memcpy_configs.len(),
        softmax_configs.len()
    ));
    Ok(())
}

#[cfg(not(feature = "cuda"))]
fn run() -> Result<()> {
    interpret("autotune times on a CUDA GPU and needs the `cuda` feature (cargo run --release --features llvm,cuda --example autotune)")
}

#[cfg(feature = "cuda")]
fn run() -> Result<()> {
    use weft::runtime::cuda::{self, Device};

    if !cuda::is_available() {
        return interpret("no CUDA driver (libcuda.so not found)");
    }
    let dev = match Device::new(0) {
        Ok(d) => d,
        Err(e) => return interpret(&format!("no usable GPU: {e}")),
    };
    let mib: usize = std::env::var("WEFT_AUTOTUNE_MIB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1024);
    tune_memcpy(&dev, mib)?;
    tune_softmax(&dev, mib)
}

#[cfg(feature = "cuda")]
type Tuner<A> = weft::runtime::autotune::Autotuner<weft::runtime::cuda::Cuda, Config, A>;

/// Runs `tuner` on `args` and reports: the choice, its GB/s for `bytes` moved per run, and
/// whether `ok(args)` accepts the output it left. After tuning (not a cache hit) it sweeps the
/// same configs again and says whether the choice is within 2% of the sweep's best.
#[cfg(feature = "cuda")]
fn tune_and_compare<A>(
    tuner: &Tuner<A>,
    stream: &weft::runtime::cuda::Stream,
    args: &mut A,
    bytes: f64,
    ok: impl Fn(&A) -> Result<std::result::Result<String, String>>,
) -> Result<()> {
    use weft::runtime::autotune::Source;
    use weft::runtime::prelude::*;

    let t0 = std::time::Instant::now();
    let tuned = tuner.run(stream, args)?;
    stream.synchronize()?;
    let secs = t0.elapsed().as_secs_f64();
    let gbs = |ms: f64| bytes / (ms * 1e-3) / 1e9;
    let verdict = ok(args)?;
    println!(
        "choice: {} ({:.4} ms median, {:.0} GB/s), source {:?}, {secs:.2} s, output {}",
        tuned.config,
        tuned.median_ms,
        gbs(tuned.median_ms),
        tuned.source,
        match &verdict {
            Ok(s) => format!("correct ({s})"),
            Err(e) => format!("WRONG ({e})"),
        }
    );
    match tuned.source {
        Source::Disk => {
            println!("cache hit: only the chosen config was built; nothing was timed");
        }
        Source::Tuned | Source::Memory => {
            if let Some(r) = &tuned.report {
                print!("{r}");
            }
            println!("# exhaustive sweep of the same configs, for comparison");
            let sweep = tuner.sweep(stream, args)?;
            print!("{sweep}");
            let best = sweep.best_timing().median;
            let chosen = match &sweep.rows[tuned.index].outcome {
                Ok(t) => t.median,
                Err(e) => return Err(format!("the chosen config failed in the sweep: {e}").into()),
            };
            let ratio = chosen / best;
            println!(
                "chosen {} at {chosen:.4} ms in the sweep; sweep best {} at {best:.4} ms: ratio {ratio:.4} ({})",
                tuned.config,
                sweep.rows[sweep.best].config,
                if ratio <= 1.02 { "within 2%: PASS" } else { "more than 2% slower: FAIL" }
            );
            println!(
                "run the example again: the choice comes from the cache and nothing is re-timed"
            );
        }
    }
    verdict.map(|_| ()).map_err(|e| e.into())
}

/// Whether every config's output is checked against the first config's (`WEFT_AUTOTUNE_CHECK`):
/// it reads each output back to the host (1 GiB per config by default), which costs more than
/// timing it, so on request only, as Triton's autotune never checks. The chosen config's output
/// is always checked.
#[cfg(feature = "cuda")]
fn check_all() -> bool {
    std::env::var_os("WEFT_AUTOTUNE_CHECK").is_some()
}

#[cfg(feature = "cuda")]
fn tune_memcpy(dev: &weft::runtime::cuda::Device, mib: usize) -> Result<()> {
    use weft::runtime::cuda::{Cuda, Kernel, Stream};

    type Args = MemcpyArgs<Cuda>;
    let n = mib << 20 >> 2;
    let host: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.5 - 7.0).collect();
    let mut args = Args {
        x: dev.upload(&host)?,
        y: dev.alloc::<f32>(n)?,
        n,
    };

    let configs = configs()?;
    let tuner = Tuner::<Args>::new(
        "memcpy",
        configs.clone(),
        |c: &Config, t: Target| build(c, t).map_err(|e| e.to_string()),
        |s: &Stream, k: &Kernel, c: &Config, a: &Args| launch_memcpy::<Cuda>(s, k, c, a),
    )?
    .key(|a: &Args| format!("n={}, f32", a.n));
    let tuner = if check_all() {
        tuner.check(
            |a: &mut Args| a.y.fill_bytes(0xff),
            |a: &Args| Ok(a.y.to_vec()?.into_iter().map(f64::from).collect()),
            0.0,
            0.0,
        )
    } else {
        tuner
    };

    let p = dev.props();
    println!(
        "# autotune memcpy on {} (driver CUDA {}.{}), {mib} MiB f32 per tensor, {} configs, cache {}",
        p.name,
        p.driver_version.0,
        p.driver_version.1,
        configs.len(),
        tuner
            .disk_cache()
            .map_or("disabled".into(), |c| c.path().display().to_string())
    );
    let stream = dev.new_stream()?;
    tune_and_compare(&tuner, &stream, &mut args, 2.0 * 4.0 * n as f64, |a| {
        memcpy_verdict(a, &host)
    })
}

#[cfg(feature = "cuda")]
fn tune_softmax(dev: &weft::runtime::cuda::Device, mib: usize) -> Result<()> {
    use weft::runtime::cuda::{Cuda, Kernel, Stream};

    type Args = SoftmaxArgs<Cuda>;
    let n = softmax_n();
    let m = ((mib << 20) / 4 / n).max(1);
    let host = softmax_input(m, n);
    SoftmaxConfig::for_n(n as u32, 1, 1, 1).check_shape(m, n)?;
    let mut args = Args {
        x: dev.upload(&host)?,
        y: dev.alloc::<f32>(m * n)?,
        m,
        n,
    };

    let configs = softmax_configs(n)?;
    let tuner = Tuner::<Args>::new(
        "softmax",
        configs.clone(),
        move |c: &Config, t: Target| build_softmax(c, n, t).map_err(|e| e.to_string()),
        |s: &Stream, k: &Kernel, c: &Config, a: &Args| launch_softmax::<Cuda>(s, k, c, a),
    )?
    .key(|a: &Args| format!("m={}, n={}, f32", a.m, a.n));
    let tuner = if check_all() {
        tuner.check(
            |a: &mut Args| a.y.fill_bytes(0xff),
            |a: &Args| Ok(a.y.to_vec()?.into_iter().map(f64::from).collect()),
            0.0,
            1e-5,
        )
    } else {
        tuner
    };

    println!(
        "# autotune softmax on {}, {m} × {n} f32, {} configs, cache {}",
        dev.props().name,
        configs.len(),
        tuner
            .disk_cache()
            .map_or("disabled".into(), |c| c.path().display().to_string())
    );
    let stream = dev.new_stream()?;
    args.y.fill_bytes(0xff)?;
    tune_and_compare(
        &tuner,
        &stream,
        &mut args,
        2.0 * 4.0 * (m * n) as f64,
        |a| softmax_verdict(a, &host),
    )
}
