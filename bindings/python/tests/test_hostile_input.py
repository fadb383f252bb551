"""Hostile input to every entry point: malformed text, absurd sizes, wrong types, self-referential lists,
random constructor arguments. Each call either returns or raises an ordinary Python exception (a
`weft.LayoutError`, `TypeError`, `ValueError`, `OverflowError` or `AttributeError`); a Rust panic would
surface as `pyo3_runtime.PanicException`, which these tests fail on."""

import random

import pytest

import weft
from weft import LinearLayout

ORDINARY = (weft.LayoutError, TypeError, ValueError, OverflowError, AttributeError)


def survive(f, *args, **kwargs):
    """Calls f; returns its result or the ordinary exception it raised. Anything else fails the test."""
    try:
        return f(*args, **kwargs)
    except ORDINARY as e:
        assert str(e), f"{type(e).__name__} without a message from {f}"
        return e
    except BaseException as e:  # noqa: BLE001 - PanicException derives from BaseException
        pytest.fail(f"{type(e).__module__}.{type(e).__name__} from {getattr(f, '__name__', f)}{args}: {e}")


TEXTS = [
    "", " ", "#", "#ttg.", "#ttg.blocked", "#ttg.blocked<{", "#ttg.blocked<{}>", "BlockedLayout(",
    "BlockedLayout()", "BlockedLayout([1], [32], [4], [0], [[1]])", "gl.", "(" * 5000, "[" * 5000,
    "#ttg.slice<{dim = 0, parent = " * 500, "SliceLayout(0, " * 500, "\x00\x1b[31m\u202e", "é" * 100_000,
    "#ttg.blocked<{sizePerThread = [18446744073709551616], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>",
    "#ttg.blocked<{sizePerThread = [-1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>",
    "BlockedLayout([1] * 3, [32], [4], [0])", "NVMMASharedLayout(128, 16, rank=99999999999)",
    "DistributedLinearLayout([[1 << 63]], [], [], [], [1 << 64])",
    "#blocked = #ttg.blocked<{}>\n%0 = op : tensor<4x4xf32, #blocked>",
    "tensor<4294967296x4294967296xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>>",
    "!ttg.memdesc<0x0xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>",
]


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
def test_parsers_survive_bad_text(text):
    survive(weft.parse_layout, text)
    survive(weft.parse_ttgir, text)
    survive(weft.parse_type, text)
    survive(LinearLayout.from_str, text)
    survive(LinearLayout.from_json, text)


def test_parsers_survive_random_bytes():
    rng = random.Random(27)
    alphabet = "#<>{}[](),=:.x0123456789abcdeflmnoprstuvwy _-\n\"'"
    valid = weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    seeds = [valid.to_ttgir(), repr(valid), str(valid.to_linear_layout([32, 32])),
             valid.to_linear_layout([32, 32]).to_json()]
    for _ in range(3000):
        s = list(rng.choice(seeds))
        for _ in range(rng.randrange(1, 6)):
            i = rng.randrange(len(s) + 1)
            op = rng.randrange(3)
            if op == 0 and s:
                del s[min(i, len(s) - 1)]
            elif op == 1:
                s.insert(i, rng.choice(alphabet))
            elif s:
                s[min(i, len(s) - 1)] = rng.choice(alphabet)
        text = "".join(s)
        survive(weft.parse_layout, text)
        survive(LinearLayout.from_str, text)
        survive(LinearLayout.from_json, text)


BIG = [0, 1, 3, 2**31, 2**32, 2**62, 2**63, 2**64 - 1, 2**64, 2**200, -1]


