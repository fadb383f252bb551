//! GPU memory-bandwidth benchmark: each workload next to a `cuMemcpyDtoD` baseline moving the same
//! bytes, measured in the same run, right after it, by the same `bench` (one L2 flush buffer).
//!
//! ```sh
//! cargo build --release --features llvm,cuda --example bench_gpu   # without llvm: hand PTX only
//! target/release/examples/bench_gpu            # WEFT_BENCH_GIB=2 by default; WEFT_BENCH_ITERS=N fixes the runs
//! # WEFT_BENCH_DUMP=dir writes the PTX of each builder kernel there; CUDA_CACHE_DISABLE=1 keeps
//! # the driver JIT cache out of the end-to-end (builder -> loaded kernel) latency.
//! ```
//! Every workload is first run once on random inputs with poisoned outputs and checked element by
//! element against a host reference; then timed with [`weft::runtime::bench`] (CUDA events, warm-up
//! and runs from Triton's time budget, or `WEFT_BENCH_ITERS` runs; an L2 flush before each), the
//! kernel and its D2D baseline one after the other. GB/s counts bytes read plus bytes written.
//!
//! Adding a workload (e.g. a kernel from `weft::codegen`, which yields PTX text and a signature):
//! push a [`Workload`] in [`workloads`]: name, PTX, signature, launch configuration, its f32 buffers
//! in argument order (random inputs, poisoned outputs), trailing scalars, bytes moved and a host
//! check.

#[cfg(not(feature = "cuda"))]
fn main() {
    println!("bench_gpu measures a GPU's memory bandwidth: built without the `cuda` feature, nothing measured (cargo run --release --features cuda --example bench_gpu); the other examples check their kernels in the interpreter without a GPU");
}

#[cfg(feature = "cuda")]
fn main() {
    if let Err(e) = bench::run() {
        eprintln!("bench_gpu: {e}");
        std::process::exit(1);
    }
}

#[cfg(feature = "cuda")]
mod bench {
    use std::time::Instant;

    use weft::runtime::bench::{BenchOptions, Bencher};
    use weft::runtime::cuda::{self, Buffer, Device};
    use weft::runtime::prelude::*;
    use weft::runtime::{KernelArg, KernelArgs, KernelSignature, LaunchConfig};

    type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

    /// One f32 buffer of a workload, in kernel-argument order.
    pub enum Buf {
        /// Filled with random values in [-4, 4), never zero.
        Input(usize),
        /// Poisoned with 0xFF bytes (NaN) before the checked run.
        Output(usize),
    }

    /// A host check: inputs and outputs (each in declaration order) -> Ok or what differs.
    pub type Check = Box<dyn Fn(&[Vec<f32>], &[Vec<f32>]) -> std::result::Result<(), String>>;

    /// A kernel to benchmark.
    pub struct Workload {
        /// Row label.
        pub name: String,
        /// Workloads of one group compute the same thing; the summary compares their best.
        pub group: &'static str,
        /// Built by `weft::codegen` (else hand-written PTX).
        pub builder: bool,
        /// PTX text.
        pub ptx: String,
        /// Checked at every launch.
        pub signature: KernelSignature,
        /// Grid, block, dynamic shared memory.
        pub config: LaunchConfig,
        /// f32 buffers, in argument order, before the scalars.
        pub buffers: Vec<Buf>,
        /// Scalar arguments after the buffers.
        pub scalars: Vec<KernelArg>,
        /// Bytes read plus written by one run.
        pub bytes_moved: u64,
        /// Host reference check.
        pub check: Check,
    }

    const COPY_V4: &str = include_str!("../tests/ptx/copy_v4.ptx");
    const SAXPY: &str = include_str!("../tests/ptx/saxpy.ptx");
    const ADD_V4: &str = include_str!("../tests/ptx/add_v4.ptx");
    const COPY_ROWS_V4: &str = include_str!("../tests/ptx/copy_rows_v4.ptx");

