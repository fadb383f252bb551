//! gemm_epilogue: `C = silu(A · B + bias)` in f16 on Hopper, written on `kernels::parts` as a user
//! would: the shipped GEMM's parameters, buffers, TMA ring and main loop, with a custom
//! [`Epilogue`] that adds a per-column bias and applies SiLU before the TMA store.
//!
//! `cargo run --release --example gemm_epilogue --features llvm,cuda [-- M N K]`
//!
//! With a GPU: checks the fused kernel on a ragged 1000 × 776 × 528 problem against the host,
//! then times it and the plain GEMM (`gemm_kernel`, the same configuration) at 8192³ and 4096³
//! (or the given size) in the same run, and prints both kernels' registers and spills.
//! Without one: runs the fused kernel in weft's interpreter on a 100 × 264 × 80 problem with the
//! same host check.
mod common;

use common::Result;
use half::f16;
use weft::codegen::kernels::parts::{Epilogue, TmaStore};
use weft::codegen::kernels::{gemm_kernel, gemm_kernel_with, gemm_reference, GemmConfig};
use weft::codegen::{Context, DType, Kernel, KernelBuilder, Target, Value};
use weft::layout::encoding::{NvidiaMma, Slice};
use weft::runtime::backend::KernelOf;
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

// --- the user's code: the epilogue and the kernel (19 lines) ---------------------------------

/// `silu(acc + bias[column])`, then the shipped TMA store.
struct BiasSilu {
    bias: Value,
    cfg: GemmConfig,
    store: TmaStore,
}

impl Epilogue for BiasSilu {
    fn store(
        &self,
        kb: &mut KernelBuilder<'_>,
        acc: Value,
        at: [Value; 2],
    ) -> weft::codegen::Result<()> {
        let layout = NvidiaMma::hopper(&[self.cfg.num_warps, 1], self.cfg.block_n, 16);
        let cols = kb.arange(0, self.cfg.block_n as i32, Slice::new(0, layout.into()))?;
        let cols = kb.add(cols, at[1])?;
        let bias = kb.add(self.bias, cols)?;
        let bias = kb.load(bias, None, None)?;
        let bias = kb.expand_dims(bias, 0)?;
        let x = kb.add(acc, bias)?;
        let y = kb.silu(x)?;
        self.store.store(kb, y, at)
    }
}

/// The shipped GEMM (schedule as `c` says) with [`BiasSilu`] as its epilogue.
fn gemm_bias_silu(
    ctx: &Context,
    target: Target,
    c: GemmConfig,
) -> weft::codegen::Result<Kernel<'_>> {
    gemm_kernel_with(ctx, target, c, "gemm_bias_silu", |kb| {
        let bias = kb.arg_ptr("bias", DType::F32, 16)?;
        Ok(move |store| BiasSilu {
            bias,
            cfg: c,
            store,
        })
    })
}

// --- running it ------------------------------------------------------------------------------

/// A problem size, M × N × K.
type Mnk = (usize, usize, usize);

