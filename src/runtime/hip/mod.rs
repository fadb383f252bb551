//! The HIP launcher (feature `hip`): the same surface as [`cuda`](super) over AMD's HIP runtime.
//!
//! `libamdhip64.so` is opened at the first call with `libloading` ([`sys`]), so the crate builds and
//! its tests run on machines without ROCm; there every entry point returns
//! [`RuntimeError::NoDriver`]. Kernels come as AMDGPU code objects (`.hsaco` bytes, e.g. the builder's
//! AMDGPU output linked with `ld.lld -shared`).
//!
//! Files: [`sys`] (the FFI table), [`device`], [`module`], [`buffer`], [`stream`].

pub mod buffer;
pub mod device;
mod handle;
pub mod module;
mod props;
pub mod stream;
pub mod sys;

pub use buffer::Buffer;
pub use device::{Device, DeviceProps};
pub use module::{Kernel, KernelCache, Module};
pub use stream::{Event, Stream};

use std::ffi::CStr;

use super::error::{BackendKind, DriverCode, Result, RuntimeError};

/// The HIP [`Backend`](super::Backend): `hip::Device`, `hip::Stream`, `hip::Buffer<T>`, ….
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hip;

impl super::Backend for Hip {
    const KIND: BackendKind = BackendKind::Hip;
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

/// True when `libamdhip64.so` can be loaded and has every function weft uses.
pub fn is_available() -> bool {
    sys::lib().is_ok()
}

/// The loaded library, or `Err(NoDriver)` naming what was tried.
pub(crate) fn lib() -> Result<&'static sys::HipLib> {
    sys::lib().map_err(|detail| RuntimeError::NoDriver {
        backend: BackendKind::Hip,
        detail,
    })
}

/// Name, number and description of a HIP status.
pub(crate) fn code(lib: &sys::HipLib, status: sys::HipError) -> DriverCode {
    let text = |p: *const std::ffi::c_char| {
        if p.is_null() {
            String::new()
        } else {
            // SAFETY: HIP returns pointers to static NUL-terminated strings for every status.
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    };
    // SAFETY: both functions accept any status value and return static strings.
    let (name, description) = unsafe {
        (
            text((lib.hipGetErrorName)(status)),
            text((lib.hipGetErrorString)(status)),
        )
    };
    DriverCode {
        code: status,
        name,
        description,
    }
}

/// `Ok` for `hipSuccess`, otherwise the error for `call`, with no-device statuses mapped to `NoDevice`.
pub(crate) fn check(lib: &sys::HipLib, call: &'static str, status: sys::HipError) -> Result<()> {
    match status {
        sys::HIP_SUCCESS => Ok(()),
        sys::HIP_ERROR_NO_DEVICE | sys::HIP_ERROR_INSUFFICIENT_DRIVER => {
            Err(RuntimeError::NoDevice {
                backend: BackendKind::Hip,
                detail: format!("{call}: {}", code(lib, status)),
            })
        }
        _ => Err(RuntimeError::Driver {
            backend: BackendKind::Hip,
            call,
            code: code(lib, status),
        }),
    }
}

/// The HIP runtime version as reported by `hipDriverGetVersion` (e.g. `60342134` for ROCm 6.3).
pub fn driver_version() -> Result<i32> {
    let lib = lib()?;
    let mut v = 0;
    // SAFETY: writes one int through a valid pointer.
    check(lib, "hipDriverGetVersion", unsafe {
        (lib.hipDriverGetVersion)(&mut v)
    })?;
    Ok(v)
}