def test_linear_layout_constructors_survive_absurd_sizes():
    for n in BIG:
        survive(LinearLayout.identity_1d, n, "a", "b")
        survive(LinearLayout.strided_1d, 4, n, "a", "b")
        survive(LinearLayout.strided_1d, n, 2, "a", "b")
        survive(LinearLayout.zeros_1d, n, "a", "b", 4)
        survive(LinearLayout.zeros_1d, 4, "a", "b", n)
        survive(LinearLayout.from_bases, [("a", [[n]])], ["b"])
        survive(LinearLayout.from_bases, [("a", [[n]])], ["b"], [n], False)
    survive(LinearLayout.from_bases, [("a", [[1]] * 70)], ["b"], None, False)
    survive(LinearLayout.from_bases, [("a", [[1, 2]])], ["b"])
    survive(LinearLayout.from_bases, [("a", [[1]]), ("a", [[2]])], ["b"])
    survive(LinearLayout.from_bases, [("a", [[1]])], ["b", "b"])
    survive(LinearLayout.from_bases, [("a", [[1]])], ["b"], [2, 4])
    survive(LinearLayout.from_bases, "nonsense", 3)
    survive(LinearLayout.identity_1d, 4, "", "")
    survive(LinearLayout.identity_1d, 4, "x" * 100_000, "y")


def test_linear_layout_operations_survive_bad_arguments():
    a = LinearLayout.identity_1d(8, "register", "dim0") * LinearLayout.identity_1d(4, "lane", "dim1")
    b = LinearLayout.from_bases([("register", [[1], [0]])], ["dim0"])
    big = LinearLayout.from_bases([("register", [[1 << i] for i in range(63)])], ["dim0"])
    for x in (a, b, big, LinearLayout()):
        for y in (a, b, big, LinearLayout()):
            for op in ("compose", "invert_and_compose", "divide_left", "divide_right", "concat_ins",
                       "concat_outs", "__mul__", "equivalent"):
                survive(getattr(x, op), y)
        for op in ("invert", "pseudoinvert", "flatten_ins", "flatten_outs", "get_free_variable_masks",
                   "get_num_consecutive_in_out", "get_matrix_view", "_repr_svg_", "_repr_html_", "to_json"):
            survive(getattr(x, op))
        for v in BIG:
            survive(x.apply, {"register": v})
            survive(x.apply, {"nope": v})
            survive(x.resize_in_dim, "register", v)
            survive(x.resize_out_dim, "dim0", v)
            survive(x.reshape_ins, [("register", v)])
            survive(x.reshape_outs, {"dim0": v})
            survive(x.ensure_layout_not_larger_than, {"dim0": v})
            survive(x.ensure_layout_not_smaller_than, {"dim0": v})
        survive(x.apply, {1: 2})
        survive(x.apply, {"register": "x"})
        survive(x.apply_many, [{"register": v} for v in BIG])
        survive(x.apply_many, [{1: 2}, None, "x"])
        survive(x.apply_many, "register")
        survive(x.transpose_ins, ["nope"])
        survive(x.transpose_outs, ["dim0", "dim0"])
        survive(x.sublayout, ["nope"], ["dim0"])
        survive(x.quotient, ["register", "nope"])
        survive(x.rename_in_dim, "register", "lane")
        survive(x.get_in_dim_bases, "nope")
        survive(x.get_out_dim_size, "nope")


CLASSES = [weft.BlockedLayout, weft.SliceLayout, weft.NVMMADistributedLayout, weft.DotOperandLayout,
           weft.AMDMFMALayout, weft.AMDWMMALayout, weft.DistributedLinearLayout, weft.SwizzledSharedLayout,
           weft.NVMMASharedLayout, weft.PaddedSharedLayout, weft.SharedLinearLayout,
           weft.AMDRotatingSharedLayout]


def _random_value(rng, depth=0):
    r = rng.randrange(8)
    if r == 0:
        return rng.choice(BIG)
    if r == 1:
        return rng.choice([True, False, None])
    if r == 2:
        return weft.BlockedLayout([1, 1], [4, 8], [2, 2], [1, 0])
    if r == 3 or depth > 2:
        return rng.choice([1, 2, 4, 8, 16, 32])
    if r == 4:
        return rng.choice(["text", 1.5, object(), {"warp": [[1, 0]]}])
    return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]


