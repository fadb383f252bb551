//! Tile-IR ops: what was called, on which values, with which attributes, from which line.
//!
//! An op's operands are [`Arg`]s (a value, or a Rust literal that took its type from the other
//! operand, as Python literals do in Triton); its results are values; its regions are the bodies
//! of structured control flow and the combine functions of reductions and scans. The order of
//! operands per kind is documented on each [`OpKind`] variant.

use crate::codegen::ir::attrs::PrintFormat;
use crate::codegen::ir::attrs::ReduceOp;
use crate::codegen::ir::attrs::ScanOp;
use crate::codegen::ir::attrs::WarpRole;
use crate::codegen::ir::attrs::{AtomicOp, CacheHint};
use crate::codegen::ir::attrs::{BinaryOp, CmpOp, UnaryOp};
use crate::codegen::ir::attrs::{MathOp, MathPrecision};
use crate::codegen::ir::loc::Loc;
use crate::codegen::types::DType;

/// A handle to a tile-IR value. Equal to the index of the builder's [`Value`](crate::codegen::Value)
/// it was recorded from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

/// A handle to an op in the program's arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OpId(pub u32);

/// A handle to a region in the program's arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RegionId(pub u32);

/// An operand.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg {
    /// A value.
    Value(ValueId),
    /// An integer literal (typed like the other operand).
    Int(i64),
    /// A float literal (typed like the other operand).
    Float(f64),
}

