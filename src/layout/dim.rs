//! Names of layout dimensions.
//!
//! Dimension names are compared by their text. The names every GPU layout uses (`register`, `lane`, `warp`,
//! `block`, `offset`, `dim0`…`dim7`) are `&'static str` and never allocate; any other name a user picks is a
//! shared `Arc<str>`, so cloning a layout never copies strings.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// The name of an input or output dimension of a [`LinearLayout`](super::LinearLayout).
#[derive(Clone)]
pub struct Dim(Repr);

#[derive(Clone)]
enum Repr {
    Static(&'static str),
    Shared(Arc<str>),
}

const STANDARD_OUT: [&str; 8] = [
    "dim0", "dim1", "dim2", "dim3", "dim4", "dim5", "dim6", "dim7",
];
const PREDECLARED: [&str; 5] = ["register", "lane", "warp", "block", "offset"];

impl Dim {
    /// Registers of one thread (input dim of distributed layouts).
    pub const REGISTER: Dim = Dim(Repr::Static("register"));
    /// Lanes (threads) of one warp.
    pub const LANE: Dim = Dim(Repr::Static("lane"));
    /// Warps of one CTA.
    pub const WARP: Dim = Dim(Repr::Static("warp"));
    /// CTAs of one cluster (CGA).
    pub const BLOCK: Dim = Dim(Repr::Static("block"));
    /// Element offset in shared memory (input dim of shared layouts).
    pub const OFFSET: Dim = Dim(Repr::Static("offset"));

    /// A dimension called `name`.
    pub fn new(name: &str) -> Dim {
        if let Some(s) = PREDECLARED
            .iter()
            .chain(STANDARD_OUT.iter())
            .find(|s| **s == name)
        {
            return Dim(Repr::Static(s));
        }
        Dim(Repr::Shared(Arc::from(name)))
    }

    /// The standard tensor dimension `dim{i}` (Triton's `standardOutDimNames`).
    #[allow(clippy::self_named_constructors)] // `Dim::dim(0)` reads as Triton's `dim0`
    pub fn dim(i: usize) -> Dim {
        match STANDARD_OUT.get(i) {
            Some(s) => Dim(Repr::Static(s)),
            None => Dim(Repr::Shared(Arc::from(format!("dim{i}")))),
        }
    }

    /// `dim0`, …, `dim{rank-1}`.
    pub fn standard(rank: usize) -> Vec<Dim> {
        (0..rank).map(Dim::dim).collect()
    }

    /// The name as text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Static(s) => s,
            Repr::Shared(s) => s,
        }
    }
}

impl Deref for Dim {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Dim {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Dim {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Dim {
    fn from(s: &str) -> Dim {
        Dim::new(s)
    }
}

impl From<String> for Dim {
    fn from(s: String) -> Dim {
        Dim::new(&s)
    }
}

impl From<&String> for Dim {
    fn from(s: &String) -> Dim {
        Dim::new(s)
    }
}

impl From<&Dim> for Dim {
    fn from(d: &Dim) -> Dim {
        d.clone()
    }
}

impl PartialEq for Dim {
    /// Names are usually the same `&'static str` or `Arc`: equal pointers skip the text comparison.
    #[inline]
    fn eq(&self, other: &Dim) -> bool {
        let (a, b) = (self.as_str(), other.as_str());
        std::ptr::eq(a, b) || a == b
    }
}

impl Eq for Dim {}

impl PartialEq<str> for Dim {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Dim {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Hash for Dim {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl PartialOrd for Dim {
    fn partial_cmp(&self, other: &Dim) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Dim {
    fn cmp(&self, other: &Dim) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_compare_by_text() {
        assert_eq!(Dim::new("register"), Dim::REGISTER);
        assert_eq!(Dim::new("k"), Dim::from(String::from("k")));
        assert_ne!(Dim::LANE, Dim::WARP);
        assert_eq!(Dim::dim(3).as_str(), "dim3");
        assert_eq!(Dim::dim(12).as_str(), "dim12");
    }
}
