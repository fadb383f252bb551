//! The parameter values both text forms share (integers, booleans, lists, dicts, nested layouts), and
//! their conversion to encoding fields with errors that name the parameter.

use std::sync::Arc;

use crate::layout::encoding::{CgaLayout, Encoding};
use crate::layout::error::excerpt;
use crate::layout::{Bases, LayoutError, Result};

/// A parameter value of a layout constructor: what the TTGIR and Gluon parsers read, and what
/// [`gluon::build_encoding`](super::gluon::build_encoding) takes from a host language's arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// A non-negative integer.
    Int(u64),
    /// `true`/`True` or `false`/`False`.
    Bool(bool),
    /// Python's `None` (a parameter left at its default).
    None,
    /// A list (`[…]` or a tuple).
    List(Vec<Val>),
    /// A dictionary (TTGIR's `{warp = …}`).
    Dict(Vec<(String, Val)>),
    /// A nested layout (a `parent`).
    Enc(Arc<Encoding>),
}

fn bad(key: &str, what: &str) -> LayoutError {
    LayoutError::Invalid(format!("`{key}`: expected {what}"))
}

/// Named parameters of one layout, consumed one by one so unknown names can be reported.
pub(crate) struct Params {
    kind: String,
    items: Vec<(String, Val)>,
}

impl Params {
    pub(crate) fn new(kind: &str, items: Vec<(String, Val)>) -> Result<Params> {
        let mut seen = std::collections::HashSet::new();
        for (k, _) in &items {
            if !seen.insert(k.as_str()) {
                return Err(LayoutError::Invalid(format!(
                    "`{}`: given twice in {kind}",
                    excerpt(k)
                )));
            }
        }
        Ok(Params {
            kind: kind.into(),
            items,
        })
    }

    pub(crate) fn take(&mut self, key: &str) -> Option<Val> {
        let i = self.items.iter().position(|(k, _)| k == key)?;
        Some(self.items.remove(i).1)
    }

    pub(crate) fn req(&mut self, key: &str) -> Result<Val> {
        self.take(key)
            .ok_or_else(|| LayoutError::Invalid(format!("`{key}`: missing in {}", self.kind)))
    }

    /// Fails if any parameter was not consumed.
    pub(crate) fn finish(self) -> Result<()> {
        if let Some((k, _)) = self.items.first() {
            return Err(LayoutError::Invalid(format!(
                "`{}`: unknown parameter of {}",
                excerpt(k),
                self.kind
            )));
        }
        Ok(())
    }
}

pub(crate) fn int(key: &str, v: &Val) -> Result<u64> {
    match v {
        Val::Int(x) => Ok(*x),
        _ => Err(bad(key, "an integer")),
    }
}

pub(crate) fn u32_of(key: &str, v: &Val) -> Result<u32> {
    u32::try_from(int(key, v)?).map_err(|_| bad(key, "an integer below 2^32"))
}

pub(crate) fn boolean(key: &str, v: &Val) -> Result<bool> {
    match v {
        Val::Bool(b) => Ok(*b),
        _ => Err(bad(key, "true or false")),
    }
}

pub(crate) fn u64_list(key: &str, v: &Val) -> Result<Vec<u64>> {
    match v {
        Val::List(xs) => xs.iter().map(|x| int(key, x)).collect(),
        _ => Err(bad(key, "a list of integers")),
    }
}

pub(crate) fn u32_list(key: &str, v: &Val) -> Result<Vec<u32>> {
    match v {
        Val::List(xs) => xs.iter().map(|x| u32_of(key, x)).collect(),
        _ => Err(bad(key, "a list of integers")),
    }
}

pub(crate) fn bases(key: &str, v: &Val) -> Result<Bases> {
    match v {
        Val::List(xs) => xs.iter().map(|x| u64_list(key, x)).collect(),
        _ => Err(bad(key, "a list of bases (lists of integers)")),
    }
}

pub(crate) fn cga(key: &str, v: Option<Val>) -> Result<CgaLayout> {
    match v {
        None | Some(Val::None) => Ok(CgaLayout::single()),
        Some(v) => Ok(CgaLayout::new(bases(key, &v)?)),
    }
}

pub(crate) fn encoding(key: &str, v: Val) -> Result<Arc<Encoding>> {
    match v {
        Val::Enc(e) => Ok(e),
        _ => Err(bad(key, "a layout")),
    }
}

/// `[1, 2, 3]`.
pub(crate) fn fmt_list<T: std::fmt::Display>(xs: &[T]) -> String {
    let inner: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    format!("[{}]", inner.join(", "))
}

/// `[[0, 1], [1, 0]]`.
pub(crate) fn fmt_bases(b: &Bases) -> String {
    let inner: Vec<String> = b.iter().map(|x| fmt_list(x)).collect();
    format!("[{}]", inner.join(", "))
}
