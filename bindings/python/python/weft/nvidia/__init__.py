"""NVIDIA helpers under Gluon's names (``triton.experimental.gluon.language.nvidia``)."""

from . import blackwell

__all__ = ["blackwell"]
