//! quickstart: build a kernel, print its layout, tile IR, LLVM IR and PTX, and run it: on a GPU
//! when there is one, else in the interpreter.
//!
//! `cargo run --example quickstart --features llvm` runs it in weft's interpreter (no GPU needed)
//! and checks it against the host; add `cuda` to run it on an NVIDIA GPU when there is one
//! (`-- --small` for a quick run, e.g. under compute-sanitizer).
//!
//! The kernel scales a vector: `y[i] = a * x[i]`. Everything about how threads map to elements
//! is in one layout, Gluon's `BlockedLayout([4], [32], [4], [0])`: laid out for 512 elements, its
//! register bits step 1, 2 (4 consecutive f32 per thread, one 16-byte vector), lane bits step
//! 4 … 64, warp bits step 128, 256.
use weft::codegen::{Context, DType, KernelBuilder, OptLevel, Target};
use weft::layout::encoding::{Blocked, Encoding};
use weft::runtime::prelude::*;

const BLOCK: u32 = 512;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::SM90;
    let blocked = Blocked::new(&[4], &[target.warp_size()], &[4], &[0]);
    let layout = Encoding::from(blocked.clone()).to_linear_layout(&[BLOCK as u64])?;
    // Triton's bases dump: where each register, lane and warp bit lands in the tile.
    println!("// layout of the tile (register/lane/warp -> dim0):");
    for line in layout.to_string().lines().filter(|l| !l.is_empty()) {
        println!("// {line}");
    }
    println!();

    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, target, "scale", 4)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let a = kb.arg_f32("a")?;
    let n = kb.arg_i32("n", 16)?;
    let pid = kb.program_id(0)?;
    let start = kb.mul(pid, BLOCK as i32)?;
    // The builder lays the encoding out for the tile's shape (the layout printed above).
    let offs = kb.arange(0, BLOCK as i32, &blocked)?;
    let offs = kb.add(offs, start)?;
    let mask = kb.lt(offs, n)?;
    let px = kb.add(x, offs)?;
    let v = kb.load(px, Some(mask), None)?;
    let v = kb.mul(v, a)?;
    let py = kb.add(y, offs)?;
    kb.store(py, v, Some(mask))?;
    let kernel = kb.finish()?;

    println!("// signature: {}\n", kernel.signature());
    // The tile IR the builder recorded: one op a line, layouts as aliases, each op's source line.
    println!("{}", kernel.program().to_text(true));
    println!("{}", kernel.llvm_ir_opt(OptLevel::O3)?);
    let ptx = kernel.ptx()?;
    println!("{ptx}");

    // On a GPU: 16 Mi + 48 elements (a ragged last block, so the mask matters); `--small` (or
    // `WEFT_SMALL=1`) runs 4 Ki + 48, for compute-sanitizer. Without one: the interpreter runs
    // the same kernel on 4 Ki + 48.
    #[cfg(feature = "cuda")]
    if let Some(dev) = gpu() {
        let small = std::env::args().any(|a| a == "--small")
            || std::env::var("WEFT_SMALL").is_ok_and(|v| v == "1");
        let n: usize = if small { 4096 + 48 } else { (1 << 24) + 48 };
        let (a, err) = run::<weft::runtime::cuda::Cuda>(&dev, &kernel, n)?;
        println!(
            "// scale on {} ({}): y = {a} * x for n = {n}: every element matches the host (max rel err {err:.1e})",
            dev.props().name,
            dev.arch()
        );
        return Ok(());
    }
    let dev = weft::runtime::cpu::Device::new(target)?;
    let n = 4096 + 48;
    let (a, err) = run::<weft::runtime::cpu::Cpu>(&dev, &kernel, n)?;
    println!(
        "checked in the interpreter (no GPU): scale y = {a} * x of {n} f32 (a ragged last block), max rel err {err:.1e}"
    );
    Ok(())
}

/// The first CUDA GPU, or `None` (saying why) without a driver or device.
#[cfg(feature = "cuda")]
fn gpu() -> Option<weft::runtime::cuda::Device> {
    use weft::runtime::cuda::{self, Device};
    if !cuda::is_available() {
        println!("// no CUDA driver (libcuda.so not found): running in the interpreter");
        return None;
    }
    Device::new(0)
        .map_err(|e| println!("// no usable GPU ({e}): running in the interpreter"))
        .ok()
}

/// Runs `kernel` on `dev` (any backend: a GPU, or the interpreter): random `x` (never zero),
/// poisoned `y` (NaN bytes), then `y == a * x` checked element by element on the host. Returns
/// `a` and the largest relative error; an element off by more than 1e-6 is an error.
fn run<B: weft::runtime::Backend>(
    dev: &B::Device,
    kernel: &weft::codegen::Kernel<'_>,
    n: usize,
) -> Result<(f32, f32), Box<dyn std::error::Error>> {
    use weft::runtime::{KernelArgs, LaunchConfig};

    // Random input in [-4, 4), never zero (SplitMix64), and a random scale factor.
    let mut state = 0x5EED_u64;
    let mut rand = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let r = (((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32) * 8.0 - 4.0;
        if r == 0.0 {
            0.5
        } else {
            r
        }
    };
    let x: Vec<f32> = (0..n).map(|_| rand()).collect();
    let a = rand();

    // The launcher checks each launch against the kernel's signature: argument types, the 16-byte
    // alignment the vector accesses assume, and the block size the code was built for.
    let sig = kernel.signature();
    let loaded = kernel.load_on::<B>(dev)?;
    let dx = dev.upload(&x)?;
    let mut dy = dev.alloc::<f32>(n)?;
    dy.fill_bytes(0xFF)?;
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(a).scalar(n as i32);
    let cfg = LaunchConfig::for_kernel(n.div_ceil(BLOCK as usize) as u32, sig)?;
    let stream = dev.stream();
    // SAFETY: `scale` reads x[0..n) and writes y[0..n) only (masked by n); both hold n elements,
    // and n is a multiple of 16 as the kernel declares.
    unsafe { stream.launch(&loaded, &cfg, &args)? };
    stream.synchronize()?;
    let y = dy.to_vec()?;
    let mut worst = 0f32;
    let mut bad = 0;
    for (&x, &y) in x.iter().zip(&y) {
        let rel = (y - a * x).abs() / (a * x).abs();
        if rel.is_nan() || rel > 1e-6 {
            bad += 1;
        }
        worst = worst.max(rel);
    }
    if bad > 0 {
        return Err(format!("{bad} of {n} elements differ from the host reference").into());
    }
    Ok((a, worst))
}
