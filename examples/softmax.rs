//! Row-wise softmax of a 16K × 16K f32 matrix, one pass per row
//! ([`weft::codegen::kernels::softmax_kernel`]): each CTA loads a whole row (16384 f32 over 16
//! warps, 4 consecutive f32 per thread and access: `ld.global.v4`), takes its max and sum with
//! two reductions, and writes `exp(x - max) / sum`.
//!
//! `cargo run --release --example softmax --features llvm,cuda [-- sm_80|sm_90|sm_90a
//! [rows_per_cta per_thread num_warps]]` (default `sm_90 1 4 16`)
//! (with `--features amdgpu`: `-- gfx90a|gfx942|gfx950` prints AMDGPU assembly instead)
//!
//! With an NVIDIA GPU, it launches the kernel on random data, checks a few rows against an f64
//! host softmax and that every row was written, then times it with `weft::runtime::bench`
//! (Triton's `do_bench`: L2 flush, median of a time budget) next to a device-to-device copy of
//! the same bytes (1 GiB read + 1 GiB written), and prints both in GB/s and their ratio. Without
//! one (or for an AMD target) it prints the kernel's signature, report and assembly, then runs
//! the kernel for rows of 1000 (default `2 4 4`: two rows per CTA) in weft's interpreter on a
//! 37 × 1000 matrix with the same checks.
mod common;

use common::Result;
use weft::codegen::kernels::{self, SoftmaxConfig};
use weft::codegen::{Context, Kernel, OptLevel};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

fn main() {
    if let Err(e) = run() {
        eprintln!("softmax: {e}");
        std::process::exit(1);
    }
}

/// `rows_per_cta per_thread num_warps` from the command line after the target, else `default`,
/// for rows of `n`.
fn config(n: usize, default: [u32; 3]) -> Result<SoftmaxConfig> {
    let rest: Vec<u32> = std::env::args()
        .skip(2)
        .map(|a| a.parse())
        .collect::<std::result::Result<_, _>>()?;
    Ok(match rest[..] {
        [] => SoftmaxConfig::for_n(n as u32, default[0], default[1], default[2]),
        [r, p, w] => SoftmaxConfig::for_n(n as u32, r, p, w),
        _ => return Err("usage: softmax [target [rows_per_cta per_thread num_warps]]".into()),
    })
}

fn run() -> Result<()> {
    let target = common::target_arg()?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if target.vendor() == weft::codegen::Vendor::Nvidia {
        if let Some(dev) = common::gpu::device() {
            // 16384 × 16384 f32 (1 GiB per matrix); one row per CTA, 16 warps of 32 lanes × 4
            // f32 = 2048 columns per step: 32 f32 per thread.
            let (m, n) = (16384, 16384);
            let c = config(n, [1, 4, 16])?;
            let kernel = kernels::softmax_kernel(&ctx, target, c)?;
            println!(
                "# softmax {m} × {n} f32 on {}: {}",
                dev.props().name,
                kernel.signature()
            );
            println!("# config {c:?}, grid {} CTAs", c.grid(m));
            check::<weft::runtime::cuda::Cuda>(&dev, &kernel, c, (m, n), true)?;
            return Ok(());
        }
    }
    let (m, n) = (37, 1000);
    let c = config(n, [2, 4, 4])?;
    let kernel = kernels::softmax_kernel(&ctx, target, c)?;
    println!("// signature: {}", kernel.signature());
    for line in kernel.report().to_string().lines() {
        println!("// {line}");
    }
    println!("{}", kernel.assembly(OptLevel::O3)?);
    println!(
        "# config {c:?}, grid {} CTAs, in the interpreter ({target})",
        c.grid(m)
    );
    let worst =
        check::<weft::runtime::cpu::Cpu>(&common::interpreter(target)?, &kernel, c, (m, n), false)?;
    common::interpreted(&format!(
        "{m}×{n} softmax, every row against f64: max rel err {worst:.1e}, every row sums to 1"
    ));
    Ok(())
}

/// Runs the softmax on `dev` (any backend) on an `m × n` matrix of random data into a poisoned
/// output, checks the sample rows against f64 and that every row was written and sums to 1,
/// and, when `timed` (a GPU), times it next to a D2D copy of the same bytes. Returns the
/// largest relative error.
fn check<B: Backend>(
    dev: &B::Device,
    kernel: &Kernel<'_>,
    c: SoftmaxConfig,
    (m, n): (usize, usize),
    timed: bool,
) -> Result<f64> {
    c.check_shape(m, n)?;
    let sig = kernel.signature();
    let k = kernel.load_on::<B>(dev)?;
    let host = common::random(m * n, 0x5EED);
    let x = dev.upload(&host)?;
    let mut y = dev.alloc::<f32>(m * n)?;
    y.fill_bytes(0xFF)?;
    // Block size and shared bytes (the cross-warp reductions' scratch) from the signature.
    let cfg = LaunchConfig::for_kernel(c.grid(m), sig)?;
    let mut args = KernelArgs::new();
    args.ptr(&x).ptr(&y).scalar(m as i32).scalar(n as i32);
    // SAFETY: the kernel reads x[r * n + j] and writes y[r * n + j] for r < m, j < n (masked);
    // both buffers hold m * n f32 and outlive every launch (each run synchronizes).
    unsafe { common::launch_once::<B>(dev, &k, &cfg, &args)? };

    // Check: rows element by element against f64; every row written and summing to 1.
    let out = y.to_vec()?;
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
    let mut worst = 0.0f64;
    for &r in &rows {
        let want = kernels::softmax_reference(&host[r * n..(r + 1) * n], n);
        for (j, (&g, &w)) in out[r * n..(r + 1) * n].iter().zip(&want).enumerate() {
            let rel = (g as f64 - w).abs() / w;
            if rel.is_nan() || rel > 1e-5 {
                return Err(format!("row {r} col {j}: got {g}, want {w} (rel {rel:.2e})").into());
            }
            worst = worst.max(rel);
        }
    }
    for (r, row) in out.chunks(n).enumerate() {
        let s: f64 = row.iter().map(|&v| v as f64).sum();
        if s.is_nan() || (s - 1.0).abs() > 1e-4 {
            return Err(format!("row {r} sums to {s} (NaN: not written)").into());
        }
    }
    println!(
        "check: {} rows against f64, max rel error {worst:.2e}; all {m} rows sum to 1",
        rows.len()
    );
    drop(out);
    if !timed {
        return Ok(worst);
    }

    // SAFETY: as the launch above.
    let t = common::time::<B>(dev, |s| unsafe { s.launch(&k, &cfg, &args) })?;
    let mut z = dev.alloc::<f32>(m * n)?;
    let tc = common::time::<B>(dev, |s| s.copy_async(&x, &mut z))?;
    let bytes = 2.0 * 4.0 * (m * n) as f64;
    let gbs = |ms: f64| bytes / (ms * 1e-3) / 1e9;
    println!(
        "softmax  {t:.4} ms median  {:7.0} GB/s (1 GiB read + 1 GiB written)",
        gbs(t)
    );
    println!(
        "D2D copy {tc:.4} ms median  {:7.0} GB/s (same bytes)",
        gbs(tc)
    );
    println!("softmax / D2D copy bandwidth: {:.3}", gbs(t) / gbs(tc));
    Ok(worst)
}
