"""Every case of tests/fixtures/conversions.json and bank_conflicts.json through the Python API: layout
objects built from the Gluon arguments lay out as Triton did, `plan_conversion` predicts Triton 3.9's
decision and never asks for more scratch than Triton, and `bank_conflicts` equals Gluon's count."""

import pytest

import weft
from conftest import as_json, build, case_id, load

CONVERSIONS = [c for c in load("conversions.json") if "src_layout" in c and "error" not in c]
BANKS = [c for c in load("bank_conflicts.json") if "bank_conflicts" in c]
BANK_ERRORS = [c for c in load("bank_conflicts.json") if "error" in c]


def test_fixture_files_are_complete():
    assert len(CONVERSIONS) > 250
    assert len(BANKS) > 150
    assert len(BANKS) + len(BANK_ERRORS) == len(load("bank_conflicts.json"))


@pytest.mark.parametrize("c", CONVERSIONS, ids=case_id)
def test_conversion_agrees_with_triton(c):
    src, dst = build(c["src"]), build(c["dst"])
    shape = c["shape"]
    assert as_json(src.tensor_layout(shape)) == c["src_layout"]
    assert as_json(dst.tensor_layout(shape)) == c["dst_layout"]
    plan = weft.plan_conversion(src, dst, shape=shape, dtype=c["dtype"], target="sm_90")
    assert plan["triton_kind"] == c["decision"]
    assert plan["element_bits"] == {"i8": 8, "f16": 16, "f32": 32}[c["dtype"]]
    if c["decision"] in ("noop", "register_permute"):
        assert plan["kind"] == c["decision"]
    if plan["kind"] == "shared_memory" and c["decision"] == "shared_memory":
        assert 0 < plan["scratch_bytes"] <= c["scratch_bytes"]
    # The same plan from the linear layouts themselves.
    again = weft.plan_conversion(src.tensor_layout(shape), dst.tensor_layout(shape), dtype=c["dtype"])
    assert again == plan


@pytest.mark.parametrize("c", BANKS, ids=case_id)
def test_bank_conflicts_equal_gluon(c):
    reg, shared = build(c["reg"]), build(c["shared"])
    shape = c["shape"]
    assert as_json(reg.tensor_layout(shape)) == c["reg_layout"]
    assert as_json(shared.to_linear_layout(shape)) == c["shared_layout"]
    got = weft.bank_conflicts(reg, shared, shape=shape, dtype=c["dtype"])
    assert got["bank_conflicts"] == c["bank_conflicts"]
    # Gluon's count never exceeds the exact one, and both follow from the wavefronts per phase.
    assert got["bank_conflicts"] <= got["exact_bank_conflicts"] == got["wavefronts_per_phase"] - 1


@pytest.mark.parametrize("c", BANK_ERRORS, ids=case_id)
def test_bank_conflicts_rejected_where_gluon_rejects(c):
    # NVMMA layouts wider than the tile, and padded layouts (no linear layout in Triton 3.9).
    with pytest.raises(weft.LayoutError):
        weft.bank_conflicts(build(c["reg"]), build(c["shared"]), shape=c["shape"], dtype=c["dtype"])
