//! Tensor maps for the CPU backend: the checked description, in the interpreter's own encoding of
//! the 128 opaque bytes a launch passes.

use super::buffer::Buffer;
use crate::codegen::interp::TensorMapArg as InterpMap;
use crate::codegen::DType;
use crate::runtime::args::TensorMapArg;
use crate::runtime::elem::{DeviceElem, ElemType};
use crate::runtime::error::{Result, RuntimeError};
use crate::runtime::tensor_map::{check_tiled, TensorMap};

/// Marks bytes this backend encoded (a CUDA map's bytes never start with it).
const MAGIC: [u8; 8] = *b"weft:cpu";
/// The most dims an encoding holds (TMA's limit).
const MAX_RANK: usize = 5;

/// Encodes a checked tiled map of `buffer`: magic, rank, address, extents, outer byte strides.
pub(crate) fn encode<'a, T: DeviceElem>(
    buffer: &'a Buffer<T>,
    shape: &[u64],
    row_strides: &[u64],
    box_dims: &[u32],
    swizzle: u16,
) -> Result<TensorMap<'a>> {
    let tiled = check_tiled(buffer, shape, row_strides, box_dims, swizzle)?;
    if shape.len() > MAX_RANK {
        return Err(RuntimeError::TensorMap {
            reason: format!("rank {}: at most {MAX_RANK} dims", shape.len()),
        });
    }
    let mut words = [0u64; 15];
    words[0] = shape.len() as u64;
    words[1] = tiled.addr;
    words[2..2 + shape.len()].copy_from_slice(&tiled.shape);
    words[7..7 + tiled.byte_strides.len()].copy_from_slice(&tiled.byte_strides);
    let mut bytes = [0u8; 128];
    bytes[..8].copy_from_slice(&MAGIC);
    for (i, w) in words.iter().enumerate() {
        bytes[8 + 8 * i..16 + 8 * i].copy_from_slice(&w.to_le_bytes());
    }
    Ok(TensorMap::from_arg(TensorMapArg {
        spec: tiled.spec,
        bytes,
    }))
}

/// The interpreter's map from bytes [`encode`] wrote; `None` for any other bytes.
pub(crate) fn decode(arg: &TensorMapArg) -> Option<InterpMap> {
    let b = &arg.bytes;
    if b[..8] != MAGIC {
        return None;
    }
    let word = |i: usize| u64::from_le_bytes(b[8 + 8 * i..16 + 8 * i].try_into().unwrap_or([0; 8]));
    let rank = word(0) as usize;
    if rank == 0 || rank > MAX_RANK {
        return None;
    }
    let dtype = dtype(arg.spec.elem)?;
    let mut strides: Vec<u64> = (0..rank - 1).map(|i| word(7 + i)).collect();
    strides.push(dtype.mem_bytes());
    Some(InterpMap {
        addr: word(1),
        dtype,
        dims: (0..rank).map(|i| word(2 + i)).collect(),
        strides,
    })
}

/// The builder's element type moved by a map of `e` (unsigned types as the signed of their width:
/// a copy moves bits).
fn dtype(e: ElemType) -> Option<DType> {
    Some(match e {
        ElemType::F16 => DType::F16,
        ElemType::BF16 => DType::BF16,
        ElemType::F32 => DType::F32,
        ElemType::F64 => DType::F64,
        ElemType::F8E4M3 => DType::F8E4M3,
        ElemType::F8E5M2 => DType::F8E5M2,
        ElemType::I8 | ElemType::U8 => DType::I8,
        ElemType::I16 | ElemType::U16 => DType::I16,
        ElemType::I32 | ElemType::U32 => DType::I32,
        ElemType::I64 | ElemType::U64 => DType::I64,
    })
}
