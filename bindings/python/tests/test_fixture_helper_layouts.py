"""The register layouts Gluon computes from other layouts, through the Python API, against Triton 3.9's own
results in tests/fixtures: every `tcgen05.ld/st` register layout of tmem.json and tmem_scales.json
(`get_tmem_reg_layout` and `nvidia.blackwell.tensor_memory_descriptor_type.get_reg_layout`), every
scaled-MFMA, scaled-WMMA and fp4
`scaled_upcast` scale layout of amd.json. An accepted case gives Gluon's object (its repr, and its linear
layout); a rejected one raises a `weft.LayoutError`."""

import itertools

import pytest

import weft
from conftest import as_json, build, case_id, load, normalized
from weft import _weft
from weft.amd import cdna4, cdna5, get_scaled_upcast_fp4_scale_layout
from weft.nvidia.blackwell import tensor_memory_descriptor_type

TMEM = [c for name in ("tmem.json", "tmem_scales.json") for c in load(name) if c["kind"] == "tmem_reg_layout"]
AMD = [c for c in load("amd.json") if c["kind"] in ("mfma_scale_layout", "wmma_scale_layout", "upcast_fp4_scale_layout")]


def test_every_kind_has_accepted_and_rejected_cases():
    assert len(TMEM) >= 2500 and len(AMD) >= 1000
    for cases in (TMEM, [c for c in AMD if c["kind"] != "mfma_scale_layout"]):
        assert any("error" in c for c in cases) and any("gluon" in c for c in cases)


def _low_level(c):
    if c["kind"] == "tmem_reg_layout":
        return weft.get_tmem_reg_layout(
            c["dtype"], c["shape"], build(c["tmem"]), c["num_warps"], c["instr_variant"], c["alloc_shape"]
        )
    a = c.get("args", {})
    if c["kind"] == "mfma_scale_layout":
        return _weft.amd_mfma_scale_layout_of(a["op_idx"], a["shape"], a["m_dim"], a["tiles_per_warp"], a["warps_per_cta"])
    if c["kind"] == "wmma_scale_layout":
        return _weft.amd_wmma_scale_layout_of(
            a["op_idx"], a["shape"], a["m_dim"], a["n_dim"], a["transposed"], a["scale_factor"],
            a["reg_bases"], a["warp_bases"], a["cga_bases"],
        )
    return _weft.scaled_upcast_fp4_scale_layout_of(build(c["src"]), c["shape"], c["scale_extent"], c["axis"])


@pytest.mark.parametrize("c", TMEM + AMD, ids=case_id)
def test_equals_triton(c):
    if "error" in c:
        with pytest.raises(weft.LayoutError):
            _low_level(c)
        return
    got = _low_level(c)
    assert isinstance(got, weft.DistributedLinearLayout)
    assert repr(got) == c["gluon"]
    # The compiler's view (Gluon's `to_linear_layout` of a DistributedLinearLayout insists on a permutation
    # matrix, which these broadcast-carrying layouts are not).
    assert normalized(as_json(got.tensor_layout(got.shape))) == normalized(c["layout"])


@pytest.mark.parametrize("c", TMEM[::7], ids=case_id)
def test_descriptor_type_get_reg_layout(c):
    def reg_layout():
        desc = tensor_memory_descriptor_type(c["dtype"], c["shape"], build(c["tmem"]), c["alloc_shape"])
        return desc.get_reg_layout(c["num_warps"], c["instr_variant"])

    if "error" in c:
        with pytest.raises(weft.LayoutError):
            reg_layout()
    else:
        assert repr(reg_layout()) == c["gluon"]


def _integral_factor(c):
    """A Gluon-level call exists: the axis is out of range (an error), or the scales divide the extent."""
    axis, shape = c["axis"], c["shape"]
    return not 0 <= axis < len(shape) or shape[axis] * 2 % c["scale_extent"] == 0


