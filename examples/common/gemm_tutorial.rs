//! The host side the GEMM tutorials (05, 07, 08) share: f16 inputs on a grid of values exact in
//! 16 bits (so only C's last rounding differs from the host's f64 product), TMA descriptors for
//! A, B and C, a launch on the tutorial's grid, the check against
//! [`gemm_reference`](weft::codegen::kernels::gemm_reference) (every row of a small problem; at
//! the timed size a few sampled rows, since the host's product at 8192³ takes minutes), and, on
//! a GPU, the time of the
//! tutorial's kernel and of the shipped GEMM (`kernels::gemm_kernel`, its default configuration)
//! on the same problem in the same run.

use super::Result;
use weft::codegen::kernels::{gemm_reference, GemmConfig};
use weft::codegen::{DType, Kernel, Target};
use weft::runtime::prelude::*;
use weft::runtime::{f16, Backend, KernelArgs, LaunchConfig};

/// Values on a grid (multiples of 1/8 in [-2, 2)), exact in f16.
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

/// Runs `kernel` (built with `cfg`) on an `m × n × k` f16 problem on `dev`: checks C against
/// the host (within one rounding of C's type; every row of a problem up to 2²⁶ multiply-adds, else six
/// sampled rows), and with `time` returns the median ms (else 0).
/// `sms` bounds a persistent grid.
pub fn run<B: Backend>(
    dev: &B::Device,
    kernel: &Kernel<'_>,
    cfg: &GemmConfig,
    (m, n, k): (usize, usize, usize),
    sms: u32,
    time: bool,
) -> Result<f64> {
    let (a, b) = (grid_values(m * k, 1), grid_values(k * n, 2));
    let da = dev.upload(&a.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>())?;
    let db = dev.upload(&b.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>())?;
    let sw = cfg.swizzle();
    let (mu, nu, ku) = (m as u64, n as u64, k as u64);
    let a_map = dev.tensor_map(&da, &[mu, ku], &[ku], &cfg.a_box(), sw)?;
    let b_map = dev.tensor_map(&db, &[ku, nu], &[nu], &cfg.b_box(), sw)?;
    let loaded = kernel.load_on::<B>(dev)?;
    let grid = if cfg.persistent {
        cfg.grid_persistent(mu, nu, sms)
    } else {
        cfg.grid(mu, nu)
    };
    let lc = LaunchConfig::for_kernel(grid, kernel.signature())?;
    let rows: Vec<usize> = if m * n * k <= 1 << 26 {
        (0..m).collect()
    } else {
        vec![0, 1, 127, 128, m / 2 + 3, m - 1]
    };
    let want: Vec<f32> = rows
        .iter()
        .flat_map(|&r| gemm_reference(&a[r * k..(r + 1) * k], &b, 1, n, k, false))
        .collect();
    let (got, ms) = match cfg.out_dtype {
        DType::F32 => {
            let mut dc = dev.alloc::<f32>(m * n)?;
            dc.fill_bytes(0xFF)?;
            let c_map = dev.tensor_map(&dc, &[mu, nu], &[nu], &cfg.c_box(), sw)?;
            let ms = launch::<B>(dev, &loaded, &lc, [&a_map, &b_map, &c_map], [m, n, k], time)?;
            (dc.to_vec()?, ms)
        }
        _ => {
            let mut dc = dev.alloc::<f16>(m * n)?;
            dc.fill_bytes(0xFF)?;
            let c_map = dev.tensor_map(&dc, &[mu, nu], &[nu], &cfg.c_box(), sw)?;
            let ms = launch::<B>(dev, &loaded, &lc, [&a_map, &b_map, &c_map], [m, n, k], time)?;
            (dc.to_vec()?.iter().map(|x| x.to_f32()).collect(), ms)
        }
    };
    let ulp = if cfg.out_dtype == DType::F32 {
        1e-6
    } else {
        1.0 / 1024.0
    };
    let got = rows.iter().flat_map(|&r| &got[r * n..(r + 1) * n]);
    let bad = got
        .zip(&want)
        .filter(|(g, w)| ((*g - *w).abs() > w.abs() * ulp + 1e-3) || g.is_nan())
        .count();
    if bad > 0 {
        let of = rows.len() * n;
        return Err(format!("{bad} of {of} checked elements of C differ from the host").into());
    }
    Ok(ms)
}

