//! gemm: `C = A · B` (and `A · Bᵀ`) in f16 and bf16 with f32 accumulation on Hopper, as Gluon's
//! tutorials 04–06 build it: TMA loads into a 3-stage shared-memory ring guarded by mbarriers,
//! wgmma from the ring with one group in flight, an epilogue through shared memory and a TMA store.
//!
//! `cargo run --release --example gemm --features llvm,cuda [-- sm_90a [M N K] [persistent] [ws] [sweep]]`
//! (`ws`: the warp-specialised schedule, a producer warpgroup beside the consumers)
//!
//! Without a GPU (or without `cuda`): prints the LLVM IR and the PTX of the f16 kernel and says it
//! skipped. With one: each variant is checked on a 1000 × 776 × 520 problem against the host
//! (values on a grid exact in 16 bits, so only the final rounding differs), then timed at
//! 8192³ and 4096³ (or the given M N K) on uniform random values with every mantissa bit random
//! (tensor-core power, and so the clock, depends on the data; the anchors use `torch.randn`) with
//! `weft::runtime::bench` (L2 flushed before each run).
//! cuBLAS on the H200 (`../shared/bench/gluon_anchors.py gemm`): 657 (f16) / 693 (bf16) TFLOP/s at
//! 8192³; Triton's `tl.dot` 642 / 659.
//!
//! The kernel is [`weft::codegen::kernels::gemm_kernel`].

#[cfg(feature = "llvm")]
mod common;

#[cfg(not(feature = "llvm"))]
fn main() {
    println!("SKIP: the gemm example needs the `llvm` feature (--features llvm,cuda)");
}

#[cfg(feature = "llvm")]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use weft::codegen::kernels::{gemm_kernel, GemmConfig};
    use weft::codegen::{Context, DType, Target};

    let target = common::target_arg_or(Target::SM90A)?;
    let ctx = Context::new();
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        return gpu::run(&dev, &ctx, target);
    }
    let c = GemmConfig::new(DType::F16);
    let k = gemm_kernel(&ctx, target, c)?;
    println!("{}", k.llvm_ir());
    common::print_and_skip(&c, &k)
}

#[cfg(all(feature = "llvm", feature = "cuda"))]
mod gpu {
    use crate::common::gpu::{describe, Result};
    use weft::codegen::kernels::{gemm_kernel, gemm_reference, GemmConfig};
    use weft::codegen::{Context, DType, Target};
    use weft::runtime::bench::{bench, BenchOptions};
    use weft::runtime::cuda::{Buffer, Device, TensorMap};
    use weft::runtime::prelude::*;
    use weft::runtime::{bf16, f16, DeviceElem, KernelArgs, LaunchConfig, F8E4M3};

