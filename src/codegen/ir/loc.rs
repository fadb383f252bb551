//! Source locations: the user's line each op was called from.
//!
//! Every public builder method is `#[track_caller]`, so the location recorded with an op is the
//! line in the user's code (inside a `for_range` body, the line in the closure), never a line of
//! weft. Errors of the verifier and the interpreter name it.

use std::fmt;
use std::panic::Location;

/// A `file:line:column` in the caller's source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Loc {
    /// The source file, as the compiler names it.
    pub file: &'static str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl Loc {
    /// The location of the caller of the `#[track_caller]` function this is called in.
    #[track_caller]
    pub fn caller() -> Loc {
        Loc::from(Location::caller())
    }
}

impl From<&'static Location<'static>> for Loc {
    fn from(l: &'static Location<'static>) -> Loc {
        Loc {
            file: l.file(),
            line: l.line(),
            column: l.column(),
        }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}
