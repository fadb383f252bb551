//! The CPU backend: the runtime's [`Backend`](crate::runtime::Backend) traits over weft's
//! interpreter of the tile IR, so host code written against the traits launches the same kernels
//! on CUDA, HIP or the host.
//!
//! A [`Device`] emulates one target (`sm_90a` by default; any target weft builds for): its limits
//! are that target's, and it loads a kernel's recorded program
//! ([`KernelImage::Program`](crate::runtime::KernelImage::Program), or
//! [`Kernel::load_on`](crate::codegen::Kernel::load_on)). Buffers live in the interpreter's
//! memory, where every access is checked. A launch is checked as on a GPU (arguments against the
//! signature, the configuration against the limits), then runs to completion before it returns:
//! streams are in order by construction and events time the host. What a GPU would report as a
//! fault, or not at all, is a typed [`RuntimeError::Interpreter`](crate::runtime::RuntimeError)
//! naming the kernel, the op and the user's line: an out-of-bounds access, a shared-memory race, a
//! read of shared memory never written, a deadlock, a failed assertion.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use weft::codegen::{kernels::add_kernel, Context, Target};
//! use weft::runtime::prelude::*;
//! use weft::runtime::{cpu::Cpu, KernelArgs, LaunchConfig};
//!
//! let ctx = Context::new();
//! let k = add_kernel(&ctx, Target::SM90, 1024, 4, 4)?;
//! let dev = weft::runtime::cpu::Device::new(Target::SM90A)?;
//! let kernel = k.load_on::<Cpu>(&dev)?;
//! let (x, y) = (dev.upload(&[1.0f32; 3008])?, dev.upload(&[2.0f32; 3008])?);
//! let z = dev.alloc_zeroed::<f32>(3008)?;
//! let mut args = KernelArgs::new();
//! args.ptr(&x).ptr(&y).ptr(&z).scalar(3008i32);
//! let cfg = LaunchConfig::for_kernel(3u32, k.signature())?;
//! // SAFETY: the kernel reads x, y and writes z below n = 3008 (and the interpreter checks it).
//! unsafe { dev.stream().launch(&kernel, &cfg, &args)? };
//! assert_eq!(z.to_vec()?, vec![3.0f32; 3008]);
//! # Ok(()) }
//! ```

mod buffer;
mod device;
mod handle;
mod module;
mod stream;
mod tensor_map;

pub use buffer::Buffer;
pub use handle::Device;
pub use module::{Kernel, Module};
pub use stream::{Event, Stream};

use crate::runtime::backend::Backend;
use crate::runtime::error::{BackendKind, Result};
use crate::target::Target;

/// The CPU backend: kernels run in the interpreter. Always available.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cpu;

impl Backend for Cpu {
    const KIND: BackendKind = BackendKind::Cpu;
    type Device = Device;
    type Stream = Stream;
    type Buffer<T: crate::runtime::DeviceElem> = Buffer<T>;
    type Module = Module;
    type Kernel = Kernel;
    type Event = Event;

    fn is_available() -> bool {
        true
    }

    /// One device.
    fn device_count() -> Result<usize> {
        Ok(1)
    }

    /// The device emulating `sm_90a` (ordinal 0; any other is `Err(DeviceOutOfRange)`).
    fn open(ordinal: usize) -> Result<Device> {
        if ordinal != 0 {
            return Err(crate::runtime::RuntimeError::DeviceOutOfRange {
                backend: BackendKind::Cpu,
                ordinal,
                count: 1,
            });
        }
        Device::new(Target::SM90A)
    }
}
