//! The attributes ops carry in the tile IR: which arithmetic, comparison, math function,
//! reduction, scan, atomic or cache hint an op is, and how a warp role is declared. The builder's
//! public API takes them; lowering and the interpreter read them off the recorded ops.

/// Binary elementwise ops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `a + b` (also pointer plus integer offset, in elements).
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`: signed for integers, rounding toward zero; for floats Triton's default, the
    /// approximate `div.full.f32` (within 2 ulp) for f32, computed in f32 for f16/bf16, and
    /// IEEE for f64.
    Div,
    /// `a / b` rounded to nearest as IEEE 754 requires (floats only; Triton's `div_rn`).
    DivRn,
    /// `a % b` (signed for integers: the sign of `a`).
    Rem,
    /// Minimum (floats: `minnum`, a NaN operand yields the other).
    Min,
    /// Maximum (floats: `maxnum`).
    Max,
    /// Bitwise and (integers).
    And,
    /// Bitwise or (integers).
    Or,
    /// Bitwise xor (integers).
    Xor,
    /// Shift left (integers).
    Shl,
    /// Arithmetic shift right (integers).
    Shr,
}

impl BinaryOp {
    pub(crate) fn name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::Div => "div",
            BinaryOp::DivRn => "div_rn",
            BinaryOp::Rem => "rem",
            BinaryOp::Min => "min",
            BinaryOp::Max => "max",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
            BinaryOp::Xor => "xor",
            BinaryOp::Shl => "shl",
            BinaryOp::Shr => "shr",
        }
    }
}

/// Comparisons (signed for integers; ordered for floats except `Ne`, which is true on NaN).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// Unary elementwise ops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-a`.
    Neg,
    /// `|a|`.
    Abs,
    /// Bitwise not (integers; logical not on i1).
    Not,
}

/// A cache policy for a global access (PTX `ld`/`st` qualifiers on NVIDIA; on AMD `Streaming`
/// marks the access non-temporal and the others are the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CacheHint {
    /// The target's default (`.ca` loads, `.wb` stores).
    #[default]
    Default,
    /// Cache in L2 only (`.cg`).
    Global,
    /// Streaming, likely accessed once (`.cs`, evict first).
    Streaming,
}

/// Atomic read-modify-write ops. Every atomic is `acq_rel` at device scope (Triton's defaults:
/// `sem = acq_rel`, `scope = gpu`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// `*p += v` (integers and floats).
    Add,
    /// `*p = min(*p, v)` (signed for integers).
    Min,
    /// `*p = max(*p, v)`.
    Max,
    /// `*p &= v` (integers).
    And,
    /// `*p |= v` (integers).
    Or,
    /// `*p ^= v` (integers).
    Xor,
    /// `*p = v`.
    Xchg,
}

/// A unary math function on floats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MathOp {
    /// `e^x`.
    Exp,
    /// `2^x`.
    Exp2,
    /// Natural logarithm.
    Log,
    /// Base-2 logarithm.
    Log2,
    /// Square root (correctly rounded).
    Sqrt,
    /// `1 / sqrt(x)` (`rsqrt.approx` with `Approx`; within 0.5 ulp with `Accurate`).
    Rsqrt,
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// The error function.
    Erf,
    /// Round down.
    Floor,
    /// Round up.
    Ceil,
}

impl MathOp {
    /// Every op, for exhaustive tests.
    pub const ALL: [MathOp; 11] = [
        MathOp::Exp,
        MathOp::Exp2,
        MathOp::Log,
        MathOp::Log2,
        MathOp::Sqrt,
        MathOp::Rsqrt,
        MathOp::Sin,
        MathOp::Cos,
        MathOp::Erf,
        MathOp::Floor,
        MathOp::Ceil,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            MathOp::Exp => "exp",
            MathOp::Exp2 => "exp2",
            MathOp::Log => "log",
            MathOp::Log2 => "log2",
            MathOp::Sqrt => "sqrt",
            MathOp::Rsqrt => "rsqrt",
            MathOp::Sin => "sin",
            MathOp::Cos => "cos",
            MathOp::Erf => "erf",
            MathOp::Floor => "floor",
            MathOp::Ceil => "ceil",
        }
    }
}

/// How closely a math function must follow the true result.
///
/// A per-call argument (rather than a builder-wide mode) because one kernel often wants both:
/// a fast `exp` in a softmax next to an accurate `log` in a loss. The default of
/// [`KernelBuilder::math`](crate::codegen::KernelBuilder::math) stays Triton's, so existing kernels keep their code and speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MathPrecision {
    /// Hardware approximations where the target has them (f32 on NVIDIA: `ex2.approx` and
    /// friends: a few ulp for exp2 and rsqrt, but absolute error bounds for lg2, sin and cos,
    /// so large relative errors near their roots and for large sin/cos arguments). f64 has no
    /// approximate instructions and is always computed accurately.
    #[default]
    Approx,
    /// [`Approx`](Self::Approx) in the forms that flush subnormal inputs and results to zero
    /// (NVIDIA's `.ftz`): `exp2` is one `MUFU.EX2` rather than the same with a range check and
    /// two scalings that keep subnormal results. What a softmax wants, whose exponentials of
    /// large negative arguments may as well be 0. Other targets: as `Approx`.
    ApproxFtz,
    /// The accurate lowering: at most 2 ulp for f32 and f64 (see the module docs).
    Accurate,
}

/// The combining op of [`KernelBuilder::reduce`](crate::codegen::KernelBuilder::reduce).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// `a + b`.
    Sum,
    /// Maximum (floats: `maxnum`).
    Max,
    /// Minimum (floats: `minnum`).
    Min,
}

/// The combining op of [`KernelBuilder::associative_scan`](crate::codegen::KernelBuilder::associative_scan).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScanOp {
    /// `a + b` (cumulative sum).
    Sum,
    /// Maximum (running max; floats: `maxnum`).
    Max,
    /// Minimum (running min; floats: `minnum`).
    Min,
}

/// One role of a warp-specialised kernel, as declared: `warps` warps (a power of two) per
/// replica, `replicas` copies, and optionally a register budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarpRole {
    pub(crate) warps: u32,
    pub(crate) replicas: u32,
    pub(crate) max_regs: Option<u32>,
}

impl WarpRole {
    /// A role of `warps` warps (a power of two), one replica, the launch's register count.
    pub fn new(warps: u32) -> WarpRole {
        WarpRole {
            warps,
            replicas: 1,
            max_regs: None,
        }
    }

    /// `count` copies of the role, each of its `warps` warps, running the same code.
    pub fn replicas(self, count: u32) -> WarpRole {
        WarpRole {
            replicas: count,
            ..self
        }
    }

    /// Registers per thread while in the role (24 to 256, a multiple of 8; sm_90a): fewer for a
    /// producer, more for consumers. The role's warps must be whole warpgroups.
    pub fn max_regs(self, regs: u32) -> WarpRole {
        WarpRole {
            max_regs: Some(regs),
            ..self
        }
    }
}

/// How [`device_print`](crate::codegen::KernelBuilder::device_print_with) writes numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PrintFormat {
    /// Integers as signed decimals (`i1` as 0 or 1), floats as C's `%f` (f16, bf16 and fp8
    /// through f32).
    #[default]
    Decimal,
    /// Integers as unsigned decimals (an `i8` −1 is 255); floats as with `Decimal`.
    Unsigned,
    /// Every element's bits in hexadecimal, zero-padded to its width: `0x3c00` for an f16 1.0,
    /// `0xffffffff` for an `i32` −1.
    Hex,
}
