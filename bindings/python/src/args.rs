//! Python values as the constructor arguments (`weft::layout::text::Val`) that Gluon's layout classes
//! take: ints, bools, `None`, lists or tuples, dicts and nested layouts; and element types. The way back
//! (`from_val`) makes layout objects, so it stands with the classes in `layouts.rs`.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use weft::layout::convert::element_bits;
use weft::layout::text::Val;

use crate::errors::{InvalidLayoutError, OrPy};
use crate::layout_base::Layout;

/// Nesting deeper than this is refused (a list that contains itself would otherwise recurse forever).
const MAX_DEPTH: usize = 32;

/// The constructor argument a Python value stands for; `key` names it in errors.
pub fn to_val(key: &str, obj: &Bound<'_, PyAny>) -> PyResult<Val> {
    to_val_at(key, obj, 0)
}

fn to_val_at(key: &str, obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Val> {
    if depth > MAX_DEPTH {
        return Err(InvalidLayoutError::new_err(format!(
            "`{key}`: nested more than {MAX_DEPTH} levels deep"
        )));
    }
    if obj.is_none() {
        return Ok(Val::None);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Val::Bool(b.is_true()));
    }
    if let Ok(l) = obj.cast::<Layout>() {
        return Ok(Val::Enc(Arc::new(l.get().enc.clone())));
    }
    if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        let items: PyResult<Vec<Val>> = obj
            .try_iter()?
            .map(|x| to_val_at(key, &x?, depth + 1))
            .collect();
        return items.map(Val::List);
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let items: PyResult<Vec<(String, Val)>> = d
            .iter()
            .map(|(k, v)| Ok((k.extract::<String>()?, to_val_at(key, &v, depth + 1)?)))
            .collect();
        return items.map(Val::Dict);
    }
    if obj.cast::<PyString>().is_err() {
        if let Ok(i) = obj.extract::<i128>() {
            return u64::try_from(i).map(Val::Int).map_err(|_| {
                InvalidLayoutError::new_err(format!(
                    "`{key}`: {i} is not a non-negative 64-bit integer"
                ))
            });
        }
    }
    Err(PyTypeError::new_err(format!(
        "`{key}`: expected an int, a bool, None, a list or a layout, got {}",
        obj.get_type().name()?
    )))
}

/// Bits per element of a `dtype` argument: a name (`"f16"`, `"bf16"`, `"i8"`, …), a number of bits, or a
/// Triton dtype (`gl.float16`: anything with `primitive_bitwidth`); 16 when absent.
pub fn element_bits_of(dtype: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
    let Some(dtype) = dtype else {
        return Ok(16);
    };
    if let Ok(s) = dtype.cast::<PyString>() {
        return element_bits(&s.to_cow()?).py();
    }
    if let Ok(bits) = dtype.getattr("primitive_bitwidth") {
        return bits.extract();
    }
    dtype.extract::<u32>()
}