    /// Values on a grid (multiples of 1/8 in [-2, 2)): exact in f16 and bf16, for the checks.
    fn grid_values(n: usize, seed: u64) -> Vec<f32> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 33) % 32) as f32 / 8.0 - 2.0
            })
            .collect()
    }

    /// Uniform values in [-1, 1) with every mantissa bit random, for timing: tensor-core power
    /// (and so the clock) depends on the data, and the anchors time `torch.randn` inputs.
    fn random_values(n: usize, seed: u64) -> Vec<f32> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 40) as f32 / (1u64 << 23) as f32 - 1.0
            })
            .collect()
    }

    fn sizes() -> Vec<(usize, usize, usize)> {
        let args: Vec<usize> = std::env::args()
            .skip(1)
            .filter_map(|a| a.parse().ok())
            .collect();
        if args.len() == 3 {
            vec![(args[0], args[1], args[2])]
        } else {
            vec![(8192, 8192, 8192), (4096, 4096, 4096)]
        }
    }

    struct Problem<T: DeviceElem, O: DeviceElem> {
        a: Buffer<T>,
        b: Buffer<T>,
        c: Buffer<O>,
        m: usize,
        n: usize,
        k: usize,
    }

    #[allow(clippy::type_complexity)] // the problem and its two host inputs, as the caller unpacks them
    fn upload<T: DeviceElem, O: DeviceElem>(
        dev: &Device,
        conv: impl Fn(f32) -> T,
        (m, n, k): (usize, usize, usize),
        seed: u64,
        values: fn(usize, u64) -> Vec<f32>,
    ) -> Result<(Problem<T, O>, Vec<f32>, Vec<f32>)> {
        let a = values(m * k, seed);
        let b = values(k * n, seed + 1);
        let da = dev.upload(&a.iter().map(|&x| conv(x)).collect::<Vec<T>>())?;
        let db = dev.upload(&b.iter().map(|&x| conv(x)).collect::<Vec<T>>())?;
        let mut dc = dev.alloc::<O>(m * n)?;
        dc.fill_bytes(0xFF)?;
        Ok((
            Problem {
                a: da,
                b: db,
                c: dc,
                m,
                n,
                k,
            },
            a,
            b,
        ))
    }

    /// Launches once (checked) and returns the median ms over `bench`.
    fn launch<T: DeviceElem, O: DeviceElem>(
        dev: &Device,
        kernel: &weft::runtime::cuda::Kernel,
        sig: &weft::runtime::KernelSignature,
        cfg: GemmConfig,
        p: &Problem<T, O>,
        time: bool,
    ) -> Result<f64> {
        let sw = cfg.swizzle();
        let (m, n, k) = (p.m as u64, p.n as u64, p.k as u64);
        let b_shape = if cfg.b_transposed { [n, k] } else { [k, n] };
        let a_map = TensorMap::tiled(&p.a, &[m, k], &[k], &cfg.a_box(), sw)?;
        let b_map = TensorMap::tiled(&p.b, &b_shape, &[b_shape[1]], &cfg.b_box(), sw)?;
        let c_map = TensorMap::tiled(&p.c, &[m, n], &[n], &cfg.c_box(), sw)?;
        let mut args = KernelArgs::new();
        args.tensor_map(&a_map)
            .tensor_map(&b_map)
            .tensor_map(&c_map)
            .scalar(p.m as i32)
            .scalar(p.n as i32)
            .scalar(p.k as i32);
        let grid = if cfg.persistent {
            cfg.grid_persistent(m, n, dev.props().sm_count)
        } else {
            cfg.grid(m, n)
        };
        let lc = LaunchConfig::for_kernel(grid, sig)?;
        let stream = dev.stream();
        // SAFETY: the kernel touches A, B and C only through the maps, which cover them.
        unsafe { stream.launch(kernel, &lc, &args)? };
        stream.synchronize()?;
        if !time {
            return Ok(0.0);
        }
        // SAFETY: as above.
        let t = bench(&stream, &BenchOptions::default(), |s| unsafe {
            s.launch(kernel, &lc, &args)
        })?;
        Ok(t.median)
    }

    /// Checks one variant on `small` against the host (returns wrong elements and the largest
    /// error), then times it at each size.
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn variant<T: DeviceElem, O: DeviceElem>(
        dev: &Device,
        kernel: &weft::runtime::cuda::Kernel,
        sig: &weft::runtime::KernelSignature,
        cfg: GemmConfig,
        small: (usize, usize, usize),
        ulp: f32,
        to: impl Fn(f32) -> T + Copy,
        from: impl Fn(O) -> f32,
    ) -> Result<((usize, f32), Vec<((usize, usize, usize), f64)>)> {
        let (p, a, b) = upload::<T, O>(dev, to, small, 3, grid_values)?;
        launch(dev, kernel, sig, cfg, &p, false)?;
        let got: Vec<f32> = p.c.to_vec()?.into_iter().map(from).collect();
        let want = gemm_reference(&a, &b, small.0, small.1, small.2, cfg.b_transposed);
        let status = check(&got, &want, ulp);
        drop(p);
        let mut times = Vec::new();
        for size in sizes() {
            let (p, _, _) = upload::<T, O>(dev, to, size, 5, random_values)?;
            times.push((size, launch(dev, kernel, sig, cfg, &p, true)?));
        }
        Ok((status, times))
    }

    /// Times other tile, stage and warp configurations of the f16 A·B at 8192³.
    fn sweep(dev: &Device, ctx: &Context, target: Target) -> Result<()> {
        println!();
        println!("| f16 8192³ config | weft ms | TFLOP/s |");
        println!("|---|---|---|");
        let (p, _, _) =
            upload::<f16, f16>(dev, f16::from_f32, (8192, 8192, 8192), 5, random_values)?;
        let configs = [
            (256, 8, 3, 8, false),
            (256, 8, 3, 8, true),
            (256, 8, 3, 16, true),
            (256, 8, 3, 16, false),
            (128, 4, 4, 8, false),
            (128, 4, 4, 8, true),
            (128, 8, 4, 8, true),
        ];
        for (bn, warps, stages, group, persistent) in configs {
            let mut cfg = GemmConfig::new(DType::F16);
            cfg.block_n = bn;
            cfg.num_warps = warps;
            cfg.stages = stages;
            cfg.group_m = group;
            cfg.persistent = persistent;
            let k = gemm_kernel(ctx, target, cfg)?;
            let sig = k.signature().clone();
            let kernel = dev.load_ptx(&k.ptx()?)?.kernel(sig.clone())?;
            let ms = launch(dev, &kernel, &sig, cfg, &p, true)?;
            let kind = if persistent {
                "persistent"
            } else {
                "one tile per CTA"
            };
            println!(
                "| 128×{bn}×64, {warps} warps, {stages} stages, group {group}, {kind} | {ms:.3} | {:.0} |",
                2.0 * 8192f64.powi(3) / (ms * 1e9)
            );
        }
        Ok(())
    }

    fn check(got: &[f32], want: &[f32], ulp: f32) -> (usize, f32) {
        let mut bad = 0;
        let mut max = 0f32;
        for (g, w) in got.iter().zip(want) {
            let e = (g - w).abs();
            max = max.max(e);
            if e.is_nan() || e > w.abs() * ulp + 1e-3 {
                bad += 1;
            }
        }
        (bad, max)
    }

    pub fn run(dev: &Device, ctx: &Context, target: Target) -> Result<()> {
        println!("# gemm on {}", describe(dev));
        println!();
        println!("| variant | M×N×K | check (max abs err) | weft ms | weft TFLOP/s | registers |");
        println!("|---|---|---|---|---|---|");
        let mut failed = false;
        let variants = [
            (DType::F16, false),
            (DType::BF16, false),
            (DType::F16, true),
            (DType::BF16, true),
            (DType::F8E4M3, true),
        ];
        let persistent = std::env::args().any(|a| a == "persistent");
        let ws = std::env::args().any(|a| a == "ws");
        for (dtype, bt) in variants {
            let mut cfg = GemmConfig::new(dtype);
            cfg.b_transposed = bt;
            cfg.persistent = persistent;
            cfg.warp_specialized = ws;
            let k = gemm_kernel(ctx, target, cfg)?;
            let sig = k.signature().clone();
            let kernel = dev.load_ptx(&k.ptx()?)?.kernel(sig.clone())?;
            let name = format!(
                "{dtype}→{} {}{}{}",
                cfg.out_dtype,
                if bt { "A·Bᵀ" } else { "A·B" },
                if ws { " ws" } else { "" },
                if persistent { " persistent" } else { "" }
            );
            let ulp = if cfg.out_dtype == DType::F16 {
                1.0 / 1024.0
            } else {
                1.0 / 128.0
            };
            // Check on an odd size first, then time.
            let small = (1000, 776, 528);
            let (status, times) = match dtype {
                DType::F16 => variant(
                    dev,
                    &kernel,
                    &sig,
                    cfg,
                    small,
                    ulp,
                    f16::from_f32,
                    |x: f16| x.to_f32(),
                )?,
                DType::BF16 => variant(
                    dev,
                    &kernel,
                    &sig,
                    cfg,
                    small,
                    ulp,
                    bf16::from_f32,
                    |x: bf16| x.to_f32(),
                )?,
                _ => variant(
                    dev,
                    &kernel,
                    &sig,
                    cfg,
                    small,
                    ulp,
                    F8E4M3::from_f32,
                    |x: bf16| x.to_f32(),
                )?,
            };
            let status = if status.0 == 0 {
                format!("ok ({:.1e})", status.1)
            } else {
                failed = true;
                format!("FAIL: {} wrong", status.0)
            };
            for ((m, n, kk), ms) in times {
                let tflops = 2.0 * (m * n * kk) as f64 / (ms * 1e9);
                let attrs = format!("{} regs", kernel.attrs().num_regs);
                println!("| {name} | {m}×{n}×{kk} | {status} | {ms:.3} | {tflops:.0} | {attrs} |");
            }
        }
        if std::env::args().any(|a| a == "sweep") {
            sweep(dev, ctx, target)?;
        }
        if failed {
            return Err("a GEMM result differs from the host".into());
        }
        Ok(())
    }
}
