//! Typed device buffers and host <-> device copies.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{result, CudaSlice, DevicePtr};

use super::device::Shared;
use super::driver_err;
use crate::runtime::args::DevicePointer;
use crate::runtime::elem::{zeroed_vec, DeviceElem, ElemType};
use crate::runtime::error::{Result, RuntimeError};

/// `len` elements of `T` in device memory, freed on drop.
///
/// Host copies are blocking and ordered after **all** earlier work on the device (every stream), so
/// the bytes read back are those the kernels wrote. Allocation and freeing go through the device's
/// default stream; drop a buffer only after the kernels using it have finished (part of the launch
/// contract).
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

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for a zero-length buffer.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }

    /// Copies `host` into the buffer (lengths must match).
    pub fn copy_from_host(&mut self, host: &[T]) -> Result<()> {
        if host.len() != self.len {
            return Err(RuntimeError::LengthMismatch {
                op: "copy_from_host",
                device: self.len,
                host: host.len(),
            });
        }
        self.shared.synchronize()?;
        let stream = self.bytes.stream().clone();
        stream
            .memcpy_htod(as_bytes(host), &mut self.bytes)
            .map_err(|e| driver_err("cuMemcpyHtoDAsync", e))?;
        stream
            .synchronize()
            .map_err(|e| self.shared.sync_err("cuStreamSynchronize", e))
    }

    /// Copies the buffer into `host` (lengths must match).
    pub fn copy_to_host(&self, host: &mut [T]) -> Result<()> {
        if host.len() != self.len {
            return Err(RuntimeError::LengthMismatch {
                op: "copy_to_host",
                device: self.len,
                host: host.len(),
            });
        }
        self.shared.synchronize()?;
        let stream = self.bytes.stream().clone();
        stream
            .memcpy_dtoh(&self.bytes, as_bytes_mut(host))
            .map_err(|e| driver_err("cuMemcpyDtoHAsync", e))?;
        stream
            .synchronize()
            .map_err(|e| self.shared.sync_err("cuStreamSynchronize", e))
    }

    /// The buffer's contents as a vector.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let mut v = zeroed_vec::<T>(self.len);
        self.copy_to_host(&mut v)?;
        Ok(v)
    }

    /// Sets every byte to `byte` (e.g. `0xff` poisons f32 outputs with NaN before a test).
    pub fn fill_bytes(&mut self, byte: u8) -> Result<()> {
        self.shared.synchronize()?;
        let stream = self.bytes.stream().clone();
        let (ptr, _sync) = self.bytes.device_ptr(&stream);
        // SAFETY: `ptr` points to `size_bytes()` bytes owned by this buffer.
        unsafe { result::memset_d8_async(ptr, byte, self.size_bytes(), stream.cu_stream()) }
            .map_err(|e| driver_err("cuMemsetD8Async", e))?;
        stream
            .synchronize()
            .map_err(|e| self.shared.sync_err("cuStreamSynchronize", e))
    }

    /// Copies `src` into this buffer on the device (lengths must match); blocking.
    pub fn copy_from(&mut self, src: &Buffer<T>) -> Result<()> {
        if src.len != self.len {
            return Err(RuntimeError::LengthMismatch {
                op: "copy_from (device)",
                device: self.len,
                host: src.len,
            });
        }
        self.shared.synchronize()?;
        let stream = self.bytes.stream().clone();
        // SAFETY: both ranges are `size_bytes()` long and owned by live buffers; they cannot overlap
        // because `self` is borrowed mutably and `src` shared.
        unsafe {
            result::memcpy_dtod_async(
                self.device_addr(),
                src.device_addr(),
                self.size_bytes(),
                stream.cu_stream(),
            )
        }
        .map_err(|e| driver_err("cuMemcpyDtoDAsync", e))?;
        stream
            .synchronize()
            .map_err(|e| self.shared.sync_err("cuStreamSynchronize", e))
    }

    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
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
