//! TMA tensor maps on CUDA: `cuTensorMapEncodeTiled` over device memory of a known length (a weft
//! buffer, a [`RawBuffer`](crate::runtime::RawBuffer) of a framework's memory, a cudarc slice),
//! checked first by the backend-neutral rules of [`crate::runtime::tensor_map`].

use cudarc::driver::sys;

use super::driver_err;
use crate::runtime::args::TensorMapArg;
use crate::runtime::elem::{DeviceElem, ElemType};
use crate::runtime::error::Result;
use crate::runtime::raw::DeviceArray;
use crate::runtime::tensor_map::check_tiled;
pub use crate::runtime::tensor_map::TensorMap;

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
        let tiled = check_tiled(buffer, shape, row_strides, box_dims, swizzle)?;
        let rank = shape.len();
        let data_type = data_type(T::ELEM);
        let addr = tiled.addr;
        // The driver takes the innermost dim first.
        let dims: Vec<u64> = shape.iter().rev().copied().collect();
        let strides: Vec<u64> = tiled.byte_strides.iter().rev().copied().collect();
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
        Ok(TensorMap::from_arg(TensorMapArg {
            spec: tiled.spec,
            bytes,
        }))
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
