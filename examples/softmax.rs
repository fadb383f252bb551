//! Row-wise softmax of a 16K × 16K f32 matrix, one pass per row
//! ([`weft::codegen::kernels::softmax_kernel`]): each CTA loads a whole row (16384 f32 over 16
//! warps, 4 consecutive f32 per thread and access: `ld.global.v4`), takes its max and sum with
//! two reductions, and writes `exp(x - max) / sum`.
//!
//! `cargo run --release --example softmax --features llvm,cuda [-- sm_80|sm_90|sm_90a
//! [rows_per_cta per_thread num_warps]]` (default `sm_90 1 4 16`)
//! (with `--features amdgpu`: `-- gfx90a|gfx942|gfx950` prints AMDGPU assembly instead)
//!
//! Without a GPU (or for an AMD target) it prints the kernel's signature and assembly and says
//! it skipped. With one, it launches the kernel on random data, checks a few rows against an f64
//! host softmax and that every row was written, then times it with `weft::runtime::bench`
//! (Triton's `do_bench`: L2 flush, median of a time budget) next to a device-to-device copy of
//! the same bytes (1 GiB read + 1 GiB written), and prints both in GB/s and their ratio.
#[cfg(not(feature = "llvm"))]
fn main() {
    println!("SKIP: the softmax example needs the `llvm` feature (cargo run --release --features llvm,cuda --example softmax)");
}

#[cfg(feature = "llvm")]
fn main() {
    if let Err(e) = softmax::run() {
        eprintln!("softmax: {e}");
        std::process::exit(1);
    }
}

#[cfg(feature = "llvm")]
mod softmax {
    use weft::codegen::kernels::{self, SoftmaxConfig};
    use weft::codegen::{Context, OptLevel, Target, Vendor};

    type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

    /// 16384 × 16384 f32: 1 GiB per matrix.
    const M: usize = 16384;
    const N: usize = 16384;

    /// `rows_per_cta per_thread num_warps` from the command line after the target, else one row
    /// per CTA, 16 warps of 32 lanes × 4 f32 = 2048 columns per step: 32 f32 per thread.
    fn config() -> Result<SoftmaxConfig> {
        let rest: Vec<u32> = std::env::args()
            .skip(2)
            .map(|a| a.parse())
            .collect::<std::result::Result<_, _>>()?;
        Ok(match rest[..] {
            [] => SoftmaxConfig::for_n(N as u32, 1, 4, 16),
            [r, p, w] => SoftmaxConfig::for_n(N as u32, r, p, w),
            _ => return Err("usage: softmax [target [rows_per_cta per_thread num_warps]]".into()),
        })
    }

    pub fn run() -> Result<()> {
        let target: Target = std::env::args()
            .nth(1)
            .as_deref()
            .unwrap_or("sm_90")
            .parse()?;
        let c = config()?;
        c.check_shape(M, N)?;
        let ctx = Context::new();
        let kernel = kernels::softmax_kernel(&ctx, target, c)?;
        let asm = kernel.assembly(OptLevel::O3)?;
        if target.vendor() != Vendor::Nvidia {
            println!("// signature: {}\n{asm}", kernel.signature());
            println!("SKIP: timing runs on NVIDIA GPUs only (target {target})");
            return Ok(());
        }
        gpu(&kernel, c, &asm)
    }

    fn dry(kernel: &weft::codegen::Kernel<'_>, asm: &str, reason: &str) -> Result<()> {
        println!("// signature: {}", kernel.signature());
        for line in kernel.report().to_string().lines() {
            println!("// {line}");
        }
        println!("{asm}");
        println!("SKIP: {reason}");
        Ok(())
    }

    #[cfg(not(feature = "cuda"))]
    fn gpu(kernel: &weft::codegen::Kernel<'_>, _c: SoftmaxConfig, asm: &str) -> Result<()> {
        dry(
            kernel,
            asm,
            "running it needs the `cuda` feature (cargo run --release --features llvm,cuda --example softmax)",
        )
    }

