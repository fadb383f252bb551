//! copy_2d: `y = x[::2, :]` for a row-major f32 matrix, a strided read. Each CTA handles a
//! 32 × 128 tile of `y`; rows and columns come from slices of the 2-D layout, broadcast with
//! `expand_dims` + `broadcast_to`, and the loads still vectorise (4 f32 per access) because the
//! row stride is declared a multiple of 16.
//!
//! `cargo run --example copy_2d --features llvm [-- sm_80|sm_90|sm_90a]`
//! (with `--features amdgpu`: `-- gfx90a|gfx942|gfx950` prints AMDGPU assembly instead of PTX)
//!
//! The kernel is [`weft::codegen::kernels::copy_2d_kernel`].
use weft::codegen::kernels::{self, Tile2d};
use weft::codegen::{Context, OptLevel, Target};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target: Target = std::env::args()
        .nth(1)
        .as_deref()
        .unwrap_or("sm_90")
        .parse()?;
    let tile = Tile2d {
        rows: 32,
        cols: 128,
        per_thread: 4,
        num_warps: 4,
    };
    println!("// tile layout: {:?}", kernels::tile_layout(target, tile)?);
    let ctx = Context::new();
    let kernel = kernels::copy_2d_kernel(&ctx, target, tile)?;
    println!("// signature: {}", kernel.signature());
    println!("{}", kernel.llvm_ir());
    println!("{}", kernel.assembly(OptLevel::O3)?);
    Ok(())
}
