"""Blackwell tensor memory under Gluon's names (``triton.experimental.gluon.language.nvidia.blackwell``):
the tensor-memory layouts, and the register layouts of ``tcgen05.ld/st`` for a descriptor type."""

from .._weft import TensorMemoryLayout, TensorMemoryScalesLayout, get_tmem_reg_layout


class tensor_memory_descriptor_type:  # noqa: N801  (Gluon's name)
    """The type of a tensor-memory descriptor: element type (a name such as ``"f32"``, bits, or a Triton
    dtype), shape, layout and allocation shape (default ``shape``), as Gluon's class of this name."""

    def __init__(self, element_ty, shape, layout, alloc_shape=None):
        self.element_ty = element_ty
        self.shape = list(shape)
        self.layout = layout
        self.alloc_shape = list(alloc_shape) if alloc_shape is not None else list(shape)

    def get_reg_layout(self, num_warps, instr_variant="32x32b"):
        """The ``DistributedLinearLayout`` of a ``tcgen05.ld/st`` with ``instr_variant`` (``32x32b``,
        ``16x64b``, ``16x128b``, ``16x256b``, ``32x32b_splitn``) by ``num_warps`` warps. Gluon infers
        ``num_warps`` inside a kernel; outside one it must be given, as here."""
        return get_tmem_reg_layout(
            self.element_ty, self.shape, self.layout, num_warps, instr_variant, self.alloc_shape
        )

    def __eq__(self, other):
        return type(self) is type(other) and (self.element_ty, self.shape, self.layout, self.alloc_shape) == (
            other.element_ty,
            other.shape,
            other.layout,
            other.alloc_shape,
        )

    def __repr__(self):
        return (
            f"tensor_memory_descriptor_type({self.element_ty!r}, {self.shape}, {self.layout!r}, "
            f"alloc_shape={self.alloc_shape})"
        )


__all__ = ["TensorMemoryLayout", "TensorMemoryScalesLayout", "get_tmem_reg_layout", "tensor_memory_descriptor_type"]
