//! Autotuning the memcpy kernel ([`weft::codegen::kernels::memcpy_kernel`]) over block size,
//! elements per thread and warps, with [`weft::runtime::autotune::Autotuner`].
//!
//! ```sh
//! cargo run --release --features llvm,cuda --example autotune   # tunes, then sweeps to compare
//! cargo run --release --features llvm,cuda --example autotune   # again: a cache hit, nothing timed
//! # WEFT_PRINT_AUTOTUNING=1 prints the tuner's own report; WEFT_CACHE_DIR=dir moves the cache;
//! # WEFT_AUTOTUNE_MIB=256 sets the MiB per tensor (default 1024);
//! # WEFT_AUTOTUNE_CHECK=1 checks every config's output against the first config's.
//! ```
//! The first run builds every config (checking each one's output when asked), times
//! each with `bench` (CUDA events, Triton's time budget, L2 flush), launches the best and writes
//! the choice to the cache; then it sweeps the same configs again, exhaustively, and says whether
//! the choice is within 2% of the sweep's best. A second run finds the choice in the cache: it
//! builds only the chosen config and times nothing. Without a GPU it lists the configs, builds
//! their PTX, and prints `SKIP`.
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

fn main() {
    if let Err(e) = run() {
        eprintln!("autotune: {e}");
        std::process::exit(1);
    }
}

/// What the example would do, for a machine without a GPU: the configs and their PTX.
fn dry_run(reason: &str) -> Result<()> {
    let configs = configs()?;
    println!(
        "# autotune memcpy over {} configs (block, per_thread, num_warps), sm_90a PTX:",
        configs.len()
    );
    for c in &configs {
        match build(c, Target::SM90A) {
            Ok(k) => println!("  {c}: {} B of PTX", ptx_len(&k)),
            Err(e) => println!("  {c}: build fails ({e}); the tuner would skip it"),
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
    use weft::runtime::autotune::{Autotuner, Source};
    use weft::runtime::cuda::{self, Buffer, Cuda, Device, Kernel, Stream};
    use weft::runtime::prelude::*;
    use weft::runtime::{KernelArgs, LaunchConfig};

    if !cuda::is_available() {
        return dry_run("no CUDA driver (libcuda.so not found)");
    }
    let dev = match Device::new(0) {
        Ok(d) => d,
        Err(e) => return dry_run(&format!("no usable GPU: {e}")),
    };

    struct Args {
        x: Buffer<f32>,
        y: Buffer<f32>,
        n: usize,
    }

    let mib: usize = std::env::var("WEFT_AUTOTUNE_MIB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1024);
    let n = mib << 20 >> 2;
    let host: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.5 - 7.0).collect();
    let mut args = Args {
        x: dev.upload(&host)?,
        y: dev.alloc::<f32>(n)?,
        n,
    };

    let configs = configs()?;
    let tuner = Autotuner::<Cuda, Config, Args>::new(
        "memcpy",
        configs.clone(),
        |c: &Config, t: Target| build(c, t).map_err(|e| e.to_string()),
        |s: &Stream, k: &Kernel, c: &Config, a: &Args| {
            let block = c
                .u32("block")
                .map_err(|e| weft::runtime::RuntimeError::BadOption {
                    what: "config",
                    reason: e.to_string(),
                })?;
            let threads = k.signature().threads_per_block.unwrap_or(128);
            let config = LaunchConfig::new(a.n.div_ceil(block as usize) as u32, threads, 0);
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
    // Checking every config reads each output back to the host (1 GiB per config by default),
    // which costs more than timing it: on request only, as Triton's autotune never checks. The
    // chosen config's output is always checked below.
    let check_all = std::env::var_os("WEFT_AUTOTUNE_CHECK").is_some();
    let tuner = if check_all {
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
    let t0 = std::time::Instant::now();
    let tuned = tuner.run(&stream, &mut args)?;
    stream.synchronize()?;
    let secs = t0.elapsed().as_secs_f64();
    let gbs = |ms: f64| 2.0 * 4.0 * n as f64 / (ms * 1e-3) / 1e9;
    let ok = args.y.to_vec()? == host;
    println!(
        "choice: {} ({:.4} ms median, {:.0} GB/s), source {:?}, {secs:.2} s, output {}",
        tuned.config,
        tuned.median_ms,
        gbs(tuned.median_ms),
        tuned.source,
        if ok { "correct" } else { "WRONG" }
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
            let sweep = tuner.sweep(&stream, &mut args)?;
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
    if !ok {
        return Err("the tuned memcpy's output differs from its input".into());
    }
    Ok(())
}
