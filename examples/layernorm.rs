//! Row-wise layer norm of a 16K × 16K f32 matrix, one pass per row
//! ([`weft::codegen::kernels::layernorm_kernel`]): each CTA loads a whole row (16384 f32 over
//! 16 warps, 4 consecutive f32 per thread and access: `ld.global.v4`) and its columns of the
//! weight `w` and bias `b`, takes the row's mean and the variance of the centred values with
//! two reductions, and writes `(x - mean) · rsqrt(var + eps) · w + b`.
//!
//! `cargo run --release --example layernorm --features llvm,cuda [-- sm_80|sm_90|sm_90a
//! [rows_per_cta per_thread num_warps]]` (default `sm_90`: four configurations, `1 4 16`,
//! `1 8 16`, `1 4 32` and `2 4 32`, each checked and timed; the first is the one printed
//! without a GPU; on sm_90 ptxas gives them 86, 86, 47 and 64 registers, the last with 52 bytes
//! of spills, but two rows share one load of `w` and `b`, half their L2 traffic)
//! (with `--features amdgpu`: `-- gfx90a|gfx942|gfx950` prints AMDGPU assembly instead)
//!
//! Without a GPU (or for an AMD target) it prints the kernel's signature and assembly and says
//! it skipped. With one, for each configuration it launches the kernel on random data, checks a
//! few rows against an f64 host layer norm and that every row was written, then times it with
//! `weft::runtime::bench` (Triton's `do_bench`: L2 flush, median of a time budget) next to a
//! device-to-device copy of the same bytes (1 GiB read + 1 GiB written; `w` and `b` are 128 KiB
//! and not counted), and prints both in GB/s and their ratio.
#[cfg(not(feature = "llvm"))]
fn main() {
    println!("SKIP: the layernorm example needs the `llvm` feature (cargo run --release --features llvm,cuda --example layernorm)");
}

#[cfg(feature = "llvm")]
fn main() {
    if let Err(e) = layernorm::run() {
        eprintln!("layernorm: {e}");
        std::process::exit(1);
    }
}

#[cfg(feature = "llvm")]
mod layernorm {
    use weft::codegen::kernels::{self, LayernormConfig};
    use weft::codegen::{Context, OptLevel, Target, Vendor};

    type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

    /// 16384 × 16384 f32: 1 GiB per matrix.
    const M: usize = 16384;
    const N: usize = 16384;
    /// PyTorch's default.
    const EPS: f32 = 1e-5;

    /// `rows_per_cta per_thread num_warps` from the command line after the target, else four
    /// configurations: one row per CTA over 16 warps (32 f32 of x and 32 each of w and b per
    /// thread) in 16-byte or 32-byte steps, over 32 warps (16), and two rows over 32 warps (w
    /// and b loaded once for both).
    fn configs() -> Result<Vec<LayernormConfig>> {
        let rest: Vec<u32> = std::env::args()
            .skip(2)
            .map(|a| a.parse())
            .collect::<std::result::Result<_, _>>()?;
        let f = |r, p, w| LayernormConfig::for_n(N as u32, r, p, w);
        Ok(match rest[..] {
            [] => {
                // w and b loaded after the statistics (fewer registers, slower).
                let late = LayernormConfig {
                    params_first: false,
                    ..f(1, 4, 16)
                };
                // Two CTAs per SM: 64 registers (ptxas spills a few).
                let two = |c: LayernormConfig| LayernormConfig {
                    max_registers: Some(64),
                    ..c
                };
                vec![f(1, 4, 16), late, two(late), f(1, 4, 32), f(2, 4, 32)]
            }
            [r, p, w] => vec![f(r, p, w)],
            _ => {
                return Err("usage: layernorm [target [rows_per_cta per_thread num_warps]]".into())
            }
        })
    }

    pub fn run() -> Result<()> {
        let target: Target = std::env::args()
            .nth(1)
            .as_deref()
            .unwrap_or("sm_90")
            .parse()?;
        let configs = configs()?;
        let ctx = Context::new();
        let mut built = Vec::new();
        for &c in &configs {
            c.check_shape(M, N)?;
            let kernel = kernels::layernorm_kernel(&ctx, target, c)?;
            built.push((c, kernel));
        }
        let (_, first) = &built[0];
        let asm = first.assembly(OptLevel::O3)?;
        if target.vendor() != Vendor::Nvidia {
            println!("// signature: {}\n{asm}", first.signature());
            println!("SKIP: timing runs on NVIDIA GPUs only (target {target})");
            return Ok(());
        }
        gpu(&built, &asm)
    }

    fn dry(kernel: &weft::codegen::Kernel<'_>, asm: &str, reason: &str) -> Result<()> {
        println!("// signature: {}\n{asm}", kernel.signature());
        println!("SKIP: {reason}");
        Ok(())
    }

