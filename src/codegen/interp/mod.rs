//! The interpreter: runs a kernel's recorded tile IR on the host, over a grid of programs, with
//! the sanitizers compute-sanitizer would run on the GPU.
//!
//! A kernel built for any target runs here without a GPU: each program (CTA) executes its ops
//! one after another on whole tiles, with the element types' own rounding (`num.rs`); layouts
//! never change values, they say which threads hold an element, which the shared-memory checks
//! use. What it checks, each a typed [`InterpError`] naming the op and the user's line:
//! - memcheck: a global load or store outside every buffer;
//! - racecheck: a shared-memory read of bytes another thread wrote since the last barrier, or
//!   that a `cp.async` or TMA copy wrote and no wait has covered;
//! - initcheck: a shared-memory read of bytes never written;
//! - a wait on an mbarrier phase that can never complete (the kernel would hang).
//!
//! Semantics per op are the builder's; math functions are computed in `f64` and rounded, so
//! they are at least as accurate as the GPU's `.approx` instructions (compare within a few ulp);
//! reductions add in their own order (compare floats within a tolerance). Warp roles run as
//! cooperating tasks (`tasks.rs`): one runs until it waits for another, then the next, in a fixed
//! order, so a run is reproducible; when every task waits, the run is a deadlock naming each wait.
//!
//! ```no_run
//! # use weft::codegen::{Context, DType, KernelBuilder, Target, kernels::blocked_1d};
//! # use weft::codegen::interp::{self, LaunchArg, Memory};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let ctx = Context::new();
//! # let kernel = KernelBuilder::new(&ctx, Target::SM90, "k", 4)?.finish()?;
//! let mut mem = Memory::new();
//! let x = mem.upload(&[1.0f32; 1024]);
//! let y = mem.alloc_poisoned::<f32>(1024);
//! interp::run(&kernel, [2, 1, 1], &[LaunchArg::Buffer(x), LaunchArg::Buffer(y)], &mut mem)?;
//! let out: Vec<f32> = mem.download(y);
//! # Ok(()) }
//! ```

mod exec;
mod memory;
pub(crate) mod num;
mod shared;
mod tasks;
mod tile;

use std::rc::Rc;

pub use memory::{DeviceBuffer, HostElem, Memory};

use crate::codegen::ir::{IrType, Loc};
use crate::codegen::lower::Kernel;
use crate::codegen::types::{DType, Type};
use exec::{Cta, Val};
use num::Num;

/// A tensor map for the interpreter: the tensor a TMA copy reads or writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorMapArg {
    /// The tensor's first byte.
    pub addr: u64,
    /// Element type.
    pub dtype: DType,
    /// Extents, outermost first.
    pub dims: Vec<u64>,
    /// Byte strides, outermost first (the innermost is the element size).
    pub strides: Vec<u64>,
}

impl TensorMapArg {
    /// A dense row-major tensor of `dims` (outermost first) in `buf`.
    pub fn dense(buf: DeviceBuffer, dtype: DType, dims: &[u64]) -> TensorMapArg {
        let mut strides = vec![dtype.mem_bytes(); dims.len()];
        for d in (0..dims.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * dims[d + 1];
        }
        TensorMapArg {
            addr: buf.addr,
            dtype,
            dims: dims.to_vec(),
            strides,
        }
    }

    /// The address of element `at` of the box whose origin is `origin` (both outermost first),
    /// or `None` outside the tensor (TMA fills those with zeros on a load and skips them on a
    /// store).
    pub(crate) fn element_addr(&self, origin: &[i64], at: &[u64]) -> Option<u64> {
        let mut addr = self.addr;
        for ((&o, &x), (&extent, &stride)) in origin
            .iter()
            .zip(at)
            .zip(self.dims.iter().zip(&self.strides))
        {
            let g = o + x as i64;
            if g < 0 || g as u64 >= extent {
                return None;
            }
            addr += g as u64 * stride;
        }
        Some(addr)
    }
}

/// A kernel argument.
#[derive(Debug, Clone, PartialEq)]
pub enum LaunchArg {
    /// A pointer parameter: a buffer of [`Memory`].
    Buffer(DeviceBuffer),
    /// An `i32` parameter.
    I32(i32),
    /// An `i64` parameter.
    I64(i64),
    /// An `f32` parameter.
    F32(f32),
    /// A tensor-map parameter.
    TensorMap(TensorMapArg),
}

