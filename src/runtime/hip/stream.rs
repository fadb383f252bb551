//! HIP streams, kernel launches and event timing.

use std::ffi::c_void;
use std::sync::Arc;

use super::handle::{Device, Shared};
use super::module::Kernel;
use super::{check, code, sys, Hip};
use crate::runtime::args::KernelArgs;
use crate::runtime::backend;
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::launch::LaunchConfig;
use crate::runtime::prelude::*;

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
        if self.owned {
            let s = &self.shared;
            let destroyed = s.bind().and_then(|()| {
                // SAFETY: created by hipStreamCreateWithFlags, destroyed once.
                check(s.lib, "hipStreamDestroy", unsafe {
                    (s.lib.hipStreamDestroy)(self.stream)
                })
            });
            s.drop_errors.record("stream", destroyed);
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
        let s = &self.shared;
        // SAFETY: created by hipEventCreateWithFlags, destroyed once.
        let destroyed = check(s.lib, "hipEventDestroy", unsafe {
            (s.lib.hipEventDestroy)(self.event)
        });
        s.drop_errors.record("event", destroyed);
    }
}

impl backend::Event for Event {
    type Backend = Hip;

    fn elapsed_ms(&self, end: &Event) -> Result<f32> {
        end.synchronize()?;
        let mut ms = 0f32;
        // SAFETY: both events are live and recorded; writes one float.
        check(self.shared.lib, "hipEventElapsedTime", unsafe {
            (self.shared.lib.hipEventElapsedTime)(&mut ms, self.event, end.event)
        })?;
        Ok(ms)
    }

    fn synchronize(&self) -> Result<()> {
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
}

impl backend::Stream for Stream {
    type Backend = Hip;

    fn device(&self) -> Device {
        Device {
            shared: self.shared().clone(),
        }
    }

    fn synchronize(&self) -> Result<()> {
        let s = self.shared();
        s.bind()?;
        // SAFETY: live stream (or the NULL stream).
        s.sync_check("hipStreamSynchronize", unsafe {
            (s.lib.hipStreamSynchronize)(self.inner.stream)
        })
    }

    fn record(&self) -> Result<Event> {
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

    fn wait(&self, event: &Event) -> Result<()> {
        let s = self.shared();
        // SAFETY: live stream and event.
        check(s.lib, "hipStreamWaitEvent", unsafe {
            (s.lib.hipStreamWaitEvent)(self.inner.stream, event.event, 0)
        })
    }

    unsafe fn copy_async_unchecked(&self, src: u64, dst: u64, bytes: usize) -> Result<()> {
        let s = self.shared();
        s.bind()?;
        // SAFETY: the caller's promise: live, disjoint ranges of `bytes` bytes on this device.
        check(s.lib, "hipMemcpyDtoDAsync", unsafe {
            (s.lib.hipMemcpyDtoDAsync)(
                dst as sys::HipDeviceptr,
                src as sys::HipDeviceptr,
                bytes,
                self.inner.stream,
            )
        })
    }

    unsafe fn launch_unchecked(
        &self,
        kernel: &Kernel,
        config: &LaunchConfig,
        args: &KernelArgs<'_>,
    ) -> Result<()> {
        let s = self.shared();
        s.bind()?;
        let mut slots = args.to_slots();
        let mut params: Vec<*mut c_void> =
            slots.iter_mut().map(|x| x.0.as_mut_ptr().cast()).collect();
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
}
