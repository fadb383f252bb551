//! The text of one `device_print` line, defined once for both places that print it: the C format
//! string the GPU's `vprintf` fills in, and the same text rendered on the host by the
//! interpreter. Keeping both here is what makes a GPU run and an interpreter run print the same
//! lines.
//!
//! A line is
//! - `pid (X, Y, Z) idx (I, J) PREFIX: VALUE` for an element of a tile, each index right-aligned
//!   to the width of its dim's largest index (as Triton aligns them);
//! - `pid (X, Y, Z) PREFIX: VALUE` for a scalar;
//! - `pid (X, Y, Z) PREFIX` for a call with no values;
//!
//! with ` (operand K)` after the prefix when one call prints several values. Values are C's
//! `%d`/`%lld` (signed integers), `%u`/`%llu` ([`PrintFormat::Unsigned`]), `%f` (floats:
//! `vprintf` takes C's variadic promotions, so f16, bf16, fp8 and f32 travel as a `double` of the
//! same value), or `0x` and the element's bits zero-padded to its width ([`PrintFormat::Hex`]).

use crate::codegen::ir::attrs::PrintFormat;
use crate::codegen::types::DType;

/// How one value is passed to `vprintf` and written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conv {
    /// Sign-extended to 32 bits, `%d`.
    I32,
    /// Zero-extended to 32 bits, `%u`.
    U32,
    /// 64 bits, `%lld`.
    I64,
    /// 64 bits, `%llu`.
    U64,
    /// A `double`, `%f`.
    F64,
    /// The bits, zero-extended to 32 (or 64 when `digits` is 16) bits, `0x%0<digits>x`.
    Hex {
        /// Hex digits of the element's width.
        digits: u32,
    },
}

impl Conv {
    /// How an element of `d` is printed in `format`.
    pub fn of(d: DType, format: PrintFormat) -> Conv {
        let wide = d.bits() > 32;
        match format {
            PrintFormat::Hex => Conv::Hex {
                digits: d.bits().div_ceil(4),
            },
            _ if !d.is_int() => Conv::F64,
            PrintFormat::Unsigned if wide => Conv::U64,
            PrintFormat::Unsigned => Conv::U32,
            PrintFormat::Decimal if wide => Conv::I64,
            PrintFormat::Decimal => Conv::I32,
        }
    }

    /// Whether the value travels as 64 bits (an `i64` or a `double`).
    pub fn is_wide(self) -> bool {
        match self {
            Conv::I64 | Conv::U64 | Conv::F64 => true,
            Conv::Hex { digits } => digits > 8,
            Conv::I32 | Conv::U32 => false,
        }
    }

    fn c_spec(self) -> String {
        match self {
            Conv::I32 => "%d".into(),
            Conv::U32 => "%u".into(),
            Conv::I64 => "%lld".into(),
            Conv::U64 => "%llu".into(),
            Conv::F64 => "%f".into(),
            Conv::Hex { digits } if digits > 8 => format!("0x%0{digits}llx"),
            Conv::Hex { digits } => format!("0x%0{digits}x"),
        }
    }
}

/// A value as the host holds it for printing: what `vprintf` would receive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum HostValue {
    /// A signed integer (for [`Conv::I32`], [`Conv::I64`]).
    Int(i64),
    /// Bits, zero-extended (for [`Conv::U32`], [`Conv::U64`], [`Conv::Hex`]).
    Bits(u64),
    /// A float (for [`Conv::F64`]).
    Float(f64),
}

/// One `device_print` line's shape: everything but the program ids, indices and value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    /// The user's prefix.
    pub prefix: String,
    /// The operand's number, when the call prints several.
    pub operand: Option<usize>,
    /// Per tile dim, the width of its largest index; empty for a scalar.
    pub widths: Vec<usize>,
    /// The value's conversion; `None` for a call with no values.
    pub conv: Option<Conv>,
}

impl Line {
    /// The line of operand `operand` (of `operands`) of shape `shape` (empty for a scalar) and
    /// element type `d` (`None`: no value).
    pub fn new(
        prefix: &str,
        operand: usize,
        operands: usize,
        shape: &[u64],
        d: Option<DType>,
        format: PrintFormat,
    ) -> Line {
        Line {
            prefix: prefix.to_string(),
            operand: (operands > 1).then_some(operand),
            widths: shape
                .iter()
                .map(|&s| s.saturating_sub(1).max(1).to_string().len())
                .collect(),
            conv: d.map(|d| Conv::of(d, format)),
        }
    }

    /// The label after the program ids and indices: ` PREFIX (operand K)`.
    fn label(&self) -> String {
        let mut s = String::new();
        if !self.prefix.is_empty() {
            s.push(' ');
            s.push_str(&self.prefix);
        }
        if let Some(k) = self.operand {
            s.push_str(&format!(" (operand {k})"));
        }
        s
    }

    /// The C format string (with its newline) for `vprintf`, whose arguments are the three
    /// program ids, one `i32` index per dim, then the value.
    pub fn c_format(&self) -> String {
        let mut s = String::from("pid (%d, %d, %d)");
        if !self.widths.is_empty() {
            let idx: Vec<String> = self.widths.iter().map(|w| format!("%{w}d")).collect();
            s.push_str(&format!(" idx ({})", idx.join(", ")));
        }
        s.push_str(&self.label().replace('%', "%%"));
        if let Some(c) = self.conv {
            s.push_str(": ");
            s.push_str(&c.c_spec());
        }
        s.push('\n');
        s
    }

    /// The line (without its newline) that [`c_format`](Self::c_format) gives for `pid`, `idx`
    /// and `value`.
    pub fn render(&self, pid: [u64; 3], idx: &[u64], value: Option<HostValue>) -> String {
        let mut s = format!("pid ({}, {}, {})", pid[0], pid[1], pid[2]);
        if !self.widths.is_empty() {
            let idx: Vec<String> = self
                .widths
                .iter()
                .zip(idx)
                .map(|(w, i)| format!("{i:>w$}"))
                .collect();
            s.push_str(&format!(" idx ({})", idx.join(", ")));
        }
        s.push_str(&self.label());
        if let (Some(c), Some(v)) = (self.conv, value) {
            s.push_str(": ");
            s.push_str(&render_value(c, v));
        }
        s
    }
}

/// `v` written as C's `printf` writes it under `c`.
fn render_value(c: Conv, v: HostValue) -> String {
    match (c, v) {
        (Conv::I32 | Conv::I64, HostValue::Int(i)) => i.to_string(),
        (Conv::U32, HostValue::Bits(b)) => (b as u32).to_string(),
        (Conv::U64, HostValue::Bits(b)) => b.to_string(),
        (Conv::Hex { digits }, HostValue::Bits(b)) => {
            format!("0x{b:0width$x}", width = digits as usize)
        }
        (Conv::F64, HostValue::Float(x)) => c_float(x),
        // A value of another kind than its conversion: written as the closest C would.
        (_, HostValue::Int(i)) => i.to_string(),
        (_, HostValue::Bits(b)) => b.to_string(),
        (_, HostValue::Float(x)) => c_float(x),
    }
}

/// `%f` of `x`: six decimals, correctly rounded (ties to even, as glibc), `inf`/`nan` with C's
/// spelling.
fn c_float(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    format!("{x:.6}")
}