    #[cfg(not(feature = "cuda"))]
    fn gpu(built: &[(LayernormConfig, weft::codegen::Kernel<'_>)], asm: &str) -> Result<()> {
        dry(
            &built[0].1,
            asm,
            "running it needs the `cuda` feature (cargo run --release --features llvm,cuda --example layernorm)",
        )
    }

    #[cfg(feature = "cuda")]
    /// Deterministic data in [lo, hi) (SplitMix64).
    fn data(len: usize, seed: u64, lo: f32, hi: f32) -> Vec<f32> {
        let mut s = seed;
        (0..len)
            .map(|_| {
                s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = s;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                lo + (z >> 40) as f32 / (1u64 << 24) as f32 * (hi - lo)
            })
            .collect()
    }

    #[cfg(feature = "cuda")]
    fn gpu(built: &[(LayernormConfig, weft::codegen::Kernel<'_>)], asm: &str) -> Result<()> {
        use weft::runtime::bench::{bench, BenchOptions};
        use weft::runtime::cuda::{self, Device};
        use weft::runtime::prelude::*;
        use weft::runtime::{KernelArgs, LaunchConfig};

        let first = &built[0].1;
        if !cuda::is_available() {
            return dry(first, asm, "no CUDA driver (libcuda.so not found)");
        }
        let dev = match Device::new(0) {
            Ok(d) => d,
            Err(e) => return dry(first, asm, &format!("no usable GPU: {e}")),
        };
        println!(
            "# layernorm {M} × {N} f32 on {}: {}",
            dev.props().name,
            first.signature()
        );
        let host = data(M * N, 0x5EED, -4.0, 4.0);
        let hw = data(N, 0x3E16, 0.5, 1.5);
        let hb = data(N, 0xB1A5, -1.0, 1.0);
        let x = dev.upload(&host)?;
        let w = dev.upload(&hw)?;
        let b = dev.upload(&hb)?;
        let mut y = dev.alloc::<f32>(M * N)?;
        let stream = dev.new_stream()?;
        let opts = BenchOptions::default();
        let bytes = 2.0 * 4.0 * (M * N) as f64;
        let gbs = |ms: f64| bytes / (ms * 1e-3) / 1e9;
        let mut z = dev.alloc::<f32>(M * N)?;
        let tc = bench(&stream, &opts, |s| s.copy_async(&x, &mut z))?;
        drop(z);
        println!(
            "D2D copy {:.4} ms median  {:7.0} GB/s (1 GiB read + 1 GiB written)",
            tc.median,
            gbs(tc.median)
        );
        for (c, kernel) in built {
            let sig = kernel.signature().clone();
            println!("# config {c:?}, grid {} CTAs", c.grid(M));
            let k = dev.load_ptx(&kernel.ptx()?)?.kernel(sig.clone())?;
            y.fill_bytes(0xFF)?;
            // Block size and shared bytes (the cross-warp reductions' scratch) from the signature.
            let cfg = LaunchConfig::for_kernel(c.grid(M), &sig)?;
            let mut args = KernelArgs::new();
            args.ptr(&x)
                .ptr(&y)
                .ptr(&w)
                .ptr(&b)
                .scalar(M as i32)
                .scalar(N as i32)
                .scalar(EPS);
            // SAFETY: the kernel reads x[r * N + j], w[j], b[j] and writes y[r * N + j] for
            // r < M, j < N (masked); x and y hold M * N f32, w and b N, and all outlive every
            // launch (each run synchronizes below).
            let launch = |s: &cuda::Stream| unsafe { s.launch(&k, &cfg, &args) };
            launch(&stream)?;
            stream.synchronize()?;

            // Check: a few rows element by element against f64 (error relative to max(|y|, 1):
            // outputs cross zero); every row written (no NaN left of the poison).
            let out = y.to_vec()?;
            let mut worst = 0.0f64;
            for r in [0, 1, 2, 777, M / 2, M - 2, M - 1] {
                let want =
                    kernels::layernorm_reference(&host[r * N..(r + 1) * N], &hw, &hb, N, EPS);
                for (j, (&g, &wv)) in out[r * N..(r + 1) * N].iter().zip(&want).enumerate() {
                    let err = (g as f64 - wv).abs() / wv.abs().max(1.0);
                    if err.is_nan() || err > 1e-5 {
                        return Err(format!(
                            "{c:?}: row {r} col {j}: got {g}, want {wv} (err {err:.2e})"
                        )
                        .into());
                    }
                    worst = worst.max(err);
                }
            }
            if let Some(i) = out.iter().position(|v| !v.is_finite()) {
                return Err(format!(
                    "{c:?}: row {} col {} is {} (not written)",
                    i / N,
                    i % N,
                    out[i]
                )
                .into());
            }
            println!("check: 7 rows against f64, max error {worst:.2e}; all {M} rows written");
            drop(out);

            let t = bench(&stream, &opts, |s| launch(s))?;
            println!(
                "layernorm {:.4} ms median  {:7.0} GB/s  {:.3} of D2D copy  (rows {}, per thread {}, warps {})",
                t.median,
                gbs(t.median),
                gbs(t.median) / gbs(tc.median),
                c.rows_per_cta,
                c.per_thread,
                c.num_warps
            );
        }
        Ok(())
    }
}
