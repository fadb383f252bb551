"""weft: Triton's linear layouts without Triton.

The names follow Triton's and Gluon's Python APIs, so code moves over by changing an import:
``weft.LinearLayout`` is ``triton._C.libtriton.linear_layout.LinearLayout``, and ``weft.BlockedLayout`` and the
other layout classes are ``triton.experimental.gluon.language``'s, each with ``to_linear_layout(shape)``.
"""

from ._weft import (
    AMDMFMALayout,
    AMDRotatingSharedLayout,
    AMDWMMALayout,
    BlockedLayout,
    DimError,
    DistributedLayout,
    DistributedLinearLayout,
    DotOperandLayout,
    Drawing,
    InvalidLayoutError,
    Layout,
    LayoutError,
    LinearLayout,
    NotDivisibleError,
    NotInvertibleError,
    NVMMADistributedLayout,
    NVMMASharedLayout,
    PaddedSharedLayout,
    ParseError,
    PartitionedSharedLayout,
    SharedLayout,
    SharedLinearLayout,
    SizeError,
    SliceLayout,
    SwizzledSharedLayout,
    TensorMemoryLayout,
    TensorMemoryLayoutBase,
    TensorMemoryScalesLayout,
    __version__,
    bank_conflicts,
    from_cute,
    get_tmem_reg_layout,
    parse_layout,
    parse_ttgir,
    parse_type,
    plan_conversion,
    to_cute,
)

from . import amd, cute, nvidia  # noqa: E402  (Gluon's submodules: amd.cdna4, nvidia.blackwell, …; CuTe's algebra)

__all__ = [name for name in dir() if not name.startswith("_")] + ["__version__"]
