//! Typed HIP device buffers and host <-> device copies.

use std::marker::PhantomData;
use std::sync::Arc;

use super::device::Shared;
use super::{check, sys};
use crate::runtime::args::DevicePointer;
use crate::runtime::elem::{zeroed_vec, DeviceElem, ElemType};
use crate::runtime::error::{Result, RuntimeError};

/// `len` elements of `T` in device memory, freed on drop. Host copies are blocking and ordered after
/// all earlier work on the device; drop a buffer only after the kernels using it have finished.
pub struct Buffer<T: DeviceElem> {
    shared: Arc<Shared>,
    ptr: sys::HipDeviceptr,
    len: usize,
    elem: PhantomData<T>,
}

// SAFETY: the buffer owns a device allocation; the pointer is only an address and is used with the
// device bound. Access from several threads goes through `&self`/`&mut self` like any owned value.
unsafe impl<T: DeviceElem> Send for Buffer<T> {}
// SAFETY: `&self` methods only read the device memory (copies to the host).
unsafe impl<T: DeviceElem> Sync for Buffer<T> {}

impl<T: DeviceElem> std::fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "hip::Buffer<{}>[{}] @ {:#x}",
            T::ELEM,
            self.len,
            self.device_addr()
        )
    }
}

impl<T: DeviceElem> Drop for Buffer<T> {
    fn drop(&mut self) {
        if !self.ptr.is_null() && self.shared.bind().is_ok() {
            // SAFETY: `ptr` came from hipMalloc and is freed once. Errors cannot be reported from Drop.
            let _ = unsafe { (self.shared.lib.hipFree)(self.ptr) };
        }
    }
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
        let mut ptr: sys::HipDeviceptr = std::ptr::null_mut();
        if nbytes > 0 {
            // SAFETY: writes one pointer; hipMalloc is synchronous.
            check(shared.lib, "hipMalloc", unsafe {
                (shared.lib.hipMalloc)(&mut ptr, nbytes)
            })?;
        }
        Ok(Buffer {
            shared,
            ptr,
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
        if self.len == 0 {
            return Ok(());
        }
        self.shared.synchronize()?;
        // SAFETY: both ranges hold `size_bytes()` bytes; DeviceElem has no padding.
        check(self.shared.lib, "hipMemcpyHtoD", unsafe {
            (self.shared.lib.hipMemcpyHtoD)(self.ptr, host.as_ptr().cast(), self.size_bytes())
        })
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
        if self.len == 0 {
            return Ok(());
        }
        self.shared.synchronize()?;
        // SAFETY: both ranges hold `size_bytes()` bytes; every bit pattern is a valid T.
        check(self.shared.lib, "hipMemcpyDtoH", unsafe {
            (self.shared.lib.hipMemcpyDtoH)(host.as_mut_ptr().cast(), self.ptr, self.size_bytes())
        })
    }

    /// The buffer's contents as a vector.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let mut v = zeroed_vec::<T>(self.len);
        self.copy_to_host(&mut v)?;
        Ok(v)
    }

    /// Sets every byte to `byte` (poisoning outputs before a test).
    pub fn fill_bytes(&mut self, byte: u8) -> Result<()> {
        if self.len == 0 {
            return Ok(());
        }
        self.shared.synchronize()?;
        // SAFETY: the range is this buffer's allocation.
        check(self.shared.lib, "hipMemsetD8", unsafe {
            (self.shared.lib.hipMemsetD8)(self.ptr, byte, self.size_bytes())
        })?;
        self.shared.synchronize()
    }

    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    pub(crate) fn raw(&self) -> sys::HipDeviceptr {
        self.ptr
    }
}

impl<T: DeviceElem> DevicePointer for Buffer<T> {
    fn elem_type(&self) -> ElemType {
        T::ELEM
    }

    fn device_addr(&self) -> u64 {
        self.ptr as u64
    }
}
