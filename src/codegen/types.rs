//! Element types of tiles and scalars.

use std::fmt;

use inkwell::context::Context;
use inkwell::types::BasicTypeEnum;
use inkwell::AddressSpace;

/// A scalar element type. Integers are signed wherever signedness matters (division, shifts,
/// comparisons, casts), as in Triton.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DType {
    /// Boolean (stored as one byte in memory).
    I1,
    /// 8-bit integer.
    I8,
    /// 16-bit integer.
    I16,
    /// 32-bit integer.
    I32,
    /// 64-bit integer.
    I64,
    /// IEEE half.
    F16,
    /// bfloat16.
    BF16,
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
    /// fp8 e4m3 (OCP, NVIDIA `e4m3`), stored as a byte; sm_90 only.
    F8E4M3,
    /// fp8 e5m2, stored as a byte; sm_90 only.
    F8E5M2,
}

impl DType {
    /// Every dtype, for exhaustive tests.
    pub const ALL: [DType; 11] = [
        DType::I1,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
        DType::F8E4M3,
        DType::F8E5M2,
    ];

    /// Bits of one value (i1: 1).
    pub fn bits(self) -> u32 {
        match self {
            DType::I1 => 1,
            DType::I8 | DType::F8E4M3 | DType::F8E5M2 => 8,
            DType::I16 | DType::F16 | DType::BF16 => 16,
            DType::I32 | DType::F32 => 32,
            DType::I64 | DType::F64 => 64,
        }
    }

    /// Bytes one element takes in memory (i1 takes a byte).
    pub fn mem_bytes(self) -> u64 {
        (self.bits() as u64).div_ceil(8)
    }

    /// Integer types (i1 included).
    pub fn is_int(self) -> bool {
        matches!(
            self,
            DType::I1 | DType::I8 | DType::I16 | DType::I32 | DType::I64
        )
    }

    /// Floating-point types that LLVM computes with directly (fp8 excluded: cast it first).
    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    /// fp8 storage types.
    pub fn is_fp8(self) -> bool {
        matches!(self, DType::F8E4M3 | DType::F8E5M2)
    }

    /// The short name used in messages (`f32`, `bf16`, `f8e4m3`).
    pub fn name(self) -> &'static str {
        match self {
            DType::I1 => "i1",
            DType::I8 => "i8",
            DType::I16 => "i16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::F8E4M3 => "f8e4m3",
            DType::F8E5M2 => "f8e5m2",
        }
    }

    /// The LLVM type of a value in registers (fp8 is an `i8`).
    pub(crate) fn llvm<'ctx>(self, ctx: &'ctx Context) -> BasicTypeEnum<'ctx> {
        match self {
            DType::I1 => ctx.bool_type().into(),
            DType::I8 | DType::F8E4M3 | DType::F8E5M2 => ctx.i8_type().into(),
            DType::I16 => ctx.i16_type().into(),
            DType::I32 => ctx.i32_type().into(),
            DType::I64 => ctx.i64_type().into(),
            DType::F16 => ctx.f16_type().into(),
            DType::BF16 => ctx.bf16_type().into(),
            DType::F32 => ctx.f32_type().into(),
            DType::F64 => ctx.f64_type().into(),
        }
    }

    /// The LLVM type of a value in memory (i1 is a byte).
    pub(crate) fn llvm_mem<'ctx>(self, ctx: &'ctx Context) -> BasicTypeEnum<'ctx> {
        match self {
            DType::I1 => ctx.i8_type().into(),
            _ => self.llvm(ctx),
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The memory a pointer points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AddrSpace {
    /// Global memory (LLVM address space 1): kernel arguments and what they point to.
    #[default]
    Global,
    /// The CTA's shared memory (LLVM address space 3).
    Shared,
}

impl AddrSpace {
    /// The LLVM address space number (NVPTX and AMDGPU agree on 1 and 3).
    pub fn llvm(self) -> u16 {
        match self {
            AddrSpace::Global => 1,
            AddrSpace::Shared => 3,
        }
    }
}

/// The type of one element of a value: a number, or a pointer to numbers in global or shared
/// memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Type {
    /// A number.
    Scalar(DType),
    /// A pointer to elements of the given type, in the given memory.
    Ptr(DType, AddrSpace),
}

impl Type {
    /// The number type, if this is not a pointer.
    pub fn dtype(self) -> Option<DType> {
        match self {
            Type::Scalar(d) => Some(d),
            Type::Ptr(..) => None,
        }
    }

    /// The pointee, if this is a pointer.
    pub fn pointee(self) -> Option<DType> {
        match self {
            Type::Ptr(d, _) => Some(d),
            Type::Scalar(_) => None,
        }
    }

    /// The address space, if this is a pointer.
    pub fn addr_space(self) -> Option<AddrSpace> {
        match self {
            Type::Ptr(_, space) => Some(space),
            Type::Scalar(_) => None,
        }
    }

    /// The LLVM type of one element in registers (a pointer in its address space).
    pub(crate) fn llvm<'ctx>(self, ctx: &'ctx Context) -> BasicTypeEnum<'ctx> {
        match self {
            Type::Scalar(d) => d.llvm(ctx),
            Type::Ptr(_, space) => ctx.ptr_type(AddressSpace::from(space.llvm())).into(),
        }
    }
}

impl From<DType> for Type {
    fn from(d: DType) -> Type {
        Type::Scalar(d)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Scalar(d) => write!(f, "{d}"),
            Type::Ptr(d, AddrSpace::Global) => write!(f, "ptr<{d}>"),
            Type::Ptr(d, AddrSpace::Shared) => write!(f, "ptr<{d}, shared>"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_carry_their_address_space() {
        let ctx = Context::create();
        let g = Type::Ptr(DType::F32, AddrSpace::Global);
        let s = Type::Ptr(DType::F16, AddrSpace::Shared);
        assert_eq!(
            (g.to_string(), s.to_string()),
            ("ptr<f32>".into(), "ptr<f16, shared>".into())
        );
        assert_eq!(
            g.llvm(&ctx).into_pointer_type().get_address_space(),
            1u16.into()
        );
        assert_eq!(
            s.llvm(&ctx).into_pointer_type().get_address_space(),
            3u16.into()
        );
        assert_eq!(
            (g.pointee(), s.addr_space()),
            (Some(DType::F32), Some(AddrSpace::Shared))
        );
        assert_eq!(Type::Scalar(DType::I32).addr_space(), None);
    }
}
