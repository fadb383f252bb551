//! `plan_conversion` and `bank_conflicts` on layout objects or linear layouts, answered as plain Python
//! dicts (the JSON of design.md that `weft convert --json` and `weft bank-conflicts --json` print).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pythonize::pythonize;
use weft::layout::convert::{self, Target};
use weft::layout::LinearLayout as Ll;

use crate::args::element_bits_of;
use crate::errors::{InvalidLayoutError, OrPy, SizeError};
use crate::layout_base::Layout;
use crate::linear_layout::LinearLayout;

/// The linear layout of an argument for `shape`: a `LinearLayout` as it is (its out sizes must equal
/// `shape` when one is given), or a layout object laid out on `shape` the way Triton's compiler does
/// (distributed: generic linear layouts keep their XOR bases; shared: Gluon's `to_linear_layout`).
fn layout_of(what: &str, obj: &Bound<'_, PyAny>, shape: Option<&[u64]>) -> PyResult<Ll> {
    let ll = if let Ok(l) = obj.cast::<LinearLayout>() {
        l.get().ll.clone()
    } else if let Ok(l) = obj.cast::<Layout>() {
        let Some(shape) = shape else {
            return Err(PyTypeError::new_err(format!(
                "{what}: a layout object needs a `shape`"
            )));
        };
        let enc = &l.get().enc;
        if enc.is_distributed() {
            enc.tensor_layout(shape)
        } else {
            enc.to_linear_layout(shape)
        }
        .py()?
    } else {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected a LinearLayout or a layout object, got {}",
            obj.get_type().name()?
        )));
    };
    if let Some(shape) = shape {
        let sizes: Vec<u64> = ll.out_dims().map(|(_, s)| s).collect();
        if sizes != shape {
            return Err(SizeError::new_err(format!(
                "{what}: the layout covers {sizes:?}, not shape {shape:?}"
            )));
        }
    }
    Ok(ll)
}

/// The plan of converting a tensor from distributed layout `src` to `dst`: a dict with `kind` (`"noop"`,
/// `"register_permute"`, `"warp_shuffle"`, `"shared_memory"`, `"cross_cta"`), `triton_kind`,
/// `scratch_bytes`, `shuffles`, `bank_conflicts`, the chosen instructions and swizzle, `cost` and the
/// `alternatives` weighed.
#[pyfunction]
#[pyo3(signature = (src, dst, shape = None, dtype = None, target = "sm_90"))]
pub fn plan_conversion<'py>(
    py: Python<'py>,
    src: &Bound<'py, PyAny>,
    dst: &Bound<'py, PyAny>,
    shape: Option<Vec<u64>>,
    dtype: Option<&Bound<'py, PyAny>>,
    target: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let bits = element_bits_of(dtype)?;
    let target =
        Target::parse(target).map_err(|e| InvalidLayoutError::new_err(format!("target: {e}")))?;
    let src = layout_of("src", src, shape.as_deref())?;
    let dst = layout_of("dst", dst, shape.as_deref())?;
    let plan = convert::plan_conversion(&src, &dst, bits, target).py()?;
    Ok(pythonize(py, &plan.summary())?)
}

/// Bank conflicts of storing distributed layout `reg` into shared layout `shared` (loading has the same
/// pattern): `{"bank_conflicts": Gluon's count (gl.bank_conflicts), "exact_bank_conflicts",
/// "vector", "lanes_per_phase", "wavefronts_per_phase"}`.
#[pyfunction]
#[pyo3(signature = (reg, shared, shape = None, dtype = None))]
pub fn bank_conflicts<'py>(
    py: Python<'py>,
    reg: &Bound<'py, PyAny>,
    shared: &Bound<'py, PyAny>,
    shape: Option<Vec<u64>>,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let bits = element_bits_of(dtype)?;
    let reg = layout_of("reg", reg, shape.as_deref())?;
    let shared = layout_of("shared", shared, shape.as_deref())?;
    let b = convert::bank_conflicts_detail(&reg, &shared, bits).py()?;
    let d = PyDict::new(py);
    d.set_item("bank_conflicts", b.gluon_conflicts)?;
    d.set_item("exact_bank_conflicts", b.conflicts)?;
    d.set_item("vector", b.vector)?;
    d.set_item("lanes_per_phase", b.lanes_per_phase)?;
    d.set_item("wavefronts_per_phase", b.wavefronts_per_phase)?;
    Ok(d)
}
