//! The row-wise LLM kernels at the copy bandwidth: RMSNorm forward (plain, with the residual
//! add, with an fp8 output, looped over 256K-column rows), layer-norm forward, softmax forward (one pass, and split
//! over CTAs for 256K-column rows), RMSNorm and layer-norm backward (with the partial sums' column
//! sum), softmax backward, cross entropy forward and backward, RoPE in place (both pair styles),
//! each next to a device-to-device copy of the same bytes timed in the same run.
//!
//! ```sh
//! cargo build --release --features llvm,cuda --example bench_rows
//! target/release/examples/bench_rows          # tunes each kernel once (cached), then times it
//! target/release/examples/bench_rows rmsnorm_bwd 16384   # one workload (and width) only
//! # WEFT_ROWS_M=4096 sets the rows (default 16384); WEFT_NO_TUNE=1 times the defaults only;
//! # WEFT_PRINT_AUTOTUNING=1 prints each sweep; WEFT_CACHE_DIR=dir moves the autotuning cache.
//! ```
//!
//! On a GPU each workload's configuration comes from `runtime::autotune` over
//! `kernels::RowKernel::candidates` (a sweep the first time, the disk cache after), then the
//! chosen kernel runs once on random inputs with poisoned outputs, is checked against the f64
//! host reference (three rows element by element, and the whole weight gradient), and is timed
//! with `runtime::bench` (CUDA events, L2 flushed before each run, median) right before a D2D
//! copy moving the same bytes (half read, half written). GB/s counts bytes read plus written.
//! Without a GPU every workload runs once in the interpreter on a few ragged rows with the
//! default configuration, checked the same way.

mod common;

use common::Result;
use weft::codegen::kernels::{
    col_sum_kernel, cross_entropy_bwd_grid, cross_entropy_bwd_reference, cross_entropy_reference,
    norm_bwd_grid, norm_bwd_reference, rmsnorm_reference, rope_reference, softmax_bwd_reference,
    softmax_split_apply_kernel, softmax_split_grid, ColSumConfig, Norm, RmsNormOptions,
    RmsNormOutput, RopeStyle, RowConfig, RowKernel, FP8_E4M3_MAX,
};
use weft::codegen::{Context, DType, Target};
use weft::runtime::backend::{BufferOf, KernelOf, StreamOf};
use weft::runtime::prelude::*;
use weft::runtime::{bf16, Backend, DeviceElem, KernelArgs, LaunchConfig, F8E4M3};

/// A row element type on the host.
trait Elem: DeviceElem + Copy + Send + Sync + 'static {
    const DTYPE: DType;
    fn from_f32(v: f32) -> Self;
    fn to_f32(self) -> f32;
}

impl Elem for f32 {
    const DTYPE: DType = DType::F32;
    fn from_f32(v: f32) -> Self {
        v
    }
    fn to_f32(self) -> f32 {
        self
    }
}

impl Elem for bf16 {
    const DTYPE: DType = DType::BF16;
    fn from_f32(v: f32) -> Self {
        bf16::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
}

/// Where the workloads run: the device, whether it is a GPU (tune and time) and its target.
struct Env<B: Backend> {
    dev: B::Device,
    /// Streaming multiprocessors (the interpreter: 2, so that CTAs walk several row blocks).
    sms: u32,
    gpu: bool,
    target: Target,
    tune: bool,
}

/// One workload's launch of a chosen configuration's kernel (both kernels for a backward pass).
type LaunchFn<'a, B> =
    dyn Fn(&StreamOf<B>, &KernelOf<B>, &RowConfig) -> weft::runtime::Result<()> + 'a;

/// The tuner's arguments: the workload's launch.
struct Launch<'a, B: Backend> {
    f: &'a LaunchFn<'a, B>,
}

/// One result line.
struct Row {
    name: String,
    config: String,
    gb: f64,
    weft_ms: f64,
    copy_ms: f64,
    check: String,
}

/// `v` random in [-4, 4) rounded to `T`.
fn random<T: Elem>(len: usize, seed: u64) -> Vec<T> {
    common::random(len, seed)
        .into_iter()
        .map(T::from_f32)
        .collect()
}

fn widen<T: Elem>(v: &[T]) -> Vec<f32> {
    v.iter().map(|x| x.to_f32()).collect()
}

/// The rows checked element by element.
fn sample(m: usize) -> Vec<usize> {
    common::sample_rows(m, &[0, m / 2, m - 1])
}

/// `Ok(max error)` when every `got` is within `rel · max(|want|, floor)` of `want`.
fn within(
    got: &[f32],
    want: &[f64],
    rel: f64,
    floor: f64,
    what: &str,
) -> std::result::Result<f64, String> {
    let mut worst = 0.0f64;
    for (j, (&g, &w)) in got.iter().zip(want).enumerate() {
        let err = (g as f64 - w).abs() / w.abs().max(floor);
        if err.is_nan() || err > rel {
            return Err(format!("{what}: element {j}: got {g}, want {w}"));
        }
        worst = worst.max(err);
    }
    Ok(worst)
}

/// The bound of one value rounded to `dtype` (two ulps).
fn rel_of(dtype: DType) -> f64 {
    if dtype == DType::F32 {
        2e-5
    } else {
        2.0 / 256.0
    }
}