def test_layout_classes_survive_random_arguments():
    rng = random.Random(9)
    loop = []
    loop.append(loop)
    for cls in CLASSES:
        survive(cls)
        survive(cls, loop, loop, loop, loop)
        survive(cls, *([[1]] * 20))
        for _ in range(300):
            args = [_random_value(rng) for _ in range(rng.randrange(8))]
            obj = survive(cls, *args)
            if isinstance(obj, weft.Layout):
                for shape in ([], [0], [1], [3, 5], [2**40, 2**40], [1] * 100, [64, 64], [-1]):
                    survive(obj.to_linear_layout, shape)
                    survive(obj.tensor_layout, shape)
                    survive(obj.draw, shape)
                    survive(obj.table, shape)
                survive(obj._repr_svg_)
                repr(obj)
                obj.to_ttgir()


def test_layout_methods_survive_bad_shapes_and_pairs():
    blocked = weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    shared = weft.NVMMASharedLayout(128, 16)
    mfma = weft.AMDMFMALayout(3, [32, 32, 8], True, [2, 2])
    for obj in (blocked, shared, mfma, weft.SliceLayout(1, blocked)):
        for shape in ([], [0, 0], [2**63, 2], [2**64, 1], [1] * 65, [4096, 4096], [3, 3], [-4, 4]):
            survive(obj.to_linear_layout, shape)
            survive(obj.draw, shape)
            survive(obj.table, shape)
        for other in (blocked, shared, mfma, blocked.to_linear_layout([32, 32]), 3, "x"):
            for shape in (None, [32, 32], [64, 64], [1, 1], [2**40, 2]):
                for dtype in (None, "f16", "f13", 0, 65, 2**70):
                    survive(weft.plan_conversion, obj, other, shape, dtype)
                    survive(weft.bank_conflicts, obj, other, shape, dtype)
    for shape in ([], [0], [2**63, 2**63], [1] * 100, [-1, 4], "x"):
        for dtype in ("f16", "nope", 0, 2**40, None, object()):
            survive(weft.NVMMASharedLayout.get_default_for, shape, dtype)
            survive(weft.NVMMASharedLayout.get_default_for, shape, dtype, True, True, [[1 << 70]])
    survive(weft.parse_type, "tensor<4x4xf32, #a>", {"#a": 3})
    survive(weft.parse_type, "tensor<4x4xf32, #a>", {3: blocked})


def test_mutated_fixture_layouts_survive():
    """Triton's own fixture layouts with one argument replaced at random: near-valid input reaches deep
    into every encoding's layout code."""
    from conftest import load

    rng = random.Random(3)
    built = 0
    for c in load("encodings.json"):
        params = dict(c["params"])
        key = rng.choice(sorted(params))
        if key != "parent":
            params[key] = _random_value(rng) if rng.random() < 0.5 else _mutate(rng, params[key])
        if isinstance(params.get("parent"), dict):
            parent = c["params"]["parent"]
            params["parent"] = survive(getattr(weft, parent["kind"]), **parent["params"])
        obj = survive(getattr(weft, c["kind"]), **params)
        if isinstance(obj, weft.Layout):
            built += 1
            survive(obj.to_linear_layout, c["shape"])
            survive(obj.tensor_layout, [s * 2 for s in c["shape"]])
            survive(obj._repr_svg_)
    assert built > 200


