"""`LinearLayout.apply`'s fast path (a METH_O method, keys recognised by identity, values packed into one
word, the result dict reused once its caller has let go of it) against the general path and the bases: the
same answers on every input, results that callers keep never change, and every unusual argument still
gives the general path's answer or error."""

import gc
import random
import sys

import pytest

import weft
from weft import LinearLayout


def layout():
    return weft.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[4, 1], instr_shape=[16, 8]).to_linear_layout(
        [128, 128]
    )


def by_bases(ll, x):
    """The image of `x` computed from `bases` in Python."""
    out = [0] * len(ll.out_dims)
    for dim, bases in ll.bases:
        for bit, basis in enumerate(bases):
            if x.get(dim, 0) >> bit & 1:
                out = [a ^ b for a, b in zip(out, basis)]
    return {name: v for (name, _), v in zip(ll.out_dims, out)}


def test_random_points_equal_the_bases_and_kept_results_never_change():
    ll = layout()
    rng = random.Random(27)
    sizes = dict(ll.in_dims)
    kept = []
    for _ in range(3000):
        dims = [d for d in sizes if rng.random() < 0.8]
        rng.shuffle(dims)  # any key order
        x = {d: rng.randrange(sizes[d]) for d in dims}
        got = ll.apply(x)
        assert got == by_bases(ll, x), x
        if rng.random() < 0.3:
            kept.append((x, got))
    for x, got in kept:
        assert got == by_bases(ll, x), "a result the caller kept was changed by a later call"


def test_a_dropped_result_is_refilled_but_never_shared():
    ll = layout()
    first = ll.apply({"register": 1})
    want_first = dict(first)
    second = ll.apply({"lane": 1})
    assert first == want_first and first is not second
    del second
    third = ll.apply({"warp": 1})
    assert third == by_bases(ll, {"warp": 1})
    # The refilled dict is the caller's own: mutating it never reaches the next result.
    third["extra"] = 1
    del third["dim0"]
    del third
    fourth = ll.apply({"warp": 2})
    assert fourth == by_bases(ll, {"warp": 2}) and set(fourth) == {"dim0", "dim1"}


def test_a_dropped_result_with_other_keys_is_not_refilled():
    ll = layout()
    r = ll.apply({"register": 3})
    r.pop("dim0")
    r["foreign"] = 7  # same size, one key not an out dim
    del r
    got = ll.apply({"register": 3})
    assert got == by_bases(ll, {"register": 3}) and "foreign" not in got


def test_unusual_keys_and_values_take_the_general_path():
    ll = layout()
    want = by_bases(ll, {"lane": 5, "register": 3})
    # Keys built at run time are equal but not identical strings.
    assert ll.apply({"".join(["la", "ne"]): 5, "reg" + "ister": 3}) == want
    # bool is an int; an int subclass and large ints go through the general reading too.
    assert ll.apply({"lane": True}) == by_bases(ll, {"lane": 1})

    class Int(int):
        pass

    assert ll.apply({"lane": Int(5), "register": 3}) == want
    assert ll.apply({}) == {"dim0": 0, "dim1": 0}
    with pytest.raises(weft.SizeError):
        ll.apply({"register": 1 << 40})
    with pytest.raises(weft.SizeError):
        ll.apply({"register": (1 << 64) - 1})
    with pytest.raises(OverflowError):
        ll.apply({"register": 1 << 70})
    with pytest.raises(OverflowError):
        ll.apply({"register": -1})
    with pytest.raises(TypeError):
        ll.apply({"register": 1.0})
    with pytest.raises(weft.DimError, match="unknown input dim `nope`"):
        ll.apply({"register": 1, "nope": 0})
    with pytest.raises(TypeError):
        ll.apply([("register", 1)])
    with pytest.raises(TypeError):
        ll.apply()
    with pytest.raises(TypeError):
        ll.apply({"register": 1}, {"lane": 1})
    with pytest.raises(TypeError):
        LinearLayout.apply(weft.BlockedLayout([1], [32], [4], [0]), {"register": 1})


def test_layouts_with_wide_dims_and_many_dims():
    # A 63-bit input dim (the most one dim may have) and a second dim in the packed word's top bit.
    bases = [[1 << i, 0] for i in range(32)] + [[0, 1 << i] for i in range(31)]
    wide = LinearLayout.from_bases([("register", bases), ("lane", [[0, 1 << 31]])], ["dim0", "dim1"],
                                   [1 << 32, 1 << 32])
    top = (1 << 63) - 1
    assert wide.apply({"register": top}) == {"dim0": (1 << 32) - 1, "dim1": (1 << 31) - 1}
    assert wide.apply({"register": 1 << 62, "lane": 1}) == {"dim0": 0, "dim1": (1 << 31) | (1 << 30)}
    assert wide.apply({"lane": 1, "register": 5}) == {"dim0": 5, "dim1": 1 << 31}
    many = LinearLayout.identity_1d(4, "a", "outa")
    for name in "bcdefgh":
        many = many * LinearLayout.identity_1d(4, name, "out" + name)
    x = {name: i % 4 for i, name in enumerate("abcdefgh")}
    assert many.apply(x) == {"out" + k: v for k, v in x.items()}


def test_no_reference_leaks():
    ll = layout()
    x = {"register": 5, "lane": 3}
    for _ in range(1000):
        ll.apply(x)
    gc.collect()
    before = sys.getrefcount(x), sys.getrefcount("register"), len(gc.get_objects())
    for _ in range(10000):
        ll.apply(x)
        kept = ll.apply(x)
    del kept
    gc.collect()
    after = sys.getrefcount(x), sys.getrefcount("register"), len(gc.get_objects())
    assert after[:2] == before[:2]
    assert after[2] - before[2] < 100


def test_apply_is_a_method_with_its_signature_and_doc():
    ll = layout()
    assert "in_dim" in LinearLayout.apply.__doc__
    # Bound and unbound calls give the same answer.
    assert LinearLayout.apply(ll, {"lane": 1}) == ll.apply({"lane": 1})


def test_apply_many_equals_apply_point_by_point():
    ll = layout()
    rng = random.Random(5)
    sizes = dict(ll.in_dims)
    points = [{d: rng.randrange(s) for d, s in sizes.items() if rng.random() < 0.8} for _ in range(500)]
    points.append({"".join(["la", "ne"]): 3})  # the general path inside a batch
    got = ll.apply_many(points)
    assert got == [ll.apply(x) for x in points] == [by_bases(ll, x) for x in points]
    assert len({id(d) for d in got}) == len(got)  # each result its own dict
    assert ll.apply_many(iter(points[:3])) == got[:3] and ll.apply_many([]) == []
    with pytest.raises(weft.SizeError):
        ll.apply_many([{"register": 1}, {"register": 1 << 40}])
    with pytest.raises(TypeError):
        ll.apply_many([{"register": 1}, [("register", 1)]])
    with pytest.raises(TypeError):
        ll.apply_many(5)