@pytest.mark.parametrize(
    "c", [c for c in AMD if c["kind"] == "upcast_fp4_scale_layout" and _integral_factor(c)], ids=case_id
)
def test_gluon_upcast_helper(c):
    """Gluon's `get_scaled_upcast_fp4_scale_layout(src, scale_factor, elem_type, axis)`, with the packed
    tensor's shape given beside its layout."""
    src = weft.parse_layout(c["src_gluon"])
    if not 0 <= c["axis"] < len(c["shape"]):
        with pytest.raises(ValueError, match="out of range"):
            get_scaled_upcast_fp4_scale_layout(src, 8, c["elem"], c["axis"], c["shape"])
        return
    out = c["shape"][c["axis"]] * 2
    call = lambda: get_scaled_upcast_fp4_scale_layout(src, out // c["scale_extent"], c["elem"], c["axis"], c["shape"])
    if "error" in c:
        with pytest.raises(weft.LayoutError):
            call()
    else:
        assert repr(call()) == c["gluon"]


def test_gluon_upcast_helper_checks_its_arguments():
    src = weft.BlockedLayout([1, 16], [8, 8], [1, 1], [1, 0])
    with pytest.raises(ValueError, match="fp16 or bf16"):
        get_scaled_upcast_fp4_scale_layout(src, 32, "f32", 1, [64, 128])
    with pytest.raises(ValueError, match="divisible"):
        get_scaled_upcast_fp4_scale_layout(src, 48, "bf16", 1, [64, 128])
    with pytest.raises(ValueError, match="out of range"):
        get_scaled_upcast_fp4_scale_layout(src, 32, "bf16", 2, [64, 128])
    # A negative axis counts from the end, as in Gluon.
    assert get_scaled_upcast_fp4_scale_layout(src, 8, "bf16", -1, [64, 128]) == get_scaled_upcast_fp4_scale_layout(
        src, 8, "bf16", 1, [64, 128]
    )


def test_gluon_mfma_scale_helper_reads_the_mfma_parent():
    """`amd.cdna4.get_mfma_scale_layout(dot_operand_layout, shape)` passes the parent's instruction rows,
    tiles per warp and warps, as Gluon does (checked against Triton 3.9 on the CPU: 72 of 72 equal)."""
    for m, tiles, warps, op in itertools.product([16, 32], [[1, 1], [2, 2]], [[1, 1], [2, 2], [4, 1]], [0, 1]):
        mfma = weft.AMDMFMALayout(version=4, instr_shape=[m, m, 128 if m == 16 else 64], transposed=True,
                                  warps_per_cta=warps, tiles_per_warp=tiles)
        got = cdna4.get_mfma_scale_layout(weft.DotOperandLayout(op, mfma, 16), [128, 4])
        assert got == _weft.amd_mfma_scale_layout_of(op, [128, 4], m, tiles, warps)
    with pytest.raises(ValueError):
        cdna4.get_mfma_scale_layout(weft.DotOperandLayout(0, mfma, 16), [128, 4], scale_factor=16)
    with pytest.raises(TypeError):
        cdna4.get_mfma_scale_layout(weft.DotOperandLayout(0, weft.BlockedLayout([1, 1], [4, 8], [1, 1], [1, 0]), 0), [128, 4])


def test_gluon_wmma_scale_helper_reads_the_wmma_parent():
    """`amd.cdna5.get_wmma_scale_layout` passes the parent's instruction shape, transposition, register
    and warp bases and the operand's CGA bases (the parent's with K zeroed), as Gluon does (checked against
    Triton 3.9 on the CPU: 864 of 864 equal)."""
    wmma = weft.AMDWMMALayout(version=3, transposed=False, warp_bases=[[0, 1]], reg_bases=[[1, 0]],
                              instr_shape=[32, 16, 128], cga_layout=[[1, 0], [0, 1]])
    for op, sf in itertools.product([0, 1], [16, 32]):
        got = cdna5.get_wmma_scale_layout(weft.DotOperandLayout(op, wmma, 8), [128, 8], sf)
        cga = [[1, 0], [0, 0]] if op == 0 else [[0, 0], [0, 1]]  # A's K is dim 1, B's dim 0
        want = _weft.amd_wmma_scale_layout_of(op, [128, 8], 32, 16, False, sf, [[1, 0]], [[0, 1]], cga)
        assert got == want
    with pytest.raises(ValueError):
        cdna5.get_wmma_scale_layout(weft.DotOperandLayout(0, wmma, 8), [128, 8], 64)


PARTITIONED_DOT = load("partitioned_dot.json")


@pytest.mark.parametrize("c", PARTITIONED_DOT, ids=lambda c: f"{c['id']}-partitioned_dot")
def test_make_partitioned_dot_layouts_equals_triton(c):
    """`amd.cdna5.make_partitioned_dot_layouts` (also `amd.gfx1250`) on every case of
    partitioned_dot.json: Gluon's three objects, or a `LayoutError` where Gluon refuses."""
    from weft.amd import gfx1250

    if "error" in c:
        with pytest.raises(weft.LayoutError):  # weft's PaddedSharedLayout may refuse the operand already
            a, b = build(c["a"]), build(c["b"])
            cdna5.make_partitioned_dot_layouts(c["block_m"], c["block_n"], a, b, **c["kwargs"])
        return
    a, b = build(c["a"]), build(c["b"])
    got = cdna5.make_partitioned_dot_layouts(c["block_m"], c["block_n"], a, b, **c["kwargs"])
    assert [repr(x) for x in got] == [c["shared_a"], c["shared_b"], c["wmma"]]
    assert isinstance(got[0], weft.PartitionedSharedLayout) and isinstance(got[2], weft.AMDWMMALayout)
    assert gfx1250.make_partitioned_dot_layouts(c["block_m"], c["block_n"], a, b, **c["kwargs"]) == got


def test_make_partitioned_dot_layouts_wants_padded_operands():
    swz = weft.SwizzledSharedLayout(8, 1, 8, [1, 0])
    good = build(PARTITIONED_DOT[0]["a"])
    with pytest.raises(TypeError, match="PaddedSharedLayout"):
        cdna5.make_partitioned_dot_layouts(128, 128, swz, good, 4, [16, 16, 32])
    with pytest.raises(TypeError, match="PaddedSharedLayout"):
        cdna5.make_partitioned_dot_layouts(128, 128, good, swz, 4, [16, 16, 32])


EFFICIENT = load("efficient_padded.json")
DTYPE_BITS = {"float16": 16, "bfloat16": 16, "float8e4nv": 8, "uint8": 8, "int8": 8, "float32": 32}


@pytest.mark.parametrize("c", EFFICIENT, ids=lambda c: f"{c['id']}-efficient_padded")
def test_compute_efficient_padded_shared_layout_equals_triton(c):
    """`amd.cdna4.compute_efficient_padded_shared_layout` on every case of efficient_padded.json: Gluon's
    PaddedSharedLayout (its pairs printed by Triton's binding as tuples), None, or an error where Triton
    aborts."""
    dot = weft.parse_layout(c["dot_gluon"])
    call = lambda: cdna4.compute_efficient_padded_shared_layout(dot, c["shape"], DTYPE_BITS[c["dtype"]], c["is_k_contig"])
    if "error" in c:
        with pytest.raises(weft.LayoutError):
            call()
    elif c["gluon"] is None:
        assert call() is None
    else:
        got = call()
        assert isinstance(got, weft.PaddedSharedLayout)
        want = c["gluon"].replace("=[(", "=[[").replace(")], offset", "]], offset")
        assert repr(got) == want


def test_compute_efficient_padded_shared_layout_checks_its_arguments():
    with pytest.raises(TypeError):
        cdna4.compute_efficient_padded_shared_layout(weft.BlockedLayout([1], [64], [1], [0]), [64, 64], "f16")
    mfma3 = weft.AMDMFMALayout(version=3, instr_shape=[16, 16, 16], transposed=True, warps_per_cta=[2, 2])
    with pytest.raises(weft.LayoutError, match="MFMA v4"):
        cdna4.compute_efficient_padded_shared_layout(weft.DotOperandLayout(0, mfma3, 8), [64, 64], "f16")
