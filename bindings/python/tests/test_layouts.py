"""Gluon's layout classes: constructor arguments and defaults as Gluon's, attributes, the class hierarchy,
equality, text forms, TTGIR parsing, and layouts computed through them."""

import pickle

import pytest

import weft

BLOCKED_TTGIR = (
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
)


def test_blocked_positional_keyword_and_attributes():
    a = weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    b = weft.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])
    assert a == b and hash(a) == hash(b)
    assert a.size_per_thread == [1, 4] and a.order == [1, 0] and a.cga_layout == []
    assert a.rank == 2
    assert repr(a) == (
        "BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], "
        "order=[1, 0], cga_layout=[])"
    )
    assert a.to_ttgir() == BLOCKED_TTGIR
    assert weft.parse_layout(BLOCKED_TTGIR) == a
    assert weft.parse_layout("gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])") == a
    with pytest.raises(AttributeError):
        a.instr_shape
    # Tuples work as lists do.
    assert weft.BlockedLayout((1, 4), (8, 4), (4, 1), (1, 0)) == a


def test_blocked_layout_places_elements():
    ll = weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]).to_linear_layout([32, 32])
    # Lane 9 = lane bits 0 and 3: columns 4, rows 2; register 2: column 2.
    assert ll.apply({"register": 2, "lane": 9, "warp": 0}) == {"dim0": 2, "dim1": 6}
    assert ll.in_dims == [("register", 8), ("lane", 32), ("warp", 4), ("block", 1)]


def test_hierarchy_and_types():
    mma = weft.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])
    dot = weft.DotOperandLayout(0, mma, 2)
    sl = weft.SliceLayout(1, mma)
    shared = weft.NVMMASharedLayout(128, 16)
    for d in (mma, dot, sl):
        assert isinstance(d, weft.DistributedLayout) and isinstance(d, weft.Layout)
        assert not isinstance(d, weft.SharedLayout)
    assert isinstance(shared, weft.SharedLayout)
    assert dot.parent == mma and type(dot.parent) is weft.NVMMADistributedLayout
    assert sl.dim == 1 and sl.rank == 1
    assert shared.rank == 2 and shared.transposed is False and shared.fp4_padded is False
    assert mma != dot and mma != "mma"


def test_defaults_are_gluons():
    mfma = weft.AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=True, warps_per_cta=[2, 2])
    assert mfma.element_bitwidth == 32 and mfma.tiles_per_warp == [1, 1]
    wmma = weft.AMDWMMALayout(version=2, transposed=False, warp_bases=[[1, 0], [0, 1]])
    assert wmma.instr_shape == [16, 16, 16] and wmma.reg_bases == [] and wmma.rank == 2
    swz = weft.SwizzledSharedLayout(8, 1, 8, [1, 0])
    assert (swz.vec, swz.per_phase, swz.max_phase) == (8, 1, 8)
    sl = weft.SharedLinearLayout([[0, 1], [0, 2], [1, 0]])
    assert sl.block_bases == [] and sl.alignment == 16


