"""weft.LinearLayout under Triton's Python names: constructors, the algebra checked element by element
against its definition, queries, text forms, equality, pickling."""

import itertools
import pickle

import pytest

import weft
from weft import LinearLayout


def mma_tile():
    """The 16x16 accumulator of mma.m16n8k16 (two n8 tiles), 8 registers x 32 lanes."""
    return LinearLayout.from_bases(
        [
            ("register", [[0, 1], [8, 0], [0, 8]]),
            ("lane", [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]),
        ],
        ["dim0", "dim1"],
    )


def blocked_tile():
    return LinearLayout.from_bases(
        [
            ("register", [[0, 1], [0, 2], [0, 4]]),
            ("lane", [[0, 8], [1, 0], [2, 0], [4, 0], [8, 0]]),
        ],
        ["dim0", "dim1"],
    )


def inputs(ll):
    """Every input of a layout as a dict."""
    dims = ll.in_dims
    for values in itertools.product(*[range(size) for _, size in dims]):
        yield dict(zip([d for d, _ in dims], values))


def test_apply_is_the_xor_of_bases():
    ll = mma_tile()
    assert ll.apply({"lane": 5, "register": 3}) == {"dim0": 9, "dim1": 3}
    for x in inputs(ll):
        want = [0, 0]
        for dim, bases in ll.bases:
            for bit, basis in enumerate(bases):
                if x[dim] >> bit & 1:
                    want = [a ^ b for a, b in zip(want, basis)]
        assert ll.apply(x) == {"dim0": want[0], "dim1": want[1]}
    # Dims not given are 0; keys need not be interned strings.
    assert ll.apply({"register": 1}) == {"dim0": 0, "dim1": 1}
    assert ll.apply({"".join(["la", "ne"]): 5, "register": 3}) == {"dim0": 9, "dim1": 3}
    with pytest.raises(weft.DimError, match="unknown input dim `warp`"):
        ll.apply({"register": 1, "warp": 1})
    with pytest.raises(weft.SizeError, match="value 8 is outside in dim `register` of size 8"):
        ll.apply({"register": 8})
    with pytest.raises(TypeError):
        ll.apply({0: 1})


def test_constructors():
    ident = LinearLayout.identity_1d(8, "lane", "dim0")
    assert [ident.apply({"lane": i})["dim0"] for i in range(8)] == list(range(8))
    strided = LinearLayout.strided_1d(4, 2, "register", "dim0")
    assert [strided.apply({"register": i})["dim0"] for i in range(4)] == [0, 2, 4, 6]
    assert strided.out_dims == [("dim0", 8)]
    zeros = LinearLayout.zeros_1d(4, "warp", "dim0", outDimSize=2)
    assert {zeros.apply({"warp": i})["dim0"] for i in range(4)} == {0}
    assert zeros.out_dims == [("dim0", 2)]
    assert LinearLayout().num_in_dims == 0 == LinearLayout.empty().num_out_dims
    sized = LinearLayout.from_bases([("register", [[1]])], ["dim0"], [4], require_surjective=False)
    assert sized.out_dims == [("dim0", 4)] and not sized.is_surjective()
    inferred = LinearLayout.from_bases([("register", [[2], [4]])], ["dim0"], require_surjective=False)
    assert inferred.out_dims == [("dim0", 8)]
    with pytest.raises(weft.NotInvertibleError, match="not surjective"):
        LinearLayout.from_bases([("register", [[2], [4]])], ["dim0"])


def test_queries():
    ll = mma_tile()
    assert ll.in_dims == [("register", 8), ("lane", 32)]
    assert ll.get_in_dim_names() == ["register", "lane"]
    assert ll.get_out_dim_names() == ["dim0", "dim1"]
    assert ll.num_in_dims == 2 and ll.num_out_dims == 2
    assert ll.get_in_dim_size("lane") == 32 and ll.get_out_dim_size("dim1") == 16
    assert ll.get_total_in_dim_size() == 256 == ll.get_total_out_dim_size()
    assert ll.get_in_dim_bases("register") == [[0, 1], [8, 0], [0, 8]]
    assert ll.is_injective() and ll.is_surjective() and ll.is_invertible()
    # Matrix view: row i is output bit i (dim0's bits first), column j input bit j.
    m = ll.get_matrix_view()
    assert len(m) == 8 and all(len(r) == 8 for r in m)
    for j, (dim, bit) in enumerate([(d, b) for d, bases in ll.bases for b in range(len(bases))]):
        out = ll.apply({dim: 1 << bit})
        packed = out["dim0"] | out["dim1"] << 4
        assert [row[j] for row in m] == [packed >> i & 1 for i in range(8)]