    #[cfg(feature = "cuda")]
    /// Deterministic data in [-4, 4), never zero (SplitMix64).
    fn data(len: usize) -> Vec<f32> {
        let mut s = 0x5EED_u64;
        (0..len)
            .map(|_| {
                s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = s;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                let v = (z >> 40) as f32 / (1u64 << 24) as f32 * 8.0 - 4.0;
                if v == 0.0 {
                    0.5
                } else {
                    v
                }
            })
            .collect()
    }

    #[cfg(feature = "cuda")]
    fn gpu(kernel: &weft::codegen::Kernel<'_>, c: SoftmaxConfig, asm: &str) -> Result<()> {
        use weft::runtime::bench::{bench, BenchOptions};
        use weft::runtime::cuda::{self, Device};
        use weft::runtime::prelude::*;
        use weft::runtime::{KernelArgs, LaunchConfig};

        if !cuda::is_available() {
            return dry(kernel, asm, "no CUDA driver (libcuda.so not found)");
        }
        let dev = match Device::new(0) {
            Ok(d) => d,
            Err(e) => return dry(kernel, asm, &format!("no usable GPU: {e}")),
        };
        let sig = kernel.signature().clone();
        println!("# softmax {M} × {N} f32 on {}: {sig}", dev.props().name);
        println!("# config {c:?}, grid {} CTAs", c.grid(M));
        let k = dev.load_ptx(&kernel.ptx()?)?.kernel(sig.clone())?;
        let host = data(M * N);
        let x = dev.upload(&host)?;
        let mut y = dev.alloc::<f32>(M * N)?;
        y.fill_bytes(0xFF)?;
        // Block size and shared bytes (the cross-warp reductions' scratch) from the signature.
        let cfg = LaunchConfig::for_kernel(c.grid(M), &sig)?;
        let mut args = KernelArgs::new();
        args.ptr(&x).ptr(&y).scalar(M as i32).scalar(N as i32);
        let stream = dev.new_stream()?;
        // SAFETY: the kernel reads x[r * N + j] and writes y[r * N + j] for r < M, j < N (masked);
        // both buffers hold M * N f32 and outlive every launch (each run synchronizes below).
        let launch = |s: &cuda::Stream| unsafe { s.launch(&k, &cfg, &args) };
        launch(&stream)?;
        stream.synchronize()?;

        // Check: a few rows element by element against f64; every row written and summing to 1.
        let out = y.to_vec()?;
        let mut worst = 0.0f64;
        for r in [0, 1, 2, 777, M / 2, M - 2, M - 1] {
            let want = kernels::softmax_reference(&host[r * N..(r + 1) * N], N);
            for (j, (&g, &w)) in out[r * N..(r + 1) * N].iter().zip(&want).enumerate() {
                let rel = (g as f64 - w).abs() / w;
                if rel.is_nan() || rel > 1e-5 {
                    return Err(
                        format!("row {r} col {j}: got {g}, want {w} (rel {rel:.2e})").into(),
                    );
                }
                worst = worst.max(rel);
            }
        }
        for (r, row) in out.chunks(N).enumerate() {
            let s: f64 = row.iter().map(|&v| v as f64).sum();
            if s.is_nan() || (s - 1.0).abs() > 1e-4 {
                return Err(format!("row {r} sums to {s} (NaN: not written)").into());
            }
        }
        println!("check: 7 rows against f64, max rel error {worst:.2e}; all {M} rows sum to 1");
        drop(out);

        let opts = BenchOptions::default();
        let t = bench(&stream, &opts, |s| launch(s))?;
        let mut z = dev.alloc::<f32>(M * N)?;
        let tc = bench(&stream, &opts, |s| s.copy_async(&x, &mut z))?;
        let bytes = 2.0 * 4.0 * (M * N) as f64;
        let gbs = |ms: f64| bytes / (ms * 1e-3) / 1e9;
        println!(
            "softmax  {:.4} ms median  {:7.0} GB/s (1 GiB read + 1 GiB written)",
            t.median,
            gbs(t.median)
        );
        println!(
            "D2D copy {:.4} ms median  {:7.0} GB/s (same bytes)",
            tc.median,
            gbs(tc.median)
        );
        println!(
            "softmax / D2D copy bandwidth: {:.3}",
            gbs(t.median) / gbs(tc.median)
        );
        Ok(())
    }
}
