//! `LinearLayout.apply`, a dict in and a dict out, at little more than the cost of the dicts.
//!
//! - The method is a `METH_O` C function (part of the stable ABI since CPython 3.2), installed on the class
//!   at import: CPython calls it with the one argument directly, where PyO3's abi3-py39 methods are
//!   `METH_VARARGS` (an argument tuple per call, then parsing).
//! - The caller's dict is walked once (`PyDict_Next`, borrowed references) and each key recognised by
//!   identity with the layout's interned dim names ([`DimNames`](crate::names::DimNames): keys written in
//!   Python source are the very same objects); values are read with `PyLong_AsLongLong`, packed into one
//!   word and evaluated from nibble tables ([`NibbleTables`](crate::nibbles::NibbleTables)). Anything
//!   unusual (an equal but distinct string key, a key that is not an input dim, a value that is negative,
//!   too large or not an exact int) takes the general path, which gives weft's typed error.
//! - The result dict is reused when the caller has let go of the previous one ([`SpareDict`]), as CPython's
//!   own `zip` and `enumerate` reuse their result tuples: no one else can observe it.

use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

use pyo3::exceptions::PyRuntimeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use smallvec::SmallVec;
use weft::layout::Dim;

use crate::errors::OrPy;
use crate::linear_layout::LinearLayout;
use crate::names::DimField;

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
fn apply_general(this: &LinearLayout, inputs: &Bound<'_, PyDict>) -> PyResult<u64> {
    let mut named: SmallVec<[(Dim, u64); 8]> = SmallVec::new();
    for (k, v) in inputs.iter() {
        named.push((Dim::new(&k.cast::<PyString>()?.to_cow()?), v.extract()?));
    }
    let values = this.ll.apply(&named).py()?;
    let names = this.dim_names(inputs.py());
    let mut packed = 0u64;
    for (f, (_, v)) in names.outs.iter().zip(values) {
        if f.bits > 0 {
            packed |= v << f.shift;
        }
    }
    Ok(packed)
}

/// The result dict of the previous `apply`, kept to be refilled once its caller has dropped it.
#[derive(Default)]
pub struct SpareDict(AtomicPtr<ffi::PyObject>);

impl SpareDict {
    /// The kept dict if no one else holds it any more and it still has exactly `len` entries.
    fn take_unshared<'py>(&self, py: Python<'py>, len: usize) -> Option<Bound<'py, PyDict>> {
        // A load and a store, not a locked swap (which costs more than the rest of the bookkeeping): every
        // access holds the GIL (an abi3 module never runs on a free-threaded interpreter) and no Python code
        // runs between the two.
        let p = self.0.load(Ordering::Relaxed);
        self.0.store(ptr::null_mut(), Ordering::Relaxed);
        if p.is_null() {
            return None;
        }
        // SAFETY: `p` is the strong reference `keep` stored; it is ours again after the swap.
        let d = unsafe { Bound::from_owned_ptr(py, p).cast_into_unchecked::<PyDict>() };
        // SAFETY: `d` is a live object.
        let unshared = unsafe { ffi::Py_REFCNT(d.as_ptr()) } == 1;
        (unshared && d.len() == len).then_some(d)
    }

    /// Keeps a strong reference to `d` for a later call.
    fn keep(&self, d: &Bound<'_, PyDict>) {
        let old = self.0.load(Ordering::Relaxed);
        self.0.store(d.clone().into_ptr(), Ordering::Relaxed);
        if !old.is_null() {
            // SAFETY: `old` was a strong reference this struct owned.
            drop(unsafe { Bound::from_owned_ptr(d.py(), old) });
        }
    }
}

impl Drop for SpareDict {
    fn drop(&mut self) {
        let p = *self.0.get_mut();
        if !p.is_null() {
            // SAFETY: a strong reference this struct owned. Only `apply` on a layout that Python owns stores
            // one, and such a layout is dropped by CPython's deallocation, with the thread attached.
            drop(unsafe { Bound::from_owned_ptr(Python::assume_attached(), p) });
        }
    }
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
    this: &LinearLayout,
    py: Python<'py>,
    inputs: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyDict>> {
    let names = this.dim_names(py);
    let out = match pack_fast(&names.ins, inputs) {
        Some(packed) => names.eval.apply(packed),
        None => apply_general(this, inputs)?,
    };
    let n = names.outs.len();
    if let Some(d) = this.spare.take_unshared(py, n) {
        fill(&d, &names.outs, out)?;
        // Every out dim is a key and the size is unchanged: no key of anyone else's is left.
        if d.len() == n {
            this.spare.keep(&d);
            return Ok(d);
        }
    }
    let d = PyDict::new(py);
    fill(&d, &names.outs, out)?;
    this.spare.keep(&d);
    Ok(d)
}

/// `apply` of every dict of `inputs` (any iterable), as a list: one call for many points, each result a new
/// dict.
pub fn apply_many<'py>(
    this: &LinearLayout,
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let names = this.dim_names(py);
    let out = PyList::empty(py);
    for item in inputs.try_iter()? {
        let item = item?;
        let point = item.cast::<PyDict>()?;
        let packed = match pack_fast(&names.ins, point) {
            Some(packed) => names.eval.apply(packed),
            None => apply_general(this, point)?,
        };
        let d = PyDict::new(py);
        fill(&d, &names.outs, packed)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The `METH_O` entry point: `self` and the one argument.
unsafe extern "C" fn apply_meth_o(
    slf: *mut ffi::PyObject,
    arg: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls a method with the thread attached, `slf` a live `LinearLayout` (the method
    // descriptor checks the type) and `arg` a live borrowed reference.
    let py = unsafe { Python::assume_attached() };
    let result = catch_unwind(AssertUnwindSafe(|| -> PyResult<Py<PyDict>> {
        // SAFETY: the method descriptor has checked that `slf` is a `LinearLayout`; both are borrowed
        // references that live for the call.
        let this = unsafe { Borrowed::from_ptr(py, slf).cast_unchecked::<LinearLayout>() };
        let arg = unsafe { Borrowed::from_ptr(py, arg) };
        let inputs = arg.cast::<PyDict>()?;
        apply(this.get(), py, &inputs).map(Bound::unbind)
    }));
    let err = match result {
        Ok(Ok(d)) => return d.into_ptr(),
        Ok(Err(e)) => e,
        Err(_) => PyRuntimeError::new_err("weft: internal error in LinearLayout.apply"),
    };
    err.restore(py);
    ptr::null_mut()
}

/// Adds `apply` to the `LinearLayout` class.
pub fn install(m: &Bound<'_, PyModule>) -> PyResult<()> {
    const NAME: &CStr = c"apply";
    const DOC: &CStr = c"apply(self, inputs, /)\n--\n\n{in_dim: value} -> {out_dim: value} (dims not given are 0), as Triton's LinearLayout.apply.";
    let py = m.py();
    // The method table must outlive the class: one per module initialisation, never freed.
    let def: &'static mut ffi::PyMethodDef = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: NAME.as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            PyCFunction: apply_meth_o,
        },
        ml_flags: ffi::METH_O,
        ml_doc: DOC.as_ptr(),
    }));
    let ty = py.get_type::<LinearLayout>();
    // SAFETY: returns a new reference or NULL with an error set.
    let descr = unsafe {
        Bound::from_owned_ptr_or_err(py, ffi::PyDescr_NewMethod(ty.as_ptr().cast(), def))?
    };
    ty.setattr("apply", descr)
}
