//! Kernel signatures: the contract between a kernel and whoever launches it.
//!
//! The builder records, for every kernel it makes, what the code assumes: the parameters in order
//! (each with its type and the divisibility the code relies on), the exact block size (declared in
//! the PTX as `.reqntid`) and the dynamic shared memory it uses. The launcher checks every launch
//! against that record, so a wrong argument, an address that breaks a promised alignment, a wrong
//! block size or too little shared memory is an error, not a silently wrong result.
//!
//! A hand-written kernel gets a signature from text ([`KernelSignature::parse`]):
//! `saxpy(n: i32, a: f32, x: *f32 {divisibility = 16}, y: *f32) [threads = 256]`. Names and every
//! bracketed part are optional: `saxpy(i32, f32, *f32, *f32)` is a signature too.
//!
//! This module depends on nothing else in the crate (only [`crate::target`]), so the builder and
//! the launcher share it without depending on each other.

#![forbid(unsafe_code)]

mod elem;
mod tensor_map;
mod text;

use crate::target::Target;

pub use elem::ElemType;
pub use tensor_map::{TensorMapSpec, MAX_TMA_RANK};
pub use text::SignatureError;

/// The type of one kernel parameter, as the launcher passes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ParamType {
    /// A global-memory pointer to elements of this type (8 bytes).
    Ptr(ElemType),
    /// A 32-bit signed integer.
    I32,
    /// A 64-bit signed integer.
    I64,
    /// A 32-bit unsigned integer.
    U32,
    /// A 64-bit unsigned integer.
    U64,
    /// A 32-bit float.
    F32,
    /// A 64-bit float.
    F64,
    /// A TMA tensor map (`CUtensorMap`) passed by value: 128 bytes, 64-byte aligned. The spec is
    /// what the kernel assumes of it (element type, box, swizzle); `None` (hand-written
    /// signatures) assumes nothing.
    TensorMap(Option<TensorMapSpec>),
}

impl ParamType {
    /// Bytes the parameter occupies in the kernel's parameter buffer.
    pub fn size_bytes(self) -> usize {
        match self {
            ParamType::Ptr(_) | ParamType::I64 | ParamType::U64 | ParamType::F64 => 8,
            ParamType::I32 | ParamType::U32 | ParamType::F32 => 4,
            ParamType::TensorMap(_) => 128,
        }
    }

    /// Alignment of the parameter in the parameter buffer.
    pub fn align_bytes(self) -> usize {
        match self {
            ParamType::TensorMap(_) => 64,
            other => other.size_bytes(),
        }
    }

    /// Whether a divisibility can be promised for this type (integers and pointers).
    pub fn has_divisibility(self) -> bool {
        !matches!(
            self,
            ParamType::F32 | ParamType::F64 | ParamType::TensorMap(_)
        )
    }
}

/// One parameter: its name (may be empty for hand-written signatures), type, and the
/// divisibility the kernel's code assumes of its value (of the address, for pointers).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Param {
    /// The parameter's name; empty when unnamed.
    pub name: String,
    /// Its type.
    pub ty: ParamType,
    /// The value (the address, for pointers) must be a multiple of this power of two; 1 assumes
    /// nothing.
    pub divisibility: u64,
}

impl Param {
    /// An unnamed parameter that assumes nothing.
    pub fn of(ty: ParamType) -> Param {
        Param {
            name: String::new(),
            ty,
            divisibility: 1,
        }
    }
}

/// What a kernel assumes of its launch. See the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KernelSignature {
    /// The kernel's symbol name (the PTX `.entry` or ELF symbol).
    pub name: String,
    /// The architecture the code was built for; `None` when unknown (hand-written signatures).
    pub target: Option<Target>,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// The exact threads per block the code was built for (`.reqntid`); `None` when any size works.
    pub threads_per_block: Option<u32>,
    /// Dynamic shared memory the code uses, in bytes: a launch must provide at least this much.
    pub shared_bytes: u32,
    /// CTAs per cluster along x, y, z (`.reqnctapercluster`) when the code runs in clusters: the
    /// grid must be a multiple of it, on sm_90 or later.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub cluster: Option<[u32; 3]>,
}

impl KernelSignature {
    /// A signature with unnamed parameters that assume nothing, and no block size or shared memory.
    pub fn new(name: impl Into<String>, params: impl IntoIterator<Item = ParamType>) -> Self {
        KernelSignature {
            name: name.into(),
            target: None,
            params: params.into_iter().map(Param::of).collect(),
            threads_per_block: None,
            shared_bytes: 0,
            cluster: None,
        }
    }

    /// The parameter types, in order.
    pub fn param_types(&self) -> impl ExactSizeIterator<Item = ParamType> + '_ {
        self.params.iter().map(|p| p.ty)
    }

    /// Warps per block, when both the block size and the target are known.
    pub fn num_warps(&self) -> Option<u32> {
        Some(self.threads_per_block? / self.target?.warp_size())
    }

    /// Total bytes of the parameter buffer, each parameter at its alignment (the driver's limit is
    /// 4 KB, 32 KB on sm_70+ with CUDA 12.1).
    pub fn param_bytes(&self) -> usize {
        self.params.iter().fold(0, |acc, p| {
            acc.next_multiple_of(p.ty.align_bytes()) + p.ty.size_bytes()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_buffer_aligns_each_parameter() {
        let s = KernelSignature::new("k", [ParamType::I32, ParamType::Ptr(ElemType::F32)]);
        assert_eq!(s.param_bytes(), 16);
        let s = KernelSignature::new(
            "k",
            [ParamType::I32, ParamType::TensorMap(None), ParamType::I32],
        );
        assert_eq!(s.param_bytes(), 64 + 128 + 4);
    }

    #[test]
    fn warps_need_both_block_size_and_target() {
        let mut s = KernelSignature::new("k", []);
        assert_eq!(s.num_warps(), None);
        s.threads_per_block = Some(256);
        assert_eq!(s.num_warps(), None);
        s.target = Some(Target::SM90);
        assert_eq!(s.num_warps(), Some(8));
        s.target = Some(Target::GFX942);
        assert_eq!(s.num_warps(), Some(4));
    }
}
