//! Device memory weft does not own, by raw address and length: interop with any framework
//! (candle, burn, a user's own engine, any cudarc version) without naming its types.
//!
//! A [`RawBuffer`] is an address, an element count and, optionally, the owner of the memory, kept
//! alive as long as the `RawBuffer` is (an `Arc` of the framework's tensor storage, say). It is a
//! kernel argument like a weft buffer (`args.ptr(&raw)`: type-checked against the signature) and
//! a [`DeviceArray`], so `cuda::TensorMap::tiled` accepts it too.
//!
//! ```
//! use weft::runtime::{check_args, DeviceArray, KernelArgs, KernelSignature, RawBuffer};
//! // A framework's allocation: 1024 f32 at this device address, owned by `storage`.
//! let storage = std::sync::Arc::new("the framework's tensor storage");
//! // The address must hold 1024 f32 for as long as `storage` lives (the launch contract).
//! let x = RawBuffer::<f32>::from_raw_parts(0x7f00_0000_0000, 1024, storage);
//! assert_eq!(x.elem_count(), 1024);
//! let sig = KernelSignature::parse("scale(x: *f32 {divisibility = 16}, a: f32, n: i32)").unwrap();
//! let mut args = KernelArgs::new();
//! args.ptr(&x).scalar(2.0f32).scalar(1024i32);
//! assert!(check_args(&sig, args.as_slice()).is_ok());
//! ```

#![forbid(unsafe_code)]

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use super::args::DevicePointer;
use super::elem::{DeviceElem, ElemType};

/// Typed device memory of a known length: weft's buffers, [`RawBuffer`]s, and (feature `cudarc`)
/// cudarc slices. What needs the extent of the memory (a tensor map) takes one of these.
pub trait DeviceArray<T: DeviceElem>: DevicePointer {
    /// Number of `T` elements from [`device_addr`](DevicePointer::device_addr) on.
    fn elem_count(&self) -> usize;
}

/// `len` elements of `T` at a device address weft does not own, with the owner kept alive.
#[derive(Clone)]
pub struct RawBuffer<T: DeviceElem> {
    addr: u64,
    len: usize,
    owner: Option<Arc<dyn Any + Send + Sync>>,
    elem: PhantomData<T>,
}

impl<T: DeviceElem> fmt::Debug for RawBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawBuffer<{}>[{}] @ {:#x}", T::ELEM, self.len, self.addr)?;
        if self.owner.is_some() {
            f.write_str(" (owned elsewhere, kept alive)")?;
        }
        Ok(())
    }
}

impl<T: DeviceElem> RawBuffer<T> {
    /// `len` elements of `T` at device address `addr`, kept valid by `owner` (dropped with the
    /// last clone of this buffer).
    ///
    /// Not `unsafe` to call, since building arguments only records numbers; but a kernel launched
    /// with it reads and writes `addr .. addr + len · size_of::<T>()` on the device. The launch
    /// contract (see [`launch`](crate::runtime::launch)) makes the caller answer for that range:
    /// it must be memory of the launching device's context, live while `owner` is.
    pub fn from_raw_parts(addr: u64, len: usize, owner: impl Any + Send + Sync) -> RawBuffer<T> {
        RawBuffer {
            addr,
            len,
            owner: Some(Arc::new(owner)),
            elem: PhantomData,
        }
    }

    /// Like [`from_raw_parts`](Self::from_raw_parts) for memory whose lifetime the caller
    /// manages some other way (a static pool, an arena freed after the last launch).
    pub fn borrowed(addr: u64, len: usize) -> RawBuffer<T> {
        RawBuffer {
            addr,
            len,
            owner: None,
            elem: PhantomData,
        }
    }

    /// The device address.
    pub fn addr(&self) -> u64 {
        self.addr
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when it holds no element.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes covered.
    pub fn size_bytes(&self) -> usize {
        self.len.saturating_mul(std::mem::size_of::<T>())
    }

    /// Elements `start .. start + len` as a buffer of their own (same owner), or `None` if the
    /// range leaves this one.
    pub fn slice(&self, start: usize, len: usize) -> Option<RawBuffer<T>> {
        let end = start.checked_add(len)?;
        if end > self.len {
            return None;
        }
        Some(RawBuffer {
            addr: self.addr + (start * std::mem::size_of::<T>()) as u64,
            len,
            owner: self.owner.clone(),
            elem: PhantomData,
        })
    }
}

impl<T: DeviceElem> DevicePointer for RawBuffer<T> {
    fn elem_type(&self) -> ElemType {
        T::ELEM
    }

    fn device_addr(&self) -> u64 {
        self.addr
    }
}

impl<T: DeviceElem> DeviceArray<T> for RawBuffer<T> {
    fn elem_count(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{check_args, KernelArgs, KernelSignature, RuntimeError};

    #[test]
    fn the_owner_lives_as_long_as_the_last_clone() {
        let owner = Arc::new(5u8);
        let weak = Arc::downgrade(&owner);
        let a = RawBuffer::<f32>::from_raw_parts(0x1000, 8, owner);
        let b = a.slice(2, 4).unwrap();
        drop(a);
        assert!(weak.upgrade().is_some(), "the slice keeps the owner");
        assert_eq!((b.addr(), b.len(), b.size_bytes()), (0x1008, 4, 16));
        drop(b);
        assert!(
            weak.upgrade().is_none(),
            "the owner is dropped with the last buffer"
        );
    }

    #[test]
    fn slices_stay_inside() {
        let a = RawBuffer::<u16>::borrowed(0x100, 10);
        assert!(a.slice(10, 0).is_some_and(|s| s.is_empty()));
        assert!(a.slice(9, 2).is_none());
        assert!(a.slice(usize::MAX, 2).is_none());
    }

    #[test]
    fn launch_checks_see_the_raw_type_and_alignment() {
        let sig = KernelSignature::parse("k(x: *f32 {divisibility = 16})").unwrap();
        let good = RawBuffer::<f32>::borrowed(0x7000_0000, 4);
        let mut args = KernelArgs::new();
        args.ptr(&good);
        assert!(check_args(&sig, args.as_slice()).is_ok());
        let wrong_type = RawBuffer::<u32>::borrowed(0x7000_0000, 4);
        let mut args = KernelArgs::new();
        args.ptr(&wrong_type);
        assert!(matches!(
            check_args(&sig, args.as_slice()),
            Err(RuntimeError::ArgType { .. })
        ));
        let misaligned = good.slice(1, 2).unwrap();
        let mut args = KernelArgs::new();
        args.ptr(&misaligned);
        assert!(matches!(
            check_args(&sig, args.as_slice()),
            Err(RuntimeError::Divisibility { .. })
        ));
    }
}