/// One checked launch, then (with `time`) the median ms of more.
fn launch<B: Backend>(
    dev: &B::Device,
    kernel: &weft::runtime::backend::KernelOf<B>,
    lc: &LaunchConfig,
    maps: [&weft::runtime::TensorMap<'_>; 3],
    [m, n, k]: [usize; 3],
    time: bool,
) -> Result<f64> {
    let mut args = KernelArgs::new();
    args.tensor_map(maps[0])
        .tensor_map(maps[1])
        .tensor_map(maps[2])
        .scalar(m as i32)
        .scalar(n as i32)
        .scalar(k as i32);
    // SAFETY: the kernel touches A, B and C only through the maps, which cover them.
    unsafe { super::launch_once::<B>(dev, kernel, lc, &args)? };
    if !time {
        return Ok(0.0);
    }
    // SAFETY: as above.
    super::time::<B>(dev, |s| unsafe { s.launch(kernel, lc, &args) })
}

/// The tutorial's kernel checked on a small ragged problem in the interpreter, with `what` the
/// line that says so.
pub fn in_interpreter(
    target: Target,
    kernel: &Kernel<'_>,
    cfg: &GemmConfig,
    what: &str,
) -> Result<()> {
    let dev = super::interpreter(target)?;
    // A persistent kernel's programs each walk several tiles (9 on 3 programs), K ragged.
    let small = if cfg.persistent {
        (300, 520, 200)
    } else {
        (100, 264, 80)
    };
    // A persistent kernel gets 3 programs: each walks several tiles.
    run::<weft::runtime::cpu::Cpu>(&dev, kernel, cfg, small, 3, false)?;
    super::interpreted(&format!(
        "{what} {}×{}×{}: C equals the host's within one rounding",
        small.0, small.1, small.2
    ));
    Ok(())
}

/// The tutorial's kernel and the shipped GEMM (default configuration) at `size` on the GPU,
/// each checked, then timed in the same run; `name` is the workload in the result lines.
#[cfg(feature = "cuda")]
pub fn on_gpu(
    dev: &weft::runtime::cuda::Device,
    ctx: &weft::codegen::Context,
    target: Target,
    (kernel, cfg): (&Kernel<'_>, &GemmConfig),
    (name, what): (&str, &str),
    size: (usize, usize, usize),
) -> Result<()> {
    use weft::runtime::cuda::Cuda;
    let sms = dev.props().sm_count;
    let (m, n, k) = size;
    // Every row of a small ragged problem first, then the timed size on sampled rows.
    run::<Cuda>(dev, kernel, cfg, (200, 264, 200), sms, false)?;
    let tflops = |ms: f64| 2.0 * (m * n * k) as f64 / (ms * 1e9);
    let ms = run::<Cuda>(dev, kernel, cfg, size, sms, true)?;
    let base_cfg = GemmConfig::new(DType::F16);
    let base = weft::codegen::kernels::gemm_kernel(ctx, target, base_cfg)?;
    let base_ms = run::<Cuda>(dev, &base, &base_cfg, size, sms, true)?;
    let dims = format!("{m}x{n}x{k}xf16");
    super::result_line("weft", name, ms, &dims);
    super::result_line("gemm_kernel", name, base_ms, &dims);
    println!(
        "{what} {m}×{n}×{k} f16 on {}: {ms:.3} ms ({:.0} TFLOP/s); shipped gemm_kernel {base_ms:.3} \
         ms ({:.0} TFLOP/s), ratio {:.3}",
        super::gpu::describe(dev),
        tflops(ms),
        tflops(base_ms),
        base_ms / ms
    );
    Ok(())
}
