"""Every closed case of tests/fixtures/fuzz_regressions.json (the differential fuzzer's findings against
Triton 3.9) through the Python API, judged as tests/fuzz_regressions.rs judges them."""

import pytest

import weft
from conftest import as_json, load, normalized

CASES = [c for c in load("fuzz_regressions.json") if "open" not in c]


def _laid_out(text, shape, compiler_view=False):
    layout = weft.parse_layout(text)
    if compiler_view and isinstance(layout, weft.DistributedLayout):
        return layout.tensor_layout(shape)
    return layout.to_linear_layout(shape)


def _check_encoding(c):
    if "layout_unavailable" in c:
        return
    try:
        got = _laid_out(c["gluon"], c["shape"])
    except weft.LayoutError as e:
        assert "layout" not in c, f"Triton accepts, weft: {e}"
        return
    assert "layout" in c, f"Triton rejects ({c.get('error')}), weft accepts"
    assert normalized(as_json(got)) == normalized(c["layout"])
    if "ttgir" in c and "ctaLayout = {}" not in c["ttgir"]:
        assert normalized(as_json(_laid_out(c["ttgir"], c["shape"]))) == normalized(c["layout"])


def _check_bank(c):
    try:
        reg = _laid_out(c["reg"], c["shape"], compiler_view=True)
        shared = _laid_out(c["shared"], c["shape"], compiler_view=True)
        got = weft.bank_conflicts(reg, shared, dtype=c["dtype"])
    except weft.LayoutError as e:
        assert "bank_conflicts" not in c, f"Gluon counts, weft: {e}"
        return
    assert got["bank_conflicts"] == c["bank_conflicts"]


def _check_convert(c):
    if "decision" not in c:
        return
    src = weft.parse_layout(c["src"])
    dst = weft.parse_layout(c["dst"])
    plan = weft.plan_conversion(src, dst, shape=c["shape"], dtype=c["dtype"])
    assert plan["triton_kind"] == c["decision"]
    if plan["kind"] == c["decision"] == "shared_memory":
        assert plan["scratch_bytes"] <= c.get("scratch_bytes", 0)


@pytest.mark.parametrize("c", CASES, ids=lambda c: f"{c['id']}-{c['op']}")
def test_fuzz_finding_agrees_with_triton(c):
    {"encoding": _check_encoding, "bank": _check_bank, "convert": _check_convert}[c["op"]](c)
