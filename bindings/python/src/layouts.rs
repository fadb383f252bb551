//! Gluon's layout classes (`weft.BlockedLayout(size_per_thread, threads_per_warp, warps_per_cta, order,
//! cga_layout=…)`, …): the same names, constructor arguments, defaults and attributes as
//! `triton.experimental.gluon.language`, each a thin Python class over weft's `Encoding`, built by the same
//! code that parses Gluon constructor text.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBool, PyDict, PyList, PyTuple};
use weft::layout::encoding::{helpers, CgaLayout, Encoding};
use weft::layout::text::{gluon, ttgir, Val};
use weft::layout::Bases;

use crate::args::{element_bits_of, to_val};
use crate::drawing::{self, Drawing};
use crate::errors::{InvalidLayoutError, OrPy};
use crate::layout_base::{DistributedLayout, Layout, SharedLayout, TensorMemoryLayoutBase};
use crate::linear_layout::LinearLayout;

/// The encoding of Gluon class `kind` called with Python arguments.
fn build(
    kind: &str,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Encoding> {
    let positional: PyResult<Vec<Val>> = args
        .iter()
        .enumerate()
        .map(|(i, a)| to_val(&format!("argument {i}"), &a))
        .collect();
    let mut keywords = Vec::new();
    if let Some(kw) = kwargs {
        for (k, v) in kw.iter() {
            let k: String = k.extract()?;
            let v = to_val(&k, &v)?;
            keywords.push((k, v));
        }
    }
    let enc = gluon::build_encoding(kind, positional?, keywords).py()?;
    // Gluon checks its parameters when the object is made (`__post_init__` and the attribute verifier).
    enc.validate().py()?;
    Ok(enc)
}

/// The Python value of a constructor argument (lists as lists, nested layouts as layout objects).
pub fn from_val<'py>(py: Python<'py>, v: &Val) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Val::Int(x) => x.into_pyobject(py)?.into_any(),
        Val::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Val::None => py.None().into_bound(py),
        Val::List(xs) => {
            let items: PyResult<Vec<Bound<'py, PyAny>>> =
                xs.iter().map(|x| from_val(py, x)).collect();
            PyList::new(py, items?)?.into_any()
        }
        Val::Dict(items) => {
            let d = PyDict::new(py);
            for (k, x) in items {
                d.set_item(k, from_val(py, x)?)?;
            }
            d.into_any()
        }
        Val::Enc(e) => wrap(py, (**e).clone())?.into_bound(py),
    })
}

