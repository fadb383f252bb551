//! GPU memory-bandwidth benchmark: each workload next to a `cuMemcpyDtoD` baseline moving the same
//! bytes, measured in the same run, interleaved iteration by iteration.
//!
//! ```sh
//! cargo build --release --features cuda --example bench_gpu
//! target/release/examples/bench_gpu            # WEFT_BENCH_GIB=2 WEFT_BENCH_ITERS=20 by default
//! ```
//! Every workload is first run once on random inputs with poisoned outputs and checked element by
//! element against a host reference; then timed with CUDA events (warm-up, then the median of
//! `WEFT_BENCH_ITERS` runs). GB/s counts bytes read plus bytes written.
//!
//! Adding a workload (e.g. a kernel from `weft::codegen`, which yields PTX text and a signature):
//! push a [`Workload`] in [`workloads`]: name, PTX, signature, launch configuration, its f32 buffers
//! in argument order (random inputs, poisoned outputs), trailing scalars, bytes moved and a host
//! check.

#[cfg(not(feature = "cuda"))]
fn main() {
    println!("SKIP: bench_gpu needs the `cuda` feature (cargo run --release --features cuda --example bench_gpu)");
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

    use weft::runtime::cuda::{self, Buffer, Device};
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

        // Kernels from weft::codegen go here, e.g.
        // w.push(Workload { name: "memcpy (codegen)".into(), ptx: built.ptx, signature: built.signature, .. });
        w
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
        gb: f64,
        weft_ms: f32,
        base_ms: f32,
        load_ms: f64,
        check: String,
    }

    pub fn run() -> Result<()> {
        if !cuda::is_available() {
            println!("SKIP: no CUDA driver (libcuda.so not found)");
            return Ok(());
        }
        let dev = match Device::new(0) {
            Ok(d) => d,
            Err(e) => {
                println!("SKIP: no usable GPU: {e}");
                return Ok(());
            }
        };
        let p = dev.props();
        let gib = env_u64("WEFT_BENCH_GIB", 2);
        let iters = env_u64("WEFT_BENCH_ITERS", 20).max(1) as usize;
        let warmup = 3;
        println!(
            "# bench_gpu on {} ({}, {} SMs, driver CUDA {}.{}, theoretical {:.0} GB/s), {gib} GiB per tensor, warm-up {warmup}, median of {iters}",
            p.name,
            p.target(),
            p.sm_count,
            p.driver_version.0,
            p.driver_version.1,
            p.peak_bandwidth_gbs()
        );
        let stream = dev.stream();
        let mut rows = Vec::new();
        for (wi, w) in workloads(gib).into_iter().enumerate() {
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

            // Baseline: a device-to-device copy of half the bytes (read + write = bytes_moved).
            let half = (w.bytes_moved / 2) as usize;
            let mut src = dev.alloc::<u8>(half)?;
            src.fill_bytes(0x3c)?;
            let mut dst = dev.alloc::<u8>(half)?;
            for _ in 0..warmup {
                stream.copy_async(&src, &mut dst)?;
                // SAFETY: as for the checked run.
                unsafe { stream.launch(&kernel, &w.config, &args)? };
            }
            let (mut weft, mut base) = (Vec::new(), Vec::new());
            for _ in 0..iters {
                let e0 = stream.record()?;
                stream.copy_async(&src, &mut dst)?;
                let e1 = stream.record()?;
                // SAFETY: as for the checked run.
                unsafe { stream.launch(&kernel, &w.config, &args)? };
                let e2 = stream.record()?;
                base.push(e0.elapsed_ms(&e1)?);
                weft.push(e1.elapsed_ms(&e2)?);
            }
            stream.synchronize()?;
            rows.push(Row {
                name: w.name,
                gb: w.bytes_moved as f64 / 1e9,
                weft_ms: median(weft),
                base_ms: median(base),
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
        if rows.iter().any(|r| r.check != "ok") {
            return Err("a workload failed its host check".into());
        }
        Ok(())
    }
}
