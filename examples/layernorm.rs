//! Row-wise layer norm of a 16K × 16K f32 matrix, one pass per row
//! ([`weft::codegen::kernels::layernorm_kernel`]): each CTA loads a whole row (16384 f32 over
//! 16 warps, 4 consecutive f32 per thread and access: `ld.global.v4`) and its columns of the
//! weight `w` and bias `b`, takes the row's mean and the variance of the centred values with
//! two reductions, and writes `(x - mean) · rsqrt(var + eps) · w + b`.
//!
//! `cargo run --release --example layernorm --features llvm,cuda [-- sm_80|sm_90|sm_90a
//! [rows_per_cta per_thread num_warps]]` (default `sm_90`: five configurations, `1 4 16`, the
//! same with `w` and `b` loaded late, that with 64 registers, `1 4 32` and `2 4 32`, each checked
//! and timed; on sm_90 ptxas gives `1 4 16`, `1 4 32` and `2 4 32` 86, 47 and 64 registers, the
//! last with 52 bytes of spills, but two rows share one load of `w` and `b`, half their L2
//! traffic) (with `--features amdgpu`: `-- gfx90a|gfx942|gfx950` prints AMDGPU assembly instead)
//!
//! With an NVIDIA GPU, for each configuration it launches the kernel on random data, checks a
//! few rows against an f64 host layer norm and that every row was written, then times it with
//! `weft::runtime::bench` (Triton's `do_bench`: L2 flush, median of a time budget) next to a
//! device-to-device copy of the same bytes (1 GiB read + 1 GiB written; `w` and `b` are 128 KiB
//! and not counted), and prints both in GB/s and their ratio. Without one (or for an AMD
//! target) it prints the first kernel's signature and assembly, then runs three configurations
//! for rows of 1000 (`1 4 4`, the same with `w` and `b` loaded late, `2 4 8`) in weft's
//! interpreter on a 37 × 1000 matrix with the same checks, every row element by element.
mod common;

use common::Result;
use weft::codegen::kernels::{self, LayernormConfig};
use weft::codegen::{Context, Kernel, OptLevel};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

/// PyTorch's default.
const EPS: f32 = 1e-5;

fn main() {
    if let Err(e) = run() {
        eprintln!("layernorm: {e}");
        std::process::exit(1);
    }
}

/// `rows_per_cta per_thread num_warps` from the command line after the target, else `defaults`
/// (`params_first`, `max_registers`, rows, per_thread, warps), for rows of `n`.
fn configs(
    n: usize,
    defaults: &[(bool, Option<u32>, u32, u32, u32)],
) -> Result<Vec<LayernormConfig>> {
    let rest: Vec<u32> = std::env::args()
        .skip(2)
        .map(|a| a.parse())
        .collect::<std::result::Result<_, _>>()?;
    let f = |r, p, w| LayernormConfig::for_n(n as u32, r, p, w);
    Ok(match rest[..] {
        [] => defaults
            .iter()
            .map(|&(params_first, max_registers, r, p, w)| LayernormConfig {
                params_first,
                max_registers,
                ..f(r, p, w)
            })
            .collect(),
        [r, p, w] => vec![f(r, p, w)],
        _ => return Err("usage: layernorm [target [rows_per_cta per_thread num_warps]]".into()),
    })
}

fn run() -> Result<()> {
    let target = common::target_arg()?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if target.vendor() == weft::codegen::Vendor::Nvidia {
        if let Some(dev) = common::gpu::device() {
            // 16384 × 16384 f32: 1 GiB per matrix. One row per CTA over 16 warps (32 f32 of x and
            // 32 each of w and b per thread); w and b loaded after the statistics (fewer
            // registers, slower); that with 64 registers (two CTAs per SM, a few spills); over 32
            // warps (16); two rows over 32 warps (w and b loaded once for both).
            let (m, n) = (16384, 16384);
            let configs = configs(
                n,
                &[
                    (true, None, 1, 4, 16),
                    (false, None, 1, 4, 16),
                    (false, Some(64), 1, 4, 16),
                    (true, None, 1, 4, 32),
                    (true, None, 2, 4, 32),
                ],
            )?;
            let built = build(&ctx, target, &configs, m, n)?;
            println!(
                "# layernorm {m} × {n} f32 on {}: {}",
                dev.props().name,
                built[0].1.signature()
            );
            check::<weft::runtime::cuda::Cuda>(&dev, &built, (m, n), true)?;
            return Ok(());
        }
    }
    let (m, n) = (37, 1000);
    let configs = configs(
        n,
        &[
            (true, None, 1, 4, 4),
            (false, None, 1, 4, 4),
            (true, None, 2, 4, 8),
        ],
    )?;
    let built = build(&ctx, target, &configs, m, n)?;
    let first = &built[0].1;
    println!(
        "// signature: {}\n{}",
        first.signature(),
        first.assembly(OptLevel::O3)?
    );
    println!("# layernorm {m} × {n} f32 in the interpreter ({target})");
    let worst =
        check::<weft::runtime::cpu::Cpu>(&common::interpreter(target)?, &built, (m, n), false)?;
    common::interpreted(&format!(
        "{m}×{n} layernorm in {} configurations, every row against f64: max err {worst:.1e} (of max(|y|, 1))",
        built.len()
    ));
    Ok(())
}

