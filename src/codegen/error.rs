//! The one error type of the builder. Every variant is raised in Rust before LLVM sees the input,
//! so a bad kernel never reaches an LLVM fatal error (which would abort the process).

use crate::layout::LayoutError;

/// What went wrong while building or emitting a kernel.
///
/// Operand descriptions (`lhs`, `rhs`, `value`) are rendered as
/// `tensor<64x32xf32, {register: …, lane: …, warp: …}>` (or `scalar<i32>`), so a message names
/// both operands' shapes, element types and layouts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CodegenError {
    /// Two operands whose shapes cannot be broadcast together.
    #[error("{op}: shapes do not match: {lhs} vs {rhs}")]
    ShapeMismatch {
        /// The op that was called.
        op: &'static str,
        /// The first operand.
        lhs: String,
        /// The second operand.
        rhs: String,
    },
    /// Two operands of the same shape but different layouts (convert one first).
    #[error("{op}: layouts differ ({difference}): {lhs} vs {rhs}")]
    LayoutMismatch {
        /// The op that was called.
        op: &'static str,
        /// The first basis that maps differently.
        difference: String,
        /// The first operand.
        lhs: String,
        /// The second operand.
        rhs: String,
    },
    /// Two operands of different element types (cast one first).
    #[error("{op}: element types differ: {lhs} vs {rhs}")]
    TypeMismatch {
        /// The op that was called.
        op: &'static str,
        /// The first operand.
        lhs: String,
        /// The second operand.
        rhs: String,
    },
    /// An operand whose element type the op does not take (a float op on integers, a load from a
    /// non-pointer, …).
    #[error("{op}: expected {expected}, got {value}")]
    InvalidType {
        /// The op that was called.
        op: &'static str,
        /// What the op takes.
        expected: String,
        /// The operand given.
        value: String,
    },
    /// A layout that is not a distributed layout for this kernel: wrong input dims, output sizes
    /// that are not the tile shape, a lane or warp count that is not the kernel's.
    #[error("{op}: bad layout: {reason}")]
    BadLayout {
        /// The op that was called.
        op: &'static str,
        /// Which rule the layout breaks.
        reason: String,
    },
    /// An argument out of its domain (an axis past the rank, a size that is not a power of two, …).
    #[error("{op}: {reason}")]
    InvalidArgument {
        /// The op that was called.
        op: &'static str,
        /// Which rule the argument breaks.
        reason: String,
    },
    /// The target lacks what the op needs (fp8 before sm_90, a 64-lane op on NVIDIA, …).
    #[error("{op} is not supported on {target}: {reason}")]
    Unsupported {
        /// The op that was called.
        op: &'static str,
        /// The target's name.
        target: String,
        /// Why.
        reason: String,
    },
    /// A target whose cargo feature is off (AMDGPU needs feature `amdgpu`) or an unknown name.
    #[error("target {target}: {reason}")]
    BadTarget {
        /// The name given.
        target: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// A value handle that belongs to another kernel builder.
    #[error("{op}: value {value} belongs to kernel #{owner}, not to this kernel (#{this})")]
    ForeignValue {
        /// The op that was called.
        op: &'static str,
        /// The handle.
        value: String,
        /// The kernel that made it.
        owner: u32,
        /// The kernel it was passed to.
        this: u32,
    },
    /// A value of a kind the op does not take (a shared-memory descriptor given to `add`, …).
    #[error("`{op}` needs {expected}, got {kind} ({value})")]
    WrongKind {
        /// The op that was called.
        op: &'static str,
        /// The kinds the op takes (`a scalar or a register tile`).
        expected: &'static str,
        /// The kind given (`a shared-memory descriptor`).
        kind: &'static str,
        /// The handle.
        value: String,
    },
    /// Shared memory requested beyond what the target offers a CTA.
    #[error("{op}: {requested} bytes of shared memory would bring the kernel to {total} bytes, more than the {capacity} bytes {target} offers a CTA")]
    SharedMemoryExceeded {
        /// The op that asked.
        op: &'static str,
        /// The size of the request, in bytes.
        requested: u64,
        /// The kernel's total with the request (aligned), in bytes.
        total: u64,
        /// The target's capacity per CTA, in bytes.
        capacity: u64,
        /// The target's name.
        target: String,
    },
    /// A value defined inside a loop or branch body that has been closed: yield it instead.
    #[error("{op}: value {value} was defined in a loop or branch body that has ended; yield it")]
    OutOfScope {
        /// The op that was called.
        op: &'static str,
        /// The handle.
        value: String,
    },
    /// A shared-memory descriptor (or a view of it) used after
    /// [`free_shared`](crate::codegen::KernelBuilder::free_shared) gave its bytes back.
    #[error("{op}: {value} was freed (free_shared); its bytes may belong to another buffer now")]
    FreedShared {
        /// The op that was called.
        op: &'static str,
        /// The descriptor.
        value: String,
    },
    /// A kernel parameter declared after the body started, or declared twice.
    #[error("parameter `{name}`: {reason}")]
    BadParameter {
        /// The parameter's name.
        name: String,
        /// Why it is rejected.
        reason: String,
    },
    /// An error of the layout algebra.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// LLVM rejected the module or failed to emit it. This is a bug in weft: report it.
    #[error("LLVM {stage} failed: {message}")]
    Llvm {
        /// Which step (verify, passes, codegen).
        stage: &'static str,
        /// LLVM's message.
        message: String,
    },
    /// Linking an AMDGPU code object failed (is `ld.lld-22` installed?).
    #[error("linking the code object failed: {0}")]
    Link(String),
    /// A hazard between ops that the verifier found: the op at fault, the user's line, and why.
    #[error("{loc}: {op}: {reason}")]
    Hazard {
        /// The op at fault.
        op: String,
        /// The user's line it was called from.
        loc: crate::codegen::ir::Loc,
        /// What is wrong and what makes it right.
        reason: String,
    },
    /// An error raised by the op called at `loc` (the user's line).
    #[error("{loc}: {error}")]
    At {
        /// Where the op was called.
        loc: crate::codegen::ir::Loc,
        /// What went wrong.
        error: Box<CodegenError>,
    },
    /// ptxas is missing, failed, or printed what [`parse_ptxas_verbose`](super::parse_ptxas_verbose)
    /// cannot read ([`Kernel::report_with_ptxas`](super::Kernel::report_with_ptxas)).
    #[error("ptxas: {0}")]
    Ptxas(String),
}

