//! The one error type of the launchers.
//!
//! Every variant says what happened in words a kernel author can act on: which kernel, which argument,
//! which limit. Driver status codes are kept as their names (`CUDA_ERROR_ILLEGAL_ADDRESS`,
//! `hipErrorInvalidValue`) so the type does not depend on any backend's bindings and can be built,
//! compared and printed on a machine without a GPU.

#![forbid(unsafe_code)]

use std::fmt;

use crate::signature::{ParamType, SignatureError};

/// Which driver API an error came from (and which [`Backend`](super::Backend) a type belongs to).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// The CUDA driver API (`libcuda.so`).
    Cuda,
    /// The HIP runtime (`libamdhip64.so`).
    Hip,
    /// The host: kernels run in weft's interpreter of the tile IR (`runtime::cpu`).
    Cpu,
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BackendKind::Cuda => "CUDA",
            BackendKind::Hip => "HIP",
            BackendKind::Cpu => "CPU",
        })
    }
}

/// A status code returned by a driver call, kept by name and number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverCode {
    /// The numeric status (`CUresult` or `hipError_t`).
    pub code: i32,
    /// The symbolic name, e.g. `CUDA_ERROR_ILLEGAL_ADDRESS`.
    pub name: String,
    /// The driver's own one-line description, when it gave one.
    pub description: String,
}

impl fmt::Display for DriverCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name, self.code)?;
        if !self.description.is_empty() {
            write!(f, ": {}", self.description)?;
        }
        Ok(())
    }
}

/// Why a launch configuration was rejected before reaching the driver.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LaunchProblem {
    /// A grid or block extent is zero: the driver would reject it with a bare "invalid value".
    #[error("{what} dimension {axis} is 0 (every extent must be at least 1)")]
    ZeroExtent {
        /// `"grid"` or `"block"`.
        what: &'static str,
        /// `'x'`, `'y'` or `'z'`.
        axis: char,
    },
    /// A block extent exceeds the device's per-axis limit.
    #[error("block dimension {axis} = {value} exceeds the device limit {max}")]
    BlockExtent {
        /// `'x'`, `'y'` or `'z'`.
        axis: char,
        /// The requested extent.
        value: u32,
        /// The device limit for that axis.
        max: u32,
    },
    /// The block has more threads than the device (or this kernel, given its register use) allows.
    #[error("block has {threads} threads, more than the {max} allowed {by}")]
    TooManyThreads {
        /// Threads per block requested (x·y·z).
        threads: u64,
        /// The limit.
        max: u32,
        /// `"by the device"` or `"for this kernel (register use)"`.
        by: &'static str,
    },
    /// A grid extent exceeds the device's per-axis limit.
    #[error("grid dimension {axis} = {value} exceeds the device limit {max}")]
    GridExtent {
        /// `'x'`, `'y'` or `'z'`.
        axis: char,
        /// The requested extent.
        value: u32,
        /// The device limit for that axis.
        max: u32,
    },
    /// Static plus dynamic shared memory exceeds what a block may opt in to.
    #[error(
        "needs {static_bytes} B static + {dynamic_bytes} B dynamic shared memory, more than the {max} B a block may use on this device"
    )]
    SharedMemory {
        /// Shared memory declared in the kernel.
        static_bytes: u32,
        /// Dynamic shared memory requested by the launch.
        dynamic_bytes: u32,
        /// The device's opt-in maximum per block.
        max: u32,
    },
    /// The block is not the size the kernel was built for (its code derives thread coordinates
    /// from `threadIdx.x` alone, and PTX declares the size as `.reqntid`).
    #[error("the kernel was built for blocks of exactly {expected} threads along x, got {got:?}")]
    BlockSize {
        /// Threads per block in the signature.
        expected: u32,
        /// The launch's block.
        got: super::dim3::Dim3,
    },
    /// [`LaunchConfig::for_kernel`](super::LaunchConfig::for_kernel) needs the block size from the
    /// signature, and the signature does not state one.
    #[error("the signature states no block size (`threads = N`): give the block explicitly")]
    NoBlockSize,
    /// The grid is not a whole number of the clusters the kernel was built for.
    #[error(
        "the grid {grid:?} is not a multiple of the kernel's cluster {cluster:?} along every axis"
    )]
    ClusterGrid {
        /// The launch's grid.
        grid: super::dim3::Dim3,
        /// CTAs per cluster along x, y, z.
        cluster: [u32; 3],
    },
    /// The kernel runs in clusters and the code or the device is older than sm_90.
    #[error(
        "the kernel runs in clusters of {cluster:?}, which need sm_90 or later; {what} is {arch}"
    )]
    ClusterArch {
        /// CTAs per cluster along x, y, z.
        cluster: [u32; 3],
        /// `"the code's target"` or `"the device"`.
        what: &'static str,
        /// The architecture found.
        arch: String,
    },
    /// The launch gives less dynamic shared memory than the kernel's code uses.
    #[error("the kernel uses {needs} B of dynamic shared memory, the launch gives {got} B")]
    TooLittleShared {
        /// Bytes the signature says the code uses.
        needs: u32,
        /// Bytes the launch gives.
        got: u32,
    },
}

