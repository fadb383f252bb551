//! The traits both launchers implement, and everything backend-neutral written once as their
//! provided methods.
//!
//! A [`Backend`] is a marker type (`cuda::Cuda`, `hip::Hip`) naming six associated types, one per
//! driver object, as cudarc's safe layer has them: [`Device`], [`Stream`], [`Buffer`], [`Module`],
//! [`Kernel`], [`Event`]. Each backend implements only what talks to its driver (allocate, copy,
//! record an event, launch without checks); the checked [`Stream::launch`], [`Stream::time_ms`],
//! [`Stream::copy_async`], [`Device::upload`], [`Buffer::to_vec`] and the host-copy length checks
//! live here, once. Code written against the traits runs on either backend:
//!
//! ```no_run
//! use weft::runtime::{Backend, Device, Buffer, Result};
//!
//! fn round_trip<B: Backend>(dev: &B::Device) -> Result<bool> {
//!     let host: Vec<f32> = (0..1000).map(|i| i as f32).collect();
//!     let buffer = dev.upload(&host)?;
//!     Ok(buffer.to_vec()? == host)
//! }
//! # #[cfg(feature = "cuda")]
//! # fn main() -> Result<()> { round_trip::<weft::runtime::cuda::Cuda>(&weft::runtime::cuda::Device::new(0)?)?; Ok(()) }
//! # #[cfg(not(feature = "cuda"))] fn main() {}
//! ```
//!
//! Concrete types need the traits in scope for these methods: `use weft::runtime::prelude::*`.

use std::fmt::Debug;
use std::sync::Mutex;

use super::args::{DevicePointer, KernelArgs};
use super::check::{check_args, check_config};
use super::elem::DeviceElem;
use super::error::{BackendKind, Result, RuntimeError};
use super::launch::{DeviceLimits, KernelAttrs, LaunchConfig, SharedMemPlan};
use super::tensor_map::TensorMap;
use crate::signature::KernelSignature;
use crate::target::{Target, Vendor};

/// The device type of backend `B`.
pub type DeviceOf<B> = <B as Backend>::Device;
/// The stream type of backend `B`.
pub type StreamOf<B> = <B as Backend>::Stream;
/// The buffer type of backend `B` for elements `T`.
pub type BufferOf<B, T> = <B as Backend>::Buffer<T>;
/// The module type of backend `B`.
pub type ModuleOf<B> = <B as Backend>::Module;
/// The kernel type of backend `B`.
pub type KernelOf<B> = <B as Backend>::Kernel;
/// The event type of backend `B`.
pub type EventOf<B> = <B as Backend>::Event;

/// A driver API: a marker type naming the objects of one backend.
pub trait Backend: Sized + Send + Sync + 'static {
    /// Which driver this is (the `backend` of its errors).
    const KIND: BackendKind;
    /// One GPU.
    type Device: Device<Backend = Self>;
    /// A queue of work on one device.
    type Stream: Stream<Backend = Self>;
    /// `len` elements of `T` in device memory.
    type Buffer<T: DeviceElem>: Buffer<T, Backend = Self>;
    /// A loaded kernel image.
    type Module: Module<Backend = Self>;
    /// A kernel of a module, with its signature.
    type Kernel: Kernel<Backend = Self>;
    /// A point in a stream, with a timestamp.
    type Event: Event<Backend = Self>;

    /// True when the driver library can be loaded on this machine.
    fn is_available() -> bool;
    /// Number of devices; `Err(NoDriver)` without a driver, `Err(NoDevice)` if it sees no GPU.
    fn device_count() -> Result<usize>;
    /// Opens device `ordinal`.
    fn open(ordinal: usize) -> Result<Self::Device>;
}

