//! A framework-shaped program running ahead-of-time weft kernels on its own memory and stream,
//! with no copy, and linking no LLVM.
//!
//! - `build.rs` built the kernels (weft's builder, a build dependency) into a bundle: PTX and each
//!   kernel's signature. This binary embeds it with `include_bytes!` and depends on weft with the
//!   `cuda` feature only.
//! - The "framework" ([`engine`]) owns its CUDA context, stream and tensors through its own
//!   cudarc, version 0.17 (weft is built on 0.19): nothing of the two versions meets.
//! - The glue ([`ops`]) hands weft raw handles: the stream as a `CUstream`
//!   (`cuda::Stream::from_raw`), each tensor as a `RawBuffer` (address, length, and the tensor's
//!   storage as the owner kept alive), and builds the GEMM's TMA descriptors over them. Launches
//!   are checked against the bundled signatures.
//!
//! ```sh
//! cargo run --release --manifest-path examples/aot/Cargo.toml            # add + GEMM, checked
//! cargo run --release --manifest-path examples/aot/Cargo.toml -- --cache-timing
//! ```
//! `--cache-timing` loads the GEMM kernel through weft's persistent cache (`WEFT_CACHE_DIR`) and
//! times it against the driver JIT of the same PTX: the first process compiles and stores a cubin
//! (cold), the next loads it (warm). Set `CUDA_CACHE_DISABLE=1` so the driver's own JIT cache
//! does not hide the JIT. Without a GPU it prints the bundle and says why it skipped.

use std::process::ExitCode;
use std::time::Instant;

use weft::runtime::cuda::{self, DiskCache};
use weft::runtime::{Bundle, RuntimeError};

mod meta {
    include!(concat!(env!("OUT_DIR"), "/meta.rs"));
}

/// The kernels built by `build.rs`.
static BUNDLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/kernels.weftbundle"));

type Error = Box<dyn std::error::Error>;

/// The framework: a context, a stream and tensors, made with its own cudarc.
mod engine {
    use std::sync::Arc;

    use cudarc::driver::{CudaContext, CudaSlice, CudaStream, DevicePtr, DeviceRepr};

    /// One GPU's context and the stream all work goes to.
    pub struct Engine {
        pub stream: Arc<CudaStream>,
        _ctx: Arc<CudaContext>,
    }

    /// A 1-D or 2-D tensor in device memory, shared by reference count.
    pub struct Tensor<T> {
        pub storage: Arc<CudaSlice<T>>,
        pub len: usize,
    }

    impl Engine {
        /// The primary context of GPU 0 (as candle, cudarc and the runtime API use).
        pub fn new() -> Result<Engine, super::Error> {
            let ctx = CudaContext::new(0)?;
            let stream = ctx.new_stream()?;
            Ok(Engine { stream, _ctx: ctx })
        }

        pub fn from_host<T: DeviceRepr>(&self, data: &[T]) -> Result<Tensor<T>, super::Error> {
            let storage = self.stream.memcpy_stod(data)?;
            Ok(Tensor {
                storage: Arc::new(storage),
                len: data.len(),
            })
        }

        pub fn to_host<T: DeviceRepr + Default + Clone>(
            &self,
            t: &Tensor<T>,
        ) -> Result<Vec<T>, super::Error> {
            Ok(self.stream.memcpy_dtov(t.storage.as_ref())?)
        }

        /// The device address of a tensor's first element.
        pub fn addr<T>(&self, t: &Tensor<T>) -> u64 {
            let (ptr, _sync) = t.storage.device_ptr(&self.stream);
            ptr
        }
    }
}

/// The glue a framework writes once: its tensors and stream as weft's raw handles.
mod ops {
    use std::ffi::c_void;

    use weft::runtime::cuda::{self, TensorMap};
    use weft::runtime::prelude::*;
    use weft::runtime::{
        Bundle, DeviceElem, KernelArgs, KernelSignature, LaunchConfig, ParamType, RawBuffer,
    };

    use super::engine::{Engine, Tensor};
    use super::Error;

    /// weft's view of the framework's GPU and stream, with the kernels it loaded.
    pub struct Ops {
        pub dev: cuda::Device,
        pub stream: cuda::Stream,
        pub add: cuda::Kernel,
        pub gemm: Option<cuda::Kernel>,
    }

