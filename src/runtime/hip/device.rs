//! Opening a HIP device (reading its properties) and its backend API.

use std::ffi::{c_char, CStr};
use std::sync::Arc;

use super::buffer::Buffer;
pub use super::handle::Device;
use super::handle::{HipDevice, Shared};
use super::module::Module;
pub use super::props::DeviceProps;
use super::stream::Stream;
use super::{check, lib, sys, Hip};
use crate::runtime::backend::{self, arch_target, KernelImage};
use crate::runtime::elem::DeviceElem;
use crate::runtime::error::{BackendKind, Result, RuntimeError};
use crate::runtime::launch::DeviceLimits;
use crate::target::Target;

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
                backend: BackendKind::Hip,
                detail: "the runtime reports 0 devices".into(),
            });
        }
        if ordinal >= count {
            return Err(RuntimeError::DeviceOutOfRange {
                backend: BackendKind::Hip,
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
            arch: gcn_arch_name(lib, dev)?,
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
            shared: Arc::new(Shared::new(HipDevice {
                lib,
                ordinal: dev,
                props,
            })),
        })
    }

    /// The device's properties.
    pub fn props(&self) -> &DeviceProps {
        &self.shared.props
    }

    /// Loads an AMDGPU code object (the bytes of a `.hsaco`).
    pub fn load_code_object(&self, image: &[u8]) -> Result<Module> {
        Module::load(self.shared.clone(), image)
    }
}

/// The device's `gcnArchName` (`gfx942:sramecc+:xnack-`), read from `hipDeviceProp_tR0600`;
/// empty when the runtime predates ROCm 6 (then `target()` is `Err(UnknownArch)`).
fn gcn_arch_name(lib: &sys::HipLib, dev: i32) -> Result<String> {
    let Some(get_props) = lib.hipGetDevicePropertiesR0600 else {
        return Ok(String::new());
    };
    let mut props = vec![0u8; sys::PROPS_BYTES];
    // SAFETY: the buffer is larger than `hipDeviceProp_tR0600` (1472 bytes), which the call fills.
    check(lib, "hipGetDevicePropertiesR0600", unsafe {
        get_props(props.as_mut_ptr().cast(), dev)
    })?;
    let field = &props[sys::PROPS_GCN_ARCH_NAME..sys::PROPS_GCN_ARCH_NAME + 256];
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    Ok(String::from_utf8_lossy(&field[..end]).into_owned())
}

impl backend::Device for Device {
    type Backend = Hip;

    fn ordinal(&self) -> usize {
        self.shared.props.ordinal
    }

    fn name(&self) -> &str {
        &self.shared.props.name
    }

    fn arch(&self) -> &str {
        &self.shared.props.arch
    }

    fn target(&self) -> Result<Target> {
        arch_target(
            BackendKind::Hip,
            &self.shared.props.arch,
            self.shared.props.limits.warp_size,
        )
    }

    fn limits(&self) -> DeviceLimits {
        self.shared.props.limits
    }

    fn l2_bytes(&self) -> usize {
        self.shared.props.l2_bytes as usize
    }

    fn driver_version(&self) -> String {
        match super::driver_version() {
            Ok(v) => format!("HIP {v}"),
            Err(_) => "HIP (unknown version)".to_string(),
        }
    }

    fn stream(&self) -> Stream {
        Stream::null(self.shared.clone())
    }

    fn new_stream(&self) -> Result<Stream> {
        Stream::create(self.shared.clone())
    }

    fn synchronize(&self) -> Result<()> {
        self.shared.synchronize()
    }

    fn load(&self, image: KernelImage<'_>) -> Result<Module> {
        match image {
            KernelImage::CodeObject(bytes) => self.load_code_object(bytes),
            _ => Err(image.not_for(BackendKind::Hip)),
        }
    }

    fn alloc<T: DeviceElem>(&self, len: usize) -> Result<Buffer<T>> {
        Buffer::alloc(self.shared.clone(), len)
    }

    fn take_drop_errors(&self) -> Vec<RuntimeError> {
        self.shared.drop_errors.take()
    }
}
