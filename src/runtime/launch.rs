//! Launch configurations and the checks every launch goes through.
//!
//! # Why launches stay `unsafe`
//! Each backend offers two launches ([`Stream`](super::Stream)), in cudarc's layered spirit:
//! - `launch_unchecked` passes the arguments straight to the driver;
//! - `launch`, written once for both backends, first checks the arguments against the kernel's [`KernelSignature`]
//!   (count and types), and the configuration against the device and kernel limits
//!   ([`LaunchConfig::validate`]), and opts in to large dynamic shared memory.
//!
//! Both are `unsafe fn`. The checks rule out every ABI mistake a signature can describe, but no
//! type system can prove what the kernel does with its pointers: that it stays inside the buffers it
//! was given (that depends on the scalars, e.g. `n`, and on the kernel's code), that two launches on
//! different streams do not race on one buffer, and that each buffer outlives the kernels still
//! using it. The caller promises those three things.

#![forbid(unsafe_code)]

pub use super::dim3::Dim3;
use super::error::{LaunchProblem, Result, RuntimeError};
use crate::signature::KernelSignature;

/// Grid, block and dynamic shared memory of one launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LaunchConfig {
    /// Blocks in the grid.
    pub grid: Dim3,
    /// Threads in each block.
    pub block: Dim3,
    /// Dynamic shared memory per block, in bytes.
    pub shared_mem_bytes: u32,
}

impl LaunchConfig {
    /// A configuration from its parts.
    pub fn new(grid: impl Into<Dim3>, block: impl Into<Dim3>, shared_mem_bytes: u32) -> Self {
        LaunchConfig {
            grid: grid.into(),
            block: block.into(),
            shared_mem_bytes,
        }
    }

    /// A 1-D launch covering `n` items with `items_per_block` items per block of `threads` threads
    /// (`ceil(n / items_per_block)` blocks). Errors if the grid would not fit in a `u32`, or if an
    /// input is zero.
    pub fn for_items(n: u64, items_per_block: u32, threads: u32) -> Result<Self> {
        if items_per_block == 0 || threads == 0 {
            return Err(RuntimeError::LaunchConfig {
                kernel: String::new(),
                problem: LaunchProblem::ZeroExtent {
                    what: "block",
                    axis: 'x',
                },
            });
        }
        let blocks = n.div_ceil(items_per_block as u64).max(1);
        let blocks = u32::try_from(blocks).map_err(|_| RuntimeError::Overflow {
            what: "grid size",
            detail: format!("{n} items / {items_per_block} per block needs {blocks} blocks"),
        })?;
        Ok(LaunchConfig::new(blocks, threads, 0))
    }

    /// A launch of `grid` blocks shaped as `signature` says: its `threads_per_block` along x and its
    /// `shared_bytes` of dynamic shared memory, so [`check_config`](super::check_config) passes by
    /// construction. `Err(LaunchConfig { problem: NoBlockSize })` if the signature states no block
    /// size (hand-written signatures without `[threads = N]`).
    pub fn for_kernel(grid: impl Into<Dim3>, signature: &KernelSignature) -> Result<Self> {
        let threads = signature
            .threads_per_block
            .ok_or_else(|| RuntimeError::LaunchConfig {
                kernel: signature.name.clone(),
                problem: LaunchProblem::NoBlockSize,
            })?;
        Ok(LaunchConfig::new(grid, threads, signature.shared_bytes))
    }

    /// Sets the dynamic shared memory.
    pub fn with_shared_mem(mut self, bytes: u32) -> Self {
        self.shared_mem_bytes = bytes;
        self
    }

