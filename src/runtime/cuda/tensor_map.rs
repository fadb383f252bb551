//! TMA tensor maps: `cuTensorMapEncodeTiled` over device memory of a known length (a weft
//! buffer, a [`RawBuffer`](crate::runtime::RawBuffer) of a framework's memory, a cudarc slice),
//! checked first.
//!
//! A tensor map describes a row-major tensor in global memory (its dims, the byte stride of each
//! outer dim) and the box one `cp.async.bulk.tensor` moves into shared memory, swizzled as the
//! kernel's shared layout expects. Elements outside the tensor read as zero and are not written,
//! which is how a TMA kernel handles ragged edges without masks.

use std::marker::PhantomData;

use cudarc::driver::sys;

use super::driver_err;
use crate::runtime::args::{AsTensorMap, TensorMapArg};
use crate::runtime::elem::{DeviceElem, ElemType};
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::raw::DeviceArray;
use crate::signature::TensorMapSpec;

/// An encoded tensor map over device memory, borrowed for `'a` (the map holds its address). Pass it
/// with [`KernelArgs::tensor_map`](crate::runtime::KernelArgs::tensor_map).
#[derive(Debug, Clone, Copy)]
pub struct TensorMap<'a> {
    arg: TensorMapArg,
    buffer: PhantomData<&'a ()>,
}

impl<'a> TensorMap<'a> {
    /// A tiled map of `buffer` seen as a row-major tensor of `shape` (outermost dim first), whose
    /// dim `i` (but the last, which is contiguous) advances `row_strides[i]` elements; boxes of
    /// `box_dims` (outermost first), swizzled over `swizzle` bytes (0, 32, 64 or 128). Out-of-bounds
    /// elements load as zero.
    pub fn tiled<T: DeviceElem>(
        buffer: &'a (impl DeviceArray<T> + ?Sized),
        shape: &[u64],
        row_strides: &[u64],
        box_dims: &[u32],
        swizzle: u16,
    ) -> Result<TensorMap<'a>> {
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
        let data_type = data_type(T::ELEM);
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
        // The driver takes the innermost dim first.
        let dims: Vec<u64> = shape.iter().rev().copied().collect();
        let strides: Vec<u64> = byte_strides.iter().rev().copied().collect();
        let boxes: Vec<u32> = box_dims.iter().rev().copied().collect();
        let elem_strides = vec![1u32; rank];
        let swz = match swizzle {
            0 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
            32 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B,
            64 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_64B,
            _ => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
        };
        let mut map = std::mem::MaybeUninit::<sys::CUtensorMap>::zeroed();
        // SAFETY: every array has `rank` entries (strides `rank - 1`), checked above against the
        // driver's rules; the map is written by the call. The buffer is live (borrowed for 'a).
        let status = unsafe {
            sys::cuTensorMapEncodeTiled(
                map.as_mut_ptr(),
                data_type,
                rank as u32,
                addr as *mut std::ffi::c_void,
                dims.as_ptr(),
                strides.as_ptr(),
                boxes.as_ptr(),
                elem_strides.as_ptr(),
                sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
                swz,
                sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            )
        };
        status
            .result()
            .map_err(|e| driver_err("cuTensorMapEncodeTiled", e))?;
        // SAFETY: the driver wrote the map (status success).
        let map = unsafe { map.assume_init() };
        let mut bytes = [0u8; 128];
        // SAFETY: CUtensorMap is 128 bytes of plain data.
        let raw: &[u8; 128] = unsafe { &*(&map as *const sys::CUtensorMap).cast() };
        bytes.copy_from_slice(raw);
        Ok(TensorMap {
            arg: TensorMapArg { spec, bytes },
            buffer: PhantomData,
        })
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

fn data_type(e: ElemType) -> sys::CUtensorMapDataType {
    use sys::CUtensorMapDataType as D;
    match e {
        ElemType::U8 | ElemType::I8 | ElemType::F8E4M3 | ElemType::F8E5M2 => {
            D::CU_TENSOR_MAP_DATA_TYPE_UINT8
        }
        ElemType::U16 | ElemType::I16 => D::CU_TENSOR_MAP_DATA_TYPE_UINT16,
        ElemType::F16 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        ElemType::BF16 => D::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        ElemType::I32 => D::CU_TENSOR_MAP_DATA_TYPE_INT32,
        ElemType::U32 => D::CU_TENSOR_MAP_DATA_TYPE_UINT32,
        ElemType::F32 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        ElemType::I64 => D::CU_TENSOR_MAP_DATA_TYPE_INT64,
        ElemType::U64 => D::CU_TENSOR_MAP_DATA_TYPE_UINT64,
        ElemType::F64 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
    }
}
