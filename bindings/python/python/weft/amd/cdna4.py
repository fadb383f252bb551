"""CDNA4 (gfx950) helpers under Gluon's names (``triton.experimental.gluon.language.amd.cdna4``)."""

from .._weft import AMDMFMALayout, DotOperandLayout, amd_mfma_scale_layout_of, compute_efficient_padded_shared_layout
from . import get_scaled_upcast_fp4_scale_layout


def get_mfma_scale_layout(dot_operand_layout, shape, scale_factor=32):
    """The register layout of the scales of a scaled MFMA operand (Gluon's
    ``amd.cdna4.get_mfma_scale_layout``): ``dot_operand_layout`` is the operand's ``DotOperandLayout``
    (its parent an ``AMDMFMALayout``), ``shape`` the scale tensor's (``[M or N, K / 32]``)."""
    if scale_factor != 32:
        raise ValueError("Only scale factor 32 is supported for CDNA4 Scaled MFMA")
    if not isinstance(dot_operand_layout, DotOperandLayout):
        raise TypeError(f"Expected a DotOperandLayout, got {type(dot_operand_layout).__name__}")
    parent = dot_operand_layout.parent
    if not isinstance(parent, AMDMFMALayout):
        raise TypeError("Expected parent to be an instance of AMDMFMALayout")
    return amd_mfma_scale_layout_of(
        dot_operand_layout.operand_index,
        list(shape),
        parent.instr_shape[0],
        list(parent.tiles_per_warp),
        list(parent.warps_per_cta),
    )


__all__ = [
    "AMDMFMALayout",
    "DotOperandLayout",
    "compute_efficient_padded_shared_layout",
    "get_mfma_scale_layout",
    "get_scaled_upcast_fp4_scale_layout",
]
