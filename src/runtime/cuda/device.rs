//! Opening a CUDA device (its primary context and properties) and its backend API.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cudarc::driver::{result, sys, CudaContext};

use super::buffer::Buffer;
pub use super::handle::Device;
use super::handle::{Context, Shared};
use super::module::Module;
pub use super::props::DeviceProps;
use super::stream::Stream;
use super::{driver_err, driver_version, ensure_driver, Cuda};
use crate::runtime::backend::{self, arch_target, KernelImage};
use crate::runtime::bundle::{Bundle, ImageKind};
use crate::runtime::elem::DeviceElem;
use crate::runtime::error::{BackendKind, Result, RuntimeError};
use crate::runtime::launch::DeviceLimits;
use crate::runtime::tensor_map::TensorMap;
use crate::target::Target;

fn init() -> Result<()> {
    ensure_driver()?;
    result::init().map_err(|e| driver_err("cuInit", e))
}

impl Device {
    /// Number of CUDA devices; `Err(NoDriver)` without a driver, `Err(NoDevice)` if it sees no GPU.
    pub fn count() -> Result<usize> {
        init()?;
        let n = result::device::get_count().map_err(|e| driver_err("cuDeviceGetCount", e))?;
        Ok(n.max(0) as usize)
    }

    /// Opens device `ordinal` (its primary context).
    pub fn new(ordinal: usize) -> Result<Device> {
        let count = Device::count()?;
        if count == 0 {
            return Err(RuntimeError::NoDevice {
                backend: BackendKind::Cuda,
                detail: "the driver reports 0 devices".into(),
            });
        }
        if ordinal >= count {
            return Err(RuntimeError::DeviceOutOfRange {
                backend: BackendKind::Cuda,
                ordinal,
                count,
            });
        }
        // cudarc panics if the driver lacks a symbol it expects (a driver older than CUDA 13.0);
        // turn that into an error as well.
        let ctx = catch_unwind(AssertUnwindSafe(|| CudaContext::new(ordinal)))
            .map_err(|p| RuntimeError::NoDriver {
                backend: BackendKind::Cuda,
                detail: format!("the CUDA driver is unusable: {}", panic_text(&p)),
            })?
            .map_err(|e| driver_err("cuDevicePrimaryCtxRetain", e))?;
        // SAFETY: no buffer of this context exists yet. Our launches go through the driver directly,
        // not cudarc's tracked builder, so we keep plain CUDA stream semantics: work on one stream is
        // ordered, and host copies wait for the whole device (see `Buffer`).
        unsafe { ctx.disable_event_tracking() };
        Device::with_context(ctx)
    }

    /// A device over a cudarc context the caller already has (e.g. `CudaContext::new(0)`), so
    /// weft kernels can run next to cudarc code on the same streams and memory. Unlike
    /// [`Device::new`], cudarc's event tracking is left as the caller set it: weft launches do not
    /// record cudarc's events, so give a weft launch the stream that wrote its inputs (stream
    /// order then suffices), or synchronise.
    #[cfg(feature = "cudarc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cudarc")))]
    pub fn from_cudarc(ctx: Arc<CudaContext>) -> Result<Device> {
        Device::with_context(ctx)
    }

    fn with_context(ctx: Arc<CudaContext>) -> Result<Device> {
        let props = read_props(&ctx, ctx.ordinal())?;
        Ok(Device {
            shared: Arc::new(Shared::new(Context {
                ctx,
                arch: props.arch(),
                props,
            })),
        })
    }

    /// The cudarc context under this device (the device's primary context).
    #[cfg(feature = "cudarc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cudarc")))]
    pub fn cudarc_context(&self) -> &Arc<CudaContext> {
        &self.shared.ctx
    }

    /// The driver's handle of the device's context (a `CUcontext`: the primary context, which
    /// cudarc, candle and the CUDA runtime API share), for frameworks that check or bind it.
    pub fn as_raw_context(&self) -> *mut std::ffi::c_void {
        self.shared.ctx.cu_ctx().cast()
    }

    /// A weft stream over a cudarc stream of this device's context: launches go to that stream.
    /// `Err(WrongDevice)` if the stream belongs to another context.
    #[cfg(feature = "cudarc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cudarc")))]
    pub fn wrap_cudarc_stream(&self, stream: Arc<cudarc::driver::CudaStream>) -> Result<Stream> {
        if *stream.context() != self.shared.ctx {
            return Err(RuntimeError::WrongDevice { what: "stream" });
        }
        Ok(Stream::from_parts(self.shared.clone(), stream))
    }

    /// The device's properties.
    pub fn props(&self) -> &DeviceProps {
        &self.shared.props
    }

    /// Loads a module from PTX text (JIT-compiled by the driver for this device).
    pub fn load_ptx(&self, ptx: &str) -> Result<Module> {
        Module::from_ptx(self.shared.clone(), ptx)
    }