/// What went wrong running a kernel in the interpreter.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InterpError {
    /// The arguments do not fit the kernel's parameters.
    #[error("launch of {kernel}: {reason}")]
    BadLaunch {
        /// The kernel.
        kernel: String,
        /// What does not fit.
        reason: String,
    },
    /// memcheck: a global access outside every buffer.
    #[error("{loc}: {op} in program {program:?} accesses {address}: out of bounds")]
    OutOfBounds {
        /// The op.
        op: String,
        /// The user's line.
        loc: Loc,
        /// The program (CTA) ids.
        program: [u64; 3],
        /// The address and where it lies.
        address: String,
    },
    /// racecheck: a shared-memory read of bytes another thread wrote since the last barrier (or
    /// an asynchronous copy wrote and no wait covered).
    #[error("{loc}: {op} reads shared byte {address}, which {writer_op} at {writer_loc} wrote{} with no barrier or wait between", if *writer == u32::MAX { " asynchronously".to_string() } else { format!(" (thread {writer})") })]
    Race {
        /// The reading op.
        op: String,
        /// Its line.
        loc: Loc,
        /// The writing op.
        writer_op: String,
        /// Its line.
        writer_loc: Loc,
        /// The byte address in shared memory.
        address: u64,
        /// The writing thread (`u32::MAX` for an asynchronous copy).
        writer: u32,
    },
    /// initcheck: a shared-memory read of bytes never written.
    #[error("{loc}: {op} reads shared byte {address}, which nothing wrote")]
    Uninitialized {
        /// The op.
        op: String,
        /// Its line.
        loc: Loc,
        /// The byte address in shared memory.
        address: u64,
    },
    /// Every task is blocked: the waits that can never complete.
    #[error("deadlock: {}", waits.join("; "))]
    Deadlock {
        /// Each blocked wait, with its op, line and what it waits for.
        waits: Vec<String>,
    },
    /// A wrong value or state found while running an op.
    #[error("{loc}: {op} in program {program:?}: {what}")]
    Fault {
        /// The op.
        op: String,
        /// Its line.
        loc: Loc,
        /// The program ids.
        program: [u64; 3],
        /// What is wrong.
        what: String,
    },
}

/// Runs `kernel` over a grid of `grid` programs with `args`, in program order (x fastest), on
/// `mem`.
pub fn run(
    kernel: &Kernel<'_>,
    grid: [u32; 3],
    args: &[LaunchArg],
    mem: &mut Memory,
) -> Result<(), InterpError> {
    let prog = kernel.program();
    let bad = |reason: String| InterpError::BadLaunch {
        kernel: prog.name.clone(),
        reason,
    };
    if args.len() != prog.params.len() {
        return Err(bad(format!(
            "{} arguments for {} parameters",
            args.len(),
            prog.params.len()
        )));
    }
    if grid.contains(&0) {
        return Err(bad(format!("an empty grid {grid:?}")));
    }
    let mut params = Vec::with_capacity(args.len());
    for (p, a) in prog.params.iter().zip(args) {
        let t = prog.ty(p.value);
        let v = match (t, a) {
            (Some(IrType::Scalar(Type::Ptr(..))), LaunchArg::Buffer(b)) => {
                Val::S(Num::I(b.addr as i64))
            }
            (Some(IrType::Scalar(Type::Scalar(DType::I32))), LaunchArg::I32(x)) => {
                Val::S(Num::I(i64::from(*x)))
            }
            (Some(IrType::Scalar(Type::Scalar(DType::I64))), LaunchArg::I64(x)) => {
                Val::S(Num::I(*x))
            }
            (Some(IrType::Scalar(Type::Scalar(DType::F32))), LaunchArg::F32(x)) => {
                Val::S(Num::F(f64::from(*x)))
            }
            (Some(IrType::TensorMap { elem }), LaunchArg::TensorMap(m))
                if Type::Scalar(m.dtype) == *elem =>
            {
                Val::Map(Rc::new(m.clone()))
            }
            (t, a) => {
                return Err(bad(format!(
                    "parameter `{}` is {}, the argument is {a:?}",
                    p.name,
                    t.map_or("untyped".to_string(), |t| t.to_string())
                )))
            }
        };
        params.push((p.value, v));
    }
    let shared = u64::from(kernel.signature().shared_bytes);
    for z in 0..grid[2] {
        for y in 0..grid[1] {
            for x in 0..grid[0] {
                let pid = [u64::from(x), u64::from(y), u64::from(z)];
                let g = [u64::from(grid[0]), u64::from(grid[1]), u64::from(grid[2])];
                let mut cta = Cta::new(prog, mem, pid, g, shared);
                for (v, val) in &params {
                    cta.set(*v, val.clone());
                }
                cta.run_program()?;
            }
        }
    }
    Ok(())
}
