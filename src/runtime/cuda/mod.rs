//! The CUDA launcher, over cudarc with dynamic loading (feature `cuda`).
//!
//! Nothing of CUDA is needed to build: `libcuda.so` is opened at the first call. cudarc panics when the
//! library is missing, so every entry point first checks [`is_available`] and returns
//! [`RuntimeError::NoDriver`] instead.
//!
//! ```no_run
//! # fn main() -> weft::runtime::Result<()> {
//! use weft::runtime::prelude::*;
//! use weft::runtime::{cuda, KernelArgs, KernelSignature, LaunchConfig};
//! # let ptx = "";
//! let dev = cuda::Device::new(0)?;
//! let sig = KernelSignature::parse("scale(*f32, f32, i32)")?;
//! let kernel = dev.load_ptx(ptx)?.kernel(sig)?;
//! let x = dev.upload(&vec![1.0f32; 1024])?;
//! let mut args = KernelArgs::new();
//! args.ptr(&x).scalar(2.0f32).scalar(1024i32);
//! // SAFETY: `scale` touches x[0..n) only, and n = 1024 = x.len().
//! unsafe { dev.stream().launch(&kernel, &LaunchConfig::for_items(1024, 256, 256)?, &args)? };
//! let y = x.to_vec()?;
//! # Ok(()) }
//! ```
//!
//! Files: [`device`] (selection, properties, limits), [`module`] (PTX/cubin, kernels), [`buffer`]
//! (typed device memory and host copies), [`stream`] (launches, events, timing; streams borrowed by
//! raw handle), [`cache`] (kernels keyed by content and target, in memory), [`disk_cache`] (cubins
//! on disk across processes), [`link`] (PTX to cubin with the driver's linker), `interop` (cudarc
//! slices as kernel arguments, feature `cudarc`).
//!
//! # With cudarc
//! weft re-exports the cudarc it is built with as [`cudarc`], so a program that
//! already uses cudarc keeps its context, streams and memory: [`Stream::from_cudarc`] launches weft
//! kernels on a cudarc stream, and a `CudaSlice<T>` / `CudaView<T>` is a kernel argument like a
//! weft [`Buffer`] (`args.ptr(&slice)`).

pub mod buffer;
pub mod cache;
pub mod device;
pub mod disk_cache;
mod handle;
#[cfg(feature = "cudarc")]
#[cfg_attr(docsrs, doc(cfg(feature = "cudarc")))]
pub mod interop;
pub mod link;
pub mod module;
mod props;
pub mod stream;
pub mod tensor_map;

/// The cudarc weft is built with (0.19, driver API with dynamic loading), for interop (feature
/// `cudarc`).
#[cfg(feature = "cudarc")]
#[cfg_attr(docsrs, doc(cfg(feature = "cudarc")))]
pub use cudarc;

pub use buffer::Buffer;
pub use cache::KernelCache;
pub use device::{Device, DeviceProps};
pub use disk_cache::{DiskCache, Loaded, Source};
pub use module::{Kernel, Module};
pub use stream::{Event, Graph, Stream};
pub use tensor_map::TensorMap;

use std::sync::OnceLock;

use cudarc::driver::{result::DriverError, sys};

use super::error::{BackendKind, DriverCode, Result, RuntimeError};

/// The CUDA [`Backend`](super::Backend): `cuda::Device`, `cuda::Stream`, `cuda::Buffer<T>`, ….
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cuda;

impl super::Backend for Cuda {
    const KIND: BackendKind = BackendKind::Cuda;
    type Device = Device;
    type Stream = Stream;
    type Buffer<T: super::DeviceElem> = Buffer<T>;
    type Module = Module;
    type Kernel = Kernel;
    type Event = Event;

    fn is_available() -> bool {
        is_available()
    }

    fn device_count() -> Result<usize> {
        Device::count()
    }

    fn open(ordinal: usize) -> Result<Device> {
        Device::new(ordinal)
    }
}

/// True when the CUDA driver library can be loaded on this machine (checked once, then cached).
pub fn is_available() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: `is_culib_present` dlopens the candidate names of libcuda and closes them again; loading
    // the driver library runs only its own initialisers, as any use of the driver would.
    *PRESENT.get_or_init(|| unsafe { sys::is_culib_present() })
}

/// `Err(NoDriver)` unless [`is_available`]: the guard in front of every cudarc call.
pub(crate) fn ensure_driver() -> Result<()> {
    if is_available() {
        Ok(())
    } else {
        Err(RuntimeError::NoDriver {
            backend: BackendKind::Cuda,
            detail: "libcuda.so (the NVIDIA driver library) could not be loaded; install the driver or add its folder to LD_LIBRARY_PATH".into(),
        })
    }
}

/// The driver's CUDA version as `(major, minor)`, e.g. `(13, 0)` for driver 580.
pub fn driver_version() -> Result<(u32, u32)> {
    ensure_driver()?;
    let mut v = 0i32;
    // SAFETY: the library is present; cuDriverGetVersion only writes one int through a valid pointer.
    unsafe { sys::cuDriverGetVersion(&mut v) }
        .result()
        .map_err(|e| driver_err("cuDriverGetVersion", e))?;
    Ok(((v / 1000) as u32, ((v % 1000) / 10) as u32))
}

/// Name, number and description of a driver status.
pub(crate) fn code(e: DriverError) -> DriverCode {
    DriverCode {
        code: e.0 as i32,
        name: e
            .error_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|_| format!("{:?}", e.0)),
        description: e
            .error_string()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
    }
}

/// A failed driver call as a [`RuntimeError`], with the no-device statuses mapped to `NoDevice`.
pub(crate) fn driver_err(call: &'static str, e: DriverError) -> RuntimeError {
    use sys::CUresult as R;
    match e.0 {
        R::CUDA_ERROR_NO_DEVICE
        | R::CUDA_ERROR_SYSTEM_DRIVER_MISMATCH
        | R::CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE => RuntimeError::NoDevice {
            backend: BackendKind::Cuda,
            detail: format!("{call}: {}", code(e)),
        },
        _ => RuntimeError::Driver {
            backend: BackendKind::Cuda,
            call,
            code: code(e),
        },
    }
}

/// True for the statuses a faulting kernel leaves behind (they surface at the next synchronisation).
pub(crate) fn is_kernel_fault(e: DriverError) -> bool {
    use sys::CUresult as R;
    matches!(
        e.0,
        R::CUDA_ERROR_ILLEGAL_ADDRESS
            | R::CUDA_ERROR_LAUNCH_FAILED
            | R::CUDA_ERROR_MISALIGNED_ADDRESS
            | R::CUDA_ERROR_ILLEGAL_INSTRUCTION
            | R::CUDA_ERROR_INVALID_ADDRESS_SPACE
            | R::CUDA_ERROR_INVALID_PC
            | R::CUDA_ERROR_HARDWARE_STACK_ERROR
            | R::CUDA_ERROR_ASSERT
            | R::CUDA_ERROR_LAUNCH_TIMEOUT
    )
}
