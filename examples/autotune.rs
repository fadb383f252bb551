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
//! builds only the chosen config and times nothing. Without a GPU it lists the configs, builds
//! their PTX, and prints `SKIP`.
use weft::codegen::kernels::SoftmaxConfig;
use weft::codegen::{kernels, Context, Target};
use weft::runtime::autotune::{Compiled, Config, ConfigSpace};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

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

/// Builds config `c` for `target`: PTX and the signature.
fn build(c: &Config, target: Target) -> Result<Compiled> {
    let ctx = Context::new();
    let k = kernels::memcpy_kernel(
        &ctx,
        target,
        c.u32("block")?,
        c.u32("per_thread")?,
        c.u32("num_warps")?,
    )?;
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

fn main() {
    if let Err(e) = run() {
        eprintln!("autotune: {e}");
        std::process::exit(1);
    }
}

/// Builds one config's kernel for a target.
type BuildFn = Box<dyn Fn(&Config) -> Result<Compiled>>;

/// What the example would do, for a machine without a GPU: the configs and their PTX.
fn dry_run(reason: &str) -> Result<()> {
    let n = softmax_n();
    let lists: [(&str, Vec<Config>, BuildFn); 2] = [
        (
            "memcpy (block, per_thread, num_warps)",
            configs()?,
            Box::new(|c: &Config| build(c, Target::SM90A)),
        ),
        (
            "softmax (rows_per_cta, per_thread, num_warps)",
            softmax_configs(n)?,
            Box::new(move |c: &Config| build_softmax(c, n, Target::SM90A)),
        ),
    ];
    for (what, configs, build) in lists {
        println!(
            "# autotune {what} over {} configs, sm_90a PTX:",
            configs.len()
        );
        for c in &configs {
            match build(c) {
                Ok(k) => println!("  {c}: {} B of PTX", ptx_len(&k)),
                Err(e) => println!("  {c}: build fails ({e}); the tuner would skip it"),
            }
        }
    }
    println!("SKIP: {reason}");
    Ok(())
}

fn ptx_len(k: &Compiled) -> usize {
    match &k.image {
        weft::runtime::autotune::OwnedImage::Ptx(t) => t.len(),
        _ => 0,
    }
}

#[cfg(not(feature = "cuda"))]
fn run() -> Result<()> {
    dry_run("autotune needs the `cuda` feature (cargo run --release --features llvm,cuda --example autotune)")
}

#[cfg(feature = "cuda")]
fn run() -> Result<()> {
    use weft::runtime::cuda::{self, Device};

    if !cuda::is_available() {
        return dry_run("no CUDA driver (libcuda.so not found)");
    }
    let dev = match Device::new(0) {
        Ok(d) => d,
        Err(e) => return dry_run(&format!("no usable GPU: {e}")),
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

/// A tuner config's `u32` parameter, as the launch closure's error type.
#[cfg(feature = "cuda")]
fn param(c: &Config, name: &str) -> weft::runtime::Result<u32> {
    c.u32(name)
        .map_err(|e| weft::runtime::RuntimeError::BadOption {
            what: "config",
            reason: e.to_string(),
        })
}

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
    use weft::runtime::cuda::{Buffer, Kernel, Stream};
    use weft::runtime::prelude::*;
    use weft::runtime::{KernelArgs, LaunchConfig};

    struct Args {
        x: Buffer<f32>,
        y: Buffer<f32>,
        n: usize,
    }

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
        |s: &Stream, k: &Kernel, c: &Config, a: &Args| {
            let block = param(c, "block")?;
            let config =
                LaunchConfig::for_kernel(a.n.div_ceil(block as usize) as u32, k.signature())?;
            let mut ka = KernelArgs::new();
            ka.ptr(&a.x)
                .ptr(&a.y)
                .push(weft::runtime::KernelArg::I32(a.n as i32));
            // SAFETY: the kernel reads x[i] and writes y[i] for i < n, both buffers hold n f32,
            // and they live until the tuner returns (it synchronizes).
            unsafe { s.launch(k, &config, &ka) }
        },
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
        Ok(if a.y.to_vec()? == host {
            Ok("equals the input".into())
        } else {
            Err("the tuned memcpy's output differs from its input".into())
        })
    })
}

#[cfg(feature = "cuda")]
fn tune_softmax(dev: &weft::runtime::cuda::Device, mib: usize) -> Result<()> {
    use weft::runtime::cuda::{Buffer, Kernel, Stream};
    use weft::runtime::prelude::*;
    use weft::runtime::{KernelArgs, LaunchConfig};

    struct Args {
        x: Buffer<f32>,
        y: Buffer<f32>,
        m: usize,
        n: usize,
    }

    let n = softmax_n();
    let m = ((mib << 20) / 4 / n).max(1);
    // Uniform in [-4, 4) from a multiplicative hash of the index.
    let host: Vec<f32> = (0..m * n)
        .map(|i| ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as f32 / 2097152.0 - 4.0)
        .collect();
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
        |s: &Stream, k: &Kernel, c: &Config, a: &Args| {
            let rows = param(c, "rows_per_cta")?;
            // Block size and shared bytes (the reductions' scratch) from the signature.
            let config =
                LaunchConfig::for_kernel(a.m.div_ceil(rows as usize) as u32, k.signature())?;
            let mut ka = KernelArgs::new();
            ka.ptr(&a.x).ptr(&a.y).scalar(a.m as i32).scalar(a.n as i32);
            // SAFETY: the kernel reads x[r * n + j] and writes y[r * n + j] for r < m, j < n
            // (masked); both buffers hold m * n f32 and live until the tuner returns.
            unsafe { s.launch(k, &config, &ka) }
        },
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
        |a| {
            // A few rows element by element against f64, and every row written and summing to 1.
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
        },
    )
}
