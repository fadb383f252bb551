//! How a `wgmma` is issued, as its method planned it when it was recorded: the instruction, the
//! accumulator's registers, the operands' descriptors. Data only, so the lowering context can
//! hold it without importing the lowerings that use it.

use crate::codegen::target::nvptx::wgmma::WgmmaShape;

/// One operand's descriptor: the fixed fields and the byte offset of each k-step's start.
#[derive(Debug, Clone)]
pub(crate) struct Operand2d {
    pub(crate) major: Major,
    /// Swizzle span in bytes (32, 64, 128).
    pub(crate) swizzle: u64,
    /// Leading and stride byte offsets (the descriptor's LBO and SBO).
    pub(crate) lbo: u64,
    pub(crate) sbo: u64,
    /// Byte offset (in the buffer) of the start of k-step `s` for the 64-row (A) or whole (B)
    /// block at M/N origin 0.
    pub(crate) k_starts: Vec<u64>,
}

/// Which dim of a wgmma operand is contiguous in shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Major {
    /// K contiguous (A's rows, B's columns, as `mma` reads them): no transpose.
    K,
    /// M (of A) or N (of B) contiguous: the transposed form, 16-bit types only.
    Mn,
}

/// How one `wgmma` is issued, as its method planned it.
#[derive(Debug, Clone)]
pub(crate) struct WgmmaPlan {
    /// The instruction's shape, element type and transposes.
    pub shape: WgmmaShape,
    /// The accumulator's register for each (64-row block, wgmma register), in that order.
    pub slot: Vec<usize>,
    /// 64-row blocks per warpgroup.
    pub reps: u64,
    /// Warps of the scope.
    pub warps: u64,
    /// B's descriptor.
    pub b: Operand2d,
    /// A's descriptor and row offsets, when A is in shared memory (else in registers).
    pub a: Option<AShared>,
}

/// A in shared memory: its descriptor and the byte offsets of its rows.
#[derive(Debug, Clone)]
pub(crate) struct AShared {
    /// The descriptor's fields and k-step starts.
    pub desc: Operand2d,
    /// Bit `j` of the warpgroup index moves A's start by `group_offs[j]` bytes (XOR-ed).
    pub group_offs: Vec<u64>,
    /// Each 64-row block's byte offset.
    pub rep_offs: Vec<u64>,
}
