//! Streams, kernel launches and CUDA-event timing.

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::{result, sys, CudaEvent, CudaStream};

use super::buffer::Buffer;
use super::device::Shared;
use super::module::Kernel;
use super::{code, driver_err};
use crate::runtime::args::{DevicePointer, KernelArgs};
use crate::runtime::check::{check_args, check_config};
use crate::runtime::elem::DeviceElem;
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::launch::{LaunchConfig, SharedMemPlan};

/// A queue of work on one device. Work on one stream runs in order.
#[derive(Debug, Clone)]
pub struct Stream {
    shared: Arc<Shared>,
    stream: Arc<CudaStream>,
}

/// A point in a stream, with a timestamp for [`Event::elapsed_ms`].
#[derive(Debug)]
pub struct Event {
    event: CudaEvent,
    shared: Arc<Shared>,
}

impl Event {
    /// Milliseconds between `self` (recorded first) and `end`; waits for `end` to complete.
    pub fn elapsed_ms(&self, end: &Event) -> Result<f32> {
        end.synchronize()?;
        self.event
            .elapsed_ms(&end.event)
            .map_err(|e| self.shared.sync_err("cuEventElapsedTime", e))
    }

    /// Waits until the work before the event has completed.
    pub fn synchronize(&self) -> Result<()> {
        self.event
            .synchronize()
            .map_err(|e| self.shared.sync_err("cuEventSynchronize", e))
    }
}

impl Stream {
    pub(crate) fn from_parts(shared: Arc<Shared>, stream: Arc<CudaStream>) -> Stream {
        Stream { shared, stream }
    }

    /// Waits for all work queued on this stream; a kernel fault names the last kernel launched.
    pub fn synchronize(&self) -> Result<()> {
        self.shared.bind()?;
        self.stream
            .synchronize()
            .map_err(|e| self.shared.sync_err("cuStreamSynchronize", e))
    }

    /// Records a timing event at the current end of the stream.
    pub fn record(&self) -> Result<Event> {
        self.shared.bind()?;
        let event = self
            .shared
            .ctx
            .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(|e| driver_err("cuEventCreate", e))?;
        event
            .record(&self.stream)
            .map_err(|e| driver_err("cuEventRecord", e))?;
        Ok(Event {
            event,
            shared: self.shared.clone(),
        })
    }

    /// Makes later work on this stream wait for `event` (which may come from another stream).
    pub fn wait(&self, event: &Event) -> Result<()> {
        self.stream
            .wait(&event.event)
            .map_err(|e| driver_err("cuStreamWaitEvent", e))
    }

    /// Queues a device-to-device copy of `src` into `dst` (`cuMemcpyDtoDAsync`); not blocking.
    pub fn copy_async<T: DeviceElem>(&self, src: &Buffer<T>, dst: &mut Buffer<T>) -> Result<()> {
        if src.len() != dst.len() {
            return Err(RuntimeError::LengthMismatch {
                op: "copy_async",
                device: dst.len(),
                host: src.len(),
            });
        }
        self.check_same_device(src.shared(), "buffer")?;
        self.check_same_device(dst.shared(), "buffer")?;
        self.shared.bind()?;
        // SAFETY: both ranges are `size_bytes()` long and belong to live buffers of this context;
        // `dst` is borrowed mutably so they do not overlap. The caller keeps both alive until the
        // stream reaches the copy (the buffers' blocking operations wait for the whole device).
        unsafe {
            result::memcpy_dtod_async(
                dst.device_addr(),
                src.device_addr(),
                src.size_bytes(),
                self.stream.cu_stream(),
            )
        }
        .map_err(|e| driver_err("cuMemcpyDtoDAsync", e))
    }

    fn check_same_device(&self, other: &Arc<Shared>, what: &'static str) -> Result<()> {
        if Arc::ptr_eq(&self.shared, other) || self.shared.ctx == other.ctx {
            Ok(())
        } else {
            Err(RuntimeError::WrongDevice { what })
        }
    }

    /// Launches `kernel` after checking `args` against its signature and `config` against the device
    /// and kernel limits, raising the dynamic-shared-memory attribute when `config` needs more than
    /// the default 48 KB.
    ///
    /// # Safety
    /// The checks cover the ABI, not the kernel's behaviour. The caller promises that
    /// 1. the kernel, given these scalars, only accesses memory inside the buffers it is passed;
    /// 2. no other stream writes (or reads, if this kernel writes) those buffers concurrently;
    /// 3. every buffer passed stays alive until the kernel has finished (e.g. a `synchronize`).
    pub unsafe fn launch(
        &self,
        kernel: &Kernel,
        config: &LaunchConfig,
        args: &KernelArgs<'_>,
    ) -> Result<()> {
        self.check_same_device(kernel.shared(), "kernel")?;
        check_args(kernel.signature(), args.as_slice())?;
        check_config(kernel.signature(), config)?;
        let plan = config.validate(kernel.name(), &self.shared.props.limits, &kernel.attrs())?;
        self.shared.bind()?;
        if let SharedMemPlan::OptIn { dynamic_bytes } = plan {
            kernel.opt_in_shared(dynamic_bytes)?;
        }
        // SAFETY: forwarded from the caller; the ABI was checked above.
        unsafe { self.launch_unchecked(kernel, config, args) }
    }

    /// Launches `kernel` with no checks of our own: the driver still rejects impossible
    /// configurations, but a wrong argument count or type goes unnoticed.
    ///
    /// # Safety
    /// Everything [`Stream::launch`] requires, and also that `args` match the kernel's parameters in
    /// number and type, and that `config.shared_mem_bytes` fits the kernel's shared-memory attribute.
    pub unsafe fn launch_unchecked(
        &self,
        kernel: &Kernel,
        config: &LaunchConfig,
        args: &KernelArgs<'_>,
    ) -> Result<()> {
        self.shared.bind()?;
        let mut slots = args.to_slots();
        let mut params: Vec<*mut c_void> =
            slots.iter_mut().map(|s| s.as_mut_ptr().cast()).collect();
        let (g, b) = (config.grid, config.block);
        self.shared.set_last_kernel(kernel.name());
        // SAFETY: `params` holds one pointer per argument into `slots`, which outlive the call (the
        // driver copies the parameter values before returning); the function is live; the rest is
        // the caller's promise.
        unsafe {
            result::launch_kernel(
                kernel.inner.func,
                (g.x, g.y, g.z),
                (b.x, b.y, b.z),
                config.shared_mem_bytes,
                self.stream.cu_stream(),
                &mut params,
            )
        }
        .map_err(|e| RuntimeError::Launch {
            kernel: kernel.name().to_string(),
            code: code(e),
        })
    }

    /// Runs `work` `iters` times after `warmup` untimed runs and returns each timed run's duration
    /// in milliseconds, measured with events on this stream.
    pub fn time_ms(
        &self,
        warmup: usize,
        iters: usize,
        mut work: impl FnMut(&Stream) -> Result<()>,
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