macro_rules! layout_classes {
    ($($(#[$doc:meta])* $name:ident : $base:ident $({ $($extra:tt)* })?),* $(,)?) => {
        $(
            $(#[$doc])*
            #[pyclass(module = "weft", extends = $base, frozen)]
            pub struct $name;

            #[pymethods]
            impl $name {
                #[new]
                #[pyo3(signature = (*args, **kwargs))]
                fn new(
                    args: &Bound<'_, PyTuple>,
                    kwargs: Option<&Bound<'_, PyDict>>,
                ) -> PyResult<PyClassInitializer<Self>> {
                    let enc = build(stringify!($name), args, kwargs)?;
                    Ok(PyClassInitializer::from(Layout { enc }).add_subclass($base).add_subclass($name))
                }

                $($($extra)*)?
            }
        )*

        /// The Python object of an encoding, of its Gluon class.
        pub fn wrap(py: Python<'_>, enc: Encoding) -> PyResult<Py<PyAny>> {
            match enc.kind() {
                $(stringify!($name) => Ok(Py::new(
                    py,
                    PyClassInitializer::from(Layout { enc }).add_subclass($base).add_subclass($name),
                )?
                .into_any()),)*
                other => Err(InvalidLayoutError::new_err(format!("no Python class for {other}"))),
            }
        }

        /// Adds the layout classes to the module.
        pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
            m.add_class::<Layout>()?;
            m.add_class::<DistributedLayout>()?;
            m.add_class::<SharedLayout>()?;
            m.add_class::<TensorMemoryLayoutBase>()?;
            $(m.add_class::<$name>()?;)*
            Ok(())
        }
    };
}

layout_classes! {
    /// `BlockedLayout(size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout=[])`.
    BlockedLayout: DistributedLayout,
    /// `SliceLayout(dim, parent)`: `parent` with dim `dim` removed.
    SliceLayout: DistributedLayout,
    /// `NVMMADistributedLayout(version, warps_per_cta, instr_shape, cga_layout=[])`: the `mma.sync` (v2) and
    /// `wgmma` (v3) accumulator layouts.
    NVMMADistributedLayout: DistributedLayout,
    /// `DotOperandLayout(operand_index, parent, k_width)`: an MMA operand.
    DotOperandLayout: DistributedLayout,
    /// `AMDMFMALayout(version, instr_shape, transposed, warps_per_cta, element_bitwidth=None,
    /// tiles_per_warp=None, cga_layout=[])`.
    AMDMFMALayout: DistributedLayout,
    /// `AMDWMMALayout(version, transposed, warp_bases, reg_bases=[], instr_shape=None, cga_layout=[],
    /// rank=2)`.
    AMDWMMALayout: DistributedLayout,
    /// `DistributedLinearLayout(reg_bases, lane_bases, warp_bases, block_bases, shape)`.
    DistributedLinearLayout: DistributedLayout,
    /// `SwizzledSharedLayout(vec, per_phase, max_phase, order, cga_layout=[])`.
    SwizzledSharedLayout: SharedLayout,
    /// `NVMMASharedLayout(swizzle_byte_width, element_bitwidth, rank=2, transposed=False, fp4_padded=False,
    /// cga_layout=[])`.
    NVMMASharedLayout: SharedLayout {
        /// Gluon's `get_default_for`: the widest swizzle the tile's contiguous extent allows. `dtype` is a
        /// name (`"f16"`), a number of bits, or a Triton dtype (anything with `primitive_bitwidth`).
        #[staticmethod]
        #[pyo3(signature = (block_shape, dtype, transposed = false, fp4_padded = false, cga_layout = None))]
        fn get_default_for(
            py: Python<'_>,
            block_shape: Vec<u64>,
            dtype: &Bound<'_, PyAny>,
            transposed: bool,
            fp4_padded: bool,
            cga_layout: Option<Bases>,
        ) -> PyResult<Py<PyAny>> {
            let bits = element_bits_of(Some(dtype))?;
            let cga = CgaLayout::new(cga_layout.unwrap_or_default());
            let l = helpers::default_nvmma_shared(&block_shape, bits, transposed, fp4_padded, cga).py()?;
            wrap(py, Encoding::NvmmaShared(l))
        }
    },
    /// `PaddedSharedLayout(interval_padding_pairs, offset_bases, cga_layout, shape)`.
    PaddedSharedLayout: SharedLayout,
    /// `SharedLinearLayout(offset_bases, block_bases=[], alignment=16)`.
    SharedLinearLayout: SharedLayout,
    /// `#ttg.amd_rotating_shared`: Gluon has no class for it, so it comes only from parsing TTGIR
    /// (`weft.parse_layout`); its constructor says so.
    AMDRotatingSharedLayout: SharedLayout,
    /// `PartitionedSharedLayout(num_partitions, num_groups, partition_dim, partition_layout)`: gfx1250's
    /// shared layout split over LDS partitions.
    PartitionedSharedLayout: SharedLayout,
    /// `TensorMemoryLayout(block, col_stride, cga_layout=[], two_ctas=False, fp4_padded=False)`: a Blackwell
    /// tensor-memory allocation.
    TensorMemoryLayout: TensorMemoryLayoutBase,
    /// `TensorMemoryScalesLayout(cga_layout=[])`: the tensor memory holding block-scaled MMA scales.
    TensorMemoryScalesLayout: TensorMemoryLayoutBase,
}

#[pymethods]
impl Layout {
    /// Triton's linear layout of this encoding for a tensor `shape` (Gluon's `to_linear_layout`):
    /// broadcast where the tensor is smaller than the layout's tile, wrapped around where larger.
    fn to_linear_layout(&self, shape: Vec<u64>) -> PyResult<LinearLayout> {
        self.enc.to_linear_layout(&shape).py().map(Into::into)
    }

    /// The linear layout Triton's compiler works with (generic linear layouts keep their XOR bases);
    /// what `plan_conversion` and `bank_conflicts` use.
    fn tensor_layout(&self, shape: Vec<u64>) -> PyResult<LinearLayout> {
        self.enc.tensor_layout(&shape).py().map(Into::into)
    }

    /// The tensor rank the layout is for.
    #[getter]
    fn rank(&self) -> PyResult<usize> {
        self.enc.rank().py()
    }

    /// The TTGIR attribute text, as Triton prints it (`#ttg.blocked<{…}>`, parents inline).
    fn to_ttgir(&self) -> String {
        ttgir::print_encoding(&self.enc)
    }

    /// The element each thread and register holds (or each shared offset), as the text table of
    /// `weft layout --format table` (not Gluon's `format_tensor_view` text).
    fn table(&self, shape: Vec<u64>) -> PyResult<String> {
        let ll = self.enc.to_linear_layout(&shape).py()?;
        weft::layout::render::table(&self.enc, &ll).py()
    }

    /// An SVG picture of the layout on `shape` (shown inline by notebooks).
    fn draw(&self, shape: Vec<u64>) -> PyResult<Drawing> {
        drawing::draw(&self.enc, &shape)
    }

    /// The notebook picture, on the layout's own tile; `None` when no small shape shows it.
    fn _repr_svg_(&self) -> Option<String> {
        let shape = drawing::default_shape(&self.enc)?;
        drawing::draw(&self.enc, &shape)
            .ok()
            .map(|d| d.text().to_string())
    }

    /// The notebook picture inside HTML.
    fn _repr_html_(&self) -> Option<String> {
        self._repr_svg_().map(|s| drawing::html(&s))
    }

    /// Gluon's `repr()`: the constructor call with every field.
    fn __repr__(&self) -> String {
        gluon::print_encoding(&self.enc)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let same = other
            .cast::<Layout>()
            .is_ok_and(|o| o.get().enc == self.enc);
        match op {
            CompareOp::Eq => PyBool::new(py, same).to_owned().into_any().unbind(),
            CompareOp::Ne => PyBool::new(py, !same).to_owned().into_any().unbind(),
            _ => py.NotImplemented(),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.enc.hash(&mut h);
        h.finish()
    }

    /// Gluon's attributes: each constructor argument by name (`layout.size_per_thread`, `layout.parent`, …).
    fn __getattr__<'py>(slf: &Bound<'py, Self>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let args = gluon::arguments(&slf.get().enc).unwrap_or_default();
        match args.iter().find(|(k, _)| k == name) {
            Some((_, v)) => from_val(slf.py(), v),
            None => Err(PyAttributeError::new_err(format!(
                "'{}' object has no attribute '{name}'",
                slf.get().enc.kind()
            ))),
        }
    }

    /// Pickles through the Gluon (or TTGIR) text.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let parse = py.import("weft")?.getattr("parse_layout")?;
        let text = match self.enc {
            Encoding::AmdRotatingShared(_) => ttgir::print_encoding(&self.enc),
            _ => gluon::print_encoding(&self.enc),
        };
        Ok((parse, (text,)))
    }
}
