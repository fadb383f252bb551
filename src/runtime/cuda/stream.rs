//! Streams, kernel launches and CUDA-event timing.

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::{result, sys, CudaEvent, CudaStream};

use super::device::{Device, Shared};
use super::module::Kernel;
use super::{code, driver_err, Cuda};
use crate::runtime::args::KernelArgs;
use crate::runtime::backend;
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::launch::LaunchConfig;
use crate::runtime::prelude::*;

/// A queue of work on one device. Work on one stream runs in order.
#[derive(Debug, Clone)]
pub struct Stream {
    shared: Arc<Shared>,
    stream: Arc<CudaStream>,
}

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
        Stream { shared, stream }
    }

    /// A weft stream over a cudarc stream: weft kernels launched on it run in order with the
    /// cudarc work queued there. Reads the device's properties (as
    /// [`Device::from_cudarc`](super::Device::from_cudarc) does); to wrap several streams of one
    /// context, make the device once and use [`Device::wrap_cudarc_stream`].
    pub fn from_cudarc(stream: Arc<CudaStream>) -> Result<Stream> {
        Device::from_cudarc(stream.context().clone())?.wrap_cudarc_stream(stream)
    }

    /// The cudarc stream under this stream.
    pub fn cudarc_stream(&self) -> &Arc<CudaStream> {
        &self.stream
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
        self.stream
            .synchronize()
            .map_err(|e| self.shared.sync_err("cuStreamSynchronize", e))
    }

    fn record(&self) -> Result<Event> {
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

    fn wait(&self, event: &Event) -> Result<()> {
        self.stream
            .wait(&event.event)
            .map_err(|e| driver_err("cuStreamWaitEvent", e))
    }

    unsafe fn copy_async_unchecked(&self, src: u64, dst: u64, bytes: usize) -> Result<()> {
        self.shared.bind()?;
        // SAFETY: the caller's promise: live, disjoint ranges of `bytes` bytes on this device.
        unsafe { result::memcpy_dtod_async(dst, src, bytes, self.stream.cu_stream()) }
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
        if self.stream.cu_stream().is_null() {
            return Err(RuntimeError::BadOption {
                what: "graph capture",
                reason:
                    "the legacy default stream cannot be captured: use a stream of `new_stream`"
                        .into(),
            });
        }
        self.stream
            .begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED)
            .map_err(|e| driver_err("cuStreamBeginCapture", e))?;
        let queued = work(self);
        // End the capture whatever `work` returned, so the stream is usable again.
        let ended = self
            .stream
            .end_capture(sys::CUgraphInstantiate_flags(0))
            .map_err(|e| driver_err("cuStreamEndCapture/cuGraphInstantiate", e));
        queued?;
        match ended? {
            Some(graph) => Ok(Graph {
                graph,
                stream: self.stream.clone(),
            }),
            None => Err(RuntimeError::BadOption {
                what: "graph capture",
                reason: "the captured work queued nothing".into(),
            }),
        }
    }

    fn replay(&self, graph: &Graph) -> Result<()> {
        if !Arc::ptr_eq(&graph.stream, &self.stream) {
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