    /// The workloads, for `gib` GiB of f32 per tensor.
    pub fn workloads(gib: u64) -> Vec<Workload> {
        let n = (gib << 30) as usize / 4;
        let mut w = Vec::new();

        // Hand-written vectorised copy: the reference point the generated memcpy must match.
        let n4 = n / 4;
        w.push(Workload {
            group: "memcpy",
            builder: false,
            name: format!("memcpy {gib} GiB f32 (hand PTX, v4)"),
            ptx: COPY_V4.into(),
            signature: KernelSignature::parse("copy_v4(*f32, *f32, u64)").expect("valid signature"),
            config: LaunchConfig::new((n4 / 1024) as u32, 256, 0),
            buffers: vec![Buf::Output(n), Buf::Input(n)],
            scalars: vec![KernelArg::U64(n4 as u64)],
            bytes_moved: 2 * 4 * n as u64,
            check: Box::new(|inp, out| first_mismatch(&out[0], |i| inp[0][i])),
        });

        // Three-stream elementwise kernel (two reads, one write), like `add`.
        let a = 1.75f32;
        w.push(Workload {
            group: "saxpy",
            builder: false,
            name: format!("saxpy {gib} GiB f32 x2 -> 1 (hand PTX)"),
            ptx: SAXPY.into(),
            signature: KernelSignature::parse("saxpy(*f32, *f32, *f32, f32, u32)")
                .expect("valid signature"),
            config: LaunchConfig::new((n / 256) as u32, 256, 0),
            buffers: vec![Buf::Output(n), Buf::Input(n), Buf::Input(n)],
            scalars: vec![KernelArg::F32(a), KernelArg::U32(n as u32)],
            bytes_moved: 3 * 4 * n as u64,
            check: Box::new(move |inp, out| {
                first_mismatch(&out[0], |i| a.mul_add(inp[0][i], inp[1][i]))
            }),
        });

        // Vectorised add: the reference point for the generated `add` (target >= 0.97x D2D).
        w.push(Workload {
            group: "add",
            builder: false,
            name: format!("add {gib} GiB f32 x2 -> 1 (hand PTX, v4)"),
            ptx: ADD_V4.into(),
            signature: KernelSignature::parse("add_v4(*f32, *f32, *f32, u64)")
                .expect("valid signature"),
            config: LaunchConfig::new((n4 / 1024) as u32, 256, 0),
            buffers: vec![Buf::Output(n), Buf::Input(n), Buf::Input(n)],
            scalars: vec![KernelArg::U64(n4 as u64)],
            bytes_moved: 3 * 4 * n as u64,
            check: Box::new(|inp, out| first_mismatch(&out[0], |i| inp[0][i] + inp[1][i])),
        });

        // Strided copy x[::2] of a 16K x 32K f32 matrix (2 GiB): the reference for `copy_2d`.
        let (rows, cols) = (16384usize, 32768usize);
        let cols4 = cols / 4;
        w.push(Workload {
            group: "strided",
            builder: false,
            name: "x[::2] of 16Kx32K f32 (hand PTX, v4)".into(),
            ptx: COPY_ROWS_V4.into(),
            signature: KernelSignature::parse("copy_rows_v4(*f32, *f32, u32, u64)")
                .expect("valid signature"),
            config: LaunchConfig::new(((cols4 / 1024) as u32, (rows / 2) as u32, 1), 256, 0),
            buffers: vec![Buf::Output(rows / 2 * cols), Buf::Input(rows * cols)],
            scalars: vec![
                KernelArg::U32(cols4 as u32),
                KernelArg::U64(2 * cols4 as u64),
            ],
            bytes_moved: 2 * 4 * (rows / 2 * cols) as u64,
            check: Box::new(move |inp, out| {
                first_mismatch(&out[0], |i| inp[0][(2 * (i / cols)) * cols + i % cols])
            }),
        });

        #[cfg(feature = "llvm")]
        builder::push_workloads(&mut w, gib);
        w
    }

