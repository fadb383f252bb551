//! CuTe interop (`weft.from_cute`, `weft.to_cute`): CuTe's `shape:stride` layouts, optionally under a
//! `Swizzle<B,M,S>`, as linear layouts `dim0, dim1, … → offset` and back (`weft::layout::cute`), with shapes
//! and strides as Python ints and nested tuples, as PyCuTe writes them.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyString, PyTuple};
use weft::layout::cute::{self, CuteError, IntTuple, Swizzle, SwizzledLayout};

use crate::errors::{to_py, InvalidLayoutError, ParseError, SizeError};
use crate::linear_layout::LinearLayout;

/// Nesting deeper than this is refused (a list that contains itself would otherwise recurse forever).
const MAX_DEPTH: usize = 32;

/// The Python exception of a CuTe error: malformed text, sizes, or a layout that is not linear.
fn cute_err(e: CuteError) -> PyErr {
    let m = e.to_string();
    match e {
        CuteError::Layout(l) => to_py(l),
        CuteError::Parse { .. } => ParseError::new_err(m),
        CuteError::NotPowerOfTwo { .. } | CuteError::TooManyBits { .. } => SizeError::new_err(m),
        _ => InvalidLayoutError::new_err(m),
    }
}

/// A CuTe integer tuple from a Python int or a (nested) tuple or list of them; `key` names it in errors.
fn int_tuple(key: &str, obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<IntTuple> {
    if depth > MAX_DEPTH {
        return Err(InvalidLayoutError::new_err(format!(
            "`{key}`: nested more than {MAX_DEPTH} levels deep"
        )));
    }
    if obj.cast::<PyTuple>().is_ok() || obj.cast::<PyList>().is_ok() {
        let items: PyResult<Vec<IntTuple>> = obj
            .try_iter()?
            .map(|x| int_tuple(key, &x?, depth + 1))
            .collect();
        return items.map(IntTuple::Tuple);
    }
    if obj.cast::<PyBool>().is_err() && obj.cast::<PyString>().is_err() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(IntTuple::Int(i));
        }
    }
    Err(PyTypeError::new_err(format!(
        "`{key}`: expected an int or a tuple of ints (a 64-bit integer), got {}",
        obj.get_type().name()?
    )))
}

/// An integer tuple as Python ints and tuples.
fn py_tuple<'py>(py: Python<'py>, t: &IntTuple) -> PyResult<Bound<'py, PyAny>> {
    Ok(match t {
        IntTuple::Int(i) => i.into_pyobject(py)?.into_any(),
        IntTuple::Tuple(xs) => {
            let items: PyResult<Vec<Bound<'py, PyAny>>> =
                xs.iter().map(|x| py_tuple(py, x)).collect();
            PyTuple::new(py, items?)?.into_any()
        }
    })
}

/// A swizzle argument: `(B, M, S)`, or an object with `bits`, `base` and `shift` (PyCuTe's `Swizzle`).
fn swizzle_of(obj: &Bound<'_, PyAny>) -> PyResult<Swizzle> {
    let (bits, base, shift): (i64, i64, i64) = match obj.extract() {
        Ok(t) => t,
        Err(_) => (
            obj.getattr("bits")?.extract()?,
            obj.getattr("base")?.extract()?,
            obj.getattr("shift")?.extract()?,
        ),
    };
    Swizzle::new(bits, base, shift).map_err(cute_err)
}

/// The linear layout of a CuTe layout: `from_cute(shape, stride, swizzle=None)` with ints and nested tuples
/// (`from_cute((8, 64), (64, 1), (3, 3, 3))`), or CuTe's text (`from_cute("Sw<3,3,3> o (8,64):(64,1)")`).
/// Input dims `dim0`, `dim1`, … are the top-level modes (each in CuTe's colexicographic order), the output
/// dim is `offset`. A layout that is not linear over GF(2) (a non-power-of-two extent, strides whose sum
/// carries, a negative stride) is a `LayoutError` naming the obstacle.
#[pyfunction]
#[pyo3(signature = (shape, stride = None, swizzle = None))]
pub fn from_cute(
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
    swizzle: Option<&Bound<'_, PyAny>>,
) -> PyResult<LinearLayout> {
    if let Ok(text) = shape.cast::<PyString>() {
        if stride.is_some() || swizzle.is_some() {
            return Err(PyTypeError::new_err(
                "from_cute: CuTe text carries its own stride and swizzle; pass them only with a shape tuple",
            ));
        }
        let l: SwizzledLayout = text.to_cow()?.parse().map_err(cute_err)?;
        return l.to_linear_layout().map(Into::into).map_err(cute_err);
    }
    let Some(stride) = stride else {
        return Err(PyTypeError::new_err(
            "from_cute: give a shape and a stride, or CuTe text such as \"(8,64):(64,1)\"",
        ));
    };
    let shape = int_tuple("shape", shape, 0)?;
    let stride = int_tuple("stride", stride, 0)?;
    let swizzle = swizzle.map(swizzle_of).transpose()?;
    cute::from_cute(&shape, &stride, swizzle.as_ref())
        .map(Into::into)
        .map_err(cute_err)
}

