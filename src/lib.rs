//! weft: fast GPU kernels with explicit layouts.
//!
//! Three parts, one crate (see the README for the full tour):
//! - [`layout`]: a linear-layout algebra over GF(2), always built, with no dependency on LLVM or CUDA;
//! - `codegen` (feature `llvm`): a tile-op builder that emits LLVM IR, PTX and AMDGPU code objects;
//! - [`runtime`] (features `cuda`, `hip`): a minimal launcher.
#![warn(missing_docs)]

pub mod layout;

#[cfg(feature = "llvm")]
pub mod codegen;

pub mod runtime;
