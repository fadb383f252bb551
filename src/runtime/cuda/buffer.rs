//! Typed device buffers and host <-> device copies.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{result, CudaSlice, CudaStream, DevicePtr};

use super::handle::{Device, Shared};
use super::{driver_err, Cuda};
use crate::runtime::args::DevicePointer;
use crate::runtime::backend;
use crate::runtime::elem::{DeviceElem, ElemType};
use crate::runtime::error::{Result, RuntimeError};

/// `len` elements of `T` in device memory, freed on drop; see [`backend::Buffer`] for its methods.
///
/// Host copies are blocking and ordered after **all** earlier work on the device (every stream), so
/// the bytes read back are those the kernels wrote. Allocation and freeing go through the device's
/// default stream; drop a buffer only after the kernels using it have finished (part of the launch
/// contract). A failed free is recorded by cudarc on the context and handed out by
/// [`Device::take_drop_errors`](backend::Device::take_drop_errors).
pub struct Buffer<T: DeviceElem> {
    shared: Arc<Shared>,
    bytes: CudaSlice<u8>,
    len: usize,
    elem: PhantomData<T>,
}

impl<T: DeviceElem> std::fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Buffer<{}>[{}] @ {:#x}",
            T::ELEM,
            self.len,
            self.device_addr()
        )
    }
}

fn as_bytes<T: DeviceElem>(s: &[T]) -> &[u8] {
    // SAFETY: DeviceElem types are plain data without padding, so their bytes may be read.
    unsafe { std::slice::from_raw_parts(s.as_ptr().cast(), std::mem::size_of_val(s)) }
}

fn as_bytes_mut<T: DeviceElem>(s: &mut [T]) -> &mut [u8] {
    // SAFETY: as above, and every bit pattern is a valid T, so any bytes may be written.
    unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast(), std::mem::size_of_val(s)) }
}

impl<T: DeviceElem> Buffer<T> {
    pub(crate) fn alloc(shared: Arc<Shared>, len: usize) -> Result<Self> {
        let nbytes =
            len.checked_mul(std::mem::size_of::<T>())
                .ok_or_else(|| RuntimeError::Overflow {
                    what: "buffer size",
                    detail: format!("{len} elements of {}", T::ELEM),
                })?;
        shared.bind()?;
        let stream = shared.ctx.default_stream();
        // SAFETY: the memory is uninitialised, which is fine for u8 (and for every DeviceElem): any
        // bit pattern is a valid value.
        let bytes =
            unsafe { stream.alloc::<u8>(nbytes) }.map_err(|e| driver_err("cuMemAlloc", e))?;
        // The allocation is stream-ordered on the default stream: finish it so any stream may use it.
        stream
            .synchronize()
            .map_err(|e| shared.sync_err("cuStreamSynchronize", e))?;
        Ok(Buffer {
            shared,
            bytes,
            len,
            elem: PhantomData,
        })
    }

    fn stream(&self) -> Arc<CudaStream> {
        self.bytes.stream().clone()
    }

    /// Waits for the host copy queued on `stream` (and the device work before it).
    fn finish(&self, stream: &CudaStream) -> Result<()> {
        stream
            .synchronize()
            .map_err(|e| self.shared.sync_err("cuStreamSynchronize", e))
    }
}

impl<T: DeviceElem> backend::Buffer<T> for Buffer<T> {
    type Backend = Cuda;

    fn len(&self) -> usize {
        self.len
    }

    fn device(&self) -> Device {
        Device {
            shared: self.shared.clone(),
        }
    }

    fn fill_bytes(&mut self, byte: u8) -> Result<()> {
        self.shared.synchronize()?;
        let stream = self.stream();
        let (ptr, _sync) = self.bytes.device_ptr(&stream);
        // SAFETY: `ptr` points to `size_bytes()` bytes owned by this buffer.
        unsafe { result::memset_d8_async(ptr, byte, self.size_bytes(), stream.cu_stream()) }
            .map_err(|e| driver_err("cuMemsetD8Async", e))?;
        self.finish(&stream)
    }

    unsafe fn copy_from_host_unchecked(&mut self, host: &[T]) -> Result<()> {
        self.shared.synchronize()?;
        let stream = self.stream();
        stream
            .memcpy_htod(as_bytes(host), &mut self.bytes)
            .map_err(|e| driver_err("cuMemcpyHtoDAsync", e))?;
        self.finish(&stream)
    }

    unsafe fn copy_to_host_unchecked(&self, host: &mut [T]) -> Result<()> {
        self.shared.synchronize()?;
        let stream = self.stream();
        stream
            .memcpy_dtoh(&self.bytes, as_bytes_mut(host))
            .map_err(|e| driver_err("cuMemcpyDtoHAsync", e))?;
        self.finish(&stream)
    }

    unsafe fn copy_from_unchecked(&mut self, src: &Buffer<T>) -> Result<()> {
        self.shared.synchronize()?;
        let stream = self.stream();
        // SAFETY: both ranges are `size_bytes()` long (the caller checked the lengths) and owned by
        // live buffers; they cannot overlap because `self` is borrowed mutably and `src` shared.
        unsafe {
            result::memcpy_dtod_async(
                self.device_addr(),
                src.device_addr(),
                self.size_bytes(),
                stream.cu_stream(),
            )
        }
        .map_err(|e| driver_err("cuMemcpyDtoDAsync", e))?;
        self.finish(&stream)
    }
}

impl<T: DeviceElem> crate::runtime::raw::DeviceArray<T> for Buffer<T> {
    fn elem_count(&self) -> usize {
        self.len
    }
}

impl<T: DeviceElem> DevicePointer for Buffer<T> {
    fn elem_type(&self) -> ElemType {
        T::ELEM
    }

    fn device_addr(&self) -> u64 {
        let (ptr, _sync) = self.bytes.device_ptr(self.bytes.stream());
        ptr
    }
}
