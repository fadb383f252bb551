//! HIP streams, kernel launches and event timing.

use std::ffi::c_void;
use std::sync::Arc;

use super::buffer::Buffer;
use super::device::Shared;
use super::module::Kernel;
use super::{check, code, sys};
use crate::runtime::args::KernelArgs;
use crate::runtime::check::{check_args, check_config};
use crate::runtime::elem::DeviceElem;
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::launch::LaunchConfig;

/// A queue of work on one device.
#[derive(Debug, Clone)]
pub struct Stream {
    inner: Arc<StreamInner>,
}

#[derive(Debug)]
struct StreamInner {
    shared: Arc<Shared>,
    stream: sys::HipStream,
    owned: bool,
}

// SAFETY: a hipStream_t is a runtime handle usable from any thread with the device bound; it is
// destroyed once, in Drop, and only if this struct created it.
unsafe impl Send for StreamInner {}
// SAFETY: as above; HIP's stream functions are thread-safe.
unsafe impl Sync for StreamInner {}

impl Drop for StreamInner {
    fn drop(&mut self) {
        if self.owned && self.shared.bind().is_ok() {
            // SAFETY: created by hipStreamCreateWithFlags, destroyed once.
            let _ = unsafe { (self.shared.lib.hipStreamDestroy)(self.stream) };
        }
    }
}

/// A timing event recorded on a stream.
#[derive(Debug)]
pub struct Event {
    shared: Arc<Shared>,
    event: sys::HipEvent,
}

// SAFETY: a hipEvent_t is a runtime handle, destroyed once in Drop.
unsafe impl Send for Event {}
// SAFETY: as above.
unsafe impl Sync for Event {}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: created by hipEventCreateWithFlags, destroyed once.
        let _ = unsafe { (self.shared.lib.hipEventDestroy)(self.event) };
    }
}

impl Event {
    /// Milliseconds between `self` (recorded first) and `end`; waits for `end`.
    pub fn elapsed_ms(&self, end: &Event) -> Result<f32> {
        end.synchronize()?;
        let mut ms = 0f32;
        // SAFETY: both events are live and recorded; writes one float.
        check(self.shared.lib, "hipEventElapsedTime", unsafe {
            (self.shared.lib.hipEventElapsedTime)(&mut ms, self.event, end.event)
        })?;
        Ok(ms)
    }

    /// Waits until the work before the event has completed.
    pub fn synchronize(&self) -> Result<()> {
        // SAFETY: live event.
        self.shared.sync_check("hipEventSynchronize", unsafe {
            (self.shared.lib.hipEventSynchronize)(self.event)
        })
    }
}

impl Stream {
    pub(crate) fn null(shared: Arc<Shared>) -> Stream {
        Stream {
            inner: Arc::new(StreamInner {
                shared,
                stream: std::ptr::null_mut(),
                owned: false,
            }),
        }
    }

    pub(crate) fn create(shared: Arc<Shared>) -> Result<Stream> {
        shared.bind()?;
        let mut stream: sys::HipStream = std::ptr::null_mut();
        // SAFETY: writes one handle.
        check(shared.lib, "hipStreamCreateWithFlags", unsafe {
            (shared.lib.hipStreamCreateWithFlags)(&mut stream, sys::HIP_STREAM_NON_BLOCKING)
        })?;
        Ok(Stream {
            inner: Arc::new(StreamInner {
                shared,
                stream,
                owned: true,
            }),
        })
    }

    fn shared(&self) -> &Arc<Shared> {
        &self.inner.shared
    }

    /// Waits for all work queued on this stream.
    pub fn synchronize(&self) -> Result<()> {
        let s = self.shared();
        s.bind()?;
        // SAFETY: live stream (or the NULL stream).
        s.sync_check("hipStreamSynchronize", unsafe {
            (s.lib.hipStreamSynchronize)(self.inner.stream)
        })
    }

