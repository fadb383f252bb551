//! `weft.LinearLayout`: weft's `LinearLayout` under the names and argument orders of Triton's own Python
//! binding (`triton._C.libtriton.linear_layout.LinearLayout`), plus the rest of the algebra.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use weft::layout::{Bases, Dim, LinearLayout as Ll};

use crate::drawing;
use crate::errors::OrPy;
use crate::names::DimNames;
use crate::points;
use crate::spare_dict::SpareDict;

/// A linear layout over GF(2): named input dims (`register`, `lane`, `warp`, `block`, `offset`, …) to named
/// output dims (`dim0`, …), each input bit mapped to a basis vector and any input to the XOR of its bits'
/// bases. Immutable; every operation returns a new layout.
#[pyclass(name = "LinearLayout", module = "weft", frozen, eq, hash)]
pub struct LinearLayout {
    pub(crate) ll: Ll,
    /// The dim names as Python strings, made by the first `apply`.
    names: OnceLock<DimNames>,
    /// `apply`'s previous result, refilled when its caller has let go of it.
    pub(crate) spare: SpareDict,
}

impl From<Ll> for LinearLayout {
    fn from(ll: Ll) -> Self {
        LinearLayout {
            ll,
            names: OnceLock::new(),
            spare: SpareDict::default(),
        }
    }
}

impl LinearLayout {
    /// The dim names as Python strings with their bit fields, made on first use.
    pub(crate) fn dim_names(&self, py: Python<'_>) -> &DimNames {
        // A plain `OnceLock`: it is filled while attached to the interpreter, which the filling never
        // detaches from.
        self.names.get_or_init(|| DimNames::of(py, &self.ll))
    }
}

impl PartialEq for LinearLayout {
    fn eq(&self, other: &Self) -> bool {
        self.ll == other.ll
    }
}

impl Eq for LinearLayout {}

impl Hash for LinearLayout {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.ll.hash(state);
    }
}

/// `[(name, size), …]` of a Python argument: a dict or a sequence of pairs.
fn dim_sizes(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(String, u64)>> {
    if let Ok(d) = obj.cast::<PyDict>() {
        return d
            .iter()
            .map(|(k, v)| Ok((k.extract()?, v.extract()?)))
            .collect();
    }
    obj.extract()
}

fn names(ll: impl Iterator<Item = Dim>) -> Vec<&'static str> {
    ll.map(|d| d.as_str()).collect()
}

fn bases_list(ll: &Ll) -> Vec<(&'static str, Bases)> {
    ll.all_bases()
        .into_iter()
        .map(|(d, b)| (d.as_str(), b))
        .collect()
}

#[pymethods]
impl LinearLayout {
    /// The empty layout (no dims), as Triton's `LinearLayout()`.
    #[new]
    fn new() -> Self {
        Ll::empty().into()
    }

    /// The empty layout.
    #[staticmethod]
    fn empty() -> Self {
        Ll::empty().into()
    }

    /// `in_dim` of `size` mapped one to one onto `out_dim` of the same size.
    #[staticmethod]
    #[pyo3(signature = (size, inDim, outDim))]
    #[allow(non_snake_case)]
    fn identity_1d(size: u64, inDim: &str, outDim: &str) -> PyResult<Self> {
        Ll::identity_1d(size, inDim, outDim).py().map(Into::into)
    }

    /// `in_dim` of `size` mapped onto `out_dim` with a power-of-two stride.
    #[staticmethod]
    #[pyo3(signature = (size, stride, inDim, outDim))]
    #[allow(non_snake_case)]
    fn strided_1d(size: u64, stride: u64, inDim: &str, outDim: &str) -> PyResult<Self> {
        Ll::strided_1d(size, stride, inDim, outDim)
            .py()
            .map(Into::into)
    }

    /// `in_dim` of `size` mapped to 0 of `out_dim` (of `outDimSize`): every input holds the same element.
    #[staticmethod]
    #[pyo3(signature = (size, inDim, outDim, outDimSize = 1))]
    #[allow(non_snake_case)]
    fn zeros_1d(size: u64, inDim: &str, outDim: &str, outDimSize: u64) -> PyResult<Self> {
        Ll::zeros_1d(size, inDim, outDim, outDimSize)
            .py()
            .map(Into::into)
    }

