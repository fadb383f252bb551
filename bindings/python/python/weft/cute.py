"""CuTe's layout algebra on linear layouts, under CuTe's names (``pycute``'s free functions).

Layouts are ``weft.LinearLayout`` objects (``dim0, dim1, … → offset``, as ``from_cute`` makes them) or
CuTe's text (``"(8,64):(64,1)"``, ``"Sw<3,3,3> o (8,64):(64,1)"``). Results are linear layouts;
``to_cute`` gives their ``(shape, stride, swizzle)`` back where one exists. A CuTe layout that is not
linear over GF(2) (a non-power-of-two extent, strides whose sum carries) is a ``weft.LayoutError`` naming
the obstacle.
"""

from ._weft import cute_complement as complement
from ._weft import cute_composition as composition
from ._weft import cute_logical_divide as logical_divide
from ._weft import cute_logical_product as logical_product
from ._weft import from_cute, to_cute

__all__ = ["complement", "composition", "from_cute", "logical_divide", "logical_product", "to_cute"]