impl<B: Backend> Env<B> {
    /// The grid of a persistent row kernel over `m` rows (each CTA walks row blocks `pid,
    /// pid + grid, …`): [`norm_bwd_grid`] up to each SM filled once with the CTAs that fit it
    /// (`codegen::occupancy` of the loaded kernel's registers and shared memory), so every CTA
    /// walks as many row blocks.
    fn persistent_grid(&self, k: &KernelOf<B>, c: &RowConfig, m: usize) -> u32 {
        use weft::runtime::backend::Kernel as _;
        let threads = c.num_warps * self.target.warp_size();
        let shared = k.signature().shared_bytes as u64;
        let regs = k.attrs().num_regs.min(255);
        let per_sm = weft::codegen::occupancy::occupancy(self.target, threads, regs, shared)
            .map_or(1, |o| o.ctas_per_sm.max(1));
        norm_bwd_grid(c, m, self.sms * per_sm)
    }

    /// The configuration of `kind` for rows of `n`: tuned on a GPU, else the default.
    fn choose(
        &self,
        kind: RowKernel,
        n: usize,
        dtype: DType,
        launch: &LaunchFn<'_, B>,
    ) -> Result<RowConfig> {
        let default = kind.default_config(n as u32, dtype);
        if !(self.gpu && self.tune) {
            return Ok(default);
        }
        use weft::runtime::autotune::{Autotuner, Compiled};
        let candidates = kind.candidates(n as u32, dtype, self.target);
        let tuner = Autotuner::<B, RowConfig, Launch<'_, B>>::new(
            kind.name(),
            candidates,
            move |c, t| -> Result<Compiled> {
                let ctx = Context::new();
                let k = kind.build(&ctx, t, *c)?;
                Ok(Compiled::ptx(k.ptx()?, k.signature().clone()))
            },
            |s, k, c, a| (a.f)(s, k, c),
        )?
        .key(move |_| RowKernel::key(n as u32, dtype));
        let mut args = Launch { f: launch };
        let tuned = tuner.run(&self.dev.stream(), &mut args)?;
        self.dev.stream().synchronize()?;
        Ok(tuned.config)
    }

    /// Chooses, builds, runs once, checks with `check`, and on a GPU times `kind`'s workload
    /// against a D2D copy of `bytes / 2`.
    #[allow(clippy::too_many_arguments)]
    fn workload(
        &self,
        name: String,
        kind: RowKernel,
        n: usize,
        dtype: DType,
        bytes: u64,
        launch: &LaunchFn<'_, B>,
        check: &dyn Fn() -> Result<std::result::Result<String, String>>,
    ) -> Result<Row> {
        let shape = (kind, n, dtype, bytes);
        self.workload_tuned_on(name, shape, launch, launch, check)
    }

    /// [`Env::workload`], tuned with `tune_launch` (for a kernel that changes its input: on
    /// buffers of their own, so that the checked run starts from the inputs `check` knows).
    fn workload_tuned_on(
        &self,
        name: String,
        (kind, n, dtype, bytes): (RowKernel, usize, DType, u64),
        tune_launch: &LaunchFn<'_, B>,
        launch: &LaunchFn<'_, B>,
        check: &dyn Fn() -> Result<std::result::Result<String, String>>,
    ) -> Result<Row> {
        let c = self.choose(kind, n, dtype, tune_launch)?;
        let ctx = Context::new();
        let kernel = kind.build(&ctx, self.target, c)?.load_on::<B>(&self.dev)?;
        let stream = self.dev.stream();
        launch(&stream, &kernel, &c)?;
        stream.synchronize()?;
        let check = match check()? {
            Ok(s) => format!("ok ({s})"),
            Err(e) => format!("FAIL: {e}"),
        };
        let (weft_ms, copy_ms) = if self.gpu {
            time_vs_copy::<B>(&self.dev, bytes, |s| launch(s, &kernel, &c))?
        } else {
            (f64::NAN, f64::NAN)
        };
        Ok(Row {
            name,
            config: format!(
                "block_n {} rows {} vec {} warps {}",
                c.block_n, c.rows_per_cta, c.per_thread, c.num_warps
            ),
            gb: bytes as f64 / 1e9,
            weft_ms,
            copy_ms,
            check,
        })
    }
}

/// Median ms of `work` and of a D2D copy of `bytes / 2`, each by `runtime::bench`.
fn time_vs_copy<B: Backend>(
    dev: &B::Device,
    bytes: u64,
    work: impl FnMut(&B::Stream) -> weft::runtime::Result<()>,
) -> Result<(f64, f64)> {
    use weft::runtime::bench::{bench, BenchOptions};
    let stream = dev.stream();
    let opts = BenchOptions::default();
    let t = bench(&stream, &opts, work)?;
    let half = (bytes / 2) as usize;
    let mut src = dev.alloc::<u8>(half)?;
    src.fill_bytes(0x3c)?;
    let mut dst = dev.alloc::<u8>(half)?;
    let base = bench(&stream, &opts, |s| s.copy_async(&src, &mut dst))?;
    Ok((t.median, base.median))
}

fn cfg<B: Backend>(
    k: &KernelOf<B>,
    grid: impl Into<weft::runtime::Dim3>,
) -> weft::runtime::Result<LaunchConfig> {
    LaunchConfig::for_kernel(grid, k.signature())
}

/// Which RMSNorm forward kernel runs.
#[derive(Clone, Copy, PartialEq)]
enum RmsKernel {
    /// One row block per CTA (`rmsnorm_kernel`).
    Tile,
    /// Rows past a tile, in chunks (`rmsnorm_looped_kernel`).
    Looped,
    /// Persistent CTAs staging the next row block (`rmsnorm_staged_kernel`).
    Staged,
}

