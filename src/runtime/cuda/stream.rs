//! Streams, kernel launches and CUDA-event timing.

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::{result, sys, CudaEvent, CudaStream};

use super::handle::{Device, Shared};
use super::module::Kernel;
use super::{code, driver_err, Cuda};
use crate::runtime::args::KernelArgs;
use crate::runtime::backend;
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::launch::LaunchConfig;
use crate::runtime::prelude::*;

/// A queue of work on one device. Work on one stream runs in order.
///
/// Either a stream weft made ([`Device::stream`](backend::Device::stream),
/// [`new_stream`](backend::Device::new_stream)) or one a framework owns, borrowed by its raw
/// `CUstream` handle ([`Stream::from_raw`]).
#[derive(Debug, Clone)]
pub struct Stream {
    shared: Arc<Shared>,
    queue: Queue,
}

#[derive(Debug, Clone)]
enum Queue {
    Owned(Arc<CudaStream>),
    Borrowed(RawStream),
}

/// A `CUstream` weft does not own.
#[derive(Debug, Clone, Copy)]
struct RawStream(sys::CUstream);

// SAFETY: a CUstream is a driver handle usable from any thread; `Stream::from_raw`'s caller
// promises it outlives every weft stream made from it.
unsafe impl Send for RawStream {}
// SAFETY: as above; the driver's stream functions are thread-safe.
unsafe impl Sync for RawStream {}

/// A point in a stream, with a timestamp for [`Event::elapsed_ms`](backend::Event::elapsed_ms).
#[derive(Debug)]
pub struct Event {
    event: CudaEvent,
    shared: Arc<Shared>,
}

impl backend::Event for Event {
    type Backend = Cuda;

    fn elapsed_ms(&self, end: &Event) -> Result<f32> {
        end.synchronize()?;
        self.event
            .elapsed_ms(&end.event)
            .map_err(|e| self.shared.sync_err("cuEventElapsedTime", e))
    }

    fn synchronize(&self) -> Result<()> {
        self.event
            .synchronize()
            .map_err(|e| self.shared.sync_err("cuEventSynchronize", e))
    }
}

impl Stream {
    pub(crate) fn from_parts(shared: Arc<Shared>, stream: Arc<CudaStream>) -> Stream {
        Stream {
            shared,
            queue: Queue::Owned(stream),
        }
    }

    /// A weft stream over a `CUstream` someone else owns (a framework's, made by any version of
    /// cudarc or by the driver API directly; pass the handle as a pointer, e.g.
    /// `stream.cu_stream() as *mut c_void`). Weft launches on it run in order with the owner's
    /// work there. A null handle is the legacy default stream of `device`'s context.
    ///
    /// `Err(WrongDevice)` if the stream belongs to another context than `device`'s (its primary
    /// context, which cudarc, candle and the runtime API all use).
    ///
    /// # Safety
    /// `stream` must be a valid `CUstream` (or null) and stay alive while this [`Stream`] or a
    /// clone of it is used; weft never destroys it.
    pub unsafe fn from_raw(device: &Device, stream: *mut c_void) -> Result<Stream> {
        let shared = device.shared.clone();
        shared.bind()?;
        let raw: sys::CUstream = stream.cast();
        if !raw.is_null() {
            let mut ctx: sys::CUcontext = std::ptr::null_mut();
            // SAFETY: the caller promises a valid stream; the call writes one handle.
            unsafe { sys::cuStreamGetCtx(raw, &mut ctx) }
                .result()
                .map_err(|e| driver_err("cuStreamGetCtx", e))?;
            if ctx != shared.ctx.cu_ctx() {
                return Err(RuntimeError::WrongDevice { what: "stream" });
            }
        }
        Ok(Stream {
            shared,
            queue: Queue::Borrowed(RawStream(raw)),
        })
    }

    /// The driver's handle of this stream (a `CUstream`), to queue a framework's own work in
    /// order with weft's. Valid while this stream (or, for [`Stream::from_raw`], its owner's) lives.
    pub fn as_raw(&self) -> *mut c_void {
        self.cu().cast()
    }

    fn cu(&self) -> sys::CUstream {
        match &self.queue {
            Queue::Owned(s) => s.cu_stream(),
            Queue::Borrowed(r) => r.0,
        }
    }

    /// A weft stream over a cudarc stream: weft kernels launched on it run in order with the
    /// cudarc work queued there. Reads the device's properties (as
    /// [`Device::from_cudarc`](super::Device::from_cudarc) does); to wrap several streams of one
    /// context, make the device once and use [`Device::wrap_cudarc_stream`].
    #[cfg(feature = "cudarc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cudarc")))]
    pub fn from_cudarc(stream: Arc<CudaStream>) -> Result<Stream> {
        Device::from_cudarc(stream.context().clone())?.wrap_cudarc_stream(stream)
    }

    /// The cudarc stream under this stream (`None` for a stream borrowed by its raw handle).
    #[cfg(feature = "cudarc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "cudarc")))]
    pub fn cudarc_stream(&self) -> Option<&Arc<CudaStream>> {
        match &self.queue {
            Queue::Owned(s) => Some(s),
            Queue::Borrowed(_) => None,
        }
    }
}

impl backend::Stream for Stream {
    type Backend = Cuda;

    fn device(&self) -> Device {
        Device {
            shared: self.shared.clone(),
        }
    }

    fn synchronize(&self) -> Result<()> {
        self.shared.bind()?;
        // SAFETY: the stream is live (owned, or promised by `from_raw`'s caller).
        unsafe { sys::cuStreamSynchronize(self.cu()) }
            .result()
            .map_err(|e| self.shared.sync_err("cuStreamSynchronize", e))
    }