fn main() -> Result<()> {
    let target = common::target_arg_or(Target::SM90A)?;
    let ctx = Context::new();
    let plain_cfg = GemmConfig::new(DType::F16);
    let mut ws_cfg = plain_cfg;
    ws_cfg.warp_specialized = true;
    ws_cfg.persistent = true;
    let schedules = [
        ("one tile per CTA", plain_cfg),
        ("warp-specialised, persistent", ws_cfg),
    ];
    #[cfg(feature = "cuda")]
    if let Some(dev) = common::gpu::device() {
        type Cuda = weft::runtime::cuda::Cuda;
        println!("# gemm + bias + SiLU on {}", common::gpu::describe(&dev));
        let sms = dev.props().sm_count;
        println!("| schedule | M×N×K | check | plain GEMM TFLOP/s | GEMM + bias + SiLU TFLOP/s | ratio |");
        println!("|---|---|---|---|---|---|");
        for (name, cfg) in schedules {
            let fused = gemm_bias_silu(&ctx, target, cfg)?;
            let plain = gemm_kernel(&ctx, target, cfg)?;
            print_ptxas(&[("fused", &fused), ("plain", &plain)]);
            let worst = check::<Cuda>(&dev, &fused, cfg, (1000, 776, 528), sms)?;
            let (kf, kp) = (fused.load_on::<Cuda>(&dev)?, plain.load_on::<Cuda>(&dev)?);
            for (m, n, kk) in sizes() {
                let p = Problem::<Cuda>::new(&dev, (m, n, kk), 5, false)?;
                let flops = 2.0 * (m * n * kk) as f64;
                // Interleave the two kernels so clocks and thermals treat them alike.
                let mut best = [f64::MAX; 2];
                for _ in 0..3 {
                    best[0] = best[0].min(p.time(&dev, &kp, &plain, cfg, sms, false)?);
                    best[1] = best[1].min(p.time(&dev, &kf, &fused, cfg, sms, true)?);
                }
                let t = best.map(|ms| flops / (ms * 1e9));
                println!(
                    "| {name} | {m}×{n}×{kk} | ok ({worst:.1e}) | {:.0} | {:.0} | {:.3} |",
                    t[0],
                    t[1],
                    t[1] / t[0]
                );
            }
        }
        return Ok(());
    }
    let dev = common::interpreter(target)?;
    for (_, cfg) in schedules {
        let fused = gemm_bias_silu(&ctx, target, cfg)?;
        print_ptxas(&[
            ("fused", &fused),
            ("plain", &gemm_kernel(&ctx, target, cfg)?),
        ]);
        // A persistent kernel gets 3 programs: each walks several tiles.
        check::<weft::runtime::cpu::Cpu>(&dev, &fused, cfg, (100, 264, 80), 3)?;
    }
    common::interpreted(
        "gemm + bias + SiLU 100×264×80 (f16), one tile per CTA and warp-specialised persistent: C equals the host's within f16 rounding",
    );
    Ok(())
}

