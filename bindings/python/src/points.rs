//! Points as dicts, evaluated at little more than the cost of the dicts: the caller's dict is walked once
//! (`PyDict_Next`, borrowed references) and each key recognised by identity with the layout's interned dim
//! names ([`DimNames`]: keys written in Python source are the very same objects); values are read with
//! `PyLong_AsLongLong`, packed into one word and evaluated from nibble tables
//! ([`NibbleTables`](crate::nibbles::NibbleTables)). Anything unusual (an equal but distinct string key, a
//! key that is not an input dim, a value that is negative, too large or not an exact int) takes the general
//! path, which gives weft's typed error. The result dict of a single point is reused when the caller has
//! let go of the previous one ([`SpareDict`]).

use std::ptr;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use smallvec::SmallVec;
use weft::layout::{Dim, LinearLayout as Ll};

use crate::errors::OrPy;
use crate::names::{DimField, DimNames};
use crate::spare_dict::SpareDict;

/// `word`'s bits `shift .. shift + bits` (`shift + bits ≤ 64`).
#[inline]
fn field(word: u64, f: &DimField) -> u64 {
    match f.bits {
        0 => 0,
        64 => word,
        b => (word >> f.shift) & ((1u64 << b) - 1),
    }
}

/// The packed input word of `inputs` when every key is one of the layout's own interned names and every
/// value an in-range exact int; `None` sends the call down the general path.
fn pack_fast(ins: &[DimField], inputs: &Bound<'_, PyDict>) -> Option<u64> {
    let mut packed = 0u64;
    let mut pos: ffi::Py_ssize_t = 0;
    let mut key: *mut ffi::PyObject = ptr::null_mut();
    let mut value: *mut ffi::PyObject = ptr::null_mut();
    // SAFETY: `inputs` is a live dict the caller holds; `PyDict_Next` lends borrowed references that stay
    // valid while the dict is unchanged, and nothing here runs Python code (`PyLong_AsLongLong` of an
    // exact int calls no `__index__`).
    unsafe {
        let len = ffi::PyDict_Size(inputs.as_ptr());
        for entry in 0..len.max(0) as usize {
            if ffi::PyDict_Next(inputs.as_ptr(), &mut pos, &mut key, &mut value) == 0 {
                return None;
            }
            // Callers usually list the dims in the layout's order: try that position first.
            let f = match ins.get(entry) {
                Some(f) if f.name.as_ptr() == key => f,
                _ => ins.iter().find(|f| f.name.as_ptr() == key)?,
            };
            if ffi::PyLong_CheckExact(value) == 0 {
                return None;
            }
            let v = ffi::PyLong_AsLongLong(value);
            if v < 0 {
                // Negative, or -1 with an overflow error set: the general path reads it as a u64 or names it.
                ffi::PyErr_Clear();
                return None;
            }
            let v = v as u64;
            if f.bits < 64 && v >> f.bits != 0 {
                return None;
            }
            if f.bits > 0 {
                packed |= v << f.shift;
            }
        }
    }
    Some(packed)
}

/// The packed output of `inputs` through weft's checked `apply`: errors name the unknown dim or the value
/// out of range.
fn apply_general(ll: &Ll, names: &DimNames, inputs: &Bound<'_, PyDict>) -> PyResult<u64> {
    let mut named: SmallVec<[(Dim, u64); 8]> = SmallVec::new();
    for (k, v) in inputs.iter() {
        named.push((Dim::new(&k.cast::<PyString>()?.to_cow()?), v.extract()?));
    }
    let values = ll.apply(&named).py()?;
    let mut packed = 0u64;
    for (f, (_, v)) in names.outs.iter().zip(values) {
        if f.bits > 0 {
            packed |= v << f.shift;
        }
    }
    Ok(packed)
}

/// Sets `d[name] = value` for every output dim of the packed output `out`.
fn fill(d: &Bound<'_, PyDict>, outs: &[DimField], out: u64) -> PyResult<()> {
    for f in outs {
        // SAFETY: a new reference (or NULL with an error set), handed to `from_owned_ptr_or_err`.
        let v = unsafe {
            Bound::from_owned_ptr_or_err(d.py(), ffi::PyLong_FromUnsignedLongLong(field(out, f)))?
        };
        // SAFETY: `d` is a dict, the key an interned str and `v` a live int; neither reference is stolen.
        if unsafe { ffi::PyDict_SetItem(d.as_ptr(), f.name.as_ptr(), v.as_ptr()) } < 0 {
            return Err(PyErr::fetch(d.py()));
        }
    }
    Ok(())
}

/// `{in_dim: value}` → `{out_dim: value}` (dims not given are 0), as Triton's `LinearLayout.apply`.
pub fn apply<'py>(
    ll: &Ll,
    names: &DimNames,
    spare: &SpareDict,
    py: Python<'py>,
    inputs: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = match pack_fast(&names.ins, inputs) {
        Some(packed) => names.eval.apply(packed),
        None => apply_general(ll, names, inputs)?,
    };
    let n = names.outs.len();
    if let Some(d) = spare.take_unshared(py, n) {
        fill(&d, &names.outs, out)?;
        // Every out dim is a key and the size is unchanged: no key of anyone else's is left.
        if d.len() == n {
            spare.keep(&d);
            return Ok(d);
        }
    }
    let d = PyDict::new(py);
    fill(&d, &names.outs, out)?;
    spare.keep(&d);
    Ok(d)
}

/// `apply` of every dict of `inputs` (any iterable), as a list: one call for many points, each result a new
/// dict.
pub fn apply_many<'py>(
    ll: &Ll,
    names: &DimNames,
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for item in inputs.try_iter()? {
        let item = item?;
        let point = item.cast::<PyDict>()?;
        let packed = match pack_fast(&names.ins, point) {
            Some(packed) => names.eval.apply(packed),
            None => apply_general(ll, names, point)?,
        };
        let d = PyDict::new(py);
        fill(&d, &names.outs, packed)?;
        out.append(d)?;
    }
    Ok(out)
}