/// A kernel image in one of the forms the backends load.
#[derive(Debug, Clone, Copy)]
pub enum KernelImage<'a> {
    /// PTX text (CUDA; JIT-compiled by the driver).
    Ptx(&'a str),
    /// An ELF cubin or a fatbin (CUDA).
    Cubin(&'a [u8]),
    /// An AMDGPU code object, the bytes of a `.hsaco` (HIP).
    CodeObject(&'a [u8]),
    /// A kernel's recorded tile IR (the CPU backend runs it in the interpreter).
    #[cfg(feature = "llvm")]
    Program(&'a crate::codegen::ir::Program),
}

impl PartialEq for KernelImage<'_> {
    /// Images are equal when they hold the same bytes (programs: the same program object).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (KernelImage::Ptx(a), KernelImage::Ptx(b)) => a == b,
            (KernelImage::Cubin(a), KernelImage::Cubin(b))
            | (KernelImage::CodeObject(a), KernelImage::CodeObject(b)) => a == b,
            #[cfg(feature = "llvm")]
            (KernelImage::Program(a), KernelImage::Program(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

impl Eq for KernelImage<'_> {}

impl KernelImage<'_> {
    /// `"PTX"`, `"cubin"` or `"code object"`.
    pub fn what(&self) -> &'static str {
        match self {
            KernelImage::Ptx(_) => "PTX",
            KernelImage::Cubin(_) => "cubin",
            KernelImage::CodeObject(_) => "code object",
            #[cfg(feature = "llvm")]
            KernelImage::Program(_) => "tile IR program",
        }
    }

    /// The error a backend returns for an image it does not load.
    #[cfg_attr(not(any(feature = "cuda", feature = "hip")), allow(dead_code))]
    pub(crate) fn not_for(&self, backend: BackendKind) -> RuntimeError {
        RuntimeError::InvalidImage {
            what: self.what(),
            reason: format!(
                "the {backend} backend loads {}",
                match backend {
                    BackendKind::Cuda => "PTX and cubins",
                    BackendKind::Hip => "AMDGPU code objects",
                    BackendKind::Cpu => "tile IR programs (`KernelImage::Program`)",
                }
            ),
        }
    }
}

/// One GPU. Cheap to clone; equal when two handles name the same device (context).
pub trait Device: Clone + Debug + PartialEq + Send + Sync + Sized {
    /// The backend this device belongs to.
    type Backend: Backend<Device = Self>;

    /// The device ordinal.
    fn ordinal(&self) -> usize;
    /// The marketing name (`NVIDIA H200`, `AMD Instinct MI300X`).
    fn name(&self) -> &str;
    /// The architecture as the driver reports it: `sm_90`, `gfx942:sramecc+:xnack-`.
    fn arch(&self) -> &str;
    /// The architecture as a [`Target`]: `sm_90a` on an H100 or H200 (its arch-specific features
    /// are available), `gfx942` on an MI300 (feature suffixes dropped).
    /// `Err(UnknownArch)` for an architecture weft has no target for.
    fn target(&self) -> Result<Target>;
    /// The launch limits.
    fn limits(&self) -> DeviceLimits;
    /// The L2 cache in bytes, as the driver reports it (what [`bench`](crate::runtime::bench)
    /// flushes between repetitions).
    fn l2_bytes(&self) -> usize;
    /// The driver as it names its version: `CUDA 13.0`, `HIP 60342134`. Part of the key of the
    /// autotuning cache, so a driver update re-tunes.
    fn driver_version(&self) -> String;
    /// The default stream.
    fn stream(&self) -> StreamOf<Self::Backend>;
    /// A new non-blocking stream.
    fn new_stream(&self) -> Result<StreamOf<Self::Backend>>;
    /// Waits for all work on the device; a kernel fault names the last kernel launched.
    fn synchronize(&self) -> Result<()>;
    /// Loads a module; an image of the other vendor is `Err(InvalidImage)`.
    fn load(&self, image: KernelImage<'_>) -> Result<ModuleOf<Self::Backend>>;
    /// Allocates `len` elements; the contents are unspecified (any bit pattern is a valid `T`).
    fn alloc<T: DeviceElem>(&self, len: usize) -> Result<BufferOf<Self::Backend, T>>;
    /// The errors of releases that failed in `Drop` (module unloads, stream and event destroys,
    /// frees) since the last call, oldest first. `Drop` cannot return them, so they are kept here.
    fn take_drop_errors(&self) -> Vec<RuntimeError>;

    /// A TMA tensor map of `buffer` seen as a row-major tensor of `shape` (outermost dim first),
    /// whose dim `i` (but the last, which is contiguous) advances `row_strides[i]` elements, moved in
    /// boxes of `box_dims` (outermost first) swizzled over `swizzle` bytes (0, 32, 64 or 128).
    /// Checked by [`tensor_map`](crate::runtime::tensor_map)'s rules; `Err(TensorMap)` on a backend
    /// without TMA (the default).
    fn tensor_map<'a, T: DeviceElem>(
        &self,
        buffer: &'a BufferOf<Self::Backend, T>,
        shape: &[u64],
        row_strides: &[u64],
        box_dims: &[u32],
        swizzle: u16,
    ) -> Result<TensorMap<'a>> {
        let _ = (buffer, shape, row_strides, box_dims, swizzle);
        Err(RuntimeError::TensorMap {
            reason: format!(
                "the {} backend has no tensor memory accelerator",
                <Self::Backend as Backend>::KIND
            ),
        })
    }

    /// Allocates `len` elements set to all-zero bits.
    fn alloc_zeroed<T: DeviceElem>(&self, len: usize) -> Result<BufferOf<Self::Backend, T>> {
        let mut b = self.alloc(len)?;
        b.fill_bytes(0)?;
        Ok(b)
    }

    /// Allocates a buffer holding a copy of `host`.
    fn upload<T: DeviceElem>(&self, host: &[T]) -> Result<BufferOf<Self::Backend, T>> {
        let mut b = self.alloc(host.len())?;
        b.copy_from_host(host)?;
        Ok(b)
    }

    /// Loads `image` and looks up the kernel `signature.name` in it.
    fn load_kernel(
        &self,
        image: KernelImage<'_>,
        signature: KernelSignature,
    ) -> Result<KernelOf<Self::Backend>> {
        self.load(image)?.kernel(signature)
    }
}

/// A loaded kernel image, unloaded when the last handle to it (or to one of its kernels) drops.
pub trait Module: Clone + Debug + Send + Sync {
    /// The backend this module belongs to.
    type Backend: Backend<Module = Self>;
    /// The kernel named `signature.name`, checked against `signature` at every [`Stream::launch`].
    fn kernel(&self, signature: KernelSignature) -> Result<KernelOf<Self::Backend>>;
}

/// A kernel of a loaded module, with its signature and attributes. Cheap to clone.
pub trait Kernel: Clone + Debug + Send + Sync {
    /// The backend this kernel belongs to.
    type Backend: Backend<Kernel = Self>;
    /// The signature launches are checked against.
    fn signature(&self) -> &KernelSignature;
    /// Registers, static shared memory and thread limit reported by the driver.
    fn attrs(&self) -> KernelAttrs;
    /// The device the kernel's module was loaded on.
    fn device(&self) -> DeviceOf<Self::Backend>;
    /// Makes `bytes` of dynamic shared memory available to launches (CUDA raises the kernel's
    /// maximum-dynamic-shared-memory attribute; AMD GPUs need no opt-in).
    fn reserve_dynamic_shared(&self, bytes: u32) -> Result<()>;

    /// The kernel's name.
    fn name(&self) -> &str {
        &self.signature().name
    }
}

/// A point in a stream, with a timestamp.
pub trait Event: Debug + Send + Sync + Sized {
    /// The backend this event belongs to.
    type Backend: Backend<Event = Self>;
    /// Waits until the work before the event has completed.
    fn synchronize(&self) -> Result<()>;
    /// Milliseconds between `self` (recorded first) and `end`; waits for `end` to complete.
    fn elapsed_ms(&self, end: &Self) -> Result<f32>;
}

/// `len` elements of `T` in device memory, freed on drop.
///
/// Host copies are blocking and ordered after **all** earlier work on the device (every stream),
/// so the bytes read back are those the kernels wrote. Drop a buffer only after the kernels using
/// it have finished (part of the launch contract).
pub trait Buffer<T: DeviceElem>: DevicePointer + Debug + Send + Sync + Sized {
    /// The backend this buffer belongs to.
    type Backend: Backend;
    /// Number of elements.
    fn len(&self) -> usize;
    /// The device that owns the memory.
    fn device(&self) -> DeviceOf<Self::Backend>;
    /// Sets every byte to `byte` (e.g. `0xff` poisons f32 outputs with NaN before a test).
    fn fill_bytes(&mut self, byte: u8) -> Result<()>;
    /// Copies `host` into the buffer after all earlier work on the device.
    ///
    /// # Safety
    /// `host.len() == self.len()`, and both are non-zero.
    unsafe fn copy_from_host_unchecked(&mut self, host: &[T]) -> Result<()>;
    /// Copies the buffer into `host` after all earlier work on the device.
    ///
    /// # Safety
    /// `host.len() == self.len()`, and both are non-zero.
    unsafe fn copy_to_host_unchecked(&self, host: &mut [T]) -> Result<()>;
    /// Copies `src` into this buffer on the device after all earlier work; blocking.
    ///
    /// # Safety
    /// `src.len() == self.len()`, both are non-zero, and `src` is on the same device.
    unsafe fn copy_from_unchecked(&mut self, src: &Self) -> Result<()>;

    /// True for a zero-length buffer.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Size in bytes.
    fn size_bytes(&self) -> usize {
        self.len() * std::mem::size_of::<T>()
    }

    /// Copies `host` into the buffer (lengths must match).
    fn copy_from_host(&mut self, host: &[T]) -> Result<()> {
        check_len("copy_from_host", self.len(), host.len())?;
        if host.is_empty() {
            return Ok(());
        }
        // SAFETY: the lengths match and are non-zero.
        unsafe { self.copy_from_host_unchecked(host) }
    }

    /// Copies the buffer into `host` (lengths must match).
    fn copy_to_host(&self, host: &mut [T]) -> Result<()> {
        check_len("copy_to_host", self.len(), host.len())?;
        if host.is_empty() {
            return Ok(());
        }
        // SAFETY: the lengths match and are non-zero.
        unsafe { self.copy_to_host_unchecked(host) }
    }

    /// The buffer's contents as a vector.
    fn to_vec(&self) -> Result<Vec<T>> {
        // SAFETY: `DeviceElem` guarantees that every bit pattern, all zeros included, is a valid `T`.
        let zero: T = unsafe { std::mem::zeroed() };
        let mut v = vec![zero; self.len()];
        self.copy_to_host(&mut v)?;
        Ok(v)
    }

    /// Copies `src` into this buffer on the device (lengths and devices must match); blocking.
    fn copy_from(&mut self, src: &Self) -> Result<()> {
        check_len("copy_from (device)", self.len(), src.len())?;
        if src.device() != self.device() {
            return Err(RuntimeError::WrongDevice { what: "buffer" });
        }
        if src.is_empty() {
            return Ok(());
        }
        // SAFETY: lengths match and are non-zero; same device.
        unsafe { self.copy_from_unchecked(src) }
    }
}

/// The [`Target`] of a device whose driver reports architecture `arch` and `warp_size` lanes per
/// warp: `sm_90` becomes `sm_90a` (a device runs its architecture's arch-specific code), a HIP
/// name loses its feature suffixes (`gfx942:sramecc+:xnack-` is `gfx942`), and wave32 AMD devices
/// get 32 lanes. `Err(UnknownArch)` when weft has no such target.
pub fn arch_target(backend: BackendKind, arch: &str, warp_size: u32) -> Result<Target> {
    let unknown = || RuntimeError::UnknownArch {
        backend,
        arch: arch.chars().take(64).collect(),
    };
    let target = match backend {
        BackendKind::Cuda => {
            let plain = Target::parse(arch).map_err(|_| unknown())?;
            // The arch-specific variant exists from sm_90 on (`Target::parse` refuses it below).
            Target::parse(&format!("{arch}a")).unwrap_or(plain)
        }
        BackendKind::Hip => {
            let base = arch.split(':').next().unwrap_or_default();
            Target::parse(base).map_err(|_| unknown())?
        }
        // The interpreter runs a kernel built for any target: the arch is the target's name.
        BackendKind::Cpu => Target::parse(arch).map_err(|_| unknown())?,
    };
    let vendor = match backend {
        BackendKind::Cuda => Some(Vendor::Nvidia),
        BackendKind::Hip => Some(Vendor::Amd),
        BackendKind::Cpu => None,
    };
    if vendor.is_some_and(|v| target.vendor() != v) {
        return Err(unknown());
    }
    target.with_warp_size(warp_size).ok_or_else(unknown)
}

/// `Err(LengthMismatch)` unless a copy's device and host lengths agree.
pub fn check_len(op: &'static str, device: usize, host: usize) -> Result<()> {
    if device == host {
        Ok(())
    } else {
        Err(RuntimeError::LengthMismatch { op, device, host })
    }
}

/// A queue of work on one device. Work on one stream runs in order.
pub trait Stream: Clone + Debug + Send + Sync + Sized {
    /// The backend this stream belongs to.
    type Backend: Backend<Stream = Self>;

    /// The device the stream belongs to.
    fn device(&self) -> DeviceOf<Self::Backend>;
    /// Waits for all work queued on this stream; a kernel fault names the last kernel launched.
    fn synchronize(&self) -> Result<()>;
    /// Records a timing event at the current end of the stream.
    fn record(&self) -> Result<EventOf<Self::Backend>>;
    /// Makes later work on this stream wait for `event` (which may come from another stream).
    fn wait(&self, event: &EventOf<Self::Backend>) -> Result<()>;

    /// Queues a device-to-device copy of `bytes` bytes from `src` to `dst`; not blocking.
    ///
    /// # Safety
    /// Both ranges are live device memory of this stream's device, `bytes` long, not overlapping,
    /// and stay alive until the stream reaches the copy.
    unsafe fn copy_async_unchecked(&self, src: u64, dst: u64, bytes: usize) -> Result<()>;

    /// Launches `kernel` with no checks of our own: the driver still rejects impossible
    /// configurations, but a wrong argument count or type goes unnoticed.
    ///
    /// # Safety
    /// Everything [`Stream::launch`] requires, and also that `args` match the kernel's parameters
    /// in number and type, and that `config.shared_mem_bytes` fits the kernel's shared-memory
    /// attribute (see [`Kernel::reserve_dynamic_shared`]).
    unsafe fn launch_unchecked(
        &self,
        kernel: &KernelOf<Self::Backend>,
        config: &LaunchConfig,
        args: &KernelArgs<'_>,
    ) -> Result<()>;

    /// Queues a device-to-device copy of `src` into `dst` (lengths and devices must match); not
    /// blocking: keep both buffers alive until the stream has reached the copy.
    fn copy_async<T: DeviceElem>(
        &self,
        src: &BufferOf<Self::Backend, T>,
        dst: &mut BufferOf<Self::Backend, T>,
    ) -> Result<()> {
        check_len("copy_async", dst.len(), src.len())?;
        let dev = self.device();
        if src.device() != dev || dst.device() != dev {
            return Err(RuntimeError::WrongDevice { what: "buffer" });
        }
        if src.is_empty() {
            return Ok(());
        }
        // SAFETY: both ranges are `size_bytes()` long and belong to live buffers of this device;
        // `dst` is borrowed mutably so they do not overlap. Buffers' blocking operations wait for
        // the whole device, and the caller keeps both alive until the copy has run.
        unsafe { self.copy_async_unchecked(src.device_addr(), dst.device_addr(), src.size_bytes()) }
    }

    /// Launches `kernel` after checking `args` against its signature (count, types, divisibility;
    /// [`check_args`]), `config` against the signature's block size and shared memory
    /// ([`check_config`]) and against the device and kernel limits ([`LaunchConfig::validate`]),
    /// then opts in to the dynamic shared memory `config` asks for when it exceeds the default.
    ///
    /// # Safety
    /// The checks cover the ABI, not the kernel's behaviour. The caller promises that
    /// 1. the kernel, given these scalars, only accesses memory inside the buffers it is passed;
    /// 2. no other stream writes (or reads, if this kernel writes) those buffers concurrently;
    /// 3. every buffer passed stays alive until the kernel has finished (e.g. a `synchronize`).
    unsafe fn launch(
        &self,
        kernel: &KernelOf<Self::Backend>,
        config: &LaunchConfig,
        args: &KernelArgs<'_>,
    ) -> Result<()> {
        let dev = self.device();
        if kernel.device() != dev {
            return Err(RuntimeError::WrongDevice { what: "kernel" });
        }
        check_args(kernel.signature(), args.as_slice())?;
        check_config(kernel.signature(), config)?;
        let plan = config.validate(kernel.name(), &dev.limits(), &kernel.attrs())?;
        if let SharedMemPlan::OptIn { dynamic_bytes } = plan {
            kernel.reserve_dynamic_shared(dynamic_bytes)?;
        }
        // SAFETY: forwarded from the caller; the ABI was checked above.
        unsafe { self.launch_unchecked(kernel, config, args) }
    }

    /// Runs `work` `iters` times after `warmup` untimed runs and returns each timed run's duration
    /// in milliseconds, measured with events on this stream.
    fn time_ms(
        &self,
        warmup: usize,
        iters: usize,
        mut work: impl FnMut(&Self) -> Result<()>,
    ) -> Result<Vec<f32>> {
        for _ in 0..warmup {
            work(self)?;
        }
        self.synchronize()?;
        let mut times = Vec::with_capacity(iters);
        for _ in 0..iters {
            let start = self.record()?;
            work(self)?;
            let end = self.record()?;
            times.push(start.elapsed_ms(&end)?);
        }
        Ok(times)
    }
}

/// The errors of failed releases in `Drop`, kept on a device until
/// [`Device::take_drop_errors`] hands them out. At most [`DropErrors::KEPT`] are kept; later ones
/// are counted, and the count is reported as one more error.
#[derive(Debug, Default)]
pub struct DropErrors {
    inner: Mutex<(Vec<RuntimeError>, usize)>,
}

impl DropErrors {
    /// Errors kept before further ones are only counted.
    pub const KEPT: usize = 64;

    /// An empty record.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records the failure (if any) of releasing a `what` (`"module"`, `"stream"`, …).
    pub fn record(&self, what: &'static str, result: Result<()>) {
        if let Err(e) = result {
            // A poisoned lock only means a thread panicked mid-push; the list itself is intact.
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if inner.0.len() < Self::KEPT {
                inner.0.push(RuntimeError::Release {
                    what,
                    source: Box::new(e),
                });
            } else {
                inner.1 += 1;
            }
        }
    }

    /// The recorded errors, oldest first, leaving the record empty. When more than
    /// [`DropErrors::KEPT`] failed, the last entry says how many more.
    pub fn take(&self) -> Vec<RuntimeError> {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let (mut errors, more) = std::mem::take(&mut *inner);
        if more > 0 {
            errors.push(RuntimeError::Overflow {
                what: "the drop-error record",
                detail: format!("{more} more release failure(s) were not kept"),
            });
        }
        errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::error::DriverCode;

    fn failed(call: &'static str) -> Result<()> {
        Err(RuntimeError::Driver {
            backend: BackendKind::Hip,
            call,
            code: DriverCode {
                code: 400,
                name: "hipErrorInvalidHandle".into(),
                description: String::new(),
            },
        })
    }

    #[test]
    fn drop_errors_are_kept_in_order_and_taken_once() {
        let rec = DropErrors::new();
        rec.record("module", Ok(()));
        rec.record("module", failed("hipModuleUnload"));
        rec.record("stream", failed("hipStreamDestroy"));
        let taken = rec.take();
        assert_eq!(taken.len(), 2, "successes are not recorded: {taken:?}");
        assert!(
            matches!(&taken[0], RuntimeError::Release { what: "module", source }
            if matches!(**source, RuntimeError::Driver { call: "hipModuleUnload", .. }))
        );
        assert!(matches!(
            &taken[1],
            RuntimeError::Release { what: "stream", .. }
        ));
        assert!(taken[0]
            .to_string()
            .starts_with("releasing a module failed: HIP hipModuleUnload failed"));
        assert!(rec.take().is_empty(), "taking empties the record");
    }

    #[test]
    fn drop_errors_past_the_cap_are_counted() {
        let rec = DropErrors::new();
        for _ in 0..DropErrors::KEPT + 3 {
            rec.record("event", failed("hipEventDestroy"));
        }
        let taken = rec.take();
        assert_eq!(taken.len(), DropErrors::KEPT + 1);
        assert!(
            taken[DropErrors::KEPT].to_string().contains("3 more"),
            "{}",
            taken[DropErrors::KEPT]
        );
    }

    #[test]
    fn device_arches_become_targets() {
        let cuda = |a| arch_target(BackendKind::Cuda, a, 32);
        assert_eq!(cuda("sm_90").unwrap(), Target::SM90A);
        assert_eq!(cuda("sm_80").unwrap(), Target::SM80);
        assert_eq!(cuda("sm_89").unwrap().sm(), Some(89));
        assert!(!cuda("sm_89").unwrap().is_arch_specific());
        let hip = |a, w| arch_target(BackendKind::Hip, a, w);
        assert_eq!(hip("gfx942:sramecc+:xnack-", 64).unwrap(), Target::GFX942);
        assert_eq!(hip("gfx90a:xnack+", 64).unwrap(), Target::GFX90A);
        assert_eq!(hip("gfx950", 64).unwrap(), Target::GFX950);
        assert_eq!(hip("gfx942", 32).unwrap().warp_size(), 32);
        for (backend, arch, warp) in [
            (BackendKind::Cuda, "sm_121", 32),
            (BackendKind::Cuda, "gfx942", 32),
            (BackendKind::Cuda, "sm_90", 64),
            (BackendKind::Hip, "gfx1100:xnack-", 32),
            (BackendKind::Hip, "", 64),
            (BackendKind::Hip, "sm_90", 32),
        ] {
            match arch_target(backend, arch, warp) {
                Err(RuntimeError::UnknownArch {
                    backend: b,
                    arch: a,
                }) => {
                    assert_eq!((b, a.as_str()), (backend, arch))
                }
                other => panic!("{backend} {arch}: expected UnknownArch, got {other:?}"),
            }
        }
    }

    #[test]
    fn images_of_the_other_vendor_are_typed_errors() {
        let e = KernelImage::CodeObject(b"\x7fELF").not_for(BackendKind::Cuda);
        assert_eq!(
            e.to_string(),
            "invalid code object: the CUDA backend loads PTX and cubins"
        );
        let e = KernelImage::Ptx(".version 8.0").not_for(BackendKind::Hip);
        assert_eq!(
            e.to_string(),
            "invalid PTX: the HIP backend loads AMDGPU code objects"
        );
    }
}
