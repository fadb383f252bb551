//! The `weft` Python package's extension module (`weft._weft`): weft's layout algebra under the names of
//! Triton's and Gluon's Python APIs, so that code moves over by changing an import.
//!
//! Every weft error reaches Python as a `weft.LayoutError` subclass with weft's message; nothing here
//! panics on any input (PyO3 would turn a panic into `PanicException`; the test suite feeds hostile input
//! to every entry point to keep it that way).

mod apply;
mod args;
mod cute;
mod drawing;
mod errors;
mod helper_layouts;
mod layout_base;
mod layouts;
mod linear_layout;
mod names;
mod nibbles;
mod parsing;
mod planning;
mod points;
mod spare_dict;

use pyo3::prelude::*;

#[pymodule]
fn _weft(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<linear_layout::LinearLayout>()?;
    apply::install(m)?;
    m.add_class::<drawing::Drawing>()?;
    layouts::register(m)?;
    m.add_function(wrap_pyfunction!(parsing::parse_layout, m)?)?;
    m.add_function(wrap_pyfunction!(parsing::parse_ttgir, m)?)?;
    m.add_function(wrap_pyfunction!(parsing::parse_type, m)?)?;
    m.add_function(wrap_pyfunction!(planning::plan_conversion, m)?)?;
    m.add_function(wrap_pyfunction!(planning::bank_conflicts, m)?)?;
    m.add_function(wrap_pyfunction!(cute::from_cute, m)?)?;
    m.add_function(wrap_pyfunction!(cute::to_cute, m)?)?;
    m.add_function(wrap_pyfunction!(cute::cute_composition, m)?)?;
    m.add_function(wrap_pyfunction!(cute::cute_complement, m)?)?;
    m.add_function(wrap_pyfunction!(cute::cute_logical_divide, m)?)?;
    m.add_function(wrap_pyfunction!(cute::cute_logical_product, m)?)?;
    m.add_function(wrap_pyfunction!(helper_layouts::get_tmem_reg_layout, m)?)?;
    m.add_function(wrap_pyfunction!(
        helper_layouts::amd_mfma_scale_layout_of,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(
        helper_layouts::amd_wmma_scale_layout_of,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(
        helper_layouts::scaled_upcast_fp4_scale_layout_of,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(
        helper_layouts::make_partitioned_dot_layouts,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(
        helper_layouts::compute_efficient_padded_shared_layout,
        m
    )?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