    /// Checks the configuration against device and kernel limits; `kernel` names the kernel in the
    /// error. Returns whether the dynamic shared memory needs the opt-in attribute.
    pub fn validate(
        &self,
        kernel: &str,
        device: &DeviceLimits,
        attrs: &KernelAttrs,
    ) -> Result<SharedMemPlan> {
        let err = |problem| RuntimeError::LaunchConfig {
            kernel: kernel.to_string(),
            problem,
        };
        for (what, d) in [("grid", self.grid), ("block", self.block)] {
            for (axis, v) in d.axes() {
                if v == 0 {
                    return Err(err(LaunchProblem::ZeroExtent { what, axis }));
                }
            }
        }
        for ((axis, v), max) in self.block.axes().into_iter().zip(device.max_block_dim) {
            if v > max {
                return Err(err(LaunchProblem::BlockExtent {
                    axis,
                    value: v,
                    max,
                }));
            }
        }
        let threads = self.block.volume();
        if threads > device.max_threads_per_block as u64 {
            return Err(err(LaunchProblem::TooManyThreads {
                threads,
                max: device.max_threads_per_block,
                by: "by the device",
            }));
        }
        if threads > attrs.max_threads_per_block as u64 {
            return Err(err(LaunchProblem::TooManyThreads {
                threads,
                max: attrs.max_threads_per_block,
                by: "for this kernel (its register use)",
            }));
        }
        for ((axis, v), max) in self.grid.axes().into_iter().zip(device.max_grid_dim) {
            if v > max {
                return Err(err(LaunchProblem::GridExtent {
                    axis,
                    value: v,
                    max,
                }));
            }
        }
        let total = attrs.static_shared_bytes as u64 + self.shared_mem_bytes as u64;
        if total > device.max_shared_per_block_optin as u64 {
            return Err(err(LaunchProblem::SharedMemory {
                static_bytes: attrs.static_shared_bytes,
                dynamic_bytes: self.shared_mem_bytes,
                max: device.max_shared_per_block_optin,
            }));
        }
        let default_dynamic = device
            .max_shared_per_block
            .saturating_sub(attrs.static_shared_bytes);
        Ok(if self.shared_mem_bytes > default_dynamic {
            SharedMemPlan::OptIn {
                dynamic_bytes: self.shared_mem_bytes,
            }
        } else {
            SharedMemPlan::Default
        })
    }
}

/// Whether a launch's dynamic shared memory fits the default per-block budget (48 KB on NVIDIA) or
/// needs the kernel's maximum-dynamic-shared-memory attribute raised first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SharedMemPlan {
    /// Fits without opting in.
    Default,
    /// Raise the kernel attribute to at least `dynamic_bytes` before launching.
    OptIn {
        /// The dynamic shared memory of the launch.
        dynamic_bytes: u32,
    },
}

/// The device limits a launch is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Threads per block.
    pub max_threads_per_block: u32,
    /// Block extent per axis.
    pub max_block_dim: [u32; 3],
    /// Grid extent per axis.
    pub max_grid_dim: [u32; 3],
    /// Shared memory per block without opting in (48 KB on NVIDIA).
    pub max_shared_per_block: u32,
    /// Shared memory per block with the opt-in attribute (227 KB on H100).
    pub max_shared_per_block_optin: u32,
    /// Threads per warp (32 on NVIDIA, 64 on CDNA).
    pub warp_size: u32,
}

impl DeviceLimits {
    /// The limits of an sm_90 (H100) device, for tests and planning without a GPU.
    pub const SM90: DeviceLimits = DeviceLimits {
        max_threads_per_block: 1024,
        max_block_dim: [1024, 1024, 64],
        max_grid_dim: [i32::MAX as u32, 65535, 65535],
        max_shared_per_block: 48 * 1024,
        max_shared_per_block_optin: 227 * 1024,
        warp_size: 32,
    };
}

/// What the driver reports about one loaded kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelAttrs {
    /// Most threads per block this kernel can be launched with (lower than the device's when the
    /// kernel uses many registers).
    pub max_threads_per_block: u32,
    /// Shared memory declared statically in the kernel.
    pub static_shared_bytes: u32,
    /// Registers per thread.
    pub num_regs: u32,
}