def test_shared_layouts_map_offsets():
    swz = weft.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0])
    ll = swz.to_linear_layout([4, 8])
    assert ll.in_dims[0] == ("offset", 32)
    # Unswizzled row-major: offset = row * 8 + col.
    for off in range(32):
        assert ll.apply({"offset": off}) == {"dim0": off // 8, "dim1": off % 8}


def test_distributed_linear_layout_round_trips():
    lin = weft.DistributedLinearLayout(
        reg_bases=[[0, 1]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[[8, 0]],
        block_bases=[], shape=[16, 8],
    )
    ll = lin.to_linear_layout([16, 8])
    assert ll.get_in_dim_bases("lane") == [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    assert weft.parse_layout(lin.to_ttgir()) == lin


def test_table_names_threads():
    table = weft.BlockedLayout([1, 1], [1, 32], [1, 1], [1, 0]).table([1, 32])
    assert table.split() == [f"T{t}:0" for t in range(32)]


def test_parse_ttgir_lists_aliases_and_types():
    text = (
        f"#blocked = {BLOCKED_TTGIR}\n"
        "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>\n"
        "#smem = #ttg.shared_memory\n"
        "module {\n  %0 = op : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>\n}\n"
    )
    aliases = weft.parse_ttgir(text)
    assert list(aliases) == ["#blocked", "#mma"]
    assert aliases["#blocked"] == weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    shape, element, layout = weft.parse_type(
        "tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>", aliases
    )
    assert (shape, element) == ([32, 32], "f16")
    assert layout == weft.DotOperandLayout(operand_index=0, parent=aliases["#mma"], k_width=2)
    with pytest.raises(weft.ParseError, match="unknown alias"):
        weft.parse_type("tensor<32x32xf16, #nope>")


def test_pickle_and_hash_of_layouts():
    mma = weft.NVMMADistributedLayout([2, 0], [2, 2], [16, 8])
    dot = weft.DotOperandLayout(1, mma, 4)
    for obj in (mma, dot, weft.NVMMASharedLayout(64, 16, transposed=True)):
        back = pickle.loads(pickle.dumps(obj))
        assert back == obj and type(back) is type(obj) and hash(back) == hash(obj)
    assert len({mma, weft.NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), dot}) == 2


def test_plan_and_bank_conflicts_are_plain_objects():
    src = weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    dst = weft.BlockedLayout([4, 1], [4, 8], [1, 4], [0, 1])
    plan = weft.plan_conversion(src, dst, shape=[32, 32], dtype="f16")
    assert type(plan) is dict and plan["kind"] == "shared_memory" and plan["scratch_bytes"] > 0
    assert plan == weft.plan_conversion(src, dst, shape=[32, 32], dtype=16)
    same = weft.plan_conversion(src, src, shape=[32, 32])
    assert same["kind"] == "noop" and same["scratch_bytes"] == 0
    bank = weft.bank_conflicts(src, weft.SwizzledSharedLayout(1, 1, 1, [1, 0]), shape=[32, 32], dtype="f16")
    assert set(bank) == {"bank_conflicts", "exact_bank_conflicts", "vector", "lanes_per_phase",
                         "wavefronts_per_phase"}
    assert all(type(v) is int for v in bank.values())
    with pytest.raises(TypeError, match="shape"):
        weft.plan_conversion(src, dst)
    with pytest.raises(weft.SizeError, match="covers"):
        weft.plan_conversion(src.to_linear_layout([32, 32]), dst, shape=[64, 64])
    with pytest.raises(weft.InvalidLayoutError, match="target"):
        weft.plan_conversion(src, dst, shape=[32, 32], target="sm_00")
    with pytest.raises(weft.InvalidLayoutError, match="dtype"):
        weft.plan_conversion(src, dst, shape=[32, 32], dtype="f13")


def test_errors_carry_weft_messages():
    with pytest.raises(weft.InvalidLayoutError, match="size_per_thread.*power of two"):
        weft.BlockedLayout([1, 3], [8, 4], [4, 1], [1, 0])
    with pytest.raises(weft.InvalidLayoutError, match="missing"):
        weft.BlockedLayout([1, 4], [8, 4], [4, 1])
    with pytest.raises(weft.InvalidLayoutError, match="unknown parameter"):
        weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0], colour=3)
    with pytest.raises(weft.InvalidLayoutError, match="at most"):
        weft.SliceLayout(0, weft.BlockedLayout([1], [32], [4], [0]), 3)
    with pytest.raises(weft.InvalidLayoutError, match="Gluon layout class"):
        weft.AMDRotatingSharedLayout(1, 1, 1, [1, 0])
    with pytest.raises(weft.ParseError, match="line 1, column"):
        weft.parse_layout("#ttg.blocked<{sizePerThread = [1, 4]")
    with pytest.raises(weft.DimError):
        weft.LinearLayout.identity_1d(4, "lane", "dim0").get_in_dim_size("warp")
    assert issubclass(weft.LayoutError, ValueError)
    for cls in (weft.ParseError, weft.DimError, weft.SizeError, weft.NotInvertibleError,
                weft.NotDivisibleError, weft.InvalidLayoutError):
        assert issubclass(cls, weft.LayoutError)


def test_nvmma_shared_default_is_the_widest_swizzle_the_tile_allows():
    class Float8:  # a Triton dtype stand-in: Gluon passes `gl.float8e4nv` and reads `primitive_bitwidth`
        primitive_bitwidth = 8

    cases = [([64, 64], "f16", 128), ([128, 32], "f16", 64), ([64, 16], "f16", 32), ([64, 8], "f16", 0),
             ([4, 64], "f16", 0), ([64, 64], Float8(), 64), ([64, 64], 32, 128), ([64], "f16", 0)]
    for shape, dtype, swizzle in cases:
        got = weft.NVMMASharedLayout.get_default_for(shape, dtype)
        assert type(got) is weft.NVMMASharedLayout
        assert (got.swizzle_byte_width, got.rank) == (swizzle, len(shape)), (shape, dtype)
    # Transposed: the contiguous dim is the first one.
    assert weft.NVMMASharedLayout.get_default_for([32, 8], "f16", transposed=True).swizzle_byte_width == 64
    with pytest.raises(weft.InvalidLayoutError):
        weft.NVMMASharedLayout.get_default_for([], "f16")