def test_compose_applies_self_then_other():
    a = mma_tile()
    perm = LinearLayout.from_bases(
        [("dim0", [[0, 1], [0, 2], [0, 4], [0, 8]]), ("dim1", [[1, 0], [2, 0], [4, 0], [8, 0]])],
        ["x", "y"],
    )
    c = a.compose(perm)
    for x in inputs(a):
        mid = a.apply(x)
        assert c.apply(x) == perm.apply(mid)


def test_invert_and_pseudoinvert():
    ll = mma_tile()
    inv = ll.invert()
    for x in inputs(ll):
        assert inv.apply(ll.apply(x)) == x
    wide = LinearLayout.from_bases([("register", [[1], [2], [0]])], ["dim0"])
    with pytest.raises(weft.NotInvertibleError):
        wide.invert()
    right = wide.pseudoinvert()
    for y in range(4):
        assert wide.apply(right.apply({"dim0": y})) == {"dim0": y}


def test_invert_and_compose_solves_a_equals_b_of_c():
    a, b = mma_tile(), blocked_tile()
    c = a.invert_and_compose(b)
    assert c.apply({"register": 3, "lane": 5}) == {"register": 3, "lane": 18}
    for x in inputs(a):
        assert b.apply(c.apply(x)) == a.apply(x)
    assert c.compose(b) == a


def test_product_multiplies_dims():
    a = LinearLayout.identity_1d(4, "register", "dim0")
    b = LinearLayout.identity_1d(8, "lane", "dim1")
    p = a * b
    assert p.in_dims == [("register", 4), ("lane", 8)]
    assert p.out_dims == [("dim0", 4), ("dim1", 8)]
    same = LinearLayout.identity_1d(4, "register", "dim0") * LinearLayout.identity_1d(2, "register", "dim0")
    assert same.in_dims == [("register", 8)] and same.out_dims == [("dim0", 8)]
    with pytest.raises(TypeError):
        a * 3


def test_reshape_transpose_and_friends():
    ll = mma_tile()
    t = ll.transpose_outs(["dim1", "dim0"])
    assert t.apply({"lane": 5, "register": 3}) == {"dim1": 3, "dim0": 9}
    flat = ll.reshape_outs([("flat", 256)])
    # The first dim varies fastest (Triton's order): flat = dim0 + 16 * dim1.
    assert flat.apply({"lane": 5, "register": 3}) == {"flat": 9 + 16 * 3}
    assert ll.reshape_outs({"flat": 256}) == flat
    assert ll.flatten_outs().out_dims == [("dim0", 256)]
    ins = ll.reshape_ins([("thread", 256)])
    assert ins.apply({"thread": 3 + 8 * 5}) == {"dim0": 9, "dim1": 3}
    assert ll.transpose_ins(["lane", "register"]).get_in_dim_names() == ["lane", "register"]
    assert ll.rename_in_dim("lane", "thread").get_in_dim_names() == ["register", "thread"]
    assert ll.rename_out_dim("dim0", "row").get_out_dim_names() == ["row", "dim1"]
    sub = ll.sublayout(["register"], ["dim1"])
    assert sub.bases == [("register", [[1], [0], [8]])]
    assert ll.resize_in_dim("register", 16).get_in_dim_bases("register")[-1] == [0, 0]
    small = ll.ensure_layout_not_larger_than({"dim0": 8, "dim1": 16})
    assert small.out_dims == [("dim0", 8), ("dim1", 16)]
    assert dict(small.get_free_variable_masks())["register"] == 0b010
    assert LinearLayout.identity_1d(8, "register", "dim0").get_num_consecutive_in_out() == 8
    left = LinearLayout.identity_1d(4, "register", "dim0")
    whole = left * LinearLayout.identity_1d(8, "lane", "dim0")
    quotient = whole.divide_left(left)
    assert quotient.equivalent(LinearLayout.identity_1d(8, "lane", "dim0"))
    assert (left * quotient).equivalent(whole)
    with pytest.raises(weft.NotDivisibleError):
        LinearLayout.identity_1d(8, "lane", "dim0").divide_left(LinearLayout.strided_1d(2, 2, "register", "dim0"))


def test_text_forms_equality_and_pickle():
    ll = mma_tile()
    assert "register=1 -> (0, 1)" in str(ll)
    assert repr(ll) == str(ll)
    assert LinearLayout.from_str(str(ll)) == ll
    assert LinearLayout.from_json(ll.to_json()) == ll
    assert pickle.loads(pickle.dumps(ll)) == ll
    assert hash(LinearLayout.from_json(ll.to_json())) == hash(ll)
    assert ll != blocked_tile() and ll != "not a layout"
    # `==` compares representations; `equivalent` ignores dims of size 1.
    padded = ll * LinearLayout.identity_1d(1, "warp", "dim0")
    assert padded != ll and padded.equivalent(ll)
    assert len({ll, mma_tile(), blocked_tile()}) == 2
