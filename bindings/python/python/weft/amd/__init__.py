"""AMD's helper layouts under Gluon's names (``triton.experimental.gluon.language.amd``): the fp4
``scaled_upcast`` scale layout here, the scaled-MFMA scale layout in ``cdna4``, the scaled-WMMA one in
``cdna5`` (also ``gfx1250``). Each returns a ``weft.DistributedLinearLayout``, as Gluon does."""

from .._weft import AMDMFMALayout, AMDWMMALayout, PartitionedSharedLayout, scaled_upcast_fp4_scale_layout_of

_UPCAST_TYPES = {"f16", "fp16", "bf16", "float16", "bfloat16"}


def get_scaled_upcast_fp4_scale_layout(src, scale_factor, elem_type, axis, shape):
    """The scale layout of an fp4 ``scaled_upcast`` (Gluon's ``amd.get_scaled_upcast_fp4_scale_layout``).

    Gluon takes the packed tensor itself; weft has no tensors, so ``src`` is its layout and ``shape`` its
    shape (packed: two fp4 values per ``int8`` along ``axis``). ``scale_factor`` output elements along
    ``axis`` share one scale; ``elem_type`` (``"f16"``/``"bf16"`` or a Triton dtype) is the upcast type.
    """
    if str(elem_type) not in _UPCAST_TYPES:
        raise ValueError(f"Expected elem_type to be fp16 or bf16 but got {elem_type}")
    rank = len(shape)
    if not isinstance(axis, int) or not -rank <= axis < rank:
        raise ValueError(f"axis {axis} is out of range for a rank-{rank} tensor")
    axis %= rank
    if not isinstance(scale_factor, int) or isinstance(scale_factor, bool):
        raise TypeError(f"Expected scale_factor to be an int but got {scale_factor!r}")
    output_size = shape[axis] * 2
    if scale_factor <= 0 or output_size % scale_factor != 0:
        raise ValueError(
            f"Expected output axis extent {output_size} to be divisible by scale_factor {scale_factor}"
        )
    return scaled_upcast_fp4_scale_layout_of(src, list(shape), output_size // scale_factor, axis)


from . import cdna4, cdna5, gfx1250  # noqa: E402  (they import the helper above)

__all__ = [
    "AMDMFMALayout",
    "AMDWMMALayout",
    "PartitionedSharedLayout",
    "cdna4",
    "cdna5",
    "get_scaled_upcast_fp4_scale_layout",
    "gfx1250",
]