/// ptxas's registers and spills for each kernel (when ptxas is on this machine).
fn print_ptxas(kernels: &[(&str, &Kernel<'_>)]) {
    for (name, k) in kernels {
        match k.report_with_ptxas() {
            Ok(r) => {
                if let Some(p) = r.ptxas {
                    println!(
                        "{name}: {} registers, {} B spill stores, {} B spill loads",
                        p.registers, p.spill_store_bytes, p.spill_load_bytes
                    );
                }
            }
            Err(e) => println!("{name}: no ptxas figures ({e})"),
        }
    }
}

/// The timed sizes: `M N K` from the command line, else 8192³ and 4096³.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
fn sizes() -> Vec<Mnk> {
    match common::three_numbers_arg() {
        Some(mnk) => vec![mnk],
        None => vec![(8192, 8192, 8192), (4096, 4096, 4096)],
    }
}

/// A, B, C and the bias on the device, with the host values of A, B and the bias.
struct Problem<B: Backend> {
    a: weft::runtime::backend::BufferOf<B, f16>,
    b: weft::runtime::backend::BufferOf<B, f16>,
    c: weft::runtime::backend::BufferOf<B, f16>,
    bias: weft::runtime::backend::BufferOf<B, f32>,
    host: [Vec<f32>; 3],
    mnk: Mnk,
}

impl<B: Backend> Problem<B> {
    /// With `exact`, values are multiples of 1/8 in [-1, 1) (exact in f16, for the check), else
    /// uniform in [-1, 1) with every mantissa bit random (for timing: tensor-core power, and so
    /// the clock, depends on the data). The bias is padded past N by a tile's width, as the
    /// epilogue reads a whole tile's columns.
    fn new(dev: &B::Device, (m, n, k): Mnk, seed: u64, exact: bool) -> Result<Self> {
        let grid = |len: usize, s: u64| -> Vec<f32> {
            let r = common::random(len, s).into_iter();
            if exact {
                r.map(|x| (x * 2.0).floor() / 8.0).collect()
            } else {
                r.map(|x| x / 4.0).collect()
            }
        };
        let (a, b, bias) = (
            grid(m * k, seed),
            grid(k * n, seed + 1),
            grid(n + 256, seed + 2),
        );
        let h = |x: &[f32]| x.iter().map(|&v| f16::from_f32(v)).collect::<Vec<_>>();
        let mut c = dev.alloc::<f16>(m * n)?;
        c.fill_bytes(0xFF)?;
        Ok(Problem {
            a: dev.upload(&h(&a))?,
            b: dev.upload(&h(&b))?,
            c,
            bias: dev.upload(&bias)?,
            host: [a, b, bias],
            mnk: (m, n, k),
        })
    }

    /// The TMA maps of A, B and C.
    fn maps(&self, dev: &B::Device, c: GemmConfig) -> Result<[weft::runtime::TensorMap<'_>; 3]> {
        let (m, n, k) = (self.mnk.0 as u64, self.mnk.1 as u64, self.mnk.2 as u64);
        let sw = c.swizzle();
        Ok([
            dev.tensor_map(&self.a, &[m, k], &[k], &c.a_box(), sw)?,
            dev.tensor_map(&self.b, &[k, n], &[n], &c.b_box(), sw)?,
            dev.tensor_map(&self.c, &[m, n], &[n], &c.c_box(), sw)?,
        ])
    }

    /// The kernel's arguments (`with_bias` for the fused kernel).
    fn args<'a>(
        &'a self,
        maps: &'a [weft::runtime::TensorMap<'a>; 3],
        with_bias: bool,
    ) -> KernelArgs<'a> {
        let mut args = KernelArgs::new();
        args.tensor_map(&maps[0])
            .tensor_map(&maps[1])
            .tensor_map(&maps[2]);
        let (m, n, k) = self.mnk;
        args.scalar(m as i32).scalar(n as i32).scalar(k as i32);
        if with_bias {
            args.ptr(&self.bias);
        }
        args
    }

    /// The launch configuration: one CTA per output tile, or at most `sms` persistent ones.
    fn launch_config(&self, k: &Kernel<'_>, c: GemmConfig, sms: u32) -> Result<LaunchConfig> {
        let (m, n) = (self.mnk.0 as u64, self.mnk.1 as u64);
        let grid = if c.persistent {
            c.grid_persistent(m, n, sms)
        } else {
            c.grid(m, n)
        };
        Ok(LaunchConfig::for_kernel(grid, k.signature())?)
    }

    /// Median milliseconds of the kernel on this problem.
    #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
    fn time(
        &self,
        dev: &B::Device,
        kernel: &KernelOf<B>,
        k: &Kernel<'_>,
        c: GemmConfig,
        sms: u32,
        bias: bool,
    ) -> Result<f64> {
        let maps = self.maps(dev, c)?;
        let (args, lc) = (self.args(&maps, bias), self.launch_config(k, c, sms)?);
        // SAFETY: the maps cover A, B and C; the bias holds every column a tile reads.
        unsafe { common::launch_once::<B>(dev, kernel, &lc, &args)? };
        // SAFETY: as above.
        common::time::<B>(dev, |s| unsafe { s.launch(kernel, &lc, &args) })
    }
}

/// Runs the fused kernel on `mnk` (a persistent one on `sms` programs) and compares C with `silu(A·B + bias)` on the host; returns the
/// largest error, or an error naming the first wrong element.
fn check<B: Backend>(
    dev: &B::Device,
    k: &Kernel<'_>,
    c: GemmConfig,
    mnk: Mnk,
    sms: u32,
) -> Result<f64> {
    let p = Problem::<B>::new(dev, mnk, 3, true)?;
    let kernel = k.load_on::<B>(dev)?;
    let maps = p.maps(dev, c)?;
    let (args, lc) = (p.args(&maps, true), p.launch_config(k, c, sms)?);
    // SAFETY: the maps cover A, B and C; the bias holds every column a tile reads.
    unsafe { common::launch_once::<B>(dev, &kernel, &lc, &args)? };
    let (m, n, kk) = mnk;
    let [a, b, bias] = &p.host;
    let ab = gemm_reference(a, b, m, n, kk, false);
    let mut worst = 0f64;
    for (i, got) in p.c.to_vec()?.iter().enumerate() {
        let x = f64::from(ab[i]) + f64::from(bias[i % n]);
        let want = x / (1.0 + (-x).exp());
        let err = (got.to_f64() - want).abs();
        // f16 rounding of C, plus the f32 SiLU's few ulp.
        if err.is_nan() || err > want.abs() / 512.0 + 1e-3 {
            return Err(
                format!("C[{}][{}] = {} but the host says {want}", i / n, i % n, got).into(),
            );
        }
        worst = worst.max(err);
    }
    Ok(worst)
}