/// Builds each configuration for an `m × n` problem.
fn build<'c>(
    ctx: &'c Context,
    target: weft::codegen::Target,
    configs: &[LayernormConfig],
    m: usize,
    n: usize,
) -> Result<Vec<(LayernormConfig, Kernel<'c>)>> {
    let mut built = Vec::new();
    for &c in configs {
        c.check_shape(m, n)?;
        built.push((c, kernels::layernorm_kernel(ctx, target, c)?));
    }
    Ok(built)
}

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

/// Runs each built configuration on `dev` (any backend) on an `m × n` problem of random data
/// into a poisoned output, checks the sample rows against f64 and that every row was written,
/// and, when `timed` (a GPU), times it against a D2D copy of the same bytes. Returns the largest
/// error.
fn check<B: Backend>(
    dev: &B::Device,
    built: &[(LayernormConfig, Kernel<'_>)],
    (m, n): (usize, usize),
    timed: bool,
) -> Result<f64> {
    let host = data(m * n, 0x5EED, -4.0, 4.0);
    let hw = data(n, 0x3E16, 0.5, 1.5);
    let hb = data(n, 0xB1A5, -1.0, 1.0);
    let x = dev.upload(&host)?;
    let w = dev.upload(&hw)?;
    let b = dev.upload(&hb)?;
    let mut y = dev.alloc::<f32>(m * n)?;
    let bytes = 2.0 * 4.0 * (m * n) as f64;
    let gbs = |ms: f64| bytes / (ms * 1e-3) / 1e9;
    let copy_ms = if timed {
        let mut z = dev.alloc::<f32>(m * n)?;
        let tc = common::time::<B>(dev, |s| s.copy_async(&x, &mut z))?;
        println!(
            "D2D copy {tc:.4} ms median  {:7.0} GB/s (1 GiB read + 1 GiB written)",
            gbs(tc)
        );
        tc
    } else {
        0.0
    };
    let rows = common::sample_rows(
        m,
        &[
            0,
            1,
            2,
            777,
            m / 2,
            m.saturating_sub(2),
            m.saturating_sub(1),
        ],
    );
    let mut overall = 0.0f64;
    for (c, kernel) in built {
        let sig = kernel.signature();
        println!("# config {c:?}, grid {} CTAs", c.grid(m));
        let k = kernel.load_on::<B>(dev)?;
        y.fill_bytes(0xFF)?;
        // Block size and shared bytes (the cross-warp reductions' scratch) from the signature.
        let cfg = LaunchConfig::for_kernel(c.grid(m), sig)?;
        let mut args = KernelArgs::new();
        args.ptr(&x)
            .ptr(&y)
            .ptr(&w)
            .ptr(&b)
            .scalar(m as i32)
            .scalar(n as i32)
            .scalar(EPS);
        // SAFETY: the kernel reads x[r * n + j], w[j], b[j] and writes y[r * n + j] for r < m,
        // j < n (masked); x and y hold m * n f32, w and b n, and all outlive every launch (each
        // run synchronizes).
        unsafe { common::launch_once::<B>(dev, &k, &cfg, &args)? };

        // Check: rows element by element against f64 (error relative to max(|y|, 1): outputs
        // cross zero); every row written (no NaN left of the poison).
        let out = y.to_vec()?;
        let mut worst = 0.0f64;
        for &r in &rows {
            let want = kernels::layernorm_reference(&host[r * n..(r + 1) * n], &hw, &hb, n, EPS);
            for (j, (&g, &wv)) in out[r * n..(r + 1) * n].iter().zip(&want).enumerate() {
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
                i / n,
                i % n,
                out[i]
            )
            .into());
        }
        println!(
            "check: {} rows against f64, max error {worst:.2e}; all {m} rows written",
            rows.len()
        );
        overall = overall.max(worst);
        drop(out);
        if !timed {
            continue;
        }
        // SAFETY: as the launch above.
        let t = common::time::<B>(dev, |s| unsafe { s.launch(&k, &cfg, &args) })?;
        println!(
            "layernorm {t:.4} ms median  {:7.0} GB/s  {:.3} of D2D copy  (rows {}, per thread {}, warps {})",
            gbs(t),
            gbs(t) / gbs(copy_ms),
            c.rows_per_cta,
            c.per_thread,
            c.num_warps
        );
    }
    Ok(overall)
}
