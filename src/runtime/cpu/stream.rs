//! Streams and events of the CPU backend, and the launch that runs the interpreter.

use std::time::Instant;

use super::handle::Device;
use super::module::Kernel;
use super::tensor_map::decode;
use super::Cpu;
use crate::codegen::interp::{self, DeviceBuffer, InterpError, LaunchArg};
use crate::runtime::args::{KernelArg, KernelArgs};
use crate::runtime::backend::{self, Kernel as _};
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::launch::LaunchConfig;

/// A queue of work on the CPU device. Work runs when it is queued, so every stream is in order
/// with every other.
#[derive(Debug, Clone)]
pub struct Stream {
    device: Device,
}

impl Stream {
    pub(crate) fn new(device: Device) -> Stream {
        Stream { device }
    }
}

/// A point in time on the host.
#[derive(Debug)]
pub struct Event {
    at: Instant,
}

impl backend::Event for Event {
    type Backend = Cpu;

    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    fn elapsed_ms(&self, end: &Event) -> Result<f32> {
        Ok(end.at.saturating_duration_since(self.at).as_secs_f32() * 1e3)
    }
}

/// The interpreter's form of one argument: pointers become the buffer they point into (or a
/// bare address, which a kernel may hold without using).
fn launch_arg(kernel: &str, index: usize, arg: &KernelArg) -> Result<LaunchArg> {
    Ok(match *arg {
        KernelArg::Ptr { addr, .. } => LaunchArg::Buffer(DeviceBuffer { addr, bytes: 0 }),
        KernelArg::I32(v) => LaunchArg::I32(v),
        KernelArg::I64(v) => LaunchArg::I64(v),
        KernelArg::F32(v) => LaunchArg::F32(v),
        KernelArg::TensorMap(m) => {
            LaunchArg::TensorMap(decode(&m).ok_or_else(|| RuntimeError::TensorMap {
                reason: format!(
                    "argument {index} of `{kernel}` was not encoded by the CPU backend \
                     (`Device::tensor_map` of a cpu::Device)"
                ),
            })?)
        }
        KernelArg::U32(_) | KernelArg::U64(_) | KernelArg::F64(_) => {
            return Err(RuntimeError::Interpreter {
                kernel: kernel.to_string(),
                source: Box::new(InterpError::BadLaunch {
                    kernel: kernel.to_string(),
                    reason: format!(
                        "argument {index} is {}: weft kernels take i32, i64, f32, pointers and \
                         tensor maps",
                        arg.param_type()
                    ),
                }),
            })
        }
    })
}

impl backend::Stream for Stream {
    type Backend = Cpu;

    fn device(&self) -> Device {
        self.device.clone()
    }

    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    fn record(&self) -> Result<Event> {
        Ok(Event { at: Instant::now() })
    }

    fn wait(&self, _event: &Event) -> Result<()> {
        Ok(())
    }

    unsafe fn copy_async_unchecked(&self, src: u64, dst: u64, bytes: usize) -> Result<()> {
        self.device
            .shared
            .mem()
            .copy(src, dst, bytes as u64)
            .ok_or(RuntimeError::LengthMismatch {
                op: "copy_async (device)",
                device: bytes,
                host: 0,
            })
    }

    /// Runs the kernel to completion in the interpreter; a fault it finds is
    /// `Err(Interpreter)`.
    unsafe fn launch_unchecked(
        &self,
        kernel: &Kernel,
        config: &LaunchConfig,
        args: &KernelArgs<'_>,
    ) -> Result<()> {
        let name = kernel.name();
        let args = args
            .as_slice()
            .iter()
            .enumerate()
            .map(|(i, a)| launch_arg(name, i, a))
            .collect::<Result<Vec<_>>>()?;
        let g = config.grid;
        let mut mem = self.device.shared.mem();
        interp::run_program(
            kernel.program(),
            config.shared_mem_bytes.max(kernel.signature().shared_bytes),
            [g.x, g.y, g.z],
            &args,
            &mut mem,
            &self.device.shared.options,
            &mut std::io::stdout(),
        )
        .map_err(|source| RuntimeError::Interpreter {
            kernel: name.to_string(),
            source: Box::new(source),
        })
    }
}
