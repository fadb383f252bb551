//! The CPU device's constructors and its backend API: allocation, loading, streams and tensor maps.

use std::sync::Arc;

use super::buffer::Buffer;
use super::handle::{Device, Shared};
use super::module::Module;
use super::stream::Stream;
use super::Cpu;
use crate::codegen::interp::Options;
use crate::runtime::backend::{self, BufferOf, KernelImage};
use crate::runtime::elem::DeviceElem;
use crate::runtime::error::{BackendKind, Result, RuntimeError};
use crate::runtime::launch::DeviceLimits;
use crate::runtime::tensor_map::TensorMap;
use crate::target::Target;

impl Device {
    /// A device emulating `target`: its launch limits and shared memory are the target's. Each
    /// call makes a new device with its own memory.
    pub fn new(target: Target) -> Result<Device> {
        Device::with_options(target, Options::default())
    }

    /// [`Device::new`] whose launches run with `options` (e.g. a random schedule, to expose a
    /// kernel relying on an order the GPU does not promise).
    pub fn with_options(target: Target, options: Options) -> Result<Device> {
        Ok(Device {
            shared: Arc::new(Shared::new(target, options)),
        })
    }
}

impl backend::Device for Device {
    type Backend = Cpu;

    fn ordinal(&self) -> usize {
        0
    }

    fn name(&self) -> &str {
        &self.shared.name
    }

    fn arch(&self) -> &str {
        &self.shared.arch
    }

    fn target(&self) -> Result<Target> {
        Ok(self.shared.target)
    }

    fn limits(&self) -> DeviceLimits {
        let t = self.shared.target;
        DeviceLimits {
            max_threads_per_block: 1024,
            max_block_dim: [1024, 1024, 64],
            max_grid_dim: [i32::MAX as u32, 65535, 65535],
            max_shared_per_block: t.default_shared_bytes(),
            max_shared_per_block_optin: t.max_shared_bytes(),
            warp_size: t.warp_size(),
        }
    }

    /// No cache to flush: the interpreter's memory has none.
    fn l2_bytes(&self) -> usize {
        0
    }

    fn driver_version(&self) -> String {
        format!("weft interpreter {}", env!("CARGO_PKG_VERSION"))
    }

    fn stream(&self) -> Stream {
        Stream::new(self.clone())
    }

    fn new_stream(&self) -> Result<Stream> {
        Ok(Stream::new(self.clone()))
    }

    /// Launches run to completion before they return: nothing to wait for.
    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    fn load(&self, image: KernelImage<'_>) -> Result<Module> {
        match image {
            KernelImage::Program(p) => Ok(Module::new(self.clone(), p.clone())),
            _ => Err(image.not_for(BackendKind::Cpu)),
        }
    }

    fn alloc<T: DeviceElem>(&self, len: usize) -> Result<Buffer<T>> {
        Buffer::alloc(self.shared.clone(), len)
    }

    fn take_drop_errors(&self) -> Vec<RuntimeError> {
        self.shared.drop_errors.take()
    }

    fn tensor_map<'a, T: DeviceElem>(
        &self,
        buffer: &'a BufferOf<Cpu, T>,
        shape: &[u64],
        row_strides: &[u64],
        box_dims: &[u32],
        swizzle: u16,
    ) -> Result<TensorMap<'a>> {
        super::tensor_map::encode(buffer, shape, row_strides, box_dims, swizzle)
    }
}