    /// A tensor as a weft buffer of `T`: the same memory, with the storage kept alive.
    pub fn raw<T: DeviceElem, U: Send + Sync + 'static>(
        engine: &Engine,
        t: &Tensor<U>,
    ) -> RawBuffer<T> {
        let bytes = t.len * std::mem::size_of::<U>();
        RawBuffer::from_raw_parts(
            engine.addr(t),
            bytes / std::mem::size_of::<T>(),
            t.storage.clone(),
        )
    }

    impl Ops {
        /// weft on the framework's stream. `dev` is GPU 0's primary context, which the
        /// framework's cudarc context is too.
        pub fn new(dev: cuda::Device, engine: &Engine, bundle: &Bundle) -> Result<Ops, Error> {
            // SAFETY: the framework's stream outlives `Ops` (both live in `main`'s scope, `Ops`
            // is dropped first).
            let stream =
                unsafe { cuda::Stream::from_raw(&dev, engine.stream.cu_stream() as *mut c_void)? };
            let add = dev.load_bundled(bundle, "add")?;
            // The GEMM's image is sm_90a PTX: other GPUs get a clear error, not a crash.
            let gemm = match dev.load_bundled(bundle, "gemm_nn") {
                Ok(k) => Some(k),
                Err(e) => {
                    println!("gemm_nn not loaded: {e}");
                    None
                }
            };
            Ok(Ops {
                dev,
                stream,
                add,
                gemm,
            })
        }

        /// `z = x + y` over the framework's tensors, in place in `z`'s memory.
        pub fn add(
            &self,
            engine: &Engine,
            x: &Tensor<f32>,
            y: &Tensor<f32>,
            z: &Tensor<f32>,
        ) -> Result<(), Error> {
            let n = x.len.min(y.len).min(z.len);
            let x = raw::<f32, _>(engine, x);
            let y = raw::<f32, _>(engine, y);
            let z = raw::<f32, _>(engine, z);
            let mut args = KernelArgs::new();
            args.ptr(&x).ptr(&y).ptr(&z).scalar(i32::try_from(n)?);
            let sig = self.add.signature();
            let block = sig.threads_per_block.unwrap_or(128);
            let cfg = LaunchConfig::for_items(n as u64, super::meta::ADD_BLOCK, block)?;
            // SAFETY: `add` touches x, y, z [0, n) only, and each holds at least n elements.
            unsafe { self.stream.launch(&self.add, &cfg, &args)? };
            Ok(())
        }

        /// `C = A · B` (f16, row-major `[m, k]` · `[k, n]`) over the framework's tensors; the
        /// TMA boxes and swizzle come from the bundled signature.
        pub fn gemm(
            &self,
            engine: &Engine,
            (a, b, c): (&Tensor<u16>, &Tensor<u16>, &Tensor<u16>),
            (m, n, k): (u64, u64, u64),
        ) -> Result<(), Error> {
            let kernel = self.gemm.as_ref().ok_or("no GEMM kernel for this GPU")?;
            let sig = kernel.signature();
            let boxes = tensor_map_boxes(sig)?;
            let (ra, rb, rc) = (
                raw::<weft::runtime::f16, _>(engine, a),
                raw::<weft::runtime::f16, _>(engine, b),
                raw::<weft::runtime::f16, _>(engine, c),
            );
            let a_map = TensorMap::tiled(&ra, &[m, k], &[k], &boxes[0].0, boxes[0].1)?;
            let b_map = TensorMap::tiled(&rb, &[k, n], &[n], &boxes[1].0, boxes[1].1)?;
            let c_map = TensorMap::tiled(&rc, &[m, n], &[n], &boxes[2].0, boxes[2].1)?;
            let mut args = KernelArgs::new();
            args.tensor_map(&a_map)
                .tensor_map(&b_map)
                .tensor_map(&c_map)
                .scalar(i32::try_from(m)?)
                .scalar(i32::try_from(n)?)
                .scalar(i32::try_from(k)?);
            let (tm, tn) = super::meta::GEMM_TILE;
            let tiles = u32::try_from(m.div_ceil(tm) * n.div_ceil(tn))?;
            let cfg = LaunchConfig::for_kernel(tiles, sig)?;
            // SAFETY: the kernel reaches A, B and C only through the maps, which cover them.
            unsafe { self.stream.launch(kernel, &cfg, &args)? };
            Ok(())
        }

        /// The device's name.
        pub fn name(&self) -> &str {
            self.dev.name()
        }
    }

    /// The box and swizzle of each tensor-map parameter, in order.
    fn tensor_map_boxes(sig: &KernelSignature) -> Result<Vec<([u32; 2], u16)>, Error> {
        let boxes: Vec<([u32; 2], u16)> = sig
            .params
            .iter()
            .filter_map(|p| match p.ty {
                ParamType::TensorMap(Some(s)) if s.rank == 2 => {
                    Some(([s.box_dims[0], s.box_dims[1]], s.swizzle))
                }
                _ => None,
            })
            .collect();
        if boxes.len() != 3 {
            return Err(format!("`{sig}` does not take three 2-D tensor maps").into());
        }
        Ok(boxes)
    }
}