/// `(shape, stride, swizzle)` as Python values.
type CuteForm<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Option<(u32, u32, i32)>,
);

/// The CuTe form of a linear layout, `(shape, stride, swizzle)`: one top-level mode per input dim, the
/// output dims flattened into one offset (the first least significant); `swizzle` is `(B, M, S)` when the
/// bases overlap and one swizzle separates them, else `None`. `from_cute(*to_cute(ll)) == ll` for a layout
/// with one output dim `offset` and input dims `dim0`, `dim1`, …. Bases that no swizzle separates are a
/// `LayoutError`.
#[pyfunction]
pub fn to_cute<'py>(py: Python<'py>, layout: PyRef<'_, LinearLayout>) -> PyResult<CuteForm<'py>> {
    let c = cute::to_cute(&layout.ll).map_err(cute_err)?;
    Ok((
        py_tuple(py, &c.layout.shape)?,
        py_tuple(py, &c.layout.stride)?,
        c.swizzle.map(|s| (s.bits(), s.base(), s.shift())),
    ))
}

/// A layout argument of CuTe's algebra: a `LinearLayout`, or CuTe's text (`"(8,64):(64,1)"`).
fn cute_layout(key: &str, obj: &Bound<'_, PyAny>) -> PyResult<weft::layout::LinearLayout> {
    if let Ok(l) = obj.cast::<LinearLayout>() {
        return Ok(l.get().ll.clone());
    }
    if let Ok(text) = obj.cast::<PyString>() {
        let l: SwizzledLayout = text.to_cow()?.parse().map_err(cute_err)?;
        return l.to_linear_layout().map_err(cute_err);
    }
    Err(PyTypeError::new_err(format!(
        "`{key}`: expected a LinearLayout or CuTe text such as \"(8,64):(64,1)\", got {}",
        obj.get_type().name()?
    )))
}

/// CuTe's `composition(a, b)`, `a ∘ b` (`weft.cute.composition`): `b` maps its coordinates into `a`'s
/// flattened domain; the result keeps `b`'s input dims and `a`'s output dims.
#[pyfunction]
pub fn cute_composition(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<LinearLayout> {
    cute::composition(&cute_layout("a", a)?, &cute_layout("b", b)?)
        .map(Into::into)
        .map_err(cute_err)
}

/// CuTe's `complement(layout, size)` (`weft.cute.complement`): the offsets below `size` that `layout`
/// leaves out, as a layout with input dim `dim0`, smallest first.
#[pyfunction]
pub fn cute_complement(layout: &Bound<'_, PyAny>, size: u64) -> PyResult<LinearLayout> {
    cute::complement(&cute_layout("layout", layout)?, size)
        .map(Into::into)
        .map_err(cute_err)
}

/// CuTe's `logical_divide(a, b)` (`weft.cute.logical_divide`): `a ∘ (b, complement(b, size(a)))`, input
/// dims `dim0` (the tile) and `dim1` (the rest).
#[pyfunction]
pub fn cute_logical_divide(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<LinearLayout> {
    cute::logical_divide(&cute_layout("a", a)?, &cute_layout("b", b)?)
        .map(Into::into)
        .map_err(cute_err)
}

/// CuTe's `logical_product(a, b)` (`weft.cute.logical_product`): `a` repeated by `b` over the offsets `a`
/// leaves free, input dims `dim0` (`a`'s domain) and `dim1` (`b`'s).
#[pyfunction]
pub fn cute_logical_product(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<LinearLayout> {
    cute::logical_product(&cute_layout("a", a)?, &cute_layout("b", b)?)
        .map(Into::into)
        .map_err(cute_err)
}