/// RMSNorm forward over `m × n` of `T` with options `o` by kernel `how`.
fn rmsnorm<B: Backend, T: Elem>(
    env: &Env<B>,
    m: usize,
    n: usize,
    o: RmsNormOptions,
    how: RmsKernel,
) -> Result<Row> {
    let dev = &env.dev;
    let x: Vec<T> = random(m * n, 1);
    let r: Vec<T> = random(m * n, 2);
    let w: Vec<T> = random::<f32>(n, 3)
        .into_iter()
        .map(|v| T::from_f32(1.0 + v / 8.0))
        .collect();
    let (dx, dw) = (dev.upload(&x)?, dev.upload(&w)?);
    let dr = dev.upload(&r)?;
    let fp8 = o.output != RmsNormOutput::Same;
    let y: BufferOf<B, T> = dev.alloc(if fp8 { 1 } else { m * n })?;
    let y8: BufferOf<B, F8E4M3> = dev.alloc(if fp8 { m * n } else { 1 })?;
    let scale: BufferOf<B, f32> = if o.output == RmsNormOutput::Fp8TensorScale {
        dev.upload(&[0.01f32])?
    } else {
        dev.alloc(m)?
    };
    let launch = |s: &StreamOf<B>, k: &KernelOf<B>, c: &RowConfig| {
        let mut a = KernelArgs::new();
        a.ptr(&dx);
        if o.residual {
            a.ptr(&dr);
        }
        a.ptr(&dw);
        if fp8 {
            a.ptr(&y8).ptr(&scale);
        } else {
            a.ptr(&y);
        }
        a.scalar(m as i32).scalar(n as i32).scalar(1e-6f32);
        let grid = match how {
            RmsKernel::Staged => env.persistent_grid(k, c, m),
            _ => c.grid(m),
        };
        // SAFETY: x, residual, y hold m * n elements, w n, scale m (or 1, read); the kernel
        // touches rows < m and columns < n only.
        unsafe { s.launch(k, &cfg::<B>(k, grid)?, &a) }
    };
    // The residual add is in place: every run (the tuner's, the timed ones) adds x again, so the
    // check holds y to the norm of the sum as written back.
    let check = || -> Result<std::result::Result<String, String>> {
        let xs = widen(&x);
        let ws = widen(&w);
        let h: Vec<f32> = if o.residual { widen(&dr.to_vec()?) } else { xs };
        let mut worst = 0.0f64;
        let scales = if fp8 { scale.to_vec()? } else { vec![] };
        let (yv, qv) = if fp8 {
            (vec![], y8.to_vec()?)
        } else {
            (y.to_vec()?, vec![])
        };
        for r in sample(m) {
            let want = rmsnorm_reference(&h[r * n..(r + 1) * n], &ws, n, 1e-6);
            let res = match o.output {
                RmsNormOutput::Same => within(
                    &widen(&yv[r * n..(r + 1) * n]),
                    &want,
                    rel_of(T::DTYPE),
                    1.0,
                    "y",
                ),
                _ => {
                    let s = if o.output == RmsNormOutput::Fp8TensorScale {
                        0.01
                    } else {
                        scales[r]
                    };
                    let got: Vec<f32> = qv[r * n..(r + 1) * n]
                        .iter()
                        .map(|q| q.to_f32() * s)
                        .collect();
                    let want: Vec<f64> = want
                        .iter()
                        .map(|v| v.clamp(-FP8_E4M3_MAX * s as f64, FP8_E4M3_MAX * s as f64))
                        .collect();
                    within(
                        &got,
                        &want,
                        1.0 / 16.0 + 1e-3,
                        s as f64 / 64.0,
                        "fp8 y · scale",
                    )
                }
            };
            match res {
                Ok(e) => worst = worst.max(e),
                Err(e) => return Ok(Err(format!("row {r}: {e}"))),
            }
        }
        Ok(Ok(format!(
            "{} rows, max rel err {worst:.1e}",
            sample(m).len()
        )))
    };
    let s = T::DTYPE.mem_bytes();
    let mn = (m * n) as u64;
    // x (and the residual, read and written), y (fp8: one byte), w, the per-row scales.
    let residual = if o.residual { 2 * mn * s } else { 0 };
    let y_bytes = if fp8 { mn } else { mn * s };
    let scales = if o.output == RmsNormOutput::Fp8RowScale {
        4 * m as u64
    } else {
        0
    };
    let bytes = mn * s + residual + y_bytes + n as u64 * s + scales;
    let (kind, label) = match how {
        RmsKernel::Looped => (RowKernel::RmsNormLooped(o), " looped"),
        RmsKernel::Staged => (RowKernel::RmsNormStaged(o), " staged"),
        RmsKernel::Tile => (RowKernel::RmsNorm(o), ""),
    };
    let name = format!("rmsnorm{label}{} {m}×{n} {}", kind_suffix(o), T::DTYPE);
    env.workload(name, kind, n, T::DTYPE, bytes, &launch, &check)
}

fn kind_suffix(o: RmsNormOptions) -> &'static str {
    match (o.residual, o.output) {
        (false, RmsNormOutput::Same) => "",
        (true, RmsNormOutput::Same) => " +residual",
        (false, RmsNormOutput::Fp8RowScale) => " →fp8 per row",
        (false, RmsNormOutput::Fp8TensorScale) => " →fp8 per tensor",
        (true, _) => " +residual →fp8",
    }
}

