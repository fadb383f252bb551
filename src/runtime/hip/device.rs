//! HIP device selection and properties.

use std::ffi::{c_char, CStr};
use std::sync::{Arc, Mutex};

use super::buffer::Buffer;
use super::module::Module;
use super::stream::Stream;
use super::{check, code, lib, sys};
use crate::runtime::elem::DeviceElem;
use crate::runtime::error::{Backend, Result, RuntimeError};
use crate::runtime::launch::DeviceLimits;

/// What a program usually wants to know about an AMD GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceProps {
    /// The device ordinal.
    pub ordinal: usize,
    /// The marketing name.
    pub name: String,
    /// HIP's compute-capability approximation `(major, minor)` (e.g. `(9, 4)` on gfx942).
    pub compute_capability: (u32, u32),
    /// Compute units.
    pub cu_count: u32,
    /// Global memory in bytes.
    pub total_mem_bytes: u64,
    /// L2 cache in bytes.
    pub l2_bytes: u32,
    /// Peak memory clock in kHz.
    pub memory_clock_khz: u32,
    /// Memory bus width in bits.
    pub memory_bus_bits: u32,
    /// The launch limits.
    pub limits: DeviceLimits,
}

#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) lib: &'static sys::HipLib,
    pub(crate) ordinal: i32,
    pub(crate) props: DeviceProps,
    pub(crate) last_kernel: Mutex<Option<String>>,
}

impl Shared {
    /// Makes this device current on the calling thread (HIP's current device is per thread).
    pub(crate) fn bind(&self) -> Result<()> {
        // SAFETY: plain call with a valid ordinal.
        check(self.lib, "hipSetDevice", unsafe {
            (self.lib.hipSetDevice)(self.ordinal)
        })
    }

    pub(crate) fn set_last_kernel(&self, name: &str) {
        let mut last = self.last_kernel.lock().unwrap_or_else(|p| p.into_inner());
        if last.as_deref() != Some(name) {
            *last = Some(name.to_string());
        }
    }

    /// Maps a status seen at a synchronisation: kernel faults name the last kernel launched.
    pub(crate) fn sync_check(&self, call: &'static str, status: sys::HipError) -> Result<()> {
        if status == sys::HIP_ERROR_ILLEGAL_ADDRESS || status == sys::HIP_ERROR_LAUNCH_FAILURE {
            let kernel = self
                .last_kernel
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone()
                .unwrap_or_else(|| "<none launched>".into());
            return Err(RuntimeError::KernelFault {
                kernel,
                code: code(self.lib, status),
            });
        }
        check(self.lib, call, status)
    }

    pub(crate) fn synchronize(&self) -> Result<()> {
        self.bind()?;
        // SAFETY: plain call.
        self.sync_check("hipDeviceSynchronize", unsafe {
            (self.lib.hipDeviceSynchronize)()
        })
    }
}

/// One HIP GPU. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Device {
    pub(crate) shared: Arc<Shared>,
}

impl Device {
    /// Number of HIP devices; `Err(NoDriver)` without ROCm, `Err(NoDevice)` if it sees no GPU.
    pub fn count() -> Result<usize> {
        let lib = lib()?;
        // SAFETY: plain calls; the count is written through a valid pointer.
        check(lib, "hipInit", unsafe { (lib.hipInit)(0) })?;
        let mut n = 0;
        check(lib, "hipGetDeviceCount", unsafe {
            (lib.hipGetDeviceCount)(&mut n)
        })?;
        Ok(n.max(0) as usize)
    }

