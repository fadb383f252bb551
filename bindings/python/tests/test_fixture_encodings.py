"""Every case of tests/fixtures/encodings.json through the Python API: the Gluon class built from Triton's
constructor arguments gives Triton's linear layout bit for bit, or is rejected where Triton rejects it; its
repr is Gluon's, and the TTGIR text Triton printed parses back to the same layout and prints identically."""

import pytest

import weft
from conftest import as_json, build, case_id, load

CASES = load("encodings.json")


def test_fixture_file_is_complete():
    assert len(CASES) > 700
    assert sum("layout" in c for c in CASES) > 500
    assert sum("error" in c for c in CASES) > 100


def _layout_or_error(c):
    try:
        return build(c).to_linear_layout(c["shape"]), None
    except weft.LayoutError as e:
        return None, e


@pytest.mark.parametrize("c", CASES, ids=case_id)
def test_layout_equals_triton(c):
    ll, err = _layout_or_error(c)
    if "layout" in c:
        assert err is None, f"Triton accepts, weft: {err}"
        assert as_json(ll) == c["layout"]
    else:
        # Triton rejected the parameters, or has no linear layout (padded shared): so does weft.
        assert ll is None, f"Triton: {c.get('error', 'no layout')}; weft gave {ll}"
        assert str(err)


@pytest.mark.parametrize("c", [c for c in CASES if "layout" in c], ids=case_id)
def test_repr_and_ttgir_round_trip(c):
    obj = build(c)
    assert repr(obj) == c["gluon"]
    assert weft.parse_layout(c["gluon"]) == obj
    parsed = weft.parse_layout(c["ttgir"])
    assert parsed.to_ttgir() == c["ttgir"]
    assert as_json(parsed.to_linear_layout(c["shape"])) == c["layout"]
    assert type(parsed) is type(obj)
