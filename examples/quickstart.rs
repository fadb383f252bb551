//! quickstart: build a kernel, print its layout, LLVM IR and PTX, and run it when a GPU is there.
//!
//! `cargo run --example quickstart --features llvm` (add `cuda` to run it on an NVIDIA GPU).
//!
//! The kernel scales a vector: `y[i] = a * x[i]`. Everything about how threads map to elements
//! is in one linear layout: register bits step 1, 2 (4 consecutive f32 per thread, one 16-byte
//! vector), lane bits step 4 … 64, warp bits step 128, 256.
use weft::codegen::kernels::blocked_1d;
use weft::codegen::{Context, DType, KernelBuilder, OptLevel, Target};

const BLOCK: u32 = 512;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::Sm90;
    let layout = blocked_1d(target, 4, 4, BLOCK)?;
    println!("// layout of the tile:\n// {layout:?}\n");

    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, target, "scale", 4)?;
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let a = kb.arg_f32("a")?;
    let n = kb.arg_i32("n", 16)?;
    let pid = kb.program_id(0)?;
    let start = kb.mul(pid, BLOCK as i32)?;
    let offs = kb.arange(0, BLOCK as i32, &layout)?;
    let offs = kb.add(offs, start)?;
    let mask = kb.lt(offs, n)?;
    let px = kb.add(x, offs)?;
    let v = kb.load(px, Some(mask), None)?;
    let v = kb.mul(v, a)?;
    let py = kb.add(y, offs)?;
    kb.store(py, v, Some(mask))?;
    let kernel = kb.finish()?;

    println!("// signature: {}\n", kernel.signature());
    println!("{}", kernel.llvm_ir_opt(OptLevel::O3)?);
    let ptx = kernel.ptx()?;
    println!("{ptx}");
    run_on_gpu(&ptx, kernel.signature())?;
    Ok(())
}

/// HOOK(runtime): launch `ptx` through `weft::runtime::cuda` (feature `cuda`, written
/// separately) and compare with a host reference. Until the runtime lands this only says so.
#[cfg(feature = "cuda")]
fn run_on_gpu(
    _ptx: &str,
    sig: &weft::codegen::KernelSignature,
) -> Result<(), Box<dyn std::error::Error>> {
    // Intended shape, once `weft::runtime::cuda` exists:
    //   let dev = weft::runtime::cuda::Device::open(0)?;          // Err (no panic) without a GPU
    //   let module = dev.load_ptx(ptx)?; let f = module.function(sig)?;
    //   let n = 1 << 20; x = random, y = poisoned; launch grid n / BLOCK, block sig.threads_per_block
    //   check y == a * x on the host.
    println!(
        "// {}: GPU run pending weft::runtime::cuda (see the HOOK in examples/quickstart.rs)",
        sig.name
    );
    Ok(())
}

#[cfg(not(feature = "cuda"))]
fn run_on_gpu(
    _ptx: &str,
    sig: &weft::codegen::KernelSignature,
) -> Result<(), Box<dyn std::error::Error>> {
    println!("// {}: built without feature `cuda`, not run", sig.name);
    Ok(())
}
