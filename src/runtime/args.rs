//! Kernel arguments: a safe builder that records each argument's type and value.
//!
//! Building arguments is safe: it only stores numbers. What makes a launch unsafe is what the kernel
//! then does with them (see [`crate::runtime::launch`]). The builder borrows every buffer it is given
//! for `'a`, so a buffer cannot be dropped or moved while an argument list that names it is alive.

use std::marker::PhantomData;

use super::elem::ElemType;
use crate::signature::{ParamType, TensorMapSpec};

/// Something that is a device address of typed elements: the buffers of each backend.
pub trait DevicePointer {
    /// The element type the pointer points to.
    fn elem_type(&self) -> ElemType;
    /// The device address (a `CUdeviceptr` or `hipDeviceptr_t` as an integer).
    fn device_addr(&self) -> u64;
}

/// One kernel argument: a device pointer with its element type, or a scalar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KernelArg {
    /// A device address of `elem` elements.
    Ptr {
        /// Element type behind the pointer.
        elem: ElemType,
        /// The address.
        addr: u64,
    },
    /// A 32-bit signed scalar.
    I32(i32),
    /// A 64-bit signed scalar.
    I64(i64),
    /// A 32-bit unsigned scalar.
    U32(u32),
    /// A 64-bit unsigned scalar.
    U64(u64),
    /// A 32-bit float scalar.
    F32(f32),
    /// A 64-bit float scalar.
    F64(f64),
    /// A TMA tensor map passed by value (made by the backend, e.g. `cuda::TensorMap`).
    TensorMap(TensorMapArg),
}

/// An encoded tensor map (the driver's opaque 128 bytes) and what it was encoded for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TensorMapArg {
    /// Element type, box and swizzle, compared with the kernel's signature at launch.
    pub spec: TensorMapSpec,
    /// The `CUtensorMap` bytes.
    pub bytes: [u8; 128],
}

impl std::fmt::Debug for TensorMapArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TensorMapArg({})", self.spec)
    }
}

/// One argument's bytes as the driver reads them: room for the largest parameter (a 128-byte
/// tensor map) at the largest alignment (64).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct ArgSlot(pub [u8; 128]);

impl KernelArg {
    /// The parameter type this argument fills.
    pub fn param_type(&self) -> ParamType {
        match *self {
            KernelArg::Ptr { elem, .. } => ParamType::Ptr(elem),
            KernelArg::I32(_) => ParamType::I32,
            KernelArg::I64(_) => ParamType::I64,
            KernelArg::U32(_) => ParamType::U32,
            KernelArg::U64(_) => ParamType::U64,
            KernelArg::F32(_) => ParamType::F32,
            KernelArg::F64(_) => ParamType::F64,
            KernelArg::TensorMap(t) => ParamType::TensorMap(Some(t.spec)),
        }
    }

    /// The argument's bytes in native order, at the start of a slot: the driver reads
    /// `param_type().size_bytes()` bytes from there.
    pub fn to_slot(&self) -> ArgSlot {
        let mut out = ArgSlot([0u8; 128]);
        let slot = &mut out.0[..8];
        match *self {
            KernelArg::Ptr { addr, .. } => slot.copy_from_slice(&addr.to_ne_bytes()),
            KernelArg::I32(v) => slot[..4].copy_from_slice(&v.to_ne_bytes()),
            KernelArg::I64(v) => slot.copy_from_slice(&v.to_ne_bytes()),
            KernelArg::U32(v) => slot[..4].copy_from_slice(&v.to_ne_bytes()),
            KernelArg::U64(v) => slot.copy_from_slice(&v.to_ne_bytes()),
            KernelArg::F32(v) => slot[..4].copy_from_slice(&v.to_ne_bytes()),
            KernelArg::F64(v) => slot.copy_from_slice(&v.to_ne_bytes()),
            KernelArg::TensorMap(t) => out.0 = t.bytes,
        }
        out
    }
}

/// An encoded tensor map of some backend (its buffer stays borrowed while arguments name it).
pub trait AsTensorMap {
    /// The bytes and spec a launch passes.
    fn tensor_map_arg(&self) -> TensorMapArg;
}

/// A Rust scalar that can be passed by value to a kernel.
pub trait ScalarArg: Copy {
    /// Wraps the value.
    fn to_arg(self) -> KernelArg;
}

macro_rules! scalar_arg {
    ($($t:ty => $v:ident),*) => {$(
        impl ScalarArg for $t { fn to_arg(self) -> KernelArg { KernelArg::$v(self) } }
    )*};
}
scalar_arg!(i32 => I32, i64 => I64, u32 => U32, u64 => U64, f32 => F32, f64 => F64);

/// An ordered list of kernel arguments, built safely.
///
/// ```
/// use weft::runtime::{check_args, KernelArgs, KernelSignature, ElemType};
/// let sig = KernelSignature::parse("scale(x: *f32 {divisibility = 16}, a: f32, n: i32)").unwrap();
/// let mut args = KernelArgs::new();
/// args.raw_ptr(ElemType::F32, 0x7000_0000).scalar(2.0f32).scalar(1024i32);
/// assert!(check_args(&sig, args.as_slice()).is_ok());
/// ```
#[derive(Debug, Clone, Default)]
pub struct KernelArgs<'a> {
    args: Vec<KernelArg>,
    borrows: PhantomData<&'a ()>,
}

impl<'a> KernelArgs<'a> {
    /// An empty list.
    pub fn new() -> Self {
        KernelArgs {
            args: Vec::new(),
            borrows: PhantomData,
        }
    }

    /// Appends a buffer (any backend's) as a pointer argument; the buffer stays borrowed for `'a`.
    pub fn ptr<B: DevicePointer + ?Sized>(&mut self, buffer: &'a B) -> &mut Self {
        self.args.push(KernelArg::Ptr {
            elem: buffer.elem_type(),
            addr: buffer.device_addr(),
        });
        self
    }

    /// Appends a raw device address with a stated element type (an offset into a buffer, or memory
    /// allocated elsewhere). Nothing is borrowed: the caller answers for the address at launch.
    pub fn raw_ptr(&mut self, elem: ElemType, addr: u64) -> &mut Self {
        self.args.push(KernelArg::Ptr { elem, addr });
        self
    }

    /// Appends a scalar by value.
    pub fn scalar<S: ScalarArg>(&mut self, value: S) -> &mut Self {
        self.args.push(value.to_arg());
        self
    }

    /// Appends a tensor map by value; it (and the buffer it describes) stays borrowed for `'a`.
    pub fn tensor_map<M: AsTensorMap + ?Sized>(&mut self, map: &'a M) -> &mut Self {
        self.args.push(KernelArg::TensorMap(map.tensor_map_arg()));
        self
    }

    /// Appends a prepared argument.
    pub fn push(&mut self, arg: KernelArg) -> &mut Self {
        self.args.push(arg);
        self
    }

    /// The arguments, in order.
    pub fn as_slice(&self) -> &[KernelArg] {
        &self.args
    }

    /// The parameter types of the arguments, in order (what a signature check compares).
    pub fn types(&self) -> Vec<ParamType> {
        self.args.iter().map(KernelArg::param_type).collect()
    }

    /// Number of arguments.
    pub fn len(&self) -> usize {
        self.args.len()
    }

    /// True when no argument was pushed.
    pub fn is_empty(&self) -> bool {
        self.args.is_empty()
    }

    /// The slots a launch passes to the driver (one per argument).
    pub fn to_slots(&self) -> Vec<ArgSlot> {
        self.args.iter().map(KernelArg::to_slot).collect()
    }
}
