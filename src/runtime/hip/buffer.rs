//! Typed HIP device buffers and host <-> device copies.

use std::marker::PhantomData;
use std::sync::Arc;

use super::handle::{Device, Shared};
use super::{check, sys, Hip};
use crate::runtime::args::DevicePointer;
use crate::runtime::backend;
use crate::runtime::elem::{DeviceElem, ElemType};
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
        if !self.ptr.is_null() {
            let s = &self.shared;
            let freed = s.bind().and_then(|()| {
                // SAFETY: `ptr` came from hipMalloc and is freed once.
                check(s.lib, "hipFree", unsafe { (s.lib.hipFree)(self.ptr) })
            });
            s.drop_errors.record("buffer", freed);
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
}

impl<T: DeviceElem> backend::Buffer<T> for Buffer<T> {
    type Backend = Hip;

    fn len(&self) -> usize {
        self.len
    }

    fn device(&self) -> Device {
        Device {
            shared: self.shared.clone(),
        }
    }

    fn fill_bytes(&mut self, byte: u8) -> Result<()> {
        if self.len == 0 {
            return Ok(());
        }
        self.shared.synchronize()?;
        // SAFETY: the range is this buffer's allocation.
        check(self.shared.lib, "hipMemsetD8", unsafe {
            (self.shared.lib.hipMemsetD8)(self.ptr, byte, self.len * std::mem::size_of::<T>())
        })?;
        self.shared.synchronize()
    }

    unsafe fn copy_from_host_unchecked(&mut self, host: &[T]) -> Result<()> {
        self.shared.synchronize()?;
        // SAFETY: both ranges hold `size_of_val(host)` bytes (the caller checked the lengths);
        // DeviceElem has no padding.
        check(self.shared.lib, "hipMemcpyHtoD", unsafe {
            (self.shared.lib.hipMemcpyHtoD)(self.ptr, host.as_ptr().cast(), size_of_val(host))
        })
    }

    unsafe fn copy_to_host_unchecked(&self, host: &mut [T]) -> Result<()> {
        self.shared.synchronize()?;
        // SAFETY: both ranges hold `size_of_val(host)` bytes; every bit pattern is a valid T.
        check(self.shared.lib, "hipMemcpyDtoH", unsafe {
            (self.shared.lib.hipMemcpyDtoH)(host.as_mut_ptr().cast(), self.ptr, size_of_val(host))
        })
    }

    unsafe fn copy_from_unchecked(&mut self, src: &Buffer<T>) -> Result<()> {
        self.shared.synchronize()?;
        let bytes = self.len * std::mem::size_of::<T>();
        // SAFETY: both ranges hold `bytes` bytes (the caller checked the lengths) in live
        // allocations; `self` is borrowed mutably, so they do not overlap.
        check(self.shared.lib, "hipMemcpyDtoDAsync", unsafe {
            (self.shared.lib.hipMemcpyDtoDAsync)(self.ptr, src.ptr, bytes, std::ptr::null_mut())
        })?;
        self.shared.synchronize()
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
