//! Names of layout dimensions.
//!
//! A [`Dim`] is an interned name: a 4-byte id that is `Copy`, compares by one integer comparison and makes
//! [`LinearLayout`](super::LinearLayout) plain data (cloning a layout is a copy, dropping it frees nothing).
//! The names every GPU layout uses (`register`, `lane`, `warp`, `block`, `offset`, `dim0`…`dim7`) have fixed
//! ids and never touch the table. Any other name is entered once into a process-wide table the first time it
//! is seen and kept for the life of the process (names are few: dims of layouts, not data).

#![forbid(unsafe_code)]

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::{OnceLock, RwLock};

/// The name of an input or output dimension of a [`LinearLayout`](super::LinearLayout).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Dim(u32);

/// Names with fixed ids, in id order.
const FIXED: [&str; 13] = [
    "register", "lane", "warp", "block", "offset", "dim0", "dim1", "dim2", "dim3", "dim4", "dim5",
    "dim6", "dim7",
];
/// Id of `dim0`; `dim{i}` for `i < 8` is `FIRST_STANDARD + i`.
const FIRST_STANDARD: u32 = 5;

/// Every other name seen by this process: `names[i]` has id `FIXED.len() + i`.
#[derive(Default)]
struct Table {
    names: Vec<&'static str>,
    ids: HashMap<&'static str, u32>,
}

fn table() -> &'static RwLock<Table> {
    static TABLE: OnceLock<RwLock<Table>> = OnceLock::new();
    TABLE.get_or_init(Default::default)
}

impl Dim {
    /// Registers of one thread (input dim of distributed layouts).
    pub const REGISTER: Dim = Dim(0);
    /// Lanes (threads) of one warp.
    pub const LANE: Dim = Dim(1);
    /// Warps of one CTA.
    pub const WARP: Dim = Dim(2);
    /// CTAs of one cluster (CGA).
    pub const BLOCK: Dim = Dim(3);
    /// Element offset in shared memory (input dim of shared layouts).
    pub const OFFSET: Dim = Dim(4);

    /// The dimension called `name` (the same `Dim` for the same text, in the whole process).
    pub fn new(name: &str) -> Dim {
        if let Some(i) = FIXED.iter().position(|s| *s == name) {
            return Dim(i as u32);
        }
        // A poisoned lock only means another thread panicked while holding it; the table is append-only and
        // always consistent, so keep using it.
        if let Some(&id) = table()
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .ids
            .get(name)
        {
            return Dim(id);
        }
        let mut t = table().write().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = t.ids.get(name) {
            return Dim(id);
        }
        let text: &'static str = Box::leak(name.into());
        let id = (FIXED.len() + t.names.len()) as u32;
        t.names.push(text);
        t.ids.insert(text, id);
        Dim(id)
    }

    /// The standard tensor dimension `dim{i}` (Triton's `standardOutDimNames`).
    #[allow(clippy::self_named_constructors)] // `Dim::dim(0)` reads as Triton's `dim0`
    pub fn dim(i: usize) -> Dim {
        if i < 8 {
            Dim(FIRST_STANDARD + i as u32)
        } else {
            Dim::new(&format!("dim{i}"))
        }
    }

    /// `dim0`, …, `dim{rank-1}`.
    pub fn standard(rank: usize) -> Vec<Dim> {
        (0..rank).map(Dim::dim).collect()
    }

    /// The name as text.
    #[inline]
    pub fn as_str(&self) -> &'static str {
        match FIXED.get(self.0 as usize) {
            Some(s) => s,
            None => {
                let t = table().read().unwrap_or_else(|e| e.into_inner());
                // Ids are only made by `new`, which enters the name first.
                t.names
                    .get(self.0 as usize - FIXED.len())
                    .copied()
                    .unwrap_or("")
            }
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
        *d
    }
}

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
    /// By text, as `str` hashes: `Dim` borrows as `str` in maps.
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
    /// By text, so sorted names read alphabetically.
    fn cmp(&self, other: &Dim) -> Ordering {
        if self.0 == other.0 {
            return Ordering::Equal;
        }
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
        assert_eq!(Dim::dim(12), Dim::new("dim12"));
        assert_eq!(Dim::dim(2), Dim::new("dim2"));
        assert_eq!(Dim::new("").as_str(), "");
    }

    #[test]
    fn interning_is_shared_across_threads() {
        let names: Vec<String> = (0..64).map(|i| format!("interned_{i}")).collect();
        let ids: Vec<Vec<Dim>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| s.spawn(|| names.iter().map(|n| Dim::new(n)).collect::<Vec<_>>()))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for other in &ids[1..] {
            assert_eq!(other, &ids[0]);
        }
        for (d, n) in ids[0].iter().zip(&names) {
            assert_eq!(d.as_str(), n);
        }
    }

    #[test]
    fn ordering_and_hash_follow_text() {
        use std::collections::hash_map::DefaultHasher;
        let (a, b) = (Dim::new("zz_last"), Dim::new("aa_first"));
        assert!(b < a && Dim::REGISTER > Dim::LANE);
        let h = |x: &dyn Fn(&mut DefaultHasher)| {
            let mut s = DefaultHasher::new();
            x(&mut s);
            s.finish()
        };
        assert_eq!(h(&|s| a.hash(s)), h(&|s| "zz_last".hash(s)));
    }
}
