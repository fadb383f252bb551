"""The Blackwell tensor-memory layouts of tests/fixtures/tmem.json and gfx1250's partitioned shared layouts of
tests/fixtures/amd.json through the Python API: the Gluon class built from Triton's constructor arguments gives
Triton's linear layout, or is rejected where Triton rejects it; its repr is Gluon's, and the TTGIR text Triton
printed parses back to the same object."""

import pytest

import weft
from conftest import as_json, build, case_id, load, normalized

KINDS = ("TensorMemoryLayout", "TensorMemoryScalesLayout", "PartitionedSharedLayout")
CASES = [c for name in ("tmem.json", "amd.json") for c in load(name) if c["kind"] in KINDS]


def test_every_class_is_covered():
    for kind in KINDS:
        mine = [c for c in CASES if c["kind"] == kind]
        assert sum("layout" in c for c in mine) >= 10, kind
        assert any("error" in c for c in mine), kind


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
        # Triton's Python objects carry only some in dims: no `block` for tensor memory, only `offset` and
        # `block` for a partitioned layout (its `partition` bits are checked by the Rust unit tests).
        listed = {d[0] for d in c["layout"]["in_dims"]}
        got = as_json(ll)
        got["in_dims"] = [d for d in got["in_dims"] if d[0] in listed]
        assert normalized(got) == normalized(c["layout"])
    elif c["error_stage"] == "ttgir":
        # Triton's layout object is valid; the memdesc type (shape and element type) is what it rejects.
        shape = "x".join(map(str, c["shape"]))
        ttgir = build(c).to_ttgir()
        with pytest.raises(weft.LayoutError):
            weft.parse_type(f"!ttg.memdesc<{shape}x{c['dtype']}, {ttgir}, #ttng.tensor_memory, mutable>")
    else:
        assert ll is None, f"Triton: {c['error']}; weft gave {ll}"
        assert str(err)


@pytest.mark.parametrize("c", [c for c in CASES if "layout" in c], ids=case_id)
def test_repr_and_ttgir_round_trip(c):
    obj = build(c)
    assert repr(obj) == c["gluon"]
    assert weft.parse_layout(c["gluon"]) == obj
    parsed = weft.parse_layout(c["ttgir"])
    assert type(parsed) is type(obj)
    assert parsed.to_ttgir() == c["ttgir"]
    shape, _element, typed = weft.parse_type(c["type"])
    assert shape == c["shape"] and typed == obj


def test_classes_and_their_family():
    tmem = weft.TensorMemoryLayout(block=(128, 32), col_stride=1)
    scales = weft.TensorMemoryScalesLayout()
    part = weft.PartitionedSharedLayout(2, 1, 0, weft.SwizzledSharedLayout(1, 1, 1, [1, 0]))
    for obj in (tmem, scales):
        assert isinstance(obj, weft.TensorMemoryLayoutBase)
        assert not isinstance(obj, (weft.DistributedLayout, weft.SharedLayout))
    assert isinstance(part, weft.SharedLayout)
    assert tmem.col_stride == 1 and list(tmem.block) == [128, 32] and tmem.two_ctas is False
    assert part.partition_layout == weft.SwizzledSharedLayout(1, 1, 1, [1, 0])


def test_tensor_memory_table_and_picture_name_rows_and_columns():
    tmem = weft.TensorMemoryLayout(block=(64, 16), col_stride=1)
    ll = tmem.to_linear_layout([64, 16])
    rows = tmem.table([64, 16]).splitlines()
    assert len(rows) == 64
    for i, line in enumerate(rows):
        cells = [w for w in line.split() if not w.startswith("x")]
        assert len(cells) == 16
        for j, cell in enumerate(cells):
            r, c = cell.split(":")
            got = ll.apply({"row": int(r[1:]), "col": int(c[1:]), "block": 0})
            assert got == {"dim0": i, "dim1": j}, cell
    svg = tmem.draw([64, 16]).svg
    assert "TMEM row" in svg and svg.count("<rect") == 1 + 64 * 16
    # A bare tensor-memory layout draws the same cells.
    assert "TMEM row" in ll.draw().svg