/// Everything that can go wrong in `runtime`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuntimeError {
    /// The driver library could not be loaded: no driver is installed on this machine.
    #[error("no {backend} driver: {detail}")]
    NoDriver {
        /// Which driver.
        backend: BackendKind,
        /// What was looked for.
        detail: String,
    },
    /// The driver loaded but reports no usable GPU.
    #[error("no {backend} GPU: {detail}")]
    NoDevice {
        /// Which driver.
        backend: BackendKind,
        /// What the driver said.
        detail: String,
    },
    /// The device ordinal is out of range.
    #[error("{backend} device {ordinal} does not exist: {count} device(s) present")]
    DeviceOutOfRange {
        /// Which driver.
        backend: BackendKind,
        /// The requested ordinal.
        ordinal: usize,
        /// How many devices the driver sees.
        count: usize,
    },
    /// The PTX declares an ISA version the installed driver cannot JIT.
    #[error(
        "PTX ISA {ptx_isa} is too new for this driver (CUDA {driver}): emit an older `.version` (LLVM feature `+ptxNN`) or update the driver"
    )]
    PtxTooNew {
        /// The `.version` found in the PTX text (`"?"` if it had none).
        ptx_isa: String,
        /// The driver's CUDA version, e.g. `"13.0"`.
        driver: String,
    },
    /// The kernel image is malformed before it reaches the driver (empty, interior NUL, not text).
    #[error("invalid {what}: {reason}")]
    InvalidImage {
        /// `"PTX"`, `"cubin"`, `"code object"`.
        what: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The driver rejected a module; `log` holds the JIT compiler's error log when there is one.
    #[error("{backend} could not load the {what}: {code}{}", if log.is_empty() { String::new() } else { format!("\n{log}") })]
    ModuleLoad {
        /// Which driver.
        backend: BackendKind,
        /// `"PTX"`, `"cubin"`, `"code object"`.
        what: &'static str,
        /// The driver's status.
        code: DriverCode,
        /// The JIT error log (may be empty).
        log: String,
    },
    /// The module has no kernel of that name.
    #[error("kernel `{name}` not found in the module ({code})")]
    KernelNotFound {
        /// The name asked for.
        name: String,
        /// The driver's status.
        code: DriverCode,
    },
    /// The number of arguments does not match the kernel signature.
    #[error("kernel `{kernel}` takes {expected} argument(s) {signature}, got {got}")]
    ArgCount {
        /// Kernel name.
        kernel: String,
        /// Parameters in the signature.
        expected: usize,
        /// Arguments supplied.
        got: usize,
        /// The signature, printed.
        signature: String,
    },
    /// An argument's type does not match the kernel signature.
    #[error("kernel `{kernel}` argument {index} must be {expected}, got {got}")]
    ArgType {
        /// Kernel name.
        kernel: String,
        /// Zero-based argument position.
        index: usize,
        /// Type from the signature.
        expected: ParamType,
        /// Type of the supplied argument.
        got: ParamType,
    },
    /// An argument breaks a divisibility the kernel's code assumes (an address alignment, or an
    /// integer the code folded as a multiple).
    #[error("kernel `{kernel}` argument {index} (`{param}`) is {value}, but the kernel was built for a multiple of {divisibility}")]
    Divisibility {
        /// Kernel name.
        kernel: String,
        /// Zero-based argument position.
        index: usize,
        /// The parameter's name (may be empty).
        param: String,
        /// The argument given (`address 0x…` for pointers).
        value: String,
        /// The divisibility the signature promises.
        divisibility: u64,
    },
    /// The signature's name differs from the kernel it is attached to.
    #[error("signature is for kernel `{signature}` but the kernel is `{kernel}`")]
    SignatureName {
        /// Name in the signature.
        signature: String,
        /// Name of the loaded kernel.
        kernel: String,
    },
    /// Signature text could not be parsed.
    #[error("bad kernel signature `{text}`: {reason}")]
    BadSignature {
        /// The text given.
        text: String,
        /// What is wrong, with the position.
        reason: String,
    },
    /// The launch configuration is outside the device's limits.
    #[error("cannot launch kernel `{kernel}`: {problem}")]
    LaunchConfig {
        /// Kernel name.
        kernel: String,
        /// Which limit.
        problem: LaunchProblem,
    },
    /// The driver refused the launch itself.
    #[error("launch of kernel `{kernel}` failed: {code}")]
    Launch {
        /// Kernel name.
        kernel: String,
        /// The driver's status.
        code: DriverCode,
    },
    /// A kernel faulted while running; reported at the next synchronisation.
    #[error(
        "kernel `{kernel}` (the last kernel launched on this device) failed while running: {code}"
    )]
    KernelFault {
        /// The last kernel launched on the device before the error surfaced.
        kernel: String,
        /// The driver's status.
        code: DriverCode,
    },
    /// Host and device lengths differ in a copy.
    #[error("{op}: device buffer holds {device} element(s) but the host slice has {host}")]
    LengthMismatch {
        /// The copy, e.g. `"copy_from_host"`.
        op: &'static str,
        /// Device elements.
        device: usize,
        /// Host elements.
        host: usize,
    },
    /// Any other driver call failed.
    #[error("{backend} {call} failed: {code}")]
    Driver {
        /// Which driver.
        backend: BackendKind,
        /// The API function, e.g. `cuMemAlloc`.
        call: &'static str,
        /// The driver's status.
        code: DriverCode,
    },
    /// A buffer or kernel from one device was used with a stream of another.
    #[error("{what} belongs to another device than the stream it was used with")]
    WrongDevice {
        /// `"kernel"` or `"buffer"`.
        what: &'static str,
    },
    /// The device's architecture is not a [`Target`](crate::target::Target) weft knows.
    #[error("{backend} device reports architecture `{arch}`, which is not a target weft knows")]
    UnknownArch {
        /// Which driver.
        backend: BackendKind,
        /// The architecture as the driver reports it (`sm_121`, `gfx1100:xnack-`).
        arch: String,
    },
    /// A resource (module, stream, event, allocation) could not be released; such errors happen
    /// in `Drop`, are recorded on the device and handed out by `take_drop_errors`.
    #[error("releasing a {what} failed: {source}")]
    Release {
        /// `"module"`, `"stream"`, `"event"`, `"buffer"`.
        what: &'static str,
        /// The failed driver call.
        source: Box<RuntimeError>,
    },
    /// A size computation overflowed (`len * size_of::<T>()`).
    #[error("{what} overflows: {detail}")]
    Overflow {
        /// What was being computed.
        what: &'static str,
        /// The operands.
        detail: String,
    },
    /// The CPU backend's interpreter found a fault in a kernel (what compute-sanitizer would
    /// report on a GPU, or a hang): it names the op and the user's line.
    #[cfg(feature = "llvm")]
    #[error("kernel `{kernel}`: {source}")]
    Interpreter {
        /// The kernel.
        kernel: String,
        /// What the interpreter found.
        source: Box<crate::codegen::interp::InterpError>,
    },
    /// A tensor map cannot describe the buffer and box asked for (checked before the driver is
    /// called, so the reason is specific).
    #[error("bad tensor map: {reason}")]
    TensorMap {
        /// The rule it breaks.
        reason: String,
    },
    /// An option of a benchmark or of a [`GraphStream`](super::bench::GraphStream) capture is out
    /// of range, or a capture produced nothing to replay.
    #[error("bad {what}: {reason}")]
    BadOption {
        /// The option (`warmup_ms`, `quantile`, `graph capture`).
        what: &'static str,
        /// The rule it breaks.
        reason: String,
    },
    /// A kernel bundle ([`Bundle`](super::Bundle)) is malformed, or holds no image of the kernel
    /// asked for that the device can load.
    #[error("kernel bundle: {reason}")]
    Bundle {
        /// What is wrong, or what was asked for and what the bundle offers.
        reason: String,
    },
    /// The persistent kernel cache could not be read or written (the kernel itself still loads:
    /// only [`cuda::DiskCache`](crate::runtime) reports this, when asked to).
    #[error("kernel cache at {path}: {reason}")]
    DiskCache {
        /// The file or folder.
        path: String,
        /// What failed.
        reason: String,
    },
}

impl From<SignatureError> for RuntimeError {
    fn from(e: SignatureError) -> RuntimeError {
        RuntimeError::BadSignature {
            text: e.text,
            reason: e.reason,
        }
    }
}

/// Shorthand for `Result<T, RuntimeError>`.
pub type Result<T> = std::result::Result<T, RuntimeError>;
