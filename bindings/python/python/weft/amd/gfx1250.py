"""gfx1250 helpers under Gluon's names (``triton.experimental.gluon.language.amd.gfx1250``)."""

from .cdna5 import (
    PartitionedSharedLayout,
    get_scaled_upcast_fp4_scale_layout,
    get_wmma_scale_layout,
    make_partitioned_dot_layouts,
)

__all__ = [
    "PartitionedSharedLayout",
    "get_scaled_upcast_fp4_scale_layout",
    "get_wmma_scale_layout",
    "make_partitioned_dot_layouts",
]