    fn record(&self) -> Result<Event> {
        self.shared.bind()?;
        let event = self
            .shared
            .ctx
            .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(|e| driver_err("cuEventCreate", e))?;
        // SAFETY: the event was just made in this context and the stream is live.
        unsafe { sys::cuEventRecord(event.cu_event(), self.cu()) }
            .result()
            .map_err(|e| driver_err("cuEventRecord", e))?;
        Ok(Event {
            event,
            shared: self.shared.clone(),
        })
    }

    fn wait(&self, event: &Event) -> Result<()> {
        self.shared.bind()?;
        // SAFETY: the event and the stream are live.
        unsafe { sys::cuStreamWaitEvent(self.cu(), event.event.cu_event(), 0) }
            .result()
            .map_err(|e| driver_err("cuStreamWaitEvent", e))
    }

    unsafe fn copy_async_unchecked(&self, src: u64, dst: u64, bytes: usize) -> Result<()> {
        self.shared.bind()?;
        // SAFETY: the caller's promise: live, disjoint ranges of `bytes` bytes on this device.
        unsafe { result::memcpy_dtod_async(dst, src, bytes, self.cu()) }
            .map_err(|e| driver_err("cuMemcpyDtoDAsync", e))
    }

    unsafe fn launch_unchecked(
        &self,
        kernel: &Kernel,
        config: &LaunchConfig,
        args: &KernelArgs<'_>,
    ) -> Result<()> {
        self.shared.bind()?;
        let mut slots = args.to_slots();
        let mut params: Vec<*mut c_void> =
            slots.iter_mut().map(|s| s.0.as_mut_ptr().cast()).collect();
        let (g, b) = (config.grid, config.block);
        self.shared.set_last_kernel(kernel.name());
        if let Some(cluster) = kernel.signature().cluster {
            self.check_cluster_device(kernel, cluster)?;
        }
        // SAFETY: `params` holds one pointer per argument into `slots`, which outlive the call (the
        // driver copies the parameter values before returning); the function is live; the rest is
        // the caller's promise.
        unsafe {
            result::launch_kernel(
                kernel.inner.func,
                (g.x, g.y, g.z),
                (b.x, b.y, b.z),
                config.shared_mem_bytes,
                self.cu(),
                &mut params,
            )
        }
        .map_err(|e| RuntimeError::Launch {
            kernel: kernel.name().to_string(),
            code: code(e),
        })
    }
}

impl Stream {
    /// A kernel built for clusters of `cluster` CTAs needs a device with clusters (sm_90 or
    /// later). Its cluster shape travels in its code (`.reqnctapercluster`), so the driver forms
    /// the clusters from the plain launch, as for CUDA's `__cluster_dims__` kernels; a
    /// launch-time cluster attribute is only for kernels without one.
    fn check_cluster_device(&self, kernel: &Kernel, cluster: [u32; 3]) -> Result<()> {
        let (major, minor) = self.shared.props.compute_capability;
        if major < 9 {
            return Err(RuntimeError::LaunchConfig {
                kernel: kernel.name().to_string(),
                problem: crate::runtime::error::LaunchProblem::ClusterArch {
                    cluster,
                    what: "the device",
                    arch: format!("sm_{major}{minor}"),
                },
            });
        }
        Ok(())
    }
}

/// A CUDA graph captured on a [`Stream`] ([`GraphStream::capture`](crate::runtime::bench::GraphStream::capture)),
/// instantiated and replayable with [`GraphStream::replay`](crate::runtime::bench::GraphStream::replay)
/// on that stream. Not `Send`: CUDA graph objects are not internally synchronized.
pub struct Graph {
    graph: cudarc::driver::CudaGraph,
    stream: Arc<CudaStream>,
}

impl std::fmt::Debug for Graph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Graph")
            .field("exec", &self.graph.cu_graph_exec())
            .finish()
    }
}

impl crate::runtime::bench::GraphStream for Stream {
    type Graph = Graph;

    fn capture(&self, work: &mut dyn FnMut(&Stream) -> Result<()>) -> Result<Graph> {
        self.shared.bind()?;
        let Queue::Owned(stream) = &self.queue else {
            return Err(RuntimeError::BadOption {
                what: "graph capture",
                reason: "a stream borrowed by its raw handle is not captured by weft: capture it \
                         with its owner's API"
                    .into(),
            });
        };
        if stream.cu_stream().is_null() {
            return Err(RuntimeError::BadOption {
                what: "graph capture",
                reason:
                    "the legacy default stream cannot be captured: use a stream of `new_stream`"
                        .into(),
            });
        }
        stream
            .begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED)
            .map_err(|e| driver_err("cuStreamBeginCapture", e))?;
        let queued = work(self);
        // End the capture whatever `work` returned, so the stream is usable again.
        let ended = stream
            .end_capture(sys::CUgraphInstantiate_flags(0))
            .map_err(|e| driver_err("cuStreamEndCapture/cuGraphInstantiate", e));
        queued?;
        match ended? {
            Some(graph) => Ok(Graph {
                graph,
                stream: stream.clone(),
            }),
            None => Err(RuntimeError::BadOption {
                what: "graph capture",
                reason: "the captured work queued nothing".into(),
            }),
        }
    }

    fn replay(&self, graph: &Graph) -> Result<()> {
        let same = matches!(&self.queue, Queue::Owned(s) if Arc::ptr_eq(&graph.stream, s));
        if !same {
            return Err(RuntimeError::BadOption {
                what: "graph replay",
                reason: "a graph replays on the stream it was captured on".into(),
            });
        }
        self.shared.bind()?;
        graph
            .graph
            .launch()
            .map_err(|e| driver_err("cuGraphLaunch", e))
    }
}
