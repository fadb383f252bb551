//! add: `z = x + y` elementwise over f32, vectorised like memcpy. Prints the LLVM IR and PTX.
//!
//! `cargo run --example add --features llvm [-- sm_80|sm_90|sm_90a]`
//! (with `--features amdgpu`: `-- gfx90a|gfx942|gfx950` prints AMDGPU assembly instead of PTX)
//!
//! The kernel is [`weft::codegen::kernels::add_kernel`]; this file shows the same kernel
//! written out, so the builder calls can be read in one place.
use weft::codegen::kernels::blocked_1d;
use weft::codegen::{Context, DType, KernelBuilder, OptLevel, Target};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target: Target = std::env::args()
        .nth(1)
        .as_deref()
        .unwrap_or("sm_90")
        .parse()?;
    let (block, per_thread, num_warps) = (1024, 4, 4);
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
    Ok(())
}
