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
//! - a shared-memory write to bytes a `wgmma` group may still read (before the `wgmma_wait` that
//!   retires it: a stage freed too early);
//! - initcheck: a shared-memory read of bytes never written;
//! - a wait on an mbarrier phase that can never complete (the kernel would hang).
//!
//! `device_print` writes its lines to the writer of [`run_with`] (stdout for [`run`]), and a false
//! `device_assert` is [`InterpError::Assert`] (`interp/debug.rs`).
//!
//! Semantics per op are the builder's; math functions are computed in `f64` and rounded, so
//! they are at least as accurate as the GPU's `.approx` instructions (compare within a few ulp);
//! reductions add in their own order (compare floats within a tolerance); a `dot` or `wgmma` on fp8
//! operands for an NVIDIA target keeps only the fp8 tensor cores' 14 bits of each 32 products' sum
//! (`tensor_core.rs`), so an fp8 check too strict for the GPU fails here too. Warp roles run as
//! cooperating tasks (`tasks.rs`): one runs until it waits for another (or reaches a `wgmma_wait`
//! that retires groups, where the GPU's other warps would run meanwhile), then the next, in a fixed
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

mod cluster;
mod cluster_state;
mod debug;
mod exec;
mod mbar;
mod memory;
pub(crate) mod num;
mod shared;
mod task;
mod tasks;
mod tensor_core;
mod tile;
mod val;

use std::rc::Rc;

pub use memory::{DeviceBuffer, HostElem, Memory};

use crate::codegen::ir::{IrType, Loc, Program};
use crate::codegen::lower::Kernel;
use crate::codegen::types::{DType, Type};
use exec::Cta;
use num::Num;
use val::Val;

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

    /// Why a TMA copy of a box at `origin` (outermost first) would fault on the GPU, if it
    /// would: the box's first byte must be 16-byte aligned in global memory, so its innermost
    /// coordinate times the element size must be a multiple of 16 bytes (`cp.async.bulk.tensor`
    /// ends in an illegal instruction otherwise; the map's address and strides are aligned
    /// already).
    pub(crate) fn misaligned_box(&self, origin: &[i64]) -> Option<String> {
        let &inner = origin.last()?;
        let bytes = i128::from(inner) * i128::from(self.dtype.mem_bytes());
        (bytes.rem_euclid(16) != 0).then(|| {
            format!(
                "the box at {origin:?} starts {bytes} bytes into its rows ({inner} × {} B): \
                 a TMA box's innermost coordinate must be a multiple of 16 bytes \
                 (the GPU faults with an illegal instruction)",
                self.dtype.mem_bytes()
            )
        })
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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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
    /// A `device_assert` found its condition false.
    #[error("{loc}: device_assert failed in program {program:?} at index {index:?}: {message}")]
    Assert {
        /// The assertion's message.
        message: String,
        /// The user's line.
        loc: Loc,
        /// The program (CTA) ids.
        program: [u64; 3],
        /// The first false element's index (row-major order; empty for a scalar condition).
        index: Vec<u64>,
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

/// In which order the programs of a grid and the tasks of a program (its warp roles) run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Schedule {
    /// Programs in order (x fastest); a task runs until it must wait, then the next in a fixed
    /// order. Every run is the same run.
    #[default]
    InOrder,
    /// Programs in a shuffled order, and a task may also be preempted after any op for another
    /// chosen at random: kernels that rely on an order the GPU does not promise (a role reading
    /// global memory another role writes, with no barrier between; one program reading what
    /// another writes) give different results under different seeds. Reproducible per seed.
    Random {
        /// The seed of the choices.
        seed: u64,
    },
}

/// How the interpreter runs a launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// The order of programs and tasks.
    pub schedule: Schedule,
}

/// SplitMix64: the random schedule's choices.
#[derive(Debug, Clone)]
pub(crate) struct Choices(u64);

impl Choices {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Runs `kernel` over a grid of `grid` programs with `args`, in program order (x fastest), on
/// `mem`; `device_print` lines go to stdout.
pub fn run(
    kernel: &Kernel<'_>,
    grid: [u32; 3],
    args: &[LaunchArg],
    mem: &mut Memory,
) -> Result<(), InterpError> {
    run_with(
        kernel,
        grid,
        args,
        mem,
        &Options::default(),
        &mut std::io::stdout(),
    )
}

/// [`run`] with `options` (e.g. a random schedule), the lines of `device_print` written to `out`
/// (a `Vec<u8>` captures them).
pub fn run_with(
    kernel: &Kernel<'_>,
    grid: [u32; 3],
    args: &[LaunchArg],
    mem: &mut Memory,
    options: &Options,
    out: &mut dyn std::io::Write,
) -> Result<(), InterpError> {
    run_program(
        kernel.program(),
        kernel.signature().shared_bytes,
        grid,
        args,
        mem,
        options,
        out,
    )
}

/// Runs a recorded program with `shared_bytes` of shared memory per program: [`run_with`]
/// without the LLVM module (what the CPU backend keeps).
pub fn run_program(
    prog: &Program,
    shared_bytes: u32,
    grid: [u32; 3],
    args: &[LaunchArg],
    mem: &mut Memory,
    options: &Options,
    out: &mut dyn std::io::Write,
) -> Result<(), InterpError> {
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
    let shared = u64::from(shared_bytes);
    let g = grid.map(u64::from);
    let dims = prog.cluster.unwrap_or([1, 1, 1]).map(u64::from);
    if g.iter().zip(&dims).any(|(&n, &c)| n % c != 0) {
        return Err(bad(format!(
            "the grid {grid:?} is not a multiple of the cluster {dims:?}"
        )));
    }
    let clusters = [g[0] / dims[0], g[1] / dims[1], g[2] / dims[2]];
    let mut choices = match options.schedule {
        Schedule::InOrder => None,
        Schedule::Random { seed } => Some(Choices(seed)),
    };
    let count = clusters[0]
        .checked_mul(clusters[1])
        .and_then(|c| c.checked_mul(clusters[2]))
        .ok_or_else(|| {
            bad(format!(
                "a grid of {grid:?} programs overflows a 64-bit count"
            ))
        })?;
    // In order, or from a random start with a random stride coprime to the count: every cluster
    // (every program, without clusters) once, in an order that changes with the seed.
    let (start, stride) = match &mut choices {
        None => (0, 1),
        Some(c) => {
            let start = c.next() % count;
            let mut stride = (c.next() % count) | 1;
            while num_integer::Integer::gcd(&stride, &count) != 1 {
                stride += 2;
            }
            (start, stride % count)
        }
    };
    let threads = u64::from(prog.num_warps * prog.target.warp_size());
    for i in 0..count {
        // `count` ≥ 1: the grid was checked non-empty above.
        let linear =
            ((u128::from(start) + u128::from(i) * u128::from(stride)) % u128::from(count)) as u64;
        let id = [
            linear % clusters[0],
            linear / clusters[0] % clusters[1],
            linear / (clusters[0] * clusters[1]),
        ];
        let pids = cluster_state::programs(id, dims);
        let mut cta = Cta::new(prog, mem, pids[0], g, shared, &mut *out);
        cta.choices = choices.take();
        cta.cluster = cluster_state::Cluster::new(prog, &pids, shared, dims, threads);
        let result = cta.run_cluster(&params);
        choices = cta.choices.take();
        result?;
    }
    Ok(())
}
