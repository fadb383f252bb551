//! The base classes of Gluon's layout classes: `Layout`, one weft `Encoding`, and the three kinds that
//! group the concrete classes (their constructors and methods are in `layouts.rs`).

use pyo3::prelude::*;
use weft::layout::encoding::Encoding;

/// A layout encoding (the base of every layout class): `to_linear_layout(shape)` gives Triton's linear
/// layout for a tensor shape.
#[pyclass(name = "Layout", module = "weft", subclass, frozen)]
pub struct Layout {
    pub(crate) enc: Encoding,
}

/// A register layout: which thread and register hold each tensor element.
#[pyclass(name = "DistributedLayout", module = "weft", extends = Layout, subclass, frozen)]
pub struct DistributedLayout;

/// A shared-memory layout: which offset holds each tensor element.
#[pyclass(name = "SharedLayout", module = "weft", extends = Layout, subclass, frozen)]
pub struct SharedLayout;

/// A Blackwell tensor-memory layout: which TMEM row and 32-bit column hold each tensor element (Gluon's
/// tensor-memory classes share no base; this one groups them as the two above group theirs).
#[pyclass(name = "TensorMemoryLayoutBase", module = "weft", extends = Layout, subclass, frozen)]
pub struct TensorMemoryLayoutBase;
