//! Shared by the `transpose`, `row_sum` and `cumsum` examples: the target argument, the GPU (if any),
//! random data, and timing a kernel next to a device-to-device copy.
#![allow(dead_code)]

/// The target named by the first argument (default `sm_90`).
pub fn target_arg() -> Result<weft::codegen::Target, Box<dyn std::error::Error>> {
    Ok(std::env::args()
        .nth(1)
        .as_deref()
        .unwrap_or("sm_90")
        .parse()?)
}

/// The target named by the first argument when it is one (`sm_…`, `gfx…`), else `default`: the
/// GEMM and attention examples take other arguments after it or instead of it.
pub fn target_arg_or(
    default: weft::codegen::Target,
) -> Result<weft::codegen::Target, Box<dyn std::error::Error>> {
    match std::env::args()
        .nth(1)
        .filter(|a| a.starts_with("sm_") || a.starts_with("gfx"))
    {
        Some(t) => Ok(t.parse()?),
        None => Ok(default),
    }
}

/// Without a GPU: prints the kernel's configuration, signature, report (what the builder
/// predicted for each access and conversion) and assembly, and says it skipped.
pub fn print_and_skip(
    config: &dyn std::fmt::Debug,
    kernel: &weft::codegen::Kernel<'_>,
) -> Result<(), Box<dyn std::error::Error>> {
    println!("// {config:?}");
    println!("// signature: {}", kernel.signature());
    for line in kernel.report().to_string().lines() {
        println!("// {line}");
    }
    println!("{}", kernel.assembly(weft::codegen::OptLevel::O3)?);
    println!("SKIP: no GPU (or no `cuda` feature): printed the PTX, ran nothing");
    Ok(())
}

#[cfg(feature = "cuda")]
pub mod gpu {
    use weft::runtime::bench::{bench, BenchOptions};
    use weft::runtime::cuda::{self, Device, Kernel};
    use weft::runtime::prelude::*;
    use weft::runtime::{KernelArgs, LaunchConfig};

    pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

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

    /// Median milliseconds of the kernel and of a D2D copy of `copy_bytes` (reading and writing
    /// `2 · copy_bytes`), each timed by `weft::runtime::bench` (Triton's budget, L2 flushed before
    /// each run), the copy right after the kernel.
    pub fn time_against_d2d(
        dev: &Device,
        kernel: &Kernel,
        cfg: &LaunchConfig,
        args: &KernelArgs,
        copy_bytes: usize,
    ) -> Result<(f64, f64)> {
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
}