def _mutate(rng, value):
    if isinstance(value, list) and value:
        value = list(value)
        i = rng.randrange(len(value))
        value[i] = _mutate(rng, value[i])
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return rng.choice([0, value * 2, value + 1, value // 2, 2**32, 64])
    return _random_value(rng)


def test_helper_layouts_and_cute_algebra_survive_bad_arguments():
    from weft import _weft, cute
    from weft.amd import cdna4, cdna5, get_scaled_upcast_fp4_scale_layout
    from weft.nvidia.blackwell import tensor_memory_descriptor_type

    tmem = weft.TensorMemoryLayout(block=(128, 64), col_stride=1)
    blocked = weft.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    junk = [None, -1, 0, 3, 1 << 64, "x", [], [[]], [1 << 40, 1], [[1 << 63]] * 70, blocked, 1.5]
    for a in junk:
        survive(weft.get_tmem_reg_layout, "f32", [128, 64], tmem, a)
        survive(weft.get_tmem_reg_layout, a, [128, 64], tmem, 4)
        survive(weft.get_tmem_reg_layout, "f32", a, tmem, 4)
        survive(weft.get_tmem_reg_layout, "f32", [128, 64], tmem, 4, "32x32b", a)
        survive(weft.get_tmem_reg_layout, "f32", [128, 64], tmem, 4, a)
        survive(tensor_memory_descriptor_type("f32", [128, 64], blocked).get_reg_layout, 4)
        survive(_weft.amd_mfma_scale_layout_of, a, [128, 4], 16, [1, 1], [1, 1])
        survive(_weft.amd_mfma_scale_layout_of, 0, a, 16, [1, 1], [1, 1])
        survive(_weft.amd_mfma_scale_layout_of, 0, [128, 4], a, a, a)
        survive(_weft.amd_wmma_scale_layout_of, 0, [64, 4], a, 16, False, 32, a, a, a)
        survive(_weft.amd_wmma_scale_layout_of, a, a, 16, 16, a, a, [], [], [])
        survive(_weft.scaled_upcast_fp4_scale_layout_of, blocked, [64, 128], a, 1)
        survive(_weft.scaled_upcast_fp4_scale_layout_of, blocked, a, 8, a)
        survive(get_scaled_upcast_fp4_scale_layout, blocked, a, "bf16", 1, [64, 128])
        survive(cdna4.get_mfma_scale_layout, a, [128, 4])
        survive(cdna5.get_wmma_scale_layout, a, [128, 4])
        for op in (cute.composition, cute.logical_divide, cute.logical_product):
            survive(op, a, "4:1")
            survive(op, "4:1", a)
        survive(cute.complement, "4:1", a)
        survive(cute.complement, a, 16)
    for text in TEXTS[:12]:
        survive(cute.composition, text, "4:1")
        survive(cute.complement, text, 64)
    big = "(" + ",".join(["2"] * 70) + "):(" + ",".join(str(1 << i) for i in range(70)) + ")"
    survive(cute.logical_product, big, big)
    survive(cute.composition, big, "2:1")


def test_make_partitioned_dot_layouts_survives_bad_arguments():
    from weft.amd import cdna5

    pad = weft.PaddedSharedLayout([[64, 8]], [[0, 1], [0, 2], [1, 0], [2, 0]], [], [4, 4])
    for v in BIG + [None, "x", [], [1], [16, 16, 1 << 40]]:
        survive(cdna5.make_partitioned_dot_layouts, v, 128, pad, pad, 4, [16, 16, 32])
        survive(cdna5.make_partitioned_dot_layouts, 128, 128, pad, pad, v, [16, 16, 32])
        survive(cdna5.make_partitioned_dot_layouts, 128, 128, pad, pad, 4, v)
        survive(cdna5.make_partitioned_dot_layouts, 128, 128, pad, pad, 4, [16, 16, 32], slice_m=v)
        survive(cdna5.make_partitioned_dot_layouts, 128, 128, v, pad, 4, [16, 16, 32])


def test_compute_efficient_padded_shared_layout_survives_bad_arguments():
    from weft.amd import cdna4

    mfma = weft.AMDMFMALayout(version=4, instr_shape=[16, 16, 32], transposed=True, warps_per_cta=[2, 2])
    dot = weft.DotOperandLayout(0, mfma, 8)
    for v in BIG + [None, "x", [], [1], 1.5]:
        survive(cdna4.compute_efficient_padded_shared_layout, dot, [v, 64], "f16")
        survive(cdna4.compute_efficient_padded_shared_layout, dot, v, "f16")
        survive(cdna4.compute_efficient_padded_shared_layout, dot, [64, 64], v)
        survive(cdna4.compute_efficient_padded_shared_layout, v, [64, 64], "f16")
