//! Minimal launchers: CUDA (feature `cuda`), HIP (feature `hip`) and the CPU (feature `llvm`:
//! kernels run in the interpreter of the tile IR, [`cpu`]).
//!
//! `runtime` loads kernel images (PTX, cubin, AMDGPU code objects, recorded programs) and launches
//! them. Apart from the CPU backend, which runs `codegen`'s interpreter, it depends on
//! neither [`layout`](crate::layout) nor `codegen`, only on the dependency-free
//! [`signature`](crate::signature) and [`target`](crate::target) modules: the builder hands each
//! kernel's [`KernelSignature`] to the launcher as it is, and launches are checked against it
//! (argument types, divisibility, block size, shared memory; [`check`]). Hand-written kernels get
//! one from text with [`KernelSignature::parse`].
//!
//! # Layers
//! As in cudarc, each layer only builds on the one below it:
//! 1. **FFI** (per backend): cudarc's `sys`/`result` layers for CUDA (dynamic loading), and the
//!    hand-written table `hip::sys` over `libamdhip64.so`, loaded with `libloading`.
//! 2. **Driver objects** (per backend): `cuda::{Device, Stream, Buffer, Module, Kernel, Event}` and
//!    the same six in `hip` and `cpu`. They implement only what talks to the driver: allocate, copy, record
//!    an event, look a kernel up, launch without checks. Backend-specific extras stay inherent
//!    (`cuda::Device::load_ptx`, `props`, the cudarc interop; `hip::Device::load_code_object`).
//! 3. **The backend traits** ([`backend`]): a [`Backend`] marker (`cuda::Cuda`, `hip::Hip`,
//!    `cpu::Cpu`) names
//!    the six types, each bound by a trait ([`Device`], [`Stream`], [`Buffer`], [`Module`],
//!    [`Kernel`], [`Event`]) whose provided methods hold everything backend-neutral, written once:
//!    the checked [`Stream::launch`], [`Stream::time_ms`], [`Stream::copy_async`],
//!    [`Device::upload`], [`Buffer::to_vec`], the host-copy length checks, and
//!    [`Device::target`] as a [`Target`](crate::target::Target) for both vendors ([`arch_target`]).
//!    Code generic over `B: Backend` runs on either GPU (`tests/gpu_runtime.rs` is one suite for
//!    both). Bring the methods into scope with `use weft::runtime::prelude::*`.
//! 4. **Backend-neutral checks and data**, always built so they are testable on any machine:
//!    [`check`] (arguments and configuration against the signature), [`KernelArgs`] (a safe
//!    builder recording each argument's type), [`LaunchConfig`] with [`LaunchConfig::validate`]
//!    against [`DeviceLimits`] and [`LaunchConfig::for_kernel`], [`KernelCache`], [`DropErrors`],
//!    and one error type, [`RuntimeError`].
//!
//! # Benchmarking and autotuning (feature `autotune`, on with `cuda` or `hip`)
//! [`bench`] times work on a stream as Triton's `do_bench` does (event timing, warm-up and
//! repetitions from a time budget, an L2 flush between runs, optionally a CUDA graph to remove
//! launch overhead) and returns a [`Timing`](bench::Timing). [`autotune`] builds a kernel in every
//! configuration of a list, checks and times each, launches the best, and remembers the choice
//! per key, in memory and in a cache file on disk.
//!
//! Host element types are [`DeviceElem`]: the primitive numbers, and [`f16`](struct@f16)/[`bf16`] from the
//! `half` crate.
//!
//! # In a framework: ahead of time, by raw handle, cached
//! A program that only launches kernels needs neither LLVM nor weft's cudarc. Kernels built ahead of
//! time (`codegen::Kernel::into_bundle_entry`, in a `build.rs`) travel in a [`Bundle`] with their
//! signatures; `cuda::Device::load_bundled` loads one, checked launches included. A framework's
//! stream and memory reach weft as raw handles (`cuda::Stream::from_raw`, [`RawBuffer`]), whatever
//! cudarc version it uses, and `cuda::DiskCache` keeps the driver-compiled cubins across processes.
//! `examples/aot` (its own crate) does all of it; the README's "Kernels in a framework" section
//! walks through it.
//!
//! # Errors in `Drop`
//! Unloading a module, destroying a stream or event and freeing memory can fail, and `Drop` cannot
//! return the error. Each device keeps such errors ([`DropErrors`]) until
//! [`Device::take_drop_errors`] hands them out.
//!
//! Launches are `unsafe fn`: the signature check rules out ABI mistakes, but not what a kernel does
//! with its pointers (see [`launch`] for the exact contract).
//!
//! # No driver, no GPU
//! Every entry point returns [`RuntimeError::NoDriver`] or [`RuntimeError::NoDevice`] on a machine
//! without a driver or GPU; nothing panics. (cudarc itself panics when `libcuda.so` is missing: the
//! `cuda` backend checks for the library before its first call.)

pub mod args;
#[cfg(feature = "autotune")]
#[cfg_attr(docsrs, doc(cfg(feature = "autotune")))]
pub mod autotune;
pub mod backend;
#[cfg(feature = "autotune")]
#[cfg_attr(docsrs, doc(cfg(feature = "autotune")))]
pub mod bench;
pub mod bundle;
pub mod cache;
pub mod check;
#[cfg(any(feature = "cuda", feature = "hip"))]
mod device_shared;
mod dim3;
pub mod elem;
pub mod error;
pub mod image;
pub mod launch;
pub mod raw;
pub mod tensor_map;

#[cfg(feature = "llvm")]
#[cfg_attr(docsrs, doc(cfg(feature = "llvm")))]
pub mod cpu;

#[cfg(feature = "cuda")]
#[cfg_attr(docsrs, doc(cfg(feature = "cuda")))]
pub mod cuda;

#[cfg(feature = "hip")]
#[cfg_attr(docsrs, doc(cfg(feature = "hip")))]
pub mod hip;

pub use crate::signature::{KernelSignature, Param, ParamType, TensorMapSpec};
pub use args::{
    ArgSlot, AsTensorMap, DevicePointer, KernelArg, KernelArgs, ScalarArg, TensorMapArg,
};
pub use backend::{
    arch_target, Backend, Buffer, Device, DropErrors, Event, Kernel, KernelImage, Module, Stream,
};
pub use bundle::{Bundle, BundleEntry, ImageKind};
pub use cache::{CacheKey, KernelCache};
pub use check::{check_args, check_config, check_types};
pub use elem::{bf16, f16, DeviceElem, ElemType, F8E4M3, F8E5M2};
pub use error::{BackendKind, DriverCode, LaunchProblem, Result, RuntimeError};
pub use image::ptx_isa_version;
pub use launch::{DeviceLimits, Dim3, KernelAttrs, LaunchConfig, SharedMemPlan};
pub use raw::{DeviceArray, RawBuffer};
pub use tensor_map::TensorMap;

/// The backend traits, imported anonymously: `use weft::runtime::prelude::*` makes their methods
/// (`upload`, `launch`, `to_vec`, `synchronize`, …) callable on `cuda::Device`, `hip::Stream` and
/// the rest without bringing the trait names into scope.
pub mod prelude {
    pub use super::backend::{
        Backend as _, Buffer as _, Device as _, Event as _, Kernel as _, Module as _, Stream as _,
    };
}