/// RMSNorm or layer-norm backward over `m × n` of `T` (`staged`: the kernel that copies the next
/// row block into shared memory while it reduces): the row kernel and the column sums.
fn norm_bwd<B: Backend, T: Elem>(
    env: &Env<B>,
    m: usize,
    n: usize,
    norm: Norm,
    staged: bool,
) -> Result<Row> {
    let dev = &env.dev;
    let x: Vec<T> = random(m * n, 4);
    let g: Vec<T> = random(m * n, 5);
    let w: Vec<T> = random::<f32>(n, 6)
        .into_iter()
        .map(|v| T::from_f32(1.0 + v / 8.0))
        .collect();
    let (dxin, dg, dw) = (dev.upload(&x)?, dev.upload(&g)?, dev.upload(&w)?);
    let dx: BufferOf<B, T> = dev.alloc(m * n)?;
    // The partial sums: one row per resident CTA (`Env::persistent_grid`).
    let max_ctas = env.sms as usize * 32;
    let part: BufferOf<B, f32> = dev.alloc(max_ctas * n)?;
    let part_b: BufferOf<B, f32> = dev.alloc(max_ctas * n)?;
    let dwo: BufferOf<B, T> = dev.alloc(n)?;
    let dbo: BufferOf<B, T> = dev.alloc(n)?;
    let ctx = Context::new();
    let cs = ColSumConfig::new(T::DTYPE);
    let sum = col_sum_kernel(&ctx, env.target, cs)?.load_on::<B>(dev)?;
    let layer = norm == Norm::Layer;
    let launch = |s: &StreamOf<B>, k: &KernelOf<B>, c: &RowConfig| {
        let grid = env.persistent_grid(k, c, m);
        let mut a = KernelArgs::new();
        a.ptr(&dxin).ptr(&dg).ptr(&dw).ptr(&dx).ptr(&part);
        if layer {
            a.ptr(&part_b);
        }
        a.scalar(m as i32).scalar(n as i32).scalar(1e-5f32);
        // SAFETY: x, dy, dx hold m * n elements, w n, the partials max_ctas * n ≥ grid * n.
        unsafe { s.launch(k, &cfg::<B>(k, grid)?, &a)? };
        for (p, out) in [(&part, &dwo), (&part_b, &dbo)]
            .into_iter()
            .take(1 + layer as usize)
        {
            let mut a = KernelArgs::new();
            a.ptr(p).ptr(out).scalar(grid as i32).scalar(n as i32);
            // SAFETY: the partials hold grid * n f32, out n.
            unsafe { s.launch(&sum, &cfg::<B>(&sum, cs.grid(n))?, &a)? };
        }
        Ok(())
    };
    let check = || -> Result<std::result::Result<String, String>> {
        let (xs, gs, ws) = (widen(&x), widen(&g), widen(&w));
        let (_, want_dw, want_db) = norm_bwd_reference(norm, &xs, &ws, &gs, n, 1e-5);
        let got = dx.to_vec()?;
        let mut worst = 0.0f64;
        for r in sample(m) {
            let rows = r * n..(r + 1) * n;
            let (want, _, _) =
                norm_bwd_reference(norm, &xs[rows.clone()], &ws, &gs[rows.clone()], n, 1e-5);
            match within(&widen(&got[rows]), &want, rel_of(T::DTYPE), 1.0, "dx") {
                Ok(e) => worst = worst.max(e),
                Err(e) => return Ok(Err(format!("row {r}: {e}"))),
            }
        }
        // Sums over m rows: the f32 rounding of m terms of order 4, then one rounding to T.
        let floor = (m as f64).sqrt() * 4.0;
        let sums = [(&dwo, &want_dw, "dw"), (&dbo, &want_db, "db")];
        for (buf, want, what) in sums.into_iter().take(1 + layer as usize) {
            if let Err(e) = within(
                &widen(&buf.to_vec()?),
                want,
                rel_of(T::DTYPE) + 1e-5,
                floor,
                what,
            ) {
                return Ok(Err(e));
            }
        }
        Ok(Ok(format!(
            "dx max rel err {worst:.1e}, dw{} whole",
            if layer { ", db" } else { "" }
        )))
    };
    let s = T::DTYPE.mem_bytes();
    let bytes = 3 * (m * n) as u64 * s + n as u64 * s;
    let name = format!(
        "{} backward{} {m}×{n} {}",
        if layer { "layernorm" } else { "rmsnorm" },
        if staged { " staged" } else { "" },
        T::DTYPE
    );
    env.workload(
        name,
        match staged {
            true => RowKernel::NormBwdStaged(norm),
            false => RowKernel::NormBwd(norm),
        },
        n,
        T::DTYPE,
        bytes,
        &launch,
        &check,
    )
}