    /// Loads a module from a cubin (or fatbin) image.
    pub fn load_cubin(&self, image: &[u8]) -> Result<Module> {
        Module::from_cubin(self.shared.clone(), image)
    }

    /// Kernel `name` of an ahead-of-time `bundle`, from the image [`Bundle::select`] picks for
    /// this device (a cubin of its architecture, else the newest PTX it runs), with the bundled
    /// signature: launches are checked as for a kernel built in the same process. To skip the
    /// PTX JIT in later processes, load through a [`DiskCache`](super::DiskCache) instead.
    pub fn load_bundled(&self, bundle: &Bundle, name: &str) -> Result<super::Kernel> {
        use crate::runtime::backend::Module as _;
        let entry = bundle.select(name, backend::Device::target(self)?)?;
        let module = match entry.kind {
            ImageKind::Cubin => self.load_cubin(&entry.image)?,
            ImageKind::Ptx => self.load_ptx(entry.ptx()?)?,
        };
        module.kernel(entry.signature.clone())
    }

    /// Free and total device memory in bytes.
    pub fn mem_info(&self) -> Result<(usize, usize)> {
        self.shared.bind()?;
        self.shared
            .ctx
            .mem_get_info()
            .map_err(|e| driver_err("cuMemGetInfo", e))
    }
}

impl backend::Device for Device {
    type Backend = Cuda;

    fn ordinal(&self) -> usize {
        self.shared.props.ordinal
    }

    fn name(&self) -> &str {
        &self.shared.props.name
    }

    fn arch(&self) -> &str {
        &self.shared.arch
    }

    fn target(&self) -> Result<Target> {
        arch_target(
            BackendKind::Cuda,
            &self.shared.arch,
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
        let (major, minor) = self.shared.props.driver_version;
        format!("CUDA {major}.{minor}")
    }

    fn stream(&self) -> Stream {
        Stream::from_parts(self.shared.clone(), self.shared.ctx.default_stream())
    }

    fn new_stream(&self) -> Result<Stream> {
        let s = self
            .shared
            .ctx
            .new_stream()
            .map_err(|e| driver_err("cuStreamCreate", e))?;
        Ok(Stream::from_parts(self.shared.clone(), s))
    }

    fn synchronize(&self) -> Result<()> {
        self.shared.synchronize()
    }

    fn load(&self, image: KernelImage<'_>) -> Result<Module> {
        match image {
            KernelImage::Ptx(ptx) => self.load_ptx(ptx),
            KernelImage::Cubin(bytes) => self.load_cubin(bytes),
            _ => Err(image.not_for(BackendKind::Cuda)),
        }
    }

    fn alloc<T: DeviceElem>(&self, len: usize) -> Result<Buffer<T>> {
        Buffer::alloc(self.shared.clone(), len)
    }

    fn tensor_map<'a, T: DeviceElem>(
        &self,
        buffer: &'a Buffer<T>,
        shape: &[u64],
        row_strides: &[u64],
        box_dims: &[u32],
        swizzle: u16,
    ) -> Result<TensorMap<'a>> {
        TensorMap::tiled(buffer, shape, row_strides, box_dims, swizzle)
    }

    fn take_drop_errors(&self) -> Vec<RuntimeError> {
        // Buffers are cudarc slices: cudarc records a failed free on the context itself.
        self.shared.drop_errors.record(
            "buffer",
            self.shared
                .ctx
                .check_err()
                .map_err(|e| driver_err("cuMemFree (recorded by cudarc)", e)),
        );
        self.shared.drop_errors.take()
    }
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "cudarc panicked".into())
}

fn read_props(ctx: &Arc<CudaContext>, ordinal: usize) -> Result<DeviceProps> {
    use sys::CUdevice_attribute::*;
    let attr = |a: sys::CUdevice_attribute| -> Result<u32> {
        ctx.attribute(a)
            .map(|v| v.max(0) as u32)
            .map_err(|e| driver_err("cuDeviceGetAttribute", e))
    };
    let name = ctx.name().map_err(|e| driver_err("cuDeviceGetName", e))?;
    let total = ctx
        .total_mem()
        .map_err(|e| driver_err("cuDeviceTotalMem", e))?;
    let limits = DeviceLimits {
        max_threads_per_block: attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
        max_block_dim: [
            attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)?,
            attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)?,
            attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)?,
        ],
        max_grid_dim: [
            attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
            attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
            attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
        ],
        max_shared_per_block: attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
        max_shared_per_block_optin: attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
        warp_size: attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
    };
    Ok(DeviceProps {
        ordinal,
        name,
        compute_capability: (
            attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
            attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        ),
        sm_count: attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        total_mem_bytes: total as u64,
        l2_bytes: attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
        memory_clock_khz: attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE).unwrap_or(0),
        memory_bus_bits: attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH).unwrap_or(0),
        driver_version: driver_version()?,
        limits,
    })
}
