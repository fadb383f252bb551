//! Dim names as Python strings, made once: the standard names (`register`, `lane`, `warp`, `block`,
//! `offset`, `dim0`…`dim7`) are interned Python strings, so a key written in Python source (interned by the
//! compiler) is recognised by identity without decoding it, and results reuse the same objects. This is
//! what keeps `apply` (a dict in, a dict out) cheap.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use weft::layout::Dim;

fn standard(py: Python<'_>) -> &'static [(Dim, Py<PyString>)] {
    static NAMES: PyOnceLock<Vec<(Dim, Py<PyString>)>> = PyOnceLock::new();
    NAMES.get_or_init(py, || {
        [Dim::REGISTER, Dim::LANE, Dim::WARP, Dim::BLOCK, Dim::OFFSET]
            .into_iter()
            .chain((0..8).map(Dim::dim))
            .map(|d| (d, PyString::intern(py, d.as_str()).unbind()))
            .collect()
    })
}

/// The dim a Python string names.
pub fn dim_of(key: &Bound<'_, PyAny>) -> PyResult<Dim> {
    let py = key.py();
    if let Some((d, _)) = standard(py).iter().find(|(_, s)| s.is(key)) {
        return Ok(*d);
    }
    let s = key.cast::<PyString>()?;
    Ok(Dim::new(&s.to_cow()?))
}

/// The Python string of a dim.
pub fn name_of<'py>(py: Python<'py>, dim: Dim) -> Bound<'py, PyString> {
    match standard(py).iter().find(|(d, _)| *d == dim) {
        Some((_, s)) => s.bind(py).clone(),
        None => PyString::new(py, dim.as_str()),
    }
}