/// Softmax forward over `m × n` of `T`: one pass, or split over CTAs per row (`split`: the
/// statistics kernel, then the apply kernel of the same configuration).
fn softmax_fwd<B: Backend, T: Elem>(env: &Env<B>, m: usize, n: usize, split: bool) -> Result<Row> {
    let dev = &env.dev;
    let x: Vec<T> = random(m * n, 10);
    let dx = dev.upload(&x)?;
    let y: BufferOf<B, T> = dev.alloc(m * n)?;
    let most_splits = n.div_ceil(2048);
    let pmax: BufferOf<B, f32> = dev.alloc(m * most_splits)?;
    let psum: BufferOf<B, f32> = dev.alloc(m * most_splits)?;
    // The apply kernel of each configuration the tuner tries, built once.
    let applies = std::cell::RefCell::new(std::collections::HashMap::new());
    let launch = |s: &StreamOf<B>, k: &KernelOf<B>, c: &RowConfig| {
        if !split {
            let mut a = KernelArgs::new();
            a.ptr(&dx).ptr(&y).scalar(m as i32).scalar(n as i32);
            // SAFETY: x and y hold m * n elements.
            return unsafe { s.launch(k, &cfg::<B>(k, c.grid(m))?, &a) };
        }
        let grid = softmax_split_grid(c, m, n);
        let mut map = applies.borrow_mut();
        if !map.contains_key(c) {
            let ctx = Context::new();
            let bad = |e: String| weft::runtime::RuntimeError::BadOption {
                what: "config",
                reason: e,
            };
            let k =
                softmax_split_apply_kernel(&ctx, env.target, *c).map_err(|e| bad(e.to_string()))?;
            let built = k.load_on::<B>(dev)?;
            map.insert(*c, built);
        }
        let apply = &map[c];
        let mut a = KernelArgs::new();
        a.ptr(&dx).ptr(&pmax).ptr(&psum);
        a.scalar(m as i32).scalar(n as i32).scalar(grid.1 as i32);
        // SAFETY: x holds m * n elements, the partials m * most_splits ≥ m * splits.
        unsafe { s.launch(k, &cfg::<B>(k, grid)?, &a)? };
        let mut a = KernelArgs::new();
        a.ptr(&dx).ptr(&pmax).ptr(&psum).ptr(&y);
        a.scalar(m as i32).scalar(n as i32).scalar(grid.1 as i32);
        // SAFETY: as above, and y holds m * n elements.
        unsafe { s.launch(apply, &cfg::<B>(apply, grid)?, &a) }
    };
    let check = || -> Result<std::result::Result<String, String>> {
        let got = y.to_vec()?;
        let mut worst = 0.0f64;
        for r in sample(m) {
            let rows = r * n..(r + 1) * n;
            let want = weft::codegen::kernels::softmax_reference(&widen(&x[rows.clone()]), n);
            match within(&widen(&got[rows]), &want, rel_of(T::DTYPE), 0.0, "y") {
                Ok(e) => worst = worst.max(e),
                Err(e) => return Ok(Err(format!("row {r}: {e}"))),
            }
        }
        Ok(Ok(format!("max rel err {worst:.1e}")))
    };
    let s = T::DTYPE.mem_bytes();
    // The split reads the row twice: counted once, as for the one-pass kernel (GB/s of the
    // softmax's own bytes).
    let bytes = 2 * (m * n) as u64 * s;
    let (kind, how) = match split {
        true => (RowKernel::SoftmaxSplit, " split"),
        false => (RowKernel::SoftmaxFwd, ""),
    };
    let name = format!("softmax{how} {m}×{n} {}", T::DTYPE);
    env.workload(name, kind, n, T::DTYPE, bytes, &launch, &check)
}

/// Layer-norm forward over `m × n` of `T` (`w` and `b` of `T` too).
fn layernorm_fwd<B: Backend, T: Elem>(env: &Env<B>, m: usize, n: usize) -> Result<Row> {
    let dev = &env.dev;
    let x: Vec<T> = random(m * n, 11);
    let w: Vec<T> = random::<f32>(n, 12)
        .into_iter()
        .map(|v| T::from_f32(1.0 + v / 8.0))
        .collect();
    let b: Vec<T> = random::<f32>(n, 13)
        .into_iter()
        .map(|v| T::from_f32(v / 4.0))
        .collect();
    let (dx, dw, db) = (dev.upload(&x)?, dev.upload(&w)?, dev.upload(&b)?);
    let y: BufferOf<B, T> = dev.alloc(m * n)?;
    let launch = |s: &StreamOf<B>, k: &KernelOf<B>, c: &RowConfig| {
        let mut a = KernelArgs::new();
        a.ptr(&dx).ptr(&y).ptr(&dw).ptr(&db);
        a.scalar(m as i32).scalar(n as i32).scalar(1e-5f32);
        // SAFETY: x and y hold m * n elements, w and b n.
        unsafe { s.launch(k, &cfg::<B>(k, c.grid(m))?, &a) }
    };
    let check = || -> Result<std::result::Result<String, String>> {
        let got = y.to_vec()?;
        let (ws, bs) = (widen(&w), widen(&b));
        let mut worst = 0.0f64;
        for r in sample(m) {
            let rows = r * n..(r + 1) * n;
            let want = weft::codegen::kernels::layernorm_reference(
                &widen(&x[rows.clone()]),
                &ws,
                &bs,
                n,
                1e-5,
            );
            match within(&widen(&got[rows]), &want, rel_of(T::DTYPE), 1.0, "y") {
                Ok(e) => worst = worst.max(e),
                Err(e) => return Ok(Err(format!("row {r}: {e}"))),
            }
        }
        Ok(Ok(format!("max rel err {worst:.1e}")))
    };
    let s = T::DTYPE.mem_bytes();
    let bytes = 2 * (m * n) as u64 * s + 2 * n as u64 * s;
    let name = format!("layernorm {m}×{n} {}", T::DTYPE);
    env.workload(
        name,
        RowKernel::LayernormFwd,
        n,
        T::DTYPE,
        bytes,
        &launch,
        &check,
    )
}

/// Softmax backward over `m × n` of `T`, `y` a softmax of random rows.
fn softmax_bwd<B: Backend, T: Elem>(env: &Env<B>, m: usize, n: usize) -> Result<Row> {
    let dev = &env.dev;
    let y: Vec<T> = random::<f32>(m * n, 7)
        .chunks(n)
        .flat_map(|row| weft::codegen::kernels::softmax_reference(row, n))
        .map(|v| T::from_f32(v as f32))
        .collect();
    let g: Vec<T> = random(m * n, 8);
    let (dy_, dg) = (dev.upload(&y)?, dev.upload(&g)?);
    let dx: BufferOf<B, T> = dev.alloc(m * n)?;
    let launch = |s: &StreamOf<B>, k: &KernelOf<B>, c: &RowConfig| {
        let mut a = KernelArgs::new();
        a.ptr(&dy_)
            .ptr(&dg)
            .ptr(&dx)
            .scalar(m as i32)
            .scalar(n as i32);
        // SAFETY: y, dy, dx hold m * n elements.
        unsafe { s.launch(k, &cfg::<B>(k, c.grid(m))?, &a) }
    };
    let check = || -> Result<std::result::Result<String, String>> {
        let got = dx.to_vec()?;
        let (ys, gs) = (widen(&y), widen(&g));
        let mut worst = 0.0f64;
        for r in sample(m) {
            let rows = r * n..(r + 1) * n;
            let want = softmax_bwd_reference(&ys[rows.clone()], &gs[rows.clone()], n);
            match within(&widen(&got[rows]), &want, rel_of(T::DTYPE), 1e-3, "dx") {
                Ok(e) => worst = worst.max(e),
                Err(e) => return Ok(Err(format!("row {r}: {e}"))),
            }
        }
        Ok(Ok(format!("max rel err {worst:.1e}")))
    };
    let bytes = 3 * (m * n) as u64 * T::DTYPE.mem_bytes();
    let name = format!("softmax backward {m}×{n} {}", T::DTYPE);
    env.workload(
        name,
        RowKernel::SoftmaxBwd,
        n,
        T::DTYPE,
        bytes,
        &launch,
        &check,
    )
}

