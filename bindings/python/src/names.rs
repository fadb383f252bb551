//! A layout's dim names as Python strings with the bit fields they occupy, made once per layout (on its first
//! `apply`) and interned. `apply` walks the caller's dict once and recognises each key by identity (keys
//! written in Python source are interned, so they are the very same objects), packs the values into one
//! word, evaluates, and writes the results under the same string objects: no hashing, no allocation but the
//! result dict. This is what keeps `apply`, a dict in and a dict out, cheap.

use pyo3::prelude::*;
use pyo3::types::PyString;
use weft::layout::LinearLayout;

use crate::nibbles::NibbleTables;

/// One dim: its interned name, its first bit in the packed word and its number of bits.
pub struct DimField {
    /// The interned name.
    pub name: Py<PyString>,
    /// The dim's first bit in the packed input or output word.
    pub shift: u32,
    /// log2 of the dim's size.
    pub bits: u32,
}

/// The input and output dims of one layout, in order.
pub struct DimNames {
    /// Input dims.
    pub ins: Vec<DimField>,
    /// Output dims.
    pub outs: Vec<DimField>,
    /// The bit matrix as nibble tables, for evaluating one point.
    pub eval: NibbleTables,
}

/// `(name, size)` pairs as fields laid end to end, the first dim lowest.
fn fields<'a>(
    py: Python<'_>,
    dims: impl Iterator<Item = (&'a weft::layout::Dim, u64)>,
) -> Vec<DimField> {
    let mut shift = 0;
    dims.map(|(d, size)| {
        let bits = size.trailing_zeros();
        let f = DimField {
            name: PyString::intern(py, d.as_str()).unbind(),
            shift,
            bits,
        };
        shift += bits;
        f
    })
    .collect()
}

impl DimNames {
    /// The names and fields of `ll`'s dims.
    pub fn of(py: Python<'_>, ll: &LinearLayout) -> DimNames {
        DimNames {
            ins: fields(py, ll.in_dims()),
            outs: fields(py, ll.out_dims()),
            eval: NibbleTables::new(ll.columns()),
        }
    }
}
