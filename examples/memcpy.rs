//! memcpy: each CTA copies a block of f32, 4 consecutive ones per thread, so every access is a
//! 16-byte vector (`ld.global.v4` / `st.global.v4`). Prints the LLVM IR and the PTX, then runs
//! the kernel and checks the copy: on an NVIDIA GPU when there is one (feature `cuda`), else in
//! weft's interpreter.
//!
//! `cargo run --example memcpy --features llvm [-- sm_80|sm_90|sm_90a]`
//! (with `--features amdgpu`: `-- gfx90a|gfx942|gfx950` prints AMDGPU assembly instead of PTX)
//!
//! The kernel itself is [`weft::codegen::kernels::memcpy_kernel`] (shared with the tests and the
//! GPU benchmark); read it there: about fifteen builder calls. `bench_gpu` times it.
mod common;

use common::Result;
use weft::codegen::{kernels, Context, Kernel, OptLevel};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

/// f32 per CTA.
const BLOCK: u32 = 2048;

fn main() -> Result<()> {
    let target = common::target_arg()?;
    let ctx = Context::new();
    // 2048 f32 per CTA, 4 per thread and access, 4 warps: each thread moves 4 vectors.
    let kernel = kernels::memcpy_kernel(&ctx, target, BLOCK, 4, 4)?;
    println!("// signature: {}", kernel.signature());
    println!("{}", kernel.llvm_ir());
    println!("{}", kernel.assembly(OptLevel::O3)?);
    #[cfg(feature = "cuda")]
    if target.vendor() == weft::codegen::Vendor::Nvidia {
        if let Some(dev) = common::gpu::device() {
            let n = (1 << 24) + 48;
            run::<weft::runtime::cuda::Cuda>(&dev, &kernel, n)?;
            println!(
                "// memcpy on {}: {n} f32 copied bit for bit",
                common::gpu::describe(&dev)
            );
            return Ok(());
        }
    }
    // Two full blocks and a ragged third (a multiple of 16, as the kernel declares).
    let n = 2 * BLOCK as usize + 912;
    run::<weft::runtime::cpu::Cpu>(&common::interpreter(target)?, &kernel, n)?;
    common::interpreted(&format!(
        "memcpy of {n} f32 ({} CTAs, the last ragged): copied bit for bit, the poison past n intact",
        n.div_ceil(BLOCK as usize)
    ));
    Ok(())
}

/// Copies `n` random f32 into a poisoned buffer 64 longer on `dev` (any backend) and checks
/// every element bit for bit and that nothing past `n` was written.
fn run<B: Backend>(dev: &B::Device, kernel: &Kernel<'_>, n: usize) -> Result<()> {
    let x = common::random(n, 1);
    let loaded = kernel.load_on::<B>(dev)?;
    let dx = dev.upload(&x)?;
    let mut dy = dev.alloc::<f32>(n + 64)?;
    dy.fill_bytes(0xFF)?;
    let mut args = KernelArgs::new();
    args.ptr(&dx).ptr(&dy).scalar(n as i32);
    let cfg = LaunchConfig::for_kernel(n.div_ceil(BLOCK as usize) as u32, kernel.signature())?;
    // SAFETY: memcpy reads x[0..n) and writes y[0..n) (masked by n); x holds n f32, y more.
    unsafe { common::launch_once::<B>(dev, &loaded, &cfg, &args)? };
    let y = dy.to_vec()?;
    if let Some(i) = (0..n).find(|&i| y[i].to_bits() != x[i].to_bits()) {
        return Err(format!("y[{i}] = {} but x[{i}] = {}", y[i], x[i]).into());
    }
    if let Some(i) = (n..n + 64).find(|&i| y[i].to_bits() != u32::MAX) {
        return Err(format!("y[{i}] was written, past n = {n}").into());
    }
    Ok(())
}