/// RoPE in place over `tokens × heads × d` of `T` (`style`'s pairs), the cos/sin tables of
/// `tokens × d/2` f32 read once per token (bytes: x read and written, the tables read once).
fn rope<B: Backend, T: Elem>(
    env: &Env<B>,
    [tokens, heads, d]: [usize; 3],
    style: RopeStyle,
) -> Result<Row> {
    let dev = &env.dev;
    let (rows, half) = (tokens * heads, d / 2);
    let x: Vec<T> = random(rows * d, 10);
    let angle = |t: usize, i: usize| t as f64 * 10000f64.powf(-(i as f64) / half as f64);
    let table = |f: fn(f64) -> f64| -> Vec<f32> {
        (0..tokens * half)
            .map(|j| f(angle(j / half, j % half)) as f32)
            .collect()
    };
    let (cos, sin) = (table(f64::cos), table(f64::sin));
    let (dc, ds) = (dev.upload(&cos)?, dev.upload(&sin)?);
    let dx = dev.upload(&x)?;
    // The autotuner rotates a copy of its own: x must reach the checked run as it was made.
    let dx_tune = dev.upload(&x)?;
    let launch_on = |buf: &BufferOf<B, T>, s: &StreamOf<B>, k: &KernelOf<B>, c: &RowConfig| {
        let mut a = KernelArgs::new();
        a.ptr(buf)
            .ptr(&dc)
            .ptr(&ds)
            .scalar(rows as i32)
            .scalar(heads as i32)
            .scalar(half as i32);
        // SAFETY: x holds rows * d elements, the tables tokens * half.
        unsafe { s.launch(k, &cfg::<B>(k, c.grid(rows))?, &a) }
    };
    let tune = |s: &StreamOf<B>, k: &KernelOf<B>, c: &RowConfig| launch_on(&dx_tune, s, k, c);
    let launch = |s: &StreamOf<B>, k: &KernelOf<B>, c: &RowConfig| launch_on(&dx, s, k, c);
    let check = || -> Result<std::result::Result<String, String>> {
        let got = dx.to_vec()?;
        let xs = widen(&x);
        let mut worst = 0.0f64;
        for r in sample(rows) {
            let (at, t) = (r * d..(r + 1) * d, r / heads);
            let tab = t * half..(t + 1) * half;
            let want = rope_reference(&xs[at.clone()], &cos[tab.clone()], &sin[tab], 1, d, style);
            match within(&widen(&got[at]), &want, rel_of(T::DTYPE), 1.0, "x") {
                Ok(e) => worst = worst.max(e),
                Err(e) => return Ok(Err(format!("row {r}: {e}"))),
            }
        }
        Ok(Ok(format!("max err {worst:.1e}")))
    };
    let bytes = (2 * rows * d) as u64 * T::DTYPE.mem_bytes() + (2 * tokens * half * 4) as u64;
    let name = format!("RoPE {style:?} {tokens}×{heads}×{d} {}", T::DTYPE);
    let shape = (RowKernel::Rope(style), half, T::DTYPE, bytes);
    env.workload_tuned_on(name, shape, &tune, &launch, &check)
}