    /// Opens device `ordinal`.
    pub fn new(ordinal: usize) -> Result<Device> {
        let count = Device::count()?;
        if count == 0 {
            return Err(RuntimeError::NoDevice {
                backend: Backend::Hip,
                detail: "the runtime reports 0 devices".into(),
            });
        }
        if ordinal >= count {
            return Err(RuntimeError::DeviceOutOfRange {
                backend: Backend::Hip,
                ordinal,
                count,
            });
        }
        let lib = lib()?;
        let dev = ordinal as i32;
        let attr = |a: i32| -> Result<u32> {
            let mut v = 0;
            // SAFETY: writes one int; `a` is a valid hipDeviceAttribute_t, `dev` a valid ordinal.
            check(lib, "hipDeviceGetAttribute", unsafe {
                (lib.hipDeviceGetAttribute)(&mut v, a, dev)
            })?;
            Ok(v.max(0) as u32)
        };
        let mut name = [0 as c_char; 256];
        // SAFETY: the buffer holds 256 bytes, as announced; HIP NUL-terminates within it.
        check(lib, "hipDeviceGetName", unsafe {
            (lib.hipDeviceGetName)(name.as_mut_ptr(), 256, dev)
        })?;
        name[255] = 0;
        // SAFETY: NUL-terminated by the line above at the latest.
        let name = unsafe { CStr::from_ptr(name.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        let mut total = 0usize;
        // SAFETY: writes one size_t.
        check(lib, "hipDeviceTotalMem", unsafe {
            (lib.hipDeviceTotalMem)(&mut total, dev)
        })?;
        use sys::attr as a;
        let shared_default = attr(a::MAX_SHARED_MEMORY_PER_BLOCK)?;
        let limits = DeviceLimits {
            max_threads_per_block: attr(a::MAX_THREADS_PER_BLOCK)?,
            max_block_dim: [
                attr(a::MAX_BLOCK_DIM_X)?,
                attr(a::MAX_BLOCK_DIM_Y)?,
                attr(a::MAX_BLOCK_DIM_Z)?,
            ],
            max_grid_dim: [
                attr(a::MAX_GRID_DIM_X)?,
                attr(a::MAX_GRID_DIM_Y)?,
                attr(a::MAX_GRID_DIM_Z)?,
            ],
            max_shared_per_block: shared_default,
            max_shared_per_block_optin: attr(a::SHARED_MEM_PER_BLOCK_OPTIN)
                .unwrap_or(0)
                .max(shared_default),
            warp_size: attr(a::WARP_SIZE)?,
        };
        let props = DeviceProps {
            ordinal,
            name,
            compute_capability: (
                attr(a::COMPUTE_CAPABILITY_MAJOR)?,
                attr(a::COMPUTE_CAPABILITY_MINOR)?,
            ),
            cu_count: attr(a::MULTIPROCESSOR_COUNT)?,
            total_mem_bytes: total as u64,
            l2_bytes: attr(a::L2_CACHE_SIZE)?,
            memory_clock_khz: attr(a::MEMORY_CLOCK_RATE).unwrap_or(0),
            memory_bus_bits: attr(a::MEMORY_BUS_WIDTH).unwrap_or(0),
            limits,
        };
        Ok(Device {
            shared: Arc::new(Shared {
                lib,
                ordinal: dev,
                props,
                last_kernel: Mutex::new(None),
            }),
        })
    }

    /// The device's properties.
    pub fn props(&self) -> &DeviceProps {
        &self.shared.props
    }

    /// The device's launch limits.
    pub fn limits(&self) -> DeviceLimits {
        self.shared.props.limits
    }

    /// A key for caches: the device name and ordinal (HIP exposes the gfx name only through the
    /// version-dependent `hipDeviceProp_t`).
    pub fn target(&self) -> String {
        format!("{}@{}", self.shared.props.name, self.shared.props.ordinal)
    }

    /// The default (NULL) stream.
    pub fn stream(&self) -> Stream {
        Stream::null(self.shared.clone())
    }

    /// A new non-blocking stream.
    pub fn new_stream(&self) -> Result<Stream> {
        Stream::create(self.shared.clone())
    }

    /// Waits for all work on the device.
    pub fn synchronize(&self) -> Result<()> {
        self.shared.synchronize()
    }

    /// Loads an AMDGPU code object (the bytes of a `.hsaco`).
    pub fn load_code_object(&self, image: &[u8]) -> Result<Module> {
        Module::load(self.shared.clone(), image)
    }

    /// Allocates `len` elements; contents unspecified.
    pub fn alloc<T: DeviceElem>(&self, len: usize) -> Result<Buffer<T>> {
        Buffer::alloc(self.shared.clone(), len)
    }

    /// Allocates a buffer holding a copy of `host`.
    pub fn upload<T: DeviceElem>(&self, host: &[T]) -> Result<Buffer<T>> {
        let mut b = Buffer::alloc(self.shared.clone(), host.len())?;
        b.copy_from_host(host)?;
        Ok(b)
    }
}
