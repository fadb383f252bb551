"""CuTe's algebra through `weft.cute` (`composition`, `complement`, `logical_divide`, `logical_product`)
against PyCuTe's own results in tests/fixtures/cute.json (200 random cases of each): the result's offsets,
input bit by input bit, equal those of PyCuTe's result layout. Arguments may be LinearLayouts or CuTe text."""

import json

import pytest

import weft
from conftest import FIXTURES
from weft import cute

FIXTURE = json.loads((FIXTURES / "cute.json").read_text())
OPS = ("composition", "complement", "logical_divide", "logical_product")


def columns(ll):
    """The offset of each input bit, dims in order (what makes two layouts with one output dim equal, whatever
    their input dims are called or how the bits are grouped into dims)."""
    (out_dim, _), = ll.out_dims
    return [ll.apply({dim: 1 << bit})[out_dim] for dim, size in ll.in_dims for bit in range(size.bit_length() - 1)]


def rank(vectors):
    """The rank over GF(2) of integers read as bit vectors."""
    basis = []
    for v in vectors:
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis.append(v)
    return len(basis)


@pytest.mark.parametrize("op", OPS)
def test_matches_pycute(op):
    cases = FIXTURE[op]
    assert len(cases) >= 100
    for case in cases:
        want = columns(cute.from_cute(case["result"]))
        a = cute.from_cute(case["a"])
        if op == "complement":
            got = cute.complement(a, case["size"])
            # With the layout's own offsets it spans the whole codomain.
            assert rank(columns(a) + columns(got)) == case["size"].bit_length() - 1, case
        else:
            got = getattr(cute, op)(a, cute.from_cute(case["b"]))
        assert columns(got) == want, case


def test_text_arguments_equal_layout_arguments():
    a, b = "(8,64):(64,1)", "(4,2):(1,4)"
    assert cute.composition(a, b) == cute.composition(weft.from_cute(a), weft.from_cute(b))
    assert cute.logical_divide(a, b) == cute.logical_divide(weft.from_cute(a), weft.from_cute(b))
    assert cute.logical_product(b, "2:8") == cute.logical_product(weft.from_cute(b), weft.from_cute("2:8"))
    assert cute.complement("4:2", 16) == cute.complement(weft.from_cute("4:2"), 16)
    # A tile of 4 rows of a row-major 8x64 buffer: the tile's offsets are the rows', the rest the columns.
    div = cute.logical_divide(a, "4:1")
    assert [div.apply({"dim0": i})["offset"] for i in range(4)] == [0, 64, 128, 192]
    shape, stride, swizzle = cute.to_cute(cute.composition(a, b))
    assert swizzle is None and cute.from_cute(shape, stride) == cute.composition(a, b)


def test_obstacles_are_typed_errors():
    with pytest.raises(weft.LayoutError):
        cute.composition("(3,4):(1,3)", "4:1")  # a non-power-of-two extent
    with pytest.raises(weft.LayoutError):
        cute.complement("4:1", 12)
    with pytest.raises(weft.LayoutError):
        cute.composition("4:1", "8:1")  # b reaches past a's domain
    with pytest.raises(TypeError):
        cute.logical_divide(4, "4:1")
    with pytest.raises(weft.ParseError):
        cute.logical_product("(4:1", "2:1")