    /// Kernels made by `weft::codegen` (feature `llvm`), in a few configurations each.
    #[cfg(feature = "llvm")]
    mod builder {
        use super::{first_mismatch, Buf, Workload};
        use weft::codegen::kernels::{self, Tile2d};
        use weft::codegen::{CacheHint, Context, DType, Kernel, KernelBuilder, Target};
        use weft::runtime::{KernelArg, KernelSignature, LaunchConfig};

        /// PTX and the launcher's signature of a builder kernel; panics name the kernel (the
        /// configurations below are fixed and valid).
        pub fn emit(k: &Kernel<'_>) -> (String, KernelSignature, u32) {
            let sig = k.signature();
            let ptx = k.ptx().unwrap_or_else(|e| panic!("{}: PTX: {e}", sig.name));
            let threads = sig
                .threads_per_block
                .expect("builder kernels fix their block size");
            (ptx, sig.clone(), threads)
        }

        /// 1-D configurations tried for memcpy and add: (block, per_thread, num_warps).
        pub const CONFIGS_1D: [(u32, u32, u32); 6] = [
            (1024, 4, 4),
            (2048, 4, 4),
            (4096, 4, 8),
            (2048, 8, 4),
            (4096, 8, 4),
            (4096, 8, 8),
        ];

        /// Tiles tried for the strided copy (16 × 256, 4 warps is Gluon's anchor configuration; an
        /// earlier 8 × 1024 tile with 8 f32 per thread ran at 0.78× the D2D copy).
        pub const TILES: [Tile2d; 6] = [
            Tile2d {
                rows: 16,
                cols: 256,
                per_thread: 4,
                num_warps: 4,
            },
            Tile2d {
                rows: 32,
                cols: 128,
                per_thread: 4,
                num_warps: 4,
            },
            Tile2d {
                rows: 32,
                cols: 256,
                per_thread: 4,
                num_warps: 8,
            },
            Tile2d {
                rows: 4,
                cols: 1024,
                per_thread: 4,
                num_warps: 4,
            },
            Tile2d {
                rows: 8,
                cols: 1024,
                per_thread: 4,
                num_warps: 8,
            },
            Tile2d {
                rows: 8,
                cols: 512,
                per_thread: 4,
                num_warps: 4,
            },
        ];

        /// [`kernels::memcpy_kernel`] (or `add_kernel` when `add`) with a cache hint on every
        /// load and store: the data is touched once, so `.cs` (evict first) may keep L2 free for
        /// the stores' write-back.
        fn hinted(
            ctx: &Context,
            add: bool,
            (block, per_thread, warps): (u32, u32, u32),
            hint: CacheHint,
        ) -> weft::codegen::Result<Kernel<'_>> {
            let t = Target::SM90;
            let name = if add { "add_cs" } else { "memcpy_cs" };
            let mut kb = KernelBuilder::new(ctx, t, name, warps)?;
            let x = kb.arg_ptr("x", DType::F32, 16)?;
            let y = if add {
                Some(kb.arg_ptr("y", DType::F32, 16)?)
            } else {
                None
            };
            let z = kb.arg_ptr("z", DType::F32, 16)?;
            let n = kb.arg_i32("n", 16)?;
            let layout = kernels::blocked_1d(t, per_thread, warps, block)?;
            let pid = kb.program_id(0)?;
            let start = kb.mul(pid, block as i32)?;
            let offs = kb.arange(0, block as i32, &layout)?;
            let offs = kb.add(offs, start)?;
            let mask = kb.lt(offs, n)?;
            let px = kb.add(x, offs)?;
            let mut v = kb.load_with(px, Some(mask), None, hint)?;
            if let Some(y) = y {
                let py = kb.add(y, offs)?;
                let b = kb.load_with(py, Some(mask), None, hint)?;
                v = kb.add(v, b)?;
            }
            let pz = kb.add(z, offs)?;
            kb.store_with(pz, v, Some(mask), hint)?;
            kb.finish()
        }

