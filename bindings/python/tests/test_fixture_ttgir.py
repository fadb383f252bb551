"""The TTGIR dumps of tests/fixtures (ttgir/ and ttgir_targets/, Triton 3.9's and the 3.5/3.6 dumps of the
same kernels) through `parse_ttgir` and `parse_type`: every alias listed, every typed layout equal to the
layout Triton 3.9 gives it."""

import json

import pytest

import weft
from conftest import FIXTURES, as_json, normalized


def _entries(doc_name, folder):
    doc = json.loads((FIXTURES / doc_name).read_text())
    out = []
    for fname, f in doc["files"].items():
        for i, entry in enumerate(f["layouts"]):
            out.append(pytest.param(folder / fname, f, entry, id=f"{fname}-{i}"))
    for fname, f in doc.get("older_versions", {}).items():
        for i, entry in enumerate(f["layouts"]):
            out.append(pytest.param(folder / fname, f, entry, id=f"{fname}-{i}"))
    return out


ENTRIES = _entries("ttgir_layouts.json", FIXTURES / "ttgir") + _entries(
    "ttgir_targets.json", FIXTURES / "ttgir_targets"
)


def test_every_dump_is_covered():
    assert len(ENTRIES) > 650
    on_disk = set((FIXTURES / "ttgir").glob("*.mlir")) | set((FIXTURES / "ttgir_targets").rglob("*.mlir"))
    assert {p.values[0] for p in ENTRIES} == on_disk


_PARSED = {}


def _aliases(path):
    if path not in _PARSED:
        _PARSED[path] = weft.parse_ttgir(path.read_text())
    return _PARSED[path]


@pytest.mark.parametrize("path,f,entry", ENTRIES)
def test_dump_layout_equals_triton(path, f, entry):
    aliases = _aliases(path)
    for alias, definition in f["aliases"].items():
        if definition not in ("#ttg.shared_memory", "#ttng.tensor_memory"):
            assert alias in aliases, f"{alias} = {definition} not listed"
    shape, _element, layout = weft.parse_type(entry["type"], aliases)
    assert shape == entry["shape"]
    if "layout" in entry:
        got = layout.to_linear_layout(shape)
        assert normalized(as_json(got)) == normalized(entry["layout"])
        if "gluon" in entry:
            assert repr(layout) == entry["gluon"]
    else:
        # Triton 3.9 could not lay it out (a multi-buffer memdesc, or a layout Gluon has no class for).
        assert "error" in entry
