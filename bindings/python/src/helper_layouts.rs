//! The register layouts Gluon computes from other layouts rather than constructs: the `tcgen05.ld/st`
//! layouts of a tensor-memory descriptor (`get_tmem_reg_layout`), and AMD's scale layouts (scaled MFMA,
//! scaled WMMA, fp4 `scaled_upcast`). Each returns a `DistributedLinearLayout` object, as Gluon does.
//! The arguments here are those of Triton's own builder calls (`gluon_ir.get_amd_mfma_scale_layout`, …);
//! the Gluon-level helpers that take a dot-operand layout (`weft.amd.cdna4.get_mfma_scale_layout`, …)
//! are thin Python over them (`python/weft/amd/`).

use pyo3::prelude::*;
use weft::layout::encoding::{
    amd_mfma_scale_layout, amd_wmma_scale_layout, scaled_upcast_fp4_scale_layout, tmem_reg_layout,
    CgaLayout, DistributedLinear, Encoding, TmemMessage, WmmaScaleParams,
};
use weft::layout::Bases;

use crate::args::element_bits_of;
use crate::errors::OrPy;
use crate::layouts::{wrap, Layout};

fn linear(py: Python<'_>, l: weft::layout::Result<DistributedLinear>) -> PyResult<Py<PyAny>> {
    wrap(py, Encoding::Linear(l.py()?))
}

/// The register layout of a `tcgen05.ld/st` (`instr_variant`: `32x32b`, `16x64b`, `16x128b`, `16x256b`,
/// `32x32b_splitn`) by `num_warps` warps of a tensor-memory descriptor of `shape` holding `element_ty`
/// (a name such as `"f32"`, bits, or a Triton dtype) in `layout` (a `TensorMemoryLayout` or
/// `TensorMemoryScalesLayout`), allocated as `alloc_shape` (default `shape`): Gluon's
/// `tensor_memory_descriptor_type.get_reg_layout` (`get_tmem_reg_layout` before Triton 3.7).
#[pyfunction]
#[pyo3(signature = (element_ty, shape, layout, num_warps, instr_variant = "32x32b", alloc_shape = None))]
pub fn get_tmem_reg_layout(
    py: Python<'_>,
    element_ty: &Bound<'_, PyAny>,
    shape: Vec<u64>,
    layout: PyRef<'_, Layout>,
    num_warps: u32,
    instr_variant: &str,
    alloc_shape: Option<Vec<u64>>,
) -> PyResult<Py<PyAny>> {
    let bits = element_bits_of(Some(element_ty))?;
    let message = TmemMessage::parse(instr_variant).py()?;
    let alloc = alloc_shape.unwrap_or_else(|| shape.clone());
    linear(
        py,
        tmem_reg_layout(bits, &shape, &alloc, &layout.enc, num_warps, message),
    )
}

/// The scale layout of a CDNA4 scaled MFMA for operand `op_idx` (0 = A, 1 = B) of a scale tensor of
/// `shape`, with the MFMA layout's instruction rows `m_dim`, `tiles_per_warp` and `warps_per_cta`
/// (Triton's `gluon_ir.get_amd_mfma_scale_layout`).
#[pyfunction]
pub fn amd_mfma_scale_layout_of(
    py: Python<'_>,
    op_idx: u32,
    shape: Vec<u64>,
    m_dim: u32,
    tiles_per_warp: Vec<u32>,
    warps_per_cta: Vec<u32>,
) -> PyResult<Py<PyAny>> {
    linear(
        py,
        amd_mfma_scale_layout(op_idx, &shape, m_dim, &tiles_per_warp, &warps_per_cta),
    )
}

/// The scale layout of a gfx1250 scaled WMMA (Triton's `gluon_ir.get_amd_wmma_scale_layout`): operand
/// `op_idx`, a scale tensor of `shape`, the WMMA layout's instruction shape `m_dim` × `n_dim`,
/// `transposed`, register and warp bases, `scale_factor` (16 or 32) and the dot operand's CGA bases.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn amd_wmma_scale_layout_of(
    py: Python<'_>,
    op_idx: u32,
    shape: Vec<u64>,
    m_dim: u32,
    n_dim: u32,
    transposed: bool,
    scale_factor: u32,
    reg_bases: Bases,
    warp_bases: Bases,
    cga_bases: Bases,
) -> PyResult<Py<PyAny>> {
    let p = WmmaScaleParams {
        op_idx,
        m_dim,
        n_dim,
        transposed,
        scale_factor,
        reg_bases,
        warp_bases,
        cga_layout: CgaLayout::new(cga_bases),
    };
    linear(py, amd_wmma_scale_layout(&p, &shape))
}

/// The scale layout of an fp4 `scaled_upcast` of a packed (`i8`) tensor of `shape` in `src`, upcast
/// along `axis` with `scale_extent` scales along it (Triton's `get_scaled_upcast_fp4_scale_layout`
/// builder call).
#[pyfunction]
pub fn scaled_upcast_fp4_scale_layout_of(
    py: Python<'_>,
    src: PyRef<'_, Layout>,
    shape: Vec<u64>,
    scale_extent: u64,
    axis: usize,
) -> PyResult<Py<PyAny>> {
    linear(
        py,
        scaled_upcast_fp4_scale_layout(&src.enc, &shape, scale_extent, axis),
    )
}