    /// Records a timing event at the current end of the stream.
    pub fn record(&self) -> Result<Event> {
        let s = self.shared();
        s.bind()?;
        let mut event: sys::HipEvent = std::ptr::null_mut();
        // SAFETY: writes one handle.
        check(s.lib, "hipEventCreateWithFlags", unsafe {
            (s.lib.hipEventCreateWithFlags)(&mut event, sys::HIP_EVENT_DEFAULT)
        })?;
        let event = Event {
            shared: s.clone(),
            event,
        };
        // SAFETY: live event and stream.
        check(s.lib, "hipEventRecord", unsafe {
            (s.lib.hipEventRecord)(event.event, self.inner.stream)
        })?;
        Ok(event)
    }

    /// Makes later work on this stream wait for `event`.
    pub fn wait(&self, event: &Event) -> Result<()> {
        let s = self.shared();
        // SAFETY: live stream and event.
        check(s.lib, "hipStreamWaitEvent", unsafe {
            (s.lib.hipStreamWaitEvent)(self.inner.stream, event.event, 0)
        })
    }

    fn check_same_device(&self, other: &Arc<Shared>, what: &'static str) -> Result<()> {
        if Arc::ptr_eq(self.shared(), other) || self.shared().ordinal == other.ordinal {
            Ok(())
        } else {
            Err(RuntimeError::WrongDevice { what })
        }
    }

    /// Queues a device-to-device copy of `src` into `dst`; not blocking.
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
        let s = self.shared();
        s.bind()?;
        // SAFETY: both ranges are `size_bytes()` long in live allocations; `dst` is borrowed mutably
        // so they do not overlap; the caller keeps them alive until the copy has run.
        check(s.lib, "hipMemcpyDtoDAsync", unsafe {
            (s.lib.hipMemcpyDtoDAsync)(dst.raw(), src.raw(), src.size_bytes(), self.inner.stream)
        })
    }

    /// Launches `kernel` after checking `args` against its signature and `config` against the
    /// device and kernel limits.
    ///
    /// # Safety
    /// As for the CUDA launch: the kernel only accesses memory inside the buffers it is passed, no
    /// other stream races on them, and they stay alive until the kernel has finished.
    pub unsafe fn launch(
        &self,
        kernel: &Kernel,
        config: &LaunchConfig,
        args: &KernelArgs<'_>,
    ) -> Result<()> {
        self.check_same_device(kernel.shared(), "kernel")?;
        check_args(kernel.signature(), args.as_slice())?;
        check_config(kernel.signature(), config)?;
        // AMD GPUs have no opt-in step: the whole LDS budget is available to every launch.
        config.validate(kernel.name(), &self.shared().props.limits, &kernel.attrs())?;
        // SAFETY: forwarded from the caller; the ABI was checked above.
        unsafe { self.launch_unchecked(kernel, config, args) }
    }

    /// Launches `kernel` with no checks of our own.
    ///
    /// # Safety
    /// Everything [`Stream::launch`] requires, and that `args` match the kernel's parameters.
    pub unsafe fn launch_unchecked(
        &self,
        kernel: &Kernel,
        config: &LaunchConfig,
        args: &KernelArgs<'_>,
    ) -> Result<()> {
        let s = self.shared();
        s.bind()?;
        let mut slots = args.to_slots();
        let mut params: Vec<*mut c_void> =
            slots.iter_mut().map(|x| x.as_mut_ptr().cast()).collect();
        let (g, b) = (config.grid, config.block);
        s.set_last_kernel(kernel.name());
        // SAFETY: one pointer per argument into `slots`, which outlive the call (the runtime copies
        // the values before returning); the function is live; the rest is the caller's promise.
        let status = unsafe {
            (s.lib.hipModuleLaunchKernel)(
                kernel.inner.func,
                g.x,
                g.y,
                g.z,
                b.x,
                b.y,
                b.z,
                config.shared_mem_bytes,
                self.inner.stream,
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        if status != sys::HIP_SUCCESS {
            return Err(RuntimeError::Launch {
                kernel: kernel.name().to_string(),
                code: code(s.lib, status),
            });
        }
        Ok(())
    }

    /// Runs `work` `iters` times after `warmup` untimed runs; returns each timed run in ms.
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