/// Result of a builder call.
pub type Result<T, E = CodegenError> = std::result::Result<T, E>;

impl CodegenError {
    /// Wraps an inkwell builder error (only possible through a bug: the builder is always
    /// positioned).
    pub(crate) fn llvm(stage: &'static str, e: impl std::fmt::Display) -> CodegenError {
        CodegenError::Llvm {
            stage,
            message: e.to_string(),
        }
    }

    /// The error with the location of the op it came from (kept if it has one already).
    pub(crate) fn at(self, loc: crate::codegen::ir::Loc) -> CodegenError {
        match self {
            e @ CodegenError::At { .. } => e,
            e => CodegenError::At {
                loc,
                error: Box::new(e),
            },
        }
    }

    /// What went wrong, without the location: match on this.
    pub fn cause(&self) -> &CodegenError {
        match self {
            CodegenError::At { error, .. } => error.cause(),
            e => e,
        }
    }

    /// The user's line the error came from, when an op raised it.
    pub fn loc(&self) -> Option<crate::codegen::ir::Loc> {
        match self {
            CodegenError::At { loc, .. } | CodegenError::Hazard { loc, .. } => Some(*loc),
            _ => None,
        }
    }

    pub(crate) fn arg(op: &'static str, reason: impl Into<String>) -> CodegenError {
        CodegenError::InvalidArgument {
            op,
            reason: reason.into(),
        }
    }
}

impl From<inkwell::builder::BuilderError> for CodegenError {
    fn from(e: inkwell::builder::BuilderError) -> Self {
        CodegenError::llvm("builder", e)
    }
}