    /// A layout from its bases, `[(in_dim, [[coord per out dim] per input bit]), …]`, with out-dim sizes
    /// given or inferred (the smallest power of two above the largest coordinate), as Triton's `from_bases`.
    #[staticmethod]
    #[pyo3(signature = (bases, out_dim_names, out_dim_sizes = None, require_surjective = true))]
    fn from_bases(
        bases: Vec<(String, Bases)>,
        out_dim_names: Vec<String>,
        out_dim_sizes: Option<Vec<u64>>,
        require_surjective: bool,
    ) -> PyResult<Self> {
        let bases = bases.iter().map(|(d, b)| (d.as_str(), b.clone()));
        let ll = match out_dim_sizes {
            None => Ll::from_bases_inferred_with(
                bases,
                out_dim_names.iter().map(String::as_str),
                require_surjective,
            ),
            Some(sizes) => {
                if sizes.len() != out_dim_names.len() {
                    return Err(crate::errors::SizeError::new_err(format!(
                        "{} out dim names but {} sizes",
                        out_dim_names.len(),
                        sizes.len()
                    )));
                }
                let outs = out_dim_names.iter().map(String::as_str).zip(sizes);
                Ll::from_bases(bases, outs, require_surjective)
            }
        };
        ll.py().map(Into::into)
    }

    /// Parses Triton's bases dump (what `str()` prints).
    #[staticmethod]
    fn from_str(text: &str) -> PyResult<Self> {
        Ll::from_bases_string(text).py().map(Into::into)
    }

