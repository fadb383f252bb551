//! Builds the kernels this program launches, ahead of time, with weft's builder (a build
//! dependency: LLVM runs here, at build time, and is not linked into the program). Writes
//! `$OUT_DIR/kernels.weftbundle` (each kernel's PTX with its signature) and `$OUT_DIR/meta.rs`
//! (the launch geometry the program needs besides the signatures).
use std::path::PathBuf;

use weft::codegen::kernels::{self, GemmConfig};
use weft::codegen::{Context, DType, Target};
use weft::runtime::Bundle;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let ctx = Context::new();
    let mut bundle = Bundle::new();
    // Elementwise add: portable sm_80 PTX, which the driver JITs for any newer GPU.
    const ADD_BLOCK: u32 = 1024;
    bundle.push(kernels::add_kernel(&ctx, Target::SM80, ADD_BLOCK, 4, 4)?.into_bundle_entry()?)?;
    // The Hopper GEMM (TMA + wgmma): sm_90a PTX, for H100/H200 only.
    let gemm = GemmConfig::new(DType::F16);
    bundle.push(kernels::gemm_kernel(&ctx, Target::SM90A, gemm)?.into_bundle_entry()?)?;
    std::fs::write(out.join("kernels.weftbundle"), bundle.to_bytes())?;
    std::fs::write(
        out.join("meta.rs"),
        format!(
            "/// Elements per CTA of `add`.\npub const ADD_BLOCK: u32 = {ADD_BLOCK};\n\
             /// Rows and columns of C per CTA of the GEMM (one CTA per tile).\n\
             pub const GEMM_TILE: (u64, u64) = ({}, {});\n",
            gemm.block_m, gemm.block_n
        ),
    )?;
    Ok(())
}
