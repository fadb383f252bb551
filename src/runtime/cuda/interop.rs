//! cudarc memory as weft kernel arguments (feature `cudarc`).
//!
//! This layer ties the caller to the cudarc version weft is built with. Code on another version
//! (or none) passes raw handles instead: `cuda::Stream::from_raw` for a `CUstream`,
//! [`RawBuffer`](crate::runtime::RawBuffer) for device memory.
//!
//! A `CudaSlice<T>`, `CudaView<T>` or `CudaViewMut<T>` of an element type weft knows
//! ([`DeviceElem`]) is a [`DevicePointer`] and a [`DeviceArray`] (so `TensorMap::tiled` takes
//! it): `KernelArgs::ptr(&slice)` records its address and
//! element type and the launch checks it against the signature like a weft buffer. The address
//! comes from cudarc's own [`DevicePtr::device_ptr`], on the slice's stream.
//!
//! cudarc's event tracking does not see weft launches: launch on the stream the slice was
//! written on ([`Stream::from_cudarc`](super::Stream::from_cudarc)), where stream order covers it,
//! or synchronise before other streams touch the memory (the launch contract's point 2).

#![forbid(unsafe_code)]

use cudarc::driver::{CudaSlice, CudaView, CudaViewMut, DevicePtr, DeviceSlice};

use crate::runtime::args::DevicePointer;
use crate::runtime::elem::{DeviceElem, ElemType};
use crate::runtime::raw::DeviceArray;

fn addr_of<T, S: DevicePtr<T>>(slice: &S) -> u64 {
    // Dropping the returned `SyncOnDrop` records a read on the slice's own stream (when the
    // context tracks events); weft's launch is ordered on the stream the caller chose.
    let (ptr, _record) = slice.device_ptr(DeviceSlice::stream(slice));
    ptr
}

impl<T: DeviceElem> DevicePointer for CudaSlice<T> {
    fn elem_type(&self) -> ElemType {
        T::ELEM
    }

    fn device_addr(&self) -> u64 {
        addr_of(self)
    }
}

impl<T: DeviceElem> DevicePointer for CudaView<'_, T> {
    fn elem_type(&self) -> ElemType {
        T::ELEM
    }

    fn device_addr(&self) -> u64 {
        addr_of(self)
    }
}

impl<T: DeviceElem> DevicePointer for CudaViewMut<'_, T> {
    fn elem_type(&self) -> ElemType {
        T::ELEM
    }

    fn device_addr(&self) -> u64 {
        addr_of(self)
    }
}

impl<T: DeviceElem> DeviceArray<T> for CudaSlice<T> {
    fn elem_count(&self) -> usize {
        DeviceSlice::len(self)
    }
}

impl<T: DeviceElem> DeviceArray<T> for CudaView<'_, T> {
    fn elem_count(&self) -> usize {
        DeviceSlice::len(self)
    }
}

impl<T: DeviceElem> DeviceArray<T> for CudaViewMut<'_, T> {
    fn elem_count(&self) -> usize {
        DeviceSlice::len(self)
    }
}