    /// Parses the JSON form `{"in_dims": [[name, bases], …], "out_dims": [[name, size], …]}`.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        Ll::from_json(text).py().map(Into::into)
    }

    /// The JSON form of the layout (the one `from_json` reads).
    fn to_json(&self) -> String {
        self.ll.to_json()
    }

    /// `[(in_dim, bases), …]`: for each input dim, the output coordinates of each of its bits.
    #[getter]
    fn bases(&self) -> Vec<(&'static str, Bases)> {
        bases_list(&self.ll)
    }

    /// The bases of one input dim: the output coordinates of each of its bits.
    fn get_in_dim_bases(&self, in_dim: &str) -> PyResult<Bases> {
        self.ll.bases(in_dim).py()
    }

    /// `[(out_dim, size), …]`.
    #[getter]
    fn out_dims(&self) -> Vec<(&'static str, u64)> {
        self.ll.out_dims().map(|(d, s)| (d.as_str(), s)).collect()
    }

    /// `[(in_dim, size), …]`.
    #[getter]
    fn in_dims(&self) -> Vec<(&'static str, u64)> {
        self.ll.in_dims().map(|(d, s)| (d.as_str(), s)).collect()
    }

    /// The number of input dims.
    #[getter]
    fn num_in_dims(&self) -> usize {
        self.ll.num_in_dims()
    }

    /// The number of output dims.
    #[getter]
    fn num_out_dims(&self) -> usize {
        self.ll.num_out_dims()
    }

    /// Input dim names in order.
    fn get_in_dim_names(&self) -> Vec<&'static str> {
        names(self.ll.in_dim_names().copied())
    }

    /// Output dim names in order.
    fn get_out_dim_names(&self) -> Vec<&'static str> {
        names(self.ll.out_dim_names().copied())
    }

    /// The size of an input dim.
    fn get_in_dim_size(&self, name: &str) -> PyResult<u64> {
        self.ll.in_dim_size(name).py()
    }

    /// The size of an output dim.
    fn get_out_dim_size(&self, name: &str) -> PyResult<u64> {
        self.ll.out_dim_size(name).py()
    }

    /// The product of the input dims' sizes.
    fn get_total_in_dim_size(&self) -> u64 {
        self.ll.total_in_size()
    }

    /// The product of the output dims' sizes.
    fn get_total_out_dim_size(&self) -> u64 {
        self.ll.total_out_size()
    }

    /// The layout's bit matrix: row `i` is output bit `i`, column `j` input bit `j` (dims in order, the
    /// first dim's low bit first), as Triton's `get_matrix_view`.
    fn get_matrix_view(&self) -> Vec<Vec<u8>> {
        let cols = self.ll.columns();
        (0..self.ll.total_out_bits())
            .map(|i| cols.iter().map(|c| ((c >> i) & 1) as u8).collect())
            .collect()
    }

    /// `apply` of each `{in_dim: value}` dict of `inputs` (a list or any iterable), as a list of
    /// `{out_dim: value}` dicts: many points in one call, without numpy.
    fn apply_many<'py>(
        &self,
        py: Python<'py>,
        inputs: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        points::apply_many(&self.ll, self.dim_names(py), py, inputs)
    }

    /// `other ∘ self` (apply `self`, then `other`): Triton's `compose`.
    fn compose(&self, other: &LinearLayout) -> PyResult<Self> {
        self.ll.compose(&other.ll).py().map(Into::into)
    }

    /// `other⁻¹ ∘ self`: the `C` with `self(x) = other(C(x))` (Triton's choice when `other` has copies).
    fn invert_and_compose(&self, other: &LinearLayout) -> PyResult<Self> {
        self.ll.invert_and_compose(&other.ll).py().map(Into::into)
    }

    /// The inverse of an invertible layout.
    fn invert(&self) -> PyResult<Self> {
        self.ll.invert().py().map(Into::into)
    }

    /// A right inverse of a surjective layout (free variables zero).
    fn pseudoinvert(&self) -> PyResult<Self> {
        self.ll.pseudo_invert().py().map(Into::into)
    }

    /// The product `self * other`: dims in both are multiplied, `self`'s bits low.
    fn __mul__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        let Ok(other) = other.cast::<LinearLayout>() else {
            return Err(PyTypeError::new_err(
                "a LinearLayout multiplies only a LinearLayout",
            ));
        };
        (&self.ll * &other.get().ll).py().map(Into::into)
    }

    /// True when every output is reached.
    fn is_surjective(&self) -> bool {
        self.ll.is_surjective()
    }

    /// True when no two inputs reach the same output.
    fn is_injective(&self) -> bool {
        self.ll.is_injective()
    }

    /// True when the layout is a bijection.
    fn is_invertible(&self) -> bool {
        self.ll.is_invertible()
    }

    /// Equal by meaning: dims of size 1 ignored (`==` compares representations, as Triton's does).
    fn equivalent(&self, other: &LinearLayout) -> bool {
        self.ll.equivalent(&other.ll)
    }

    /// `other` divides `self` on the left: the `q` with `other * q == self`.
    fn divide_left(&self, other: &LinearLayout) -> PyResult<Self> {
        self.ll.divide_left(&other.ll).py().map(Into::into)
    }

    /// `other` divides `self` on the right: the `q` with `q * other == self`.
    fn divide_right(&self, other: &LinearLayout) -> PyResult<Self> {
        self.ll.divide_right(&other.ll).py().map(Into::into)
    }

    /// The layout with `dims` (trivial in it) factored out.
    fn quotient(&self, dims: Vec<String>) -> PyResult<Self> {
        self.ll.quotient(&dims).py().map(Into::into)
    }

    /// The restriction to some input and output dims.
    fn sublayout(&self, in_dims: Vec<String>, out_dims: Vec<String>) -> PyResult<Self> {
        self.ll.sublayout(&in_dims, &out_dims).py().map(Into::into)
    }

    /// Input dims reshaped to `[(name, size), …]` (sizes multiply to the same total; the first dim varies
    /// fastest).
    fn reshape_ins(&self, dims: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.ll.reshape_ins(&dim_sizes(dims)?).py().map(Into::into)
    }

    /// Output dims reshaped to `[(name, size), …]`, the first dim varying fastest (Triton's order).
    fn reshape_outs(&self, dims: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.ll.reshape_outs(&dim_sizes(dims)?).py().map(Into::into)
    }

    /// The input dims in a new order.
    fn transpose_ins(&self, order: Vec<String>) -> PyResult<Self> {
        self.ll.transpose_ins(&order).py().map(Into::into)
    }

    /// The output dims in a new order.
    fn transpose_outs(&self, order: Vec<String>) -> PyResult<Self> {
        self.ll.transpose_outs(&order).py().map(Into::into)
    }

    /// All input dims merged into the first.
    fn flatten_ins(&self) -> PyResult<Self> {
        self.ll.flatten_ins().py().map(Into::into)
    }

    /// All output dims merged into the first.
    fn flatten_outs(&self) -> PyResult<Self> {
        self.ll.flatten_outs().py().map(Into::into)
    }

    /// The input dims of `self` followed by those of `other` (same output dims).
    fn concat_ins(&self, other: &LinearLayout) -> PyResult<Self> {
        self.ll.concat_ins(&other.ll).py().map(Into::into)
    }

    /// The output dims of `self` followed by those of `other` (same input dims).
    fn concat_outs(&self, other: &LinearLayout) -> PyResult<Self> {
        self.ll.concat_outs(&other.ll).py().map(Into::into)
    }

    /// An input dim renamed.
    fn rename_in_dim(&self, old: &str, new: &str) -> PyResult<Self> {
        self.ll.rename_in_dim(old, new).py().map(Into::into)
    }

    /// An output dim renamed.
    fn rename_out_dim(&self, old: &str, new: &str) -> PyResult<Self> {
        self.ll.rename_out_dim(old, new).py().map(Into::into)
    }

    /// An input dim grown (new bits map to zero) or shrunk.
    fn resize_in_dim(&self, dim: &str, size: u64) -> PyResult<Self> {
        self.ll.resize_in_dim(dim, size).py().map(Into::into)
    }

    /// An output dim grown or shrunk.
    fn resize_out_dim(&self, dim: &str, size: u64) -> PyResult<Self> {
        self.ll.resize_out_dim(dim, size).py().map(Into::into)
    }

    /// `{in_dim: mask}`: the input bits that only make copies (their bases depend on the other bits).
    fn get_free_variable_masks(&self) -> Vec<(&'static str, u64)> {
        self.ll
            .free_variable_masks()
            .into_iter()
            .map(|(d, m)| (d.as_str(), m))
            .collect()
    }

    /// How many consecutive inputs of the first dim map to consecutive outputs of the first dim.
    fn get_num_consecutive_in_out(&self) -> u64 {
        self.ll.num_consecutive_in_out()
    }

    /// The layout fitted to a smaller tensor: `[(out_dim, size), …]`, the largest bases becoming zero
    /// (broadcast), as Triton's `ensureLayoutNotLargerThan`.
    #[pyo3(signature = (shape, broadcast_registers = true))]
    fn ensure_layout_not_larger_than(
        &self,
        shape: &Bound<'_, PyAny>,
        broadcast_registers: bool,
    ) -> PyResult<Self> {
        self.ll
            .ensure_layout_not_larger_than(&dim_sizes(shape)?, broadcast_registers)
            .py()
            .map(Into::into)
    }

    /// The layout fitted to a larger tensor by repeating it in registers, as Triton's
    /// `ensureLayoutNotSmallerThan`.
    fn ensure_layout_not_smaller_than(&self, shape: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.ll
            .ensure_layout_not_smaller_than(&dim_sizes(shape)?)
            .py()
            .map(Into::into)
    }

    /// Triton's bases dump.
    fn __str__(&self) -> String {
        self.ll.to_bases_string()
    }

    /// Triton's bases dump (what Triton's binding prints too).
    fn __repr__(&self) -> String {
        self.ll.to_bases_string()
    }

    /// Pickles through the JSON form.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let ctor = slf.get_type().getattr("from_json")?;
        let args = PyTuple::new(slf.py(), [slf.get().ll.to_json()])?;
        Ok((ctor, args))
    }

    /// The SVG picture of the layout (shown inline by notebooks): each element with the thread and register
    /// holding it (or its shared-memory offset).
    fn draw(&self) -> PyResult<drawing::Drawing> {
        drawing::draw_layout(&self.ll)
    }

    /// An SVG picture for notebooks: each element with the thread and register holding it (or its
    /// shared-memory offset), coloured by warp (or bank); `None` past 4096 elements (`draw()` draws those).
    fn _repr_svg_(&self) -> Option<String> {
        drawing::layout_svg(&self.ll)
    }

    /// The SVG picture inside HTML, for front ends that prefer HTML.
    fn _repr_html_(&self) -> Option<String> {
        drawing::layout_svg(&self.ll).map(|s| drawing::html(&s))
    }
}
