//! copy_2d: `y = x[::2, :]` for a row-major f32 matrix, a strided read. Each CTA handles a
//! 32 × 128 tile of `y`; rows and columns come from slices of the 2-D layout, broadcast with
//! `expand_dims` + `broadcast_to`, and the loads still vectorise (4 f32 per access) because the
//! row stride is declared a multiple of 16. Prints the LLVM IR and PTX, then runs the kernel and
//! checks it against the host: on an NVIDIA GPU when there is one (feature `cuda`), else in
//! weft's interpreter.
//!
//! `cargo run --example copy_2d --features llvm [-- sm_80|sm_90|sm_90a]`
//! (with `--features amdgpu`: `-- gfx90a|gfx942|gfx950` prints AMDGPU assembly instead of PTX)
//!
//! The kernel is [`weft::codegen::kernels::copy_2d_kernel`].
mod common;

use common::Result;
use weft::codegen::kernels::{self, Tile2d};
use weft::codegen::{Context, Kernel, OptLevel};
use weft::runtime::prelude::*;
use weft::runtime::{Backend, KernelArgs, LaunchConfig};

const TILE: Tile2d = Tile2d {
    rows: 32,
    cols: 128,
    per_thread: 4,
    num_warps: 4,
};

fn main() -> Result<()> {
    let target = common::target_arg()?;
    println!("// tile layout: {:?}", kernels::tile_layout(target, TILE)?);
    let ctx = Context::new();
    let kernel = kernels::copy_2d_kernel(&ctx, target, TILE)?;
    println!("// signature: {}", kernel.signature());
    println!("{}", kernel.llvm_ir());
    println!("{}", kernel.assembly(OptLevel::O3)?);
    #[cfg(feature = "cuda")]
    if target.vendor() == weft::codegen::Vendor::Nvidia {
        if let Some(dev) = common::gpu::device() {
            let (m_out, n, stride) = (4099, 4000, 8192);
            run::<weft::runtime::cuda::Cuda>(&dev, &kernel, m_out, n, stride)?;
            println!(
                "// copy_2d on {}: y = x[::2, :] of {}×{n} (row stride {stride}) equals the host's",
                common::gpu::describe(&dev),
                2 * m_out
            );
            return Ok(());
        }
    }
    // Ragged in both dims (45 = 32 + 13 rows, 208 = 128 + 80 columns), x's rows padded to 224.
    let (m_out, n, stride) = (45, 208, 224);
    run::<weft::runtime::cpu::Cpu>(&common::interpreter(target)?, &kernel, m_out, n, stride)?;
    common::interpreted(&format!(
        "copy_2d y = x[::2, :] of a {}×{n} f32 matrix (row stride {stride}, ragged tiles): equal bit for bit, x's padding never copied",
        2 * m_out
    ));
    Ok(())
}

/// Runs `y = x[::2, :]` on `dev` (any backend) for `x` of `2·m_out` rows of `n` f32 spaced
/// `stride` apart, into a poisoned `y`, and checks every element bit for bit and that nothing
/// past `m_out × n` was written.
fn run<B: Backend>(
    dev: &B::Device,
    kernel: &Kernel<'_>,
    m_out: usize,
    n: usize,
    stride: usize,
) -> Result<()> {
    let x = common::random(2 * m_out * stride, 1);
    let loaded = kernel.load_on::<B>(dev)?;
    let dx = dev.upload(&x)?;
    let mut dy = dev.alloc::<f32>(m_out * n + 64)?;
    dy.fill_bytes(0xFF)?;
    let mut args = KernelArgs::new();
    args.ptr(&dx)
        .ptr(&dy)
        .scalar(m_out as i32)
        .scalar(n as i32)
        .scalar(stride as i32);
    let grid = (
        n.div_ceil(TILE.cols as usize) as u32,
        m_out.div_ceil(TILE.rows as usize) as u32,
        1,
    );
    let cfg = LaunchConfig::for_kernel(grid, kernel.signature())?;
    // SAFETY: the kernel reads x[2r · stride + c] and writes y[r · n + c] for r < m_out, c < n
    // (masked): both inside the buffers.
    unsafe { common::launch_once::<B>(dev, &loaded, &cfg, &args)? };
    let y = dy.to_vec()?;
    for r in 0..m_out {
        for c in 0..n {
            let (got, want) = (y[r * n + c], x[2 * r * stride + c]);
            if got.to_bits() != want.to_bits() {
                return Err(format!("y[{r}, {c}] = {got}, want x[{}, {c}] = {want}", 2 * r).into());
            }
        }
    }
    if let Some(i) = (m_out * n..y.len()).find(|&i| y[i].to_bits() != u32::MAX) {
        return Err(format!("y[{i}] was written, past m_out × n = {}", m_out * n).into());
    }
    Ok(())
}
