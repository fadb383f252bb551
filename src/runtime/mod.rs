//! Minimal launchers: CUDA (feature `cuda`) and HIP (feature `hip`).
//!
//! `runtime` loads kernel images (PTX, cubin, AMDGPU code objects) and launches them. It depends on
//! neither [`layout`](crate::layout) nor `codegen`, only on the dependency-free
//! [`signature`](crate::signature) and [`target`](crate::target) modules: the builder hands each
//! kernel's [`KernelSignature`] to the launcher as it is, and launches are checked against it
//! (argument types, divisibility, block size, shared memory; [`check`]). Hand-written kernels get
//! one from text with [`KernelSignature::parse`].
//!
//! # Layers
//! - Backend-neutral and always built, so they are testable on any machine: the checks ([`check`]),
//!   [`KernelArgs`] (a safe builder recording each argument's type), [`LaunchConfig`] with
//!   [`LaunchConfig::validate`] against [`DeviceLimits`], [`KernelCache`], and one error type,
//!   [`RuntimeError`].
//! - `cuda` (feature `cuda`): cudarc with dynamic loading, so nothing of CUDA is needed at build time.
//!   `cuda::Device`, `cuda::Module`, `cuda::Kernel`, `cuda::Buffer`, `cuda::Stream`, `cuda::Event`.
//! - `hip` (feature `hip`): the same surface over `libamdhip64.so`, loaded at run time with
//!   `libloading` through a small hand-written FFI table.
//!
//! Launches are `unsafe fn`: the signature check rules out ABI mistakes, but not what a kernel does
//! with its pointers (see [`launch`] for the exact contract).
//!
//! # No driver, no GPU
//! Every entry point returns [`RuntimeError::NoDriver`] or [`RuntimeError::NoDevice`] on a machine
//! without a driver or GPU; nothing panics. (cudarc itself panics when `libcuda.so` is missing: the
//! `cuda` backend checks for the library before its first call.)

pub mod args;
pub mod backend;
pub mod cache;
pub mod check;
pub mod elem;
pub mod error;
pub mod image;
pub mod launch;

#[cfg(feature = "cuda")]
pub mod cuda;

#[cfg(feature = "hip")]
pub mod hip;

pub use crate::signature::{KernelSignature, Param, ParamType};
pub use args::{DevicePointer, KernelArg, KernelArgs, ScalarArg};
pub use backend::{
    arch_target, Backend, Buffer, Device, DropErrors, Event, Kernel, KernelImage, Module, Stream,
};
pub use cache::{CacheKey, KernelCache};
pub use check::{check_args, check_config, check_types};
pub use elem::{bf16, f16, DeviceElem, ElemType};
pub use error::{BackendKind, DriverCode, LaunchProblem, Result, RuntimeError};
pub use image::ptx_isa_version;
pub use launch::{DeviceLimits, Dim3, KernelAttrs, LaunchConfig, SharedMemPlan};

/// The backend traits, imported anonymously: `use weft::runtime::prelude::*` makes their methods
/// (`upload`, `launch`, `to_vec`, `synchronize`, …) callable on `cuda::Device`, `hip::Stream` and
/// the rest without bringing the trait names into scope.
pub mod prelude {
    pub use super::backend::{
        Backend as _, Buffer as _, Device as _, Event as _, Kernel as _, Module as _, Stream as _,
    };
}
