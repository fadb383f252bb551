//! add: `z = x + y` elementwise over f32, vectorised like memcpy. Prints the LLVM IR and PTX,
//! then runs the kernel and checks it against the host: on an NVIDIA GPU when there is one
//! (feature `cuda`), else in weft's interpreter.
//!
//! `cargo run --example add --features llvm [-- sm_80|sm_90|sm_90a]`
//! (with `--features amdgpu`: `-- gfx90a|gfx942|gfx950` prints AMDGPU assembly instead of PTX)
//!
//! The kernel is [`weft::codegen::kernels::add_kernel`]; this file shows the same kernel
//! written out, so the builder calls can be read in one place.
mod common;

use common::Result;
use weft::codegen::kernels::blocked_1d;
use weft::codegen::{Context, DType, Kernel, KernelBuilder, OptLevel};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

/// f32 per CTA.
const BLOCK: u32 = 1024;

fn main() -> Result<()> {
    let target = common::target_arg()?;
    let (block, per_thread, num_warps) = (BLOCK, 4, 4);
    let ctx = Context::new();
    let mut kb = KernelBuilder::new(&ctx, target, "add", num_warps)?;
    // Parameters: 16-byte aligned pointers, and a length that is a multiple of 16.
    let x = kb.arg_ptr("x", DType::F32, 16)?;
    let y = kb.arg_ptr("y", DType::F32, 16)?;
    let z = kb.arg_ptr("z", DType::F32, 16)?;
    let n = kb.arg_i32("n", 16)?;
    // 4 consecutive f32 per thread, 32 lanes, 4 warps: 512 elements, repeated twice per block.
    let layout = blocked_1d(target, per_thread, num_warps, block)?;
    // offs = program_id(0) * block + arange(0, block); mask = offs < n
    let pid = kb.program_id(0)?;
    let start = kb.mul(pid, block as i32)?;
    let offs = kb.arange(0, block as i32, &layout)?;
    let offs = kb.add(offs, start)?;
    let mask = kb.lt(offs, n)?;
    // z[offs] = x[offs] + y[offs]
    let px = kb.add(x, offs)?;
    let py = kb.add(y, offs)?;
    let a = kb.load(px, Some(mask), None)?;
    let b = kb.load(py, Some(mask), None)?;
    let sum = kb.add(a, b)?;
    let pz = kb.add(z, offs)?;
    kb.store(pz, sum, Some(mask))?;
    let kernel = kb.finish()?;
    println!("// signature: {}", kernel.signature());
    println!("{}", kernel.llvm_ir());
    println!("{}", kernel.assembly(OptLevel::O3)?);
    #[cfg(feature = "cuda")]
    if target.vendor() == weft::codegen::Vendor::Nvidia {
        if let Some(dev) = common::gpu::device() {
            let n = (1 << 24) + 48;
            run::<weft::runtime::cuda::Cuda>(&dev, &kernel, n)?;
            println!(
                "// add on {}: {n} f32 sums equal the host's",
                common::gpu::describe(&dev)
            );
            return Ok(());
        }
    }
    // Four full blocks and a ragged fifth (a multiple of 16, as the kernel declares).
    let n = 4 * BLOCK as usize + 400;
    run::<weft::runtime::cpu::Cpu>(&common::interpreter(target)?, &kernel, n)?;
    common::interpreted(&format!(
        "add of {n} f32 ({} CTAs, the last ragged): every sum equals the host's bit for bit, the poison past n intact",
        n.div_ceil(BLOCK as usize)
    ));
    Ok(())
}

/// Adds `n` random f32 pairs into a poisoned buffer 64 longer on `dev` (any backend) and checks
/// every sum bit for bit against the host (one f32 addition rounds the same everywhere) and that
/// nothing past `n` was written.
fn run<B: Backend>(dev: &B::Device, kernel: &Kernel<'_>, n: usize) -> Result<()> {
    let (x, y) = (common::random(n, 1), common::random(n, 2));
    let loaded = kernel.load_on::<B>(dev)?;
    let (dx, dy) = (dev.upload(&x)?, dev.upload(&y)?);
    let mut dz = dev.alloc::<f32>(n + 64)?;
    dz.fill_bytes(0xFF)?;
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).ptr(&dz).scalar(n as i32);
    let cfg = LaunchConfig::for_kernel(n.div_ceil(BLOCK as usize) as u32, kernel.signature())?;
    // SAFETY: add reads x[0..n), y[0..n) and writes z[0..n) (masked by n); z holds more.
    unsafe { common::launch_once::<B>(dev, &loaded, &cfg, &args)? };
    let z = dz.to_vec()?;
    if let Some(i) = (0..n).find(|&i| z[i].to_bits() != (x[i] + y[i]).to_bits()) {
        return Err(format!("z[{i}] = {}, want {} + {}", z[i], x[i], y[i]).into());
    }
    if let Some(i) = (n..n + 64).find(|&i| z[i].to_bits() != u32::MAX) {
        return Err(format!("z[{i}] was written, past n = {n}").into());
    }
    Ok(())
}
