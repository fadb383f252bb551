//! memcpy: each CTA copies a block of f32, 4 consecutive ones per thread, so every access is a
//! 16-byte vector (`ld.global.v4` / `st.global.v4`). Prints the LLVM IR and the PTX.
//!
//! `cargo run --example memcpy --features llvm [-- sm_80|sm_90|sm_90a]`
//! (with `--features amdgpu`: `-- gfx90a|gfx942|gfx950` prints AMDGPU assembly instead of PTX)
//!
//! The kernel itself is [`weft::codegen::kernels::memcpy_kernel`] (shared with the tests and the
//! GPU benchmark); read it there: about fifteen builder calls.
use weft::codegen::{kernels, Context, OptLevel, Target};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target: Target = std::env::args()
        .nth(1)
        .as_deref()
        .unwrap_or("sm_90")
        .parse()?;
    let ctx = Context::new();
    // 2048 f32 per CTA, 4 per thread and access, 4 warps: each thread moves 4 vectors.
    let kernel = kernels::memcpy_kernel(&ctx, target, 2048, 4, 4)?;
    println!("// signature: {}", kernel.signature());
    println!("{}", kernel.llvm_ir());
    println!("{}", kernel.assembly(OptLevel::O3)?);
    Ok(())
}
