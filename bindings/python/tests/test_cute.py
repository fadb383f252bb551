"""CuTe interop through Python (`weft.from_cute`, `weft.to_cute`): every layout of tests/fixtures/cute.json
(PyCuTe's offsets for 240 random layouts, 93 swizzled) either gives PyCuTe's offset at every coordinate or
is refused because the offsets are not linear over GF(2); `to_cute` gives a form that builds the same
layout back."""

import ast
import json

import pytest

import weft
from conftest import FIXTURES

LAYOUTS = json.loads((FIXTURES / "cute.json").read_text())["layouts"]


def _shape_stride(text):
    shape, stride = text.split(":")
    return ast.literal_eval(shape), ast.literal_eval(stride)


def _is_xor_linear(values):
    """Whether the offsets are a linear map over GF(2) of the flat index: a power-of-two count, and each
    offset the XOR of the offsets of its index's bits."""
    n = len(values)
    if n & (n - 1):
        return False
    for i, v in enumerate(values):
        x, k = 0, 0
        while 1 << k <= i:
            if i >> k & 1:
                x ^= values[1 << k]
            k += 1
        if x != v:
            return False
    return True


def test_fixture_mixes_linear_and_not():
    assert len(LAYOUTS) == 240
    assert sum("swizzle" in c for c in LAYOUTS) > 50
    assert 0 < sum(not _is_xor_linear(c["values"]) for c in LAYOUTS) < 240


@pytest.mark.parametrize("c", LAYOUTS, ids=lambda c: c["layout"])
def test_offsets_equal_pycute(c):
    shape, stride = _shape_stride(c["layout"])
    try:
        ll = weft.from_cute(shape, stride, tuple(c["swizzle"]) if "swizzle" in c else None)
    except weft.LayoutError as e:
        assert not _is_xor_linear(c["values"]), f"PyCuTe's offsets are linear, weft refused: {e}"
        return
    sizes = [size for _, size in ll.in_dims]
    assert [name for name, _ in ll.in_dims] == [f"dim{i}" for i in range(len(sizes))]
    for flat, want in enumerate(c["values"]):
        coords, rest = {}, flat
        for i, size in enumerate(sizes):
            coords[f"dim{i}"], rest = rest % size, rest // size
        assert ll.apply(coords)["offset"] == want, (flat, coords)
    # And back: CuTe's form builds the same layout.
    assert weft.from_cute(*weft.to_cute(ll)) == ll


def test_text_and_tuples_agree():
    text = weft.from_cute("Sw<3,3,3> o (8,64):(64,1)")
    assert weft.from_cute((8, 64), (64, 1), (3, 3, 3)) == text
    assert weft.to_cute(text) == ((8, 64), (64, 1), (3, 3, 3))
    # Row 1, column 8 is offset 72 before the swizzle; row bit 6 flips bit 3.
    assert text.apply({"dim0": 1, "dim1": 8}) == {"offset": 64}
    assert weft.to_cute(weft.from_cute(((2, 4), 8), ((1, 16), 2))) == (((2, 4), 8), ((1, 16), 2), None)


def test_a_swizzle_object_with_pycute_attribute_names():
    class Swizzle:
        bits, base, shift = 3, 3, 3

    assert weft.from_cute((8, 64), (64, 1), Swizzle()) == weft.from_cute("Sw<3,3,3> o (8,64):(64,1)")


@pytest.mark.parametrize(
    "args, error",
    [
        (((3, 4), (1, 3)), weft.SizeError),  # 3 is not a power of two
        (((4, 4), (1, 2)), weft.InvalidLayoutError),  # strides 2 and 2·2 carry into bit 2
        ((8, -1), weft.InvalidLayoutError),
        (((8, 64), (64, 1), (9, 3, 3)), weft.InvalidLayoutError),
        (("(8,64):(64,",), weft.ParseError),
    ],
)
def test_typed_refusals(args, error):
    with pytest.raises(error):
        weft.from_cute(*args)


@pytest.mark.parametrize("args", [((8, 64),), ("(8,64):(64,1)", (1,)), ((8, "x"), (1, 8)), ((True,), (1,))])
def test_bad_arguments_are_type_errors(args):
    with pytest.raises(TypeError):
        weft.from_cute(*args)


def test_to_cute_refuses_what_no_swizzle_separates():
    # offset bits 0 and 1 both hit by two inputs, with no swizzle that untangles them
    ll = weft.LinearLayout.from_bases([("dim0", [[1], [3], [1]])], ["offset"], require_surjective=False)
    with pytest.raises(weft.LayoutError):
        weft.to_cute(ll)