/// Values on a grid of 1/8 in [-2, 2): exact in f16, so only C's rounding differs from the host.
/// A multiplicative hash of the index spreads them without a random-number generator.
fn grid_values(n: usize, seed: u64) -> Vec<f32> {
    (0..n as u64)
        .map(|i| ((i ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 59) as f32 / 8.0 - 2.0)
        .collect()
}

fn f16_bits(x: &[f32]) -> Vec<u16> {
    x.iter().map(|&v| half::f16::from_f32(v).to_bits()).collect()
}

/// Runs add and the GEMM on the framework's tensors and checks them against the host.
fn check_kernels(engine: &engine::Engine, ops: &ops::Ops) -> Result<bool, Error> {
    // A multiple of 16: the bundled signature promises `n: i32 {divisibility = 16}`.
    let n = 10_000_000usize;
    let x: Vec<f32> = (0..n).map(|i| (i % 1013) as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 977) as f32 * -0.25).collect();
    let (dx, dy) = (engine.from_host(&x)?, engine.from_host(&y)?);
    let dz = engine.from_host(&vec![f32::NAN; n])?;
    let before = engine.addr(&dz);
    ops.add(engine, &dx, &dy, &dz)?;
    let z = engine.to_host(&dz)?;
    let add_bad = z.iter().zip(x.iter().zip(&y)).filter(|(z, (x, y))| **z != *x + *y).count();
    println!(
        "add, {n} f32 on the framework's stream: {} wrong; result read by the framework from its \
         own tensor at {before:#x} (no copy)",
        add_bad
    );
    let mut ok = add_bad == 0 && engine.addr(&dz) == before;

    if ops.gemm.is_some() {
        let (m, n, k) = (1000usize, 776usize, 528usize);
        let (a, b) = (grid_values(m * k, 3), grid_values(k * n, 4));
        let (da, db) = (engine.from_host(&f16_bits(&a))?, engine.from_host(&f16_bits(&b))?);
        let dc = engine.from_host(&vec![0xFFFFu16; m * n])?;
        ops.gemm(engine, (&da, &db, &dc), (m as u64, n as u64, k as u64))?;
        let c = engine.to_host(&dc)?;
        let mut worst = 0f32;
        let mut bad = 0usize;
        for i in 0..m {
            for j in 0..n {
                let want: f32 = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
                let got = half::f16::from_bits(c[i * n + j]).to_f32();
                let err = (got - want).abs();
                if err.is_nan() || err > want.abs() * 2f32.powi(-10) + 1e-3 {
                    bad += 1;
                }
                worst = worst.max(err);
            }
        }
        println!("gemm_nn {m}x{n}x{k} f16 through TMA maps of the framework's tensors: {bad} wrong, max error {worst}");
        ok &= bad == 0;
    }
    Ok(ok)
}

/// Loads the GEMM through the persistent cache and times it against the driver's JIT.
fn cache_timing(dev: &cuda::Device, bundle: &Bundle) -> Result<(), Error> {
    let name = "gemm_nn";
    let cache = DiskCache::from_env()?;
    let t = Instant::now();
    let loaded = cache.load_bundled(dev, bundle, name)?;
    let cached_ms = t.elapsed().as_secs_f64() * 1e3;
    if let Some(e) = &loaded.store_error {
        println!("the cubin was not stored: {e}");
    }
    let entry = bundle.select(name, weft::runtime::Device::target(dev)?)?;
    let t = Instant::now();
    let jit = dev.load_ptx(entry.ptx()?)?;
    let _kernel = weft::runtime::Module::kernel(&jit, entry.signature.clone())?;
    let jit_ms = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "{name}: load through the cache ({:?}) {cached_ms:.2} ms; driver JIT of the same PTX \
         {jit_ms:.2} ms; cache folder {}",
        loaded.source,
        cache.dir().display()
    );
    Ok(())
}

fn run() -> Result<bool, Error> {
    let bundle = Bundle::from_bytes(BUNDLE)?;
    for e in bundle.entries() {
        println!("bundled: {} for {} ({}, {} bytes): {}", e.name(), e.target, e.kind, e.image.len(), e.signature);
    }
    // weft first: without a driver it says so, where the framework's cudarc would panic.
    let t = Instant::now();
    let dev = cuda::Device::new(0)?;
    println!(
        "{}: context in {:.1} ms",
        weft::runtime::Device::name(&dev),
        t.elapsed().as_secs_f64() * 1e3
    );
    if std::env::args().any(|a| a == "--cache-timing") {
        cache_timing(&dev, &bundle)?;
        return Ok(true);
    }
    let engine = engine::Engine::new()?;
    let ops = ops::Ops::new(dev, &engine, &bundle)?;
    println!("running on {}", ops.name());
    check_kernels(&engine, &ops)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("FAILED: a result differs from the host reference");
            ExitCode::FAILURE
        }
        Err(e) => match e.downcast_ref::<RuntimeError>() {
            Some(RuntimeError::NoDriver { .. } | RuntimeError::NoDevice { .. }) => {
                println!("skipped: {e}");
                ExitCode::SUCCESS
            }
            _ => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}