/// Cross entropy forward and backward over `m` rows of `n` classes of `T`, every 7th row
/// ignored.
fn cross_entropy<B: Backend, T: Elem>(env: &Env<B>, m: usize, n: usize) -> Result<Vec<Row>> {
    const IGNORE: i32 = -100;
    let dev = &env.dev;
    let x: Vec<T> = random(m * n, 9);
    let t: Vec<i32> = (0..m)
        .map(|r| {
            if r % 7 == 3 {
                IGNORE
            } else {
                ((r as u64 * 2654435761) % n as u64) as i32
            }
        })
        .collect();
    let dloss: Vec<f32> = (0..m).map(|r| 1.0 / (1 + r % 3) as f32).collect();
    let (dx_, dt, dd) = (dev.upload(&x)?, dev.upload(&t)?, dev.upload(&dloss)?);
    let loss: BufferOf<B, f32> = dev.alloc(m)?;
    let lse: BufferOf<B, f32> = dev.alloc(m)?;
    let dlogits: BufferOf<B, T> = dev.alloc(m * n)?;
    let rows = sample(m);
    let s = T::DTYPE.mem_bytes();
    let fwd_launch = |st: &StreamOf<B>, k: &KernelOf<B>, c: &RowConfig| {
        let mut a = KernelArgs::new();
        a.ptr(&dx_)
            .ptr(&dt)
            .ptr(&loss)
            .ptr(&lse)
            .scalar(m as i32)
            .scalar(n as i32)
            .scalar(IGNORE);
        // SAFETY: logits hold m * n elements, target, loss, lse m.
        unsafe { st.launch(k, &cfg::<B>(k, c.grid(m))?, &a) }
    };
    let fwd_check = || -> Result<std::result::Result<String, String>> {
        let (gl, gs) = (loss.to_vec()?, lse.to_vec()?);
        for &r in &rows {
            let row = widen(&x[r * n..(r + 1) * n]);
            let (wl, ws) = cross_entropy_reference(&row, &t[r..r + 1], n, IGNORE);
            let floor = ws[0].abs().max(1.0);
            if let Err(e) = within(&[gl[r], gs[r]], &[wl[0], ws[0]], 1e-5, floor, "loss, lse") {
                return Ok(Err(format!("row {r}: {e}")));
            }
        }
        Ok(Ok(format!("{} rows' loss and lse", rows.len())))
    };
    let mut out = vec![env.workload(
        format!("cross entropy fwd {m}×{n} {}", T::DTYPE),
        RowKernel::CrossEntropyFwd,
        n,
        T::DTYPE,
        (m * n) as u64 * s,
        &fwd_launch,
        &fwd_check,
    )?];
    let bwd_launch = |st: &StreamOf<B>, k: &KernelOf<B>, c: &RowConfig| {
        let mut a = KernelArgs::new();
        a.ptr(&dx_).ptr(&dt).ptr(&lse).ptr(&dd).ptr(&dlogits);
        a.scalar(m as i32).scalar(n as i32).scalar(IGNORE);
        // SAFETY: logits and dlogits hold m * n elements, target, lse and dloss m.
        unsafe { st.launch(k, &cfg::<B>(k, cross_entropy_bwd_grid(c, m, n))?, &a) }
    };
    let bwd_check = || -> Result<std::result::Result<String, String>> {
        let got = dlogits.to_vec()?;
        let mut worst = 0.0f64;
        for &r in &rows {
            let row = widen(&x[r * n..(r + 1) * n]);
            let want = cross_entropy_bwd_reference(&row, &t[r..r + 1], &dloss[r..r + 1], n, IGNORE);
            match within(
                &widen(&got[r * n..(r + 1) * n]),
                &want,
                rel_of(T::DTYPE),
                1e-4,
                "dlogits",
            ) {
                Ok(e) => worst = worst.max(e),
                Err(e) => return Ok(Err(format!("row {r}: {e}"))),
            }
        }
        Ok(Ok(format!("max rel err {worst:.1e}")))
    };
    out.push(env.workload(
        format!("cross entropy bwd {m}×{n} {}", T::DTYPE),
        RowKernel::CrossEntropyBwd,
        n,
        T::DTYPE,
        2 * (m * n) as u64 * s,
        &bwd_launch,
        &bwd_check,
    )?);
    Ok(out)
}

/// The workloads chosen on the command line: `bench_rows [KERNEL] [N]` runs only KERNEL (one of
/// [`KERNELS`]) and only rows of N columns (for the fixed-width workloads, any N runs them).
struct Filter {
    kernel: Option<String>,
    n: Option<usize>,
}

/// The kernel names [`Filter`] takes.
const KERNELS: [&str; 15] = [
    "rmsnorm",
    "rmsnorm_staged",
    "rmsnorm_looped",
    "rmsnorm_residual",
    "rmsnorm_fp8",
    "rmsnorm_bwd",
    "rmsnorm_bwd_staged",
    "layernorm",
    "layernorm_bwd",
    "layernorm_bwd_staged",
    "softmax",
    "softmax_split",
    "softmax_bwd",
    "cross_entropy",
    "rope",
];

impl Filter {
    fn from_args() -> Result<Filter> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let kernel = args.first().cloned();
        if let Some(k) = &kernel {
            if !KERNELS.contains(&k.as_str()) {
                return Err(
                    format!("unknown workload `{k}`: one of {}", KERNELS.join(", ")).into(),
                );
            }
        }
        let n = match args.get(1) {
            Some(a) => Some(a.parse().map_err(|_| format!("columns `{a}`: a number"))?),
            None => None,
        };
        Ok(Filter { kernel, n })
    }

    /// Whether `kernel` at `n` columns runs (`n = None`: a workload of its own fixed width).
    fn wants(&self, kernel: &str, n: Option<usize>) -> bool {
        self.kernel.as_deref().is_none_or(|k| k == kernel)
            && match (self.n, n) {
                (Some(want), Some(n)) => want == n,
                _ => true,
            }
    }
}

