//! TMA tensor maps, backend-neutral: the rules every tiled map obeys (checked once, here) and the
//! encoded map a launch passes.
//!
//! A tensor map describes a row-major tensor in global memory (its dims, the byte stride of each
//! outer dim) and the box one `cp.async.bulk.tensor` moves into shared memory, swizzled as the
//! kernel's shared layout expects. Elements outside the tensor read as zero and are not written,
//! which is how a TMA kernel handles ragged edges without masks. Each backend with TMA encodes the
//! checked [`Tiled`] description its own way (`cuTensorMapEncodeTiled` on CUDA, the interpreter's
//! own form on the CPU) and hands out a [`TensorMap`] through
//! [`Device::tensor_map`](super::Device::tensor_map).

// The encoders are the CUDA and CPU backends'; without either the rules are unused.
#![cfg_attr(not(any(feature = "cuda", feature = "llvm")), allow(dead_code))]

use std::marker::PhantomData;

use super::args::{AsTensorMap, TensorMapArg};
use super::elem::DeviceElem;
use super::error::{Result, RuntimeError};
use super::raw::DeviceArray;
use crate::signature::TensorMapSpec;

/// An encoded tensor map over device memory, borrowed for `'a` (the map holds its address). Pass it
/// with [`KernelArgs::tensor_map`](crate::runtime::KernelArgs::tensor_map).
#[derive(Debug, Clone, Copy)]
pub struct TensorMap<'a> {
    arg: TensorMapArg,
    buffer: PhantomData<&'a ()>,
}

impl TensorMap<'_> {
    /// A map from its encoded bytes (what a backend's encoder produced for `arg.spec`).
    pub(crate) fn from_arg(arg: TensorMapArg) -> Self {
        TensorMap {
            arg,
            buffer: PhantomData,
        }
    }

    /// What the map was encoded for.
    pub fn spec(&self) -> TensorMapSpec {
        self.arg.spec
    }

    /// The argument a launch passes.
    pub fn arg(&self) -> TensorMapArg {
        self.arg
    }
}

impl AsTensorMap for TensorMap<'_> {
    fn tensor_map_arg(&self) -> TensorMapArg {
        self.arg
    }
}

/// A tiled map that passed every rule, outermost dim first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tiled {
    /// Element type, box and swizzle.
    pub spec: TensorMapSpec,
    /// The tensor's first byte.
    pub addr: u64,
    /// Extents.
    pub shape: Vec<u64>,
    /// Byte strides of the outer dims (one fewer than `shape`).
    pub byte_strides: Vec<u64>,
}

/// Checks a tiled map of `buffer` seen as a row-major tensor of `shape` (outermost dim first), whose
/// dim `i` (but the last, which is contiguous) advances `row_strides[i]` elements, with boxes of
/// `box_dims` swizzled over `swizzle` bytes, against TMA's rules: ranks agree, extents 1 to 2^32, a
/// 16-byte aligned start, strides of a multiple of 16 bytes below 2^40, and every element the map
/// can reach inside the buffer.
pub(crate) fn check_tiled<T: DeviceElem>(
    buffer: &(impl DeviceArray<T> + ?Sized),
    shape: &[u64],
    row_strides: &[u64],
    box_dims: &[u32],
    swizzle: u16,
) -> Result<Tiled> {
    let bad = |reason: String| RuntimeError::TensorMap { reason };
    let spec = TensorMapSpec::new(T::ELEM, box_dims, swizzle).map_err(bad)?;
    let rank = shape.len();
    if rank != box_dims.len() || row_strides.len() + 1 != rank {
        return Err(bad(format!(
            "shape {shape:?}, strides {row_strides:?} and box {box_dims:?}: a rank-{} box needs \
             a shape of that rank and one stride per outer dim",
            box_dims.len()
        )));
    }
    let esize = T::ELEM.size_bytes() as u64;
    if let Some(d) = shape.iter().find(|&&d| d == 0 || d > 1 << 32) {
        return Err(bad(format!("dim {d}: each must be 1 to 2^32")));
    }
    let addr = buffer.device_addr();
    if !addr.is_multiple_of(16) {
        return Err(bad(format!("address {addr:#x} is not 16-byte aligned")));
    }
    let mut byte_strides = Vec::with_capacity(rank - 1);
    for &s in row_strides {
        let b = s
            .checked_mul(esize)
            .filter(|b| b % 16 == 0 && *b < 1 << 40)
            .ok_or_else(|| {
                bad(format!(
                    "stride {s} elements: TMA needs strides of a multiple of 16 bytes below 2^40"
                ))
            })?;
        byte_strides.push(b);
    }
    // The last element the map can touch must lie inside the buffer.
    let last = (0..rank)
        .map(|i| {
            let stride = if i + 1 == rank { 1 } else { row_strides[i] };
            (shape[i] - 1).saturating_mul(stride)
        })
        .fold(0u64, |a, b| a.saturating_add(b));
    if last >= buffer.elem_count() as u64 {
        return Err(bad(format!(
            "shape {shape:?} with strides {row_strides:?} reaches element {last}, the buffer has {}",
            buffer.elem_count()
        )));
    }
    Ok(Tiled {
        spec,
        addr,
        shape: shape.to_vec(),
        byte_strides,
    })
}
