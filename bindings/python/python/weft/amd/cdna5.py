"""gfx1250 helpers under Gluon's names (``triton.experimental.gluon.language.amd.cdna5``, re-exported by
``amd.gfx1250``)."""

from .._weft import (
    AMDWMMALayout,
    DotOperandLayout,
    PartitionedSharedLayout,
    amd_wmma_scale_layout_of,
    make_partitioned_dot_layouts,
)
from . import get_scaled_upcast_fp4_scale_layout


def _operand_cga_layout(operand_index, parent):
    """Gluon's ``DotOperandLayout.cga_layout``: the parent's CTA bases with the operand's K coordinate
    zeroed (the CTAs along K share one operand tile)."""
    k_dim = parent.rank - 1 if operand_index == 0 else parent.rank - 2
    return [[0 if i == k_dim else x for i, x in enumerate(basis)] for basis in parent.cga_layout]


def get_wmma_scale_layout(dot_operand_layout, shape, scale_factor=32):
    """The register layout of the scales of a scaled WMMA operand (Gluon's
    ``amd.cdna5.get_wmma_scale_layout``): ``dot_operand_layout`` is the operand's ``DotOperandLayout`` (its
    parent an ``AMDWMMALayout``), ``shape`` the scale tensor's (``[M or N, K / scale_factor]``),
    ``scale_factor`` 16 or 32 operand elements per scale."""
    if scale_factor not in (16, 32):
        raise ValueError("Only support 16 or 32 scale factor")
    if not isinstance(dot_operand_layout, DotOperandLayout):
        raise TypeError(f"Expected a DotOperandLayout, got {type(dot_operand_layout).__name__}")
    parent = dot_operand_layout.parent
    if not isinstance(parent, AMDWMMALayout):
        raise TypeError("Expected parent to be an instance of AMDWMMALayout")
    return amd_wmma_scale_layout_of(
        dot_operand_layout.operand_index,
        list(shape),
        parent.instr_shape[0],
        parent.instr_shape[1],
        bool(parent.transposed),
        scale_factor,
        [list(b) for b in parent.reg_bases],
        [list(b) for b in parent.warp_bases],
        _operand_cga_layout(dot_operand_layout.operand_index, parent),
    )


__all__ = [
    "AMDWMMALayout",
    "DotOperandLayout",
    "PartitionedSharedLayout",
    "get_scaled_upcast_fp4_scale_layout",
    "get_wmma_scale_layout",
    "make_partitioned_dot_layouts",
]
