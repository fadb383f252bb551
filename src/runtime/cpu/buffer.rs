//! Typed buffers in the interpreter's memory.

use std::marker::PhantomData;
use std::sync::Arc;

use super::handle::{Device, Shared};
use super::Cpu;
use crate::codegen::interp::DeviceBuffer;
use crate::runtime::args::DevicePointer;
use crate::runtime::backend;
use crate::runtime::elem::{DeviceElem, ElemType};
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::raw::DeviceArray;

/// `len` elements of `T` in the interpreter's memory, freed on drop (a kernel given the address
/// afterwards is out of bounds).
pub struct Buffer<T: DeviceElem> {
    shared: Arc<Shared>,
    buf: DeviceBuffer,
    len: usize,
    elem: PhantomData<T>,
}

impl<T: DeviceElem> std::fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cpu::Buffer<{}>[{}] @ {:#x}",
            T::ELEM,
            self.len,
            self.buf.addr
        )
    }
}

impl<T: DeviceElem> Drop for Buffer<T> {
    fn drop(&mut self) {
        self.shared.mem().free(self.buf);
    }
}

/// The bytes of `host` (`DeviceElem` types are plain data without padding).
fn as_bytes<T: DeviceElem>(host: &[T]) -> &[u8] {
    // SAFETY: `DeviceElem` guarantees plain data without padding; the slice covers exactly the
    // elements' bytes and lives as long as `host`.
    unsafe { std::slice::from_raw_parts(host.as_ptr().cast(), size_of_val(host)) }
}

/// The bytes of `host`, writable (any bit pattern is a valid `DeviceElem`).
fn as_bytes_mut<T: DeviceElem>(host: &mut [T]) -> &mut [u8] {
    // SAFETY: as `as_bytes`; every bit pattern is a valid `T`, so any bytes written are.
    unsafe { std::slice::from_raw_parts_mut(host.as_mut_ptr().cast(), size_of_val(host)) }
}

impl<T: DeviceElem> Buffer<T> {
    pub(crate) fn alloc(shared: Arc<Shared>, len: usize) -> Result<Self> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .filter(|&b| (b as u64) < 1 << 36)
            .ok_or_else(|| RuntimeError::Overflow {
                what: "buffer size",
                detail: format!(
                    "{len} elements of {}: the interpreter's buffers hold at most 64 GiB",
                    T::ELEM
                ),
            })?;
        let buf = shared.mem().alloc_bytes(bytes as u64, 0);
        Ok(Buffer {
            shared,
            buf,
            len,
            elem: PhantomData,
        })
    }

    fn bytes(&self) -> u64 {
        self.buf.bytes
    }
}

impl<T: DeviceElem> backend::Buffer<T> for Buffer<T> {
    type Backend = Cpu;

    fn len(&self) -> usize {
        self.len
    }

    fn device(&self) -> Device {
        Device {
            shared: self.shared.clone(),
        }
    }

    fn fill_bytes(&mut self, byte: u8) -> Result<()> {
        let mut mem = self.shared.mem();
        if let Some(b) = mem.bytes_mut(self.buf.addr, self.bytes()) {
            b.fill(byte);
        }
        Ok(())
    }

    unsafe fn copy_from_host_unchecked(&mut self, host: &[T]) -> Result<()> {
        let mut mem = self.shared.mem();
        if let Some(b) = mem.bytes_mut(self.buf.addr, self.bytes()) {
            b.copy_from_slice(as_bytes(host));
        }
        Ok(())
    }

    unsafe fn copy_to_host_unchecked(&self, host: &mut [T]) -> Result<()> {
        let mem = self.shared.mem();
        if let Some(b) = mem.bytes(self.buf.addr, self.bytes()) {
            as_bytes_mut(host).copy_from_slice(b);
        }
        Ok(())
    }

    unsafe fn copy_from_unchecked(&mut self, src: &Buffer<T>) -> Result<()> {
        // Both are live buffers of this device with equal lengths (the caller checked).
        self.shared
            .mem()
            .copy(src.buf.addr, self.buf.addr, self.bytes());
        Ok(())
    }
}

impl<T: DeviceElem> DevicePointer for Buffer<T> {
    fn elem_type(&self) -> ElemType {
        T::ELEM
    }

    fn device_addr(&self) -> u64 {
        self.buf.addr
    }
}

impl<T: DeviceElem> DeviceArray<T> for Buffer<T> {
    fn elem_count(&self) -> usize {
        self.len
    }
}