        pub fn push_workloads(w: &mut Vec<Workload>, gib: u64) {
            let ctx = Context::new();
            let t = Target::SM90;
            let n = (gib << 30) as usize / 4;
            for (block, per_thread, warps) in CONFIGS_1D {
                let k = kernels::memcpy_kernel(&ctx, t, block, per_thread, warps)
                    .expect("memcpy builds");
                let (ptx, signature, threads) = emit(&k);
                w.push(Workload {
                    name: format!(
                        "weft memcpy {gib} GiB f32 (block {block}, spt {per_thread}, nw {warps})"
                    ),
                    group: "memcpy",
                    builder: true,
                    ptx,
                    signature,
                    config: LaunchConfig::new(n.div_ceil(block as usize) as u32, threads, 0),
                    buffers: vec![Buf::Input(n), Buf::Output(n)],
                    scalars: vec![KernelArg::I32(n as i32)],
                    bytes_moved: 2 * 4 * n as u64,
                    check: Box::new(|inp, out| first_mismatch(&out[0], |i| inp[0][i])),
                });
            }
            for (block, per_thread, warps) in CONFIGS_1D {
                let k = kernels::add_kernel(&ctx, t, block, per_thread, warps).expect("add builds");
                let (ptx, signature, threads) = emit(&k);
                w.push(Workload {
                    name: format!(
                        "weft add {gib} GiB f32 x2 -> 1 (block {block}, spt {per_thread}, nw {warps})"
                    ),
                    group: "add",
                    builder: true,
                    ptx,
                    signature,
                    config: LaunchConfig::new(n.div_ceil(block as usize) as u32, threads, 0),
                    buffers: vec![Buf::Input(n), Buf::Input(n), Buf::Output(n)],
                    scalars: vec![KernelArg::I32(n as i32)],
                    bytes_moved: 3 * 4 * n as u64,
                    check: Box::new(|inp, out| {
                        first_mismatch(&out[0], |i| inp[0][i] + inp[1][i])
                    }),
                });
            }
            // The same with `.cs` (streaming) hints, in two configurations each.
            for add in [false, true] {
                for cfg in [(2048, 4, 4), (4096, 8, 4)] {
                    let k = hinted(&ctx, add, cfg, CacheHint::Streaming).expect("hinted builds");
                    let (ptx, signature, threads) = emit(&k);
                    let (block, per_thread, warps) = cfg;
                    let streams = if add { 3 } else { 2 };
                    let mut buffers = vec![Buf::Input(n)];
                    if add {
                        buffers.push(Buf::Input(n));
                    }
                    buffers.push(Buf::Output(n));
                    w.push(Workload {
                        name: format!(
                            "weft {} {gib} GiB f32 .cs hints (block {block}, spt {per_thread}, nw {warps})",
                            if add { "add" } else { "memcpy" }
                        ),
                        group: if add { "add" } else { "memcpy" },
                        builder: true,
                        ptx,
                        signature,
                        config: LaunchConfig::new(n.div_ceil(block as usize) as u32, threads, 0),
                        buffers,
                        scalars: vec![KernelArg::I32(n as i32)],
                        bytes_moved: streams * 4 * n as u64,
                        check: Box::new(move |inp, out| {
                            if add {
                                first_mismatch(&out[0], |i| inp[0][i] + inp[1][i])
                            } else {
                                first_mismatch(&out[0], |i| inp[0][i])
                            }
                        }),
                    });
                }
            }
            // x[::2] of a (16K·gib/2) × 32K matrix: 16K × 32K at the default 2 GiB.
            let cols = 32768usize;
            let rows = ((gib << 30) as usize / 4 / cols).max(2);
            let m_out = rows / 2;
            for tile in TILES {
                let k = kernels::copy_2d_kernel(&ctx, t, tile).expect("copy_2d builds");
                let (ptx, signature, threads) = emit(&k);
                let grid = (
                    cols.div_ceil(tile.cols as usize) as u32,
                    m_out.div_ceil(tile.rows as usize) as u32,
                    1,
                );
                w.push(Workload {
                    name: format!(
                        "weft x[::2] of {}Kx32K f32 (tile {}x{}, spt {}, nw {})",
                        rows / 1024,
                        tile.rows,
                        tile.cols,
                        tile.per_thread,
                        tile.num_warps
                    ),
                    group: "strided",
                    builder: true,
                    ptx,
                    signature,
                    config: LaunchConfig::new(grid, threads, 0),
                    buffers: vec![Buf::Input(rows * cols), Buf::Output(m_out * cols)],
                    scalars: vec![
                        KernelArg::I32(m_out as i32),
                        KernelArg::I32(cols as i32),
                        KernelArg::I32(cols as i32),
                    ],
                    bytes_moved: 2 * 4 * (m_out * cols) as u64,
                    check: Box::new(move |inp, out| {
                        first_mismatch(&out[0], |i| inp[0][(2 * (i / cols)) * cols + i % cols])
                    }),
                });
            }
        }
    }

    /// Compares every element (relative 1e-6, NaN never equal) and names the first difference.
    fn first_mismatch(out: &[f32], want: impl Fn(usize) -> f32) -> std::result::Result<(), String> {
        let bad = out.iter().enumerate().position(|(i, &g)| {
            let w = want(i);
            !approx::relative_eq!(g, w, max_relative = 1e-6)
        });
        match bad {
            None => Ok(()),
            Some(i) => Err(format!("element {i}: got {}, want {}", out[i], want(i))),
        }
    }

    /// Random f32 in [-4, 4), never zero; generated in parallel (SplitMix64 per chunk).
    fn random(n: usize, seed: u64) -> Vec<f32> {
        let mut v = vec![0f32; n];
        let threads = std::thread::available_parallelism().map_or(4, |t| t.get());
        let chunk = n.div_ceil(threads).max(1);
        std::thread::scope(|s| {
            for (c, part) in v.chunks_mut(chunk).enumerate() {
                s.spawn(move || {
                    let mut state = seed ^ ((c as u64 + 1) << 32);
                    for x in part {
                        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                        let mut z = state;
                        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                        z ^= z >> 31;
                        let r = ((z >> 40) as f32 / (1u64 << 24) as f32) * 8.0 - 4.0;
                        *x = if r == 0.0 { 0.5 } else { r };
                    }
                });
            }
        });
        v
    }

    #[cfg(feature = "llvm")]
    fn median(mut v: Vec<f32>) -> f32 {
        v.sort_by(f32::total_cmp);
        v[v.len() / 2]
    }

    fn env_u64(name: &str, default: u64) -> u64 {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    }

    struct Row {
        name: String,
        group: &'static str,
        builder: bool,
        gb: f64,
        weft_ms: f32,
        base_ms: f32,
        load_ms: f64,
        check: String,
    }

    pub fn run() -> Result<()> {
        if !cuda::is_available() {
            println!("bench_gpu measures a GPU's memory bandwidth: no CUDA driver (libcuda.so not found), nothing measured; the other examples check their kernels in the interpreter without a GPU");
            return Ok(());
        }
        let dev = match Device::new(0) {
            Ok(d) => d,
            Err(e) => {
                println!("bench_gpu measures a GPU's memory bandwidth: no usable GPU ({e}), nothing measured");
                return Ok(());
            }
        };
        let p = dev.props();
        let gib = env_u64("WEFT_BENCH_GIB", 2);
        // WEFT_BENCH_ITERS=N: 3 warm-up runs and N timed ones; unset: Triton's time budget
        // (25 ms of warm-up, 100 ms of timed runs). Each timed run follows an L2 flush.
        let options = match std::env::var("WEFT_BENCH_ITERS")
            .ok()
            .and_then(|s| s.parse().ok())
        {
            Some(iters) => BenchOptions::fixed(3, usize::max(iters, 1)),
            None => BenchOptions::default(),
        };
        let runs = match options.fixed {
            Some((warmup, iters)) => format!("warm-up {warmup}, median of {iters}"),
            None => format!(
                "warm-up {} ms, median of the runs in {} ms",
                options.warmup_ms, options.rep_ms
            ),
        };
        println!(
            "# bench_gpu on {} ({}, {} SMs, driver CUDA {}.{}, theoretical {:.0} GB/s), {gib} GiB per tensor, {runs}, L2 flushed before each timed run",
            p.name,
            p.arch(),
            p.sm_count,
            p.driver_version.0,
            p.driver_version.1,
            p.peak_bandwidth_gbs()
        );
        let stream = dev.stream();
        let bencher = Bencher::new(&stream, &options)?;
        let mut rows = Vec::new();
        // WEFT_BENCH_DUMP=dir: write each builder kernel's PTX there (for ptxas + cuobjdump -sass).
        let dump = std::env::var("WEFT_BENCH_DUMP").ok();
        for (wi, w) in workloads(gib).into_iter().enumerate() {
            if let (Some(dir), true) = (&dump, w.builder) {
                std::fs::write(format!("{dir}/{wi:02}_{}.ptx", w.group), &w.ptx)?;
            }
            let t = Instant::now();
            let kernel = dev.load_ptx(&w.ptx)?.kernel(w.signature.clone())?;
            let load_ms = t.elapsed().as_secs_f64() * 1e3;

            let mut inputs = Vec::new();
            let mut bufs: Vec<Buffer<f32>> = Vec::new();
            for (bi, b) in w.buffers.iter().enumerate() {
                match *b {
                    Buf::Input(len) => {
                        let host = random(len, (wi * 16 + bi) as u64 + 1);
                        bufs.push(dev.upload(&host)?);
                        inputs.push(host);
                    }
                    Buf::Output(len) => {
                        let mut d = dev.alloc::<f32>(len)?;
                        d.fill_bytes(0xFF)?;
                        bufs.push(d);
                    }
                }
            }
            let mut args = KernelArgs::new();
            for b in &bufs {
                args.ptr(b);
            }
            for s in &w.scalars {
                args.push(*s);
            }

            // Checked run.
            // SAFETY: each workload's kernel stays inside the buffers declared with it (their lengths
            // and the scalars are set together in `workloads`).
            unsafe { stream.launch(&kernel, &w.config, &args)? };
            stream.synchronize()?;
            let mut outputs = Vec::new();
            for (b, d) in w.buffers.iter().zip(&bufs) {
                if let Buf::Output(_) = b {
                    outputs.push(d.to_vec()?);
                }
            }
            let check = match (w.check)(&inputs, &outputs) {
                Ok(()) => "ok".to_string(),
                Err(e) => format!("FAIL: {e}"),
            };
            drop((inputs, outputs));

            // Baseline: a device-to-device copy of half the bytes (read + write = bytes_moved),
            // timed by the same bencher right after the kernel.
            let half = (w.bytes_moved / 2) as usize;
            let mut src = dev.alloc::<u8>(half)?;
            src.fill_bytes(0x3c)?;
            let mut dst = dev.alloc::<u8>(half)?;
            // SAFETY: as for the checked run.
            let weft = bencher.run(|s| unsafe { s.launch(&kernel, &w.config, &args) })?;
            let base = bencher.run(|s| s.copy_async(&src, &mut dst))?;
            stream.synchronize()?;
            rows.push(Row {
                name: w.name,
                group: w.group,
                builder: w.builder,
                gb: w.bytes_moved as f64 / 1e9,
                weft_ms: weft.median as f32,
                base_ms: base.median as f32,
                load_ms,
                check,
            });
        }

        println!();
        println!("| workload | GB moved | weft GB/s | baseline D2D GB/s | ratio | weft ms | D2D ms | load+JIT ms | check |");
        println!("|---|---|---|---|---|---|---|---|---|");
        for r in &rows {
            let (w, b) = (
                r.gb / (r.weft_ms as f64 * 1e-3),
                r.gb / (r.base_ms as f64 * 1e-3),
            );
            println!(
                "| {} | {:.2} | {:.0} | {:.0} | {:.3} | {:.3} | {:.3} | {:.1} | {} |",
                r.name,
                r.gb,
                w,
                b,
                w / b,
                r.weft_ms,
                r.base_ms,
                r.load_ms,
                r.check
            );
        }
        summary(&rows);
        #[cfg(feature = "llvm")]
        latency(&dev)?;
        if rows.iter().any(|r| r.check != "ok") {
            return Err("a workload failed its host check".into());
        }
        Ok(())
    }

    /// Per group: the best builder configuration against the same-run D2D copy and against the
    /// hand-written PTX kernel (ratios of GB/s; each row's D2D is measured interleaved with it).
    fn summary(rows: &[Row]) {
        let rate = |r: &Row| r.gb / (r.weft_ms as f64 * 1e-3);
        let d2d = |r: &Row| r.gb / (r.base_ms as f64 * 1e-3);
        println!();
        println!("| group | best weft config | weft GB/s | D2D GB/s (same run) | weft / D2D | hand PTX GB/s | weft / hand |");
        println!("|---|---|---|---|---|---|---|");
        for g in ["memcpy", "add", "strided"] {
            let best = rows
                .iter()
                .filter(|r| r.group == g && r.builder && r.check == "ok")
                .max_by(|a, b| rate(a).total_cmp(&rate(b)));
            let hand = rows.iter().find(|r| r.group == g && !r.builder);
            if let Some(b) = best {
                let (h, hr) = match hand {
                    Some(h) => (
                        format!("{:.0}", rate(h)),
                        format!("{:.3}", rate(b) / rate(h)),
                    ),
                    None => ("-".into(), "-".into()),
                };
                println!(
                    "| {g} | {} | {:.0} | {:.0} | {:.3} | {h} | {hr} |",
                    b.name,
                    rate(b),
                    d2d(b),
                    rate(b) / d2d(b)
                );
            }
        }
    }

    /// End to end, builder → loaded kernel for the memcpy: build (LLVM → PTX), then load (driver
    /// PTX JIT) and look up the kernel. The first round is cold (LLVM target set-up, first module
    /// load); the median is over the rest. Each round builds a fresh context and a kernel of a
    /// different block size, so no PTX text repeats within the process (set CUDA_CACHE_DISABLE=1
    /// to keep the driver's on-disk JIT cache out of it too).
    #[cfg(feature = "llvm")]
    fn latency(dev: &Device) -> Result<()> {
        use weft::codegen::{kernels, Context, Target};
        // Distinct configurations (and so distinct PTX) per round.
        let configs = [
            (1024, 4, 4),
            (2048, 4, 4),
            (4096, 4, 4),
            (1024, 4, 8),
            (2048, 4, 8),
            (4096, 4, 8),
            (4096, 8, 4),
        ];
        let rounds = configs.len();
        let (mut build, mut load) = (Vec::new(), Vec::new());
        for (block, per_thread, warps) in configs {
            let t0 = Instant::now();
            let ctx = Context::new();
            let k = kernels::memcpy_kernel(&ctx, Target::SM90, block, per_thread, warps)?;
            let (ptx, sig, _) = builder::emit(&k);
            let t1 = Instant::now();
            let kernel = dev.load_ptx(&ptx)?.kernel(sig)?;
            let t2 = Instant::now();
            drop(kernel);
            build.push((t1 - t0).as_secs_f32() * 1e3);
            load.push((t2 - t1).as_secs_f32() * 1e3);
        }
        let total: Vec<f32> = build.iter().zip(&load).map(|(a, b)| a + b).collect();
        println!();
        println!(
            "# end to end builder -> loaded memcpy kernel (CUDA_CACHE_DISABLE={}), ms: build = builder + LLVM -> PTX, load = cuModuleLoadData (PTX JIT) + lookup",
            std::env::var("CUDA_CACHE_DISABLE").unwrap_or_else(|_| "unset".into())
        );
        println!("| | build ms | load+JIT ms | total ms |");
        println!("|---|---|---|---|");
        println!(
            "| cold (first in process) | {:.1} | {:.1} | {:.1} |",
            build[0], load[0], total[0]
        );
        println!(
            "| warm, median of {} | {:.1} | {:.1} | {:.1} |",
            rounds - 1,
            median(build[1..].to_vec()),
            median(load[1..].to_vec()),
            median(total[1..].to_vec())
        );
        Ok(())
    }
}