impl Arg {
    /// The value, if the operand is one.
    pub fn value(self) -> Option<ValueId> {
        match self {
            Arg::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// What an op does. Layouts, shapes and element types of results are in the results' types,
/// not here.
#[derive(Debug, Clone, PartialEq)]
pub enum OpKind {
    /// `program_id(axis)`: a scalar i32.
    ProgramId(u32),
    /// `num_programs(axis)`: a scalar i32.
    NumPrograms(u32),
    /// A constant of the result's type; operands: `[literal]`.
    Const,
    /// Facts promised of operand 0 (a new value, same type).
    Assume {
        /// Every element is a multiple of this.
        divisibility: u64,
        /// Runs of this many consecutive values along the last dim.
        contiguity: u64,
    },
    /// `arange(start, end)` in the result's layout.
    Arange {
        /// First value.
        start: i32,
        /// One past the last value.
        end: i32,
    },
    /// A tile of the result's type filled with operand 0 (a literal or a scalar).
    Full,
    /// Operand 0 (a scalar) splat to the result's layout.
    Splat,
    /// Operand 0 broadcast (size-1 dims repeated) to the result's shape and layout.
    BroadcastTo,
    /// Elementwise binary op on operands `[a, b]` (broadcast as in Triton).
    Binary(BinaryOp),
    /// Elementwise comparison of `[a, b]`: an i1 result.
    Cmp(CmpOp),
    /// `where(cond, x, y)`: operands `[cond, x, y]`.
    Where,
    /// Elementwise unary op on `[a]`.
    Unary(UnaryOp),
    /// Math function of `[x]`.
    Math(MathOp, MathPrecision),
    /// `a * b + c` rounded once: operands `[a, b, c]`.
    Fma,
    /// Element type conversion of `[x]` to the result's type (rounding to nearest even).
    Cast(DType),
    /// The bits of `[x]` read as the result's type: elementwise when the widths agree; to a type
    /// `r` times narrower, a new last dim of `r` held in new lowest register bits; to one `r`
    /// times wider, the last dim of `r` (held in the lowest register bits) folded in.
    Bitcast(DType),
    /// A size-1 dim inserted at `axis`.
    ExpandDims(usize),
    /// Dims permuted: result dim `i` is operand dim `perm[i]`.
    Permute(Vec<usize>),
    /// Row-major reshape to the result's shape.
    Reshape,
    /// The last dim (of size 2) split: two results.
    Split,
    /// Two tiles joined along a new last dim of size 2.
    Join,
    /// The same values in the result's layout.
    ConvertLayout,
    /// Masked global load: operands `[ptrs, mask?, other?]` (see `has_mask`, `has_other`).
    Load {
        /// Cache policy.
        hint: CacheHint,
        /// Whether operand 1 is a mask.
        has_mask: bool,
        /// Whether the last operand is the value of masked-off elements.
        has_other: bool,
    },
    /// Masked global store: operands `[ptrs, value, mask?]`.
    Store {
        /// Cache policy.
        hint: CacheHint,
    },
    /// Atomic read-modify-write: operands `[ptrs, value, mask?]`; the result is the old value.
    AtomicRmw(AtomicOp),
    /// Atomic compare-and-swap: operands `[ptrs, cmp, value, mask?]`; the result is the old value.
    AtomicCas,
    /// Reduction of `[tile]` along `axis` with a built-in combine.
    Reduce {
        /// The reduced dim.
        axis: usize,
        /// The combine.
        op: ReduceOp,
    },
    /// Reduction along `axis` with the combine in region 0 (two arguments, one yield).
    ReduceWith(usize),
    /// Index of the maximum (lowest index on ties) along `axis`.
    ArgMax(usize),
    /// Index of the minimum (lowest index on ties) along `axis`.
    ArgMin(usize),
    /// Inclusive scan of `[tile]` along `axis` with a built-in combine.
    Scan {
        /// The scanned dim.
        axis: usize,
        /// The combine.
        op: ScanOp,
    },
    /// Inclusive scan along `axis` with the combine in region 0.
    ScanWith(usize),
    /// `for iv in (lo..hi).step_by(step)`: operands `[lo, hi, init...]`; region 0 takes
    /// `[iv, carried...]` and yields the next carried values; results are the final ones.
    For {
        /// The step.
        step: u32,
    },
    /// `if cond`: operands `[cond]`; region 0 (then) and region 1 (else) yield the results.
    If,
    /// `if cond` with no else and no results: region 0.
    IfThen,
    /// Leaves the kernel: operands `[cond?]`, a scalar `i1` (the same in every thread), and
    /// without one unconditionally. Nothing after it runs in the threads that return.
    Return,
    /// The CTA's warps split into roles.
    WarpRoles(Vec<WarpRole>),
    /// Region 0 runs in the warps of role `index` (of the last `WarpRoles`).
    InRole(usize),
    /// The replica number of the current role: a scalar i32.
    RoleReplica,
    /// `count` named barriers at which `warps` warps meet.
    AllocNamedBarriers {
        /// How many.
        count: u32,
        /// Warps that meet at each.
        warps: u32,
    },
    /// Named barrier `first + index` (operand 0) synchronises `threads` threads.
    NamedBarrierSync {
        /// First barrier id of the set.
        first: u32,
        /// Threads that meet.
        threads: u32,
    },
    /// Named barrier `first + index` (operand 0) arrived at without waiting.
    NamedBarrierArrive {
        /// First barrier id of the set.
        first: u32,
        /// Threads that meet.
        threads: u32,
    },
    /// A shared-memory buffer of the result's type.
    AllocShared,
    /// `count` buffers of the result's shape without the leading `count` dim (a ring).
    AllocSharedBuffers(u64),
    /// Buffer `index` (operand 1) of a ring (operand 0).
    IndexShared,
    /// A permuted view of `[desc]`.
    PermuteShared(Vec<usize>),
    /// The view `start..start + len` of dim `dim` of `[desc]`.
    SliceShared {
        /// Sliced dim.
        dim: usize,
        /// First index.
        start: u64,
        /// Length.
        len: u64,
    },
    /// A reshaped view of `[desc]` (row-major).
    ReshapeShared,
    /// The bytes of `[desc]` seen as the result's type and layout.
    ReinterpretShared,
    /// `[desc, tile]`: the tile written to the buffer.
    StoreShared,
    /// `[desc]` read into the result's layout.
    LoadShared,
    /// `[desc]`'s bytes given back to the allocator.
    FreeShared,
    /// `ldmatrix` from `[desc]` into the result's layout.
    Ldmatrix,
    /// A barrier of the CTA (or of the current role's warps), making shared writes visible.
    Barrier,
    /// `cp.async` of `[desc, ptrs, mask?]` from global to shared memory.
    AsyncCopy {
        /// Whether operand 2 is a mask.
        has_mask: bool,
    },
    /// Closes the current group of `cp.async` copies.
    AsyncCommitGroup,
    /// Waits until at most `pending` groups are in flight.
    AsyncWaitGroup(u32),
    /// `count` mbarriers, each expecting `arrivals` arrivals per phase.
    AllocMbarriers {
        /// How many.
        count: u32,
        /// Arrivals per phase.
        arrivals: u32,
    },
    /// Barrier `index` (operand 1) of `[bars, index]`.
    MbarrierAt,
    /// `[bar, pred?]`: arrive and expect `bytes` more bytes in this phase.
    MbarrierExpect {
        /// Transaction bytes.
        bytes: u32,
        /// Whether operand 1 predicates the arrival.
        has_pred: bool,
    },
    /// `[bar]`: arrive.
    MbarrierArrive,
    /// `[bar, phase]`: wait for the phase of parity `phase` to complete.
    MbarrierWait {
        /// Whether only one thread per warp polls (the others wait at a warp barrier).
        issuer: bool,
    },
    /// `[bars]`: invalidated (their bytes may be reused).
    MbarrierInvalidate,
    /// Orders generic-proxy shared writes before async-proxy reads (TMA, wgmma).
    FenceAsyncShared,
    /// TMA box load: operands `[tmap, dst, bar, pred?, coords...]`.
    TmaLoad {
        /// Whether operand 3 predicates the copy.
        has_pred: bool,
    },
    /// TMA box store: operands `[tmap, src, coords...]`.
    TmaStore,
    /// Waits until at most `pending` TMA stores are reading shared memory.
    TmaStoreWait(u32),
    /// TMA box load multicast to the CTAs of the cluster whose ranks are set in the mask:
    /// operands `[tmap, dst, bar, mask, pred?, coords...]`; each receiving CTA gets the box at
    /// `dst`'s offset in its own shared memory, signalled on its barrier at `bar`'s offset.
    TmaLoadMulticast {
        /// Whether operand 4 predicates the copy.
        has_pred: bool,
    },
    /// This CTA's rank in its cluster (`%cluster_ctarank`): a scalar i32.
    ClusterCtaRank,
    /// The cluster's index in the grid along `axis` (`%clusterid`): a scalar i32.
    ClusterId(u32),
    /// CTAs per cluster (`%cluster_nctarank`): a scalar i32.
    ClusterNumCtas,
    /// Every thread arrives at the cluster barrier (`barrier.cluster.arrive`); `relaxed` orders
    /// no memory.
    ClusterArrive {
        /// `.relaxed` rather than `.release`.
        relaxed: bool,
    },
    /// Waits until every thread of the cluster has arrived (`barrier.cluster.wait`, acquire).
    ClusterWait,
    /// `[bar, rank]`: every thread (with `per_warp`, lane 0 of every warp) arrives once on the
    /// barrier at `bar`'s offset in the shared memory of the cluster's CTA `rank` (`mapa` +
    /// `mbarrier.arrive.shared::cluster`).
    MbarrierArriveRemote {
        /// One arrival per warp, not per thread.
        per_warp: bool,
    },
    /// `mma.sync` tensor-core product: operands `[a, b, acc]`.
    Dot,
    /// Asynchronous `wgmma`: operands `[a, b, acc, use_acc?]`; the result must be waited for.
    Wgmma {
        /// Whether operand 3 says whether to add the accumulator.
        has_use_acc: bool,
    },
    /// Waits until at most `pending` wgmma groups are in flight; operands are the results it
    /// makes usable, and its results are those values, ready.
    WgmmaWait(u32),
    /// Grouped tile order: operands `[index, num_m, num_n]`, results `(m, n)`.
    GroupedTile(u32),
    /// `device_print`: every element of each operand printed with `prefix` (no operands: the
    /// prefix alone, once per program).
    DevicePrint {
        /// Printed before each value.
        prefix: String,
        /// How numbers are written.
        format: PrintFormat,
    },
    /// Float `+`, `-`, `*` built from here on may (`true`) or may not fuse into FMAs.
    FpContraction(bool),
    /// `device_assert`: operand 0 (an `i1` scalar or tile) must be true everywhere.
    DeviceAssert {
        /// What a failure reports.
        message: String,
    },
}

/// One recorded op.
#[derive(Debug, Clone)]
pub struct Op {
    /// What it does.
    pub kind: OpKind,
    /// Its operands.
    pub args: Vec<Arg>,
    /// The values it defines.
    pub results: Vec<ValueId>,
    /// Its bodies.
    pub regions: Vec<RegionId>,
    /// The user's line it was called from.
    pub loc: Loc,
}

/// A body: arguments, ops in order, and the values it yields to its op.
#[derive(Debug, Clone, Default)]
pub struct Region {
    /// Values the op binds on entry (a loop's induction variable and carried values, a
    /// combine's two operands).
    pub params: Vec<ValueId>,
    /// The ops, in program order.
    pub ops: Vec<OpId>,
    /// What the body returns to its op.
    pub yields: Vec<ValueId>,
}