/// The workloads `f` chooses on `env`: the benchmark's shapes on a GPU, a few ragged rows in the
/// interpreter.
fn all<B: Backend>(env: &Env<B>, f: &Filter) -> Result<Vec<Row>> {
    let gpu = env.gpu;
    let m = if gpu {
        std::env::var("WEFT_ROWS_M")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(16384)
    } else {
        3
    };
    let widths: Vec<usize> = if gpu {
        vec![4096, 8192, 16384]
    } else {
        vec![1000, 4099]
    };
    let mut rows = vec![];
    for &n in &widths {
        if f.wants("rmsnorm", Some(n)) {
            rows.push(rmsnorm::<B, bf16>(
                env,
                m,
                n,
                RmsNormOptions::PLAIN,
                RmsKernel::Tile,
            )?);
        }
    }
    for &n in &widths {
        if f.wants("rmsnorm_staged", Some(n)) {
            let how = RmsKernel::Staged;
            rows.push(rmsnorm::<B, bf16>(env, m, n, RmsNormOptions::PLAIN, how)?);
        }
    }
    // Rows past a tile: 256K columns (a quarter of the rows: the same 2 GiB as 16K × 16K … × 2).
    let (lm, ln) = if gpu { (m / 4, 262144) } else { (2, 20011) };
    if f.wants("rmsnorm_looped", None) {
        rows.push(rmsnorm::<B, bf16>(
            env,
            lm.max(1),
            ln,
            RmsNormOptions::PLAIN,
            RmsKernel::Looped,
        )?);
    }
    let mid = widths[1];
    if f.wants("rmsnorm_residual", Some(mid)) {
        let o = RmsNormOptions {
            residual: true,
            ..RmsNormOptions::PLAIN
        };
        rows.push(rmsnorm::<B, bf16>(env, m, mid, o, RmsKernel::Tile)?);
    }
    if f.wants("rmsnorm_fp8", Some(mid)) {
        let o = RmsNormOptions {
            residual: false,
            output: RmsNormOutput::Fp8RowScale,
        };
        rows.push(rmsnorm::<B, bf16>(env, m, mid, o, RmsKernel::Tile)?);
    }
    for &n in &widths {
        if f.wants("rmsnorm_bwd", Some(n)) {
            rows.push(norm_bwd::<B, bf16>(env, m, n, Norm::Rms, false)?);
        }
    }
    for &n in &widths {
        if f.wants("rmsnorm_bwd_staged", Some(n)) {
            rows.push(norm_bwd::<B, bf16>(env, m, n, Norm::Rms, true)?);
        }
    }
    for &n in &widths {
        if f.wants("layernorm", Some(n)) {
            rows.push(layernorm_fwd::<B, bf16>(env, m, n)?);
        }
    }
    for &n in &widths {
        if f.wants("layernorm_bwd", Some(n)) {
            rows.push(norm_bwd::<B, bf16>(env, m, n, Norm::Layer, false)?);
        }
    }
    // Staged layer norm's two column sums and two stages of x and dy pass sm_90's shared
    // memory past 12K bf16 columns.
    for &n in widths.iter().filter(|&&n| n <= 12288) {
        if f.wants("layernorm_bwd_staged", Some(n)) {
            rows.push(norm_bwd::<B, bf16>(env, m, n, Norm::Layer, true)?);
        }
    }
    let wide = *widths.last().unwrap_or(&1000);
    if f.wants("softmax", Some(wide)) {
        rows.push(softmax_fwd::<B, f32>(env, m, wide, false)?);
        rows.push(softmax_fwd::<B, bf16>(env, m, wide, false)?);
    }
    if f.wants("softmax_split", None) {
        rows.push(softmax_fwd::<B, bf16>(env, lm.max(1), ln, true)?);
    }
    if f.wants("softmax_bwd", Some(wide)) {
        rows.push(softmax_bwd::<B, f32>(env, m, wide)?);
        rows.push(softmax_bwd::<B, bf16>(env, m, wide)?);
    }
    let classes = if gpu { 131072 } else { 20011 };
    if f.wants("cross_entropy", None) {
        rows.extend(cross_entropy::<B, bf16>(env, m, classes)?);
    }
    // RoPE on 16K tokens × 32 heads × 128 (the interpreter: 5 × 3 × 34).
    let rope_shape = if gpu { [m, 32, 128] } else { [5, 3, 34] };
    if f.wants("rope", None) {
        for style in [RopeStyle::Interleaved, RopeStyle::HalfRotated] {
            rows.push(rope::<B, bf16>(env, rope_shape, style)?);
        }
    }
    if rows.is_empty() {
        return Err(format!(
            "no workload of `{}` has {} columns here (the GPU runs 4096, 8192, 16384; the \
             interpreter 1000, 4099)",
            f.kernel.as_deref().unwrap_or("any"),
            f.n.unwrap_or(0)
        )
        .into());
    }
    Ok(rows)
}

fn print(rows: &[Row], gpu: bool, device: &str) {
    println!("# bench_rows on {device}");
    println!("| workload | config | GB moved | weft GB/s | D2D GB/s (same bytes, same run) | weft / D2D | check |");
    println!("|---|---|---|---|---|---|---|");
    for r in rows {
        let (w, c) = (r.gb / (r.weft_ms * 1e-3), r.gb / (r.copy_ms * 1e-3));
        if gpu {
            println!(
                "| {} | {} | {:.2} | {w:.0} | {c:.0} | {:.3} | {} |",
                r.name,
                r.config,
                r.gb,
                w / c,
                r.check
            );
        } else {
            println!(
                "| {} | {} | {:.4} | - | - | - | {} |",
                r.name, r.config, r.gb, r.check
            );
        }
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("bench_rows: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let filter = Filter::from_args()?;
    if let Some(dev) = common::gpu::device() {
        let target = dev.target()?;
        let name = common::gpu::describe(&dev);
        let env = Env::<weft::runtime::cuda::Cuda> {
            sms: dev.props().sm_count,
            dev,
            gpu: true,
            target,
            tune: std::env::var("WEFT_NO_TUNE").map_or(true, |v| v != "1"),
        };
        let rows = all(&env, &filter)?;
        print(&rows, true, &name);
        if rows.iter().any(|r| !r.check.starts_with("ok")) {
            return Err("a workload failed its host check".into());
        }
        return Ok(());
    }
    let target = Target::SM90;
    let env = Env::<weft::runtime::cpu::Cpu> {
        dev: common::interpreter(target)?,
        sms: 2,
        gpu: false,
        target,
        tune: false,
    };
    let rows = all(&env, &filter)?;
    print(
        &rows,
        false,
        "the interpreter (no GPU): default configs, not timed",
    );
    if let Some(bad) = rows.iter().find(|r| !r.check.starts_with("ok")) {
        return Err(format!("{}: {}", bad.name, bad.check).into());
    }
    common::interpreted(&format!(
        "{} row workloads against f64 host references",
        rows.len()
    ));
    Ok(())
}
