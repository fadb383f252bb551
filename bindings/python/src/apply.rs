//! `LinearLayout.apply`, a dict in and a dict out, at little more than the cost of the dicts.
//!
//! The method is a `METH_O` C function (part of the stable ABI since CPython 3.2), installed on the class
//! at import: CPython calls it with the one argument directly, where PyO3's abi3-py39 methods are
//! `METH_VARARGS` (an argument tuple per call, then parsing). The point itself is evaluated by
//! [`points::apply`], which packs the dict into one word and reuses the previous result dict.

use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use pyo3::exceptions::PyRuntimeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::linear_layout::LinearLayout;
use crate::points;

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
        let this = this.get();
        points::apply(&this.ll, this.dim_names(py), &this.spare, py, &inputs).map(Bound::unbind)
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
