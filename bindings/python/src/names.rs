//! A layout's dim names as Python strings, made once per layout (on its first `apply`) and interned, so
//! that `apply` finds each input with one dict lookup of a string whose hash Python has cached (keys written
//! in Python source are interned too), and writes results under the same objects. This is what keeps
//! `apply`, a dict in and a dict out, cheap.

use pyo3::prelude::*;
use pyo3::types::PyString;
use weft::layout::LinearLayout;

/// The input and output dim names of one layout, in order.
pub struct DimNames {
    /// Input dims.
    pub ins: Vec<Py<PyString>>,
    /// Output dims.
    pub outs: Vec<Py<PyString>>,
}

impl DimNames {
    /// The names of `ll`'s dims.
    pub fn of(py: Python<'_>, ll: &LinearLayout) -> DimNames {
        let intern = |d: &weft::layout::Dim| PyString::intern(py, d.as_str()).unbind();
        DimNames {
            ins: ll.in_dim_names().map(intern).collect(),
            outs: ll.out_dim_names().map(intern).collect(),
        }
    }
}
