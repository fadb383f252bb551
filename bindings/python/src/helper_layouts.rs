//! The layouts Gluon computes from other layouts rather than constructs: the `tcgen05.ld/st` register
//! layouts of a tensor-memory descriptor (`get_tmem_reg_layout`), AMD's scale layouts (scaled MFMA, scaled
//! WMMA, fp4 `scaled_upcast`; each a `DistributedLinearLayout` object, as Gluon returns), gfx1250's
//! partitioned GEMM layouts (`make_partitioned_dot_layouts`) and CDNA4's bank-conflict-free padded layout
//! (`compute_efficient_padded_shared_layout`).
//! The arguments here are those of Triton's own builder calls (`gluon_ir.get_amd_mfma_scale_layout`, …);
//! the Gluon-level helpers that take a dot-operand layout (`weft.amd.cdna4.get_mfma_scale_layout`, …)
//! are thin Python over them (`python/weft/amd/`).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use weft::layout::encoding::{
    self, amd_mfma_scale_layout, amd_wmma_scale_layout, scaled_upcast_fp4_scale_layout,
    tmem_reg_layout, CgaLayout, DistributedLinear, Encoding, PaddedShared, PartitionedDotRequest,
    TmemMessage, WmmaScaleParams,
};
use weft::layout::Bases;

use crate::args::element_bits_of;
use crate::errors::OrPy;
use crate::layout_base::Layout;
use crate::layouts::wrap;

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

/// The padded layout inside a Python layout object, or a `TypeError` naming `key`.
fn padded(key: &str, layout: &Layout) -> PyResult<PaddedShared> {
    match &layout.enc {
        Encoding::PaddedShared(p) => Ok(p.clone()),
        other => Err(PyTypeError::new_err(format!(
            "`{key}`: expected a PaddedSharedLayout, got a {}",
            other.kind()
        ))),
    }
}

/// gfx1250's `make_partitioned_dot_layouts` (Gluon's `amd.cdna5` and `amd.gfx1250`): the operands'
/// `PartitionedSharedLayout`s (A cut along M, B along N, over two LDS partitions) and the
/// `AMDWMMALayout` whose warp pairs read different partitions, as `(shared_a, shared_b, wmma)`.
#[pyfunction]
#[pyo3(signature = (block_m, block_n, original_layout_a, original_layout_b, num_warps, instr_shape,
    a_transposed = false, b_transposed = false, slice_m = None, slice_n = None, transposed = true))]
#[allow(clippy::too_many_arguments)]
pub fn make_partitioned_dot_layouts(
    py: Python<'_>,
    block_m: u64,
    block_n: u64,
    original_layout_a: PyRef<'_, Layout>,
    original_layout_b: PyRef<'_, Layout>,
    num_warps: u32,
    instr_shape: Vec<u32>,
    a_transposed: bool,
    b_transposed: bool,
    slice_m: Option<u64>,
    slice_n: Option<u64>,
    transposed: bool,
) -> PyResult<(Py<PyAny>, Py<PyAny>, Py<PyAny>)> {
    let r = PartitionedDotRequest {
        block_m,
        block_n,
        layout_a: padded("original_layout_a", &original_layout_a)?,
        layout_b: padded("original_layout_b", &original_layout_b)?,
        num_warps,
        instr_shape,
        a_transposed,
        b_transposed,
        slice_m,
        slice_n,
        transposed,
    };
    let l = encoding::make_partitioned_dot_layouts(&r).py()?;
    Ok((
        wrap(py, Encoding::PartitionedShared(l.shared_a))?,
        wrap(py, Encoding::PartitionedShared(l.shared_b))?,
        wrap(py, Encoding::AmdWmma(l.wmma))?,
    ))
}

/// CDNA4's `compute_efficient_padded_shared_layout(dot_operand_layout, shape, dtype, is_k_contig=True)`
/// (Gluon's `amd.cdna4`): the `PaddedSharedLayout` that keeps an MFMA v4 operand's async-copied tile free of
/// bank conflicts, or `None` where Gluon returns `None`. `dtype` is a name (`"f16"`), bits, or a Triton
/// dtype.
#[pyfunction]
#[pyo3(signature = (dot_operand_layout, shape, dtype, is_k_contig = true))]
pub fn compute_efficient_padded_shared_layout(
    py: Python<'_>,
    dot_operand_layout: PyRef<'_, Layout>,
    shape: Vec<u64>,
    dtype: &Bound<'_, PyAny>,
    is_k_contig: bool,
) -> PyResult<Option<Py<PyAny>>> {
    let Encoding::DotOperand(dot) = &dot_operand_layout.enc else {
        return Err(PyTypeError::new_err(format!(
            "`dot_operand_layout`: expected a DotOperandLayout, got a {}",
            dot_operand_layout.enc.kind()
        )));
    };
    let bits = element_bits_of(Some(dtype))?;
    encoding::compute_efficient_padded_shared_layout(dot, &shape, bits, is_k_contig)
        .py()?
        .map(|l| wrap(py, Encoding::PaddedShared(l)))
        .transpose()
}
