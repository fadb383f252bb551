//! The one error type of the layout algebra: every variant is named for the rule the input broke. Its
//! messages quote the input through [`excerpt`] and [`cut_list`], so no input makes them long.

#![forbid(unsafe_code)]

use super::Dim;

/// Which side of a layout a dimension belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DimSide {
    /// An input (hardware) dimension such as `register`.
    In,
    /// An output (tensor) dimension such as `dim0`.
    Out,
}

impl std::fmt::Display for DimSide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DimSide::In => "input",
            DimSide::Out => "output",
        })
    }
}

/// What went wrong in a layout operation. Every public function of [`crate::layout`] reports bad input
/// through this type; none panics.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LayoutError {
    /// A dimension name the layout does not have.
    #[error("unknown {side} dim `{name}`")]
    UnknownDim {
        /// Input or output.
        side: DimSide,
        /// The name asked for.
        name: Dim,
    },
    /// The same name given twice where names must be distinct.
    #[error("duplicate {side} dim `{name}`")]
    DuplicateDim {
        /// Input or output.
        side: DimSide,
        /// The repeated name.
        name: Dim,
    },
    /// A size that must be a power of two is not.
    #[error("size {size} of {what} is not a power of two")]
    NotPowerOfTwo {
        /// What the size belongs to.
        what: String,
        /// The size given.
        size: u64,
    },
    /// More bits than the packed representation holds (64 input bits, 64 output bits, 63 per dim).
    #[error("{what} needs {bits} bits; at most {limit} are supported")]
    TooManyBits {
        /// What is too large.
        what: String,
        /// Bits needed.
        bits: u32,
        /// The limit.
        limit: u32,
    },
    /// More dims on one side than a layout holds ([`crate::layout::MAX_DIMS`]): size-1 dims cost no bits, so
    /// without this cap a few kilobytes of input could name thousands of them.
    #[error("{count} {side} dims; at most {limit} are supported")]
    TooManyDims {
        /// Input or output.
        side: DimSide,
        /// Dims given.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// A basis vector with the wrong number of components.
    #[error("basis {index} of in dim `{in_dim}` has {got} components; expected {expected} (one per out dim)")]
    BasisArity {
        /// The input dim.
        in_dim: Dim,
        /// Which basis.
        index: usize,
        /// Components given.
        got: usize,
        /// Number of out dims.
        expected: usize,
    },
    /// A basis component outside its output dimension.
    #[error(
        "basis {index} of in dim `{in_dim}` maps to {value} in out dim `{out_dim}` of size {size}"
    )]
    BasisOutOfRange {
        /// The input dim.
        in_dim: Dim,
        /// Which basis.
        index: usize,
        /// The output dim.
        out_dim: Dim,
        /// The component.
        value: u64,
        /// The out dim's size.
        size: u64,
    },
    /// An input value outside its dimension.
    #[error("value {value} is outside in dim `{dim}` of size {size}")]
    ValueOutOfRange {
        /// The dim.
        dim: Dim,
        /// The value given.
        value: u64,
        /// The dim's size.
        size: u64,
    },
    /// The layout was required to be surjective and is not.
    #[error(
        "layout is not surjective: its image has 2^{rank} elements, its codomain 2^{out_bits}"
    )]
    NotSurjective {
        /// Rank of the bit matrix.
        rank: u32,
        /// Total output bits.
        out_bits: u32,
    },
    /// The layout has no inverse.
    #[error("layout is not invertible: {reason}")]
    NotInvertible {
        /// Why.
        reason: String,
    },
    /// The target of a solve does not reach everything the source does.
    #[error("no solution: {reason}")]
    NotInImage {
        /// Why.
        reason: String,
    },
    /// `divide_left` / `divide_right`: the layout is not a product with the divisor on that side.
    #[error("not divisible: {0}")]
    NotDivisible(String),
    /// `quotient`: the layout is not the identity on the given dims, or they interact with the others.
    #[error("not trivial over {0}")]
    NotTrivial(String),
    /// Two layouts (or a layout and an argument) disagree on their dims.
    #[error("dim mismatch: {0}")]
    DimMismatch(String),
    /// Sizes that must agree do not.
    #[error("size mismatch: {0}")]
    SizeMismatch(String),
    /// A conversion between layouts for different hardware: the two sides disagree on the size of a hardware
    /// dim (`lane`, `warp` or `block`; a missing dim counts as size 1), so no thread-to-thread plan exists.
    /// (The fields are not called `source`: thiserror would take that for the underlying error.)
    #[error("the source layout has `{dim}` size {source_size} but the destination has {destination_size}")]
    MismatchedHardware {
        /// The hardware dim.
        dim: Dim,
        /// Its size in the source layout.
        source_size: u64,
        /// Its size in the destination layout.
        destination_size: u64,
    },
    /// Malformed text or JSON.
    #[error("{format} parse error at line {line}, column {column}: {message}")]
    Parse {
        /// Which format (`bases`, `json`, …).
        format: &'static str,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// Any other violated precondition, described.
    #[error("{0}")]
    Invalid(String),
}

/// Shorthand for results of layout operations.
pub type Result<T> = std::result::Result<T, LayoutError>;

/// Items an error message lists before it cuts the list.
pub const LISTED_ITEMS: usize = 8;

/// A list as error messages show it: `[a, b, …]` with at most [`LISTED_ITEMS`] items, each cut as
/// [`excerpt`] cuts a token, and `… and N more` for the rest, so that no input makes an
/// error line long.
pub fn cut_list<T: std::fmt::Debug>(items: impl IntoIterator<Item = T>) -> String {
    let mut out = String::from("[");
    let mut more = 0usize;
    for (i, item) in items.into_iter().enumerate() {
        if i >= LISTED_ITEMS {
            more += 1;
            continue;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&excerpt(&format!("{item:?}")));
    }
    if more > 0 {
        out.push_str(&format!(", … and {more} more"));
    }
    out.push(']');
    out
}

/// The most characters of an input token an error message quotes.
pub const EXCERPT_CHARS: usize = 60;

/// An input token as error messages quote it: control characters escaped (`\n`, `\u{1b}`), and cut to
/// [`EXCERPT_CHARS`] characters with `…` when longer, so an error stays one short line whatever the input.
pub fn excerpt(token: &str) -> String {
    excerpt_with(token, EXCERPT_CHARS)
}

/// [`excerpt`] with a limit of `max_chars` characters.
pub fn excerpt_with(token: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (i, c) in token.chars().enumerate() {
        if i == max_chars {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::cut_list;

    #[test]
    fn long_lists_are_cut() {
        assert_eq!(cut_list([1, 2, 3]), "[1, 2, 3]");
        assert_eq!(cut_list(Vec::<u8>::new()), "[]");
        assert_eq!(
            cut_list(0..1000),
            "[0, 1, 2, 3, 4, 5, 6, 7, … and 992 more]"
        );
        let long = "x".repeat(10_000);
        let s = cut_list([long.as_str()]);
        assert!(s.len() < 100 && s.ends_with("…]"), "{s}");
    }
}
