//! The result dict of `LinearLayout.apply`, kept to be refilled by the next call once its caller has
//! dropped it, as CPython's own `zip` and `enumerate` reuse their result tuples: no one else can observe it.

use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The result dict of the previous `apply`, kept to be refilled once its caller has dropped it.
#[derive(Default)]
pub struct SpareDict(AtomicPtr<ffi::PyObject>);

impl SpareDict {
    /// The kept dict if no one else holds it any more and it still has exactly `len` entries.
    pub(crate) fn take_unshared<'py>(
        &self,
        py: Python<'py>,
        len: usize,
    ) -> Option<Bound<'py, PyDict>> {
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
    pub(crate) fn keep(&self, d: &Bound<'_, PyDict>) {
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
