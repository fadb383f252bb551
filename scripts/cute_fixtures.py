#!/usr/bin/env python3
"""Ground-truth fixtures for weft's CuTe interop, produced by PyCuTe itself (CUTLASS's Python layout algebra).

PyCuTe ships in the ``nvidia-cutlass`` wheel:

    python3 -m venv /tmp/cute && /tmp/cute/bin/pip install nvidia-cutlass==4.2.0.0
    /tmp/cute/bin/python scripts/cute_fixtures.py [--out tests/fixtures/cute.json]

Writes one JSON file (formats in ``tests/fixtures/README.md``):

* ``layouts``: random CuTe layouts (nested power-of-two shapes, strides whose bits overlap or not, some with a
  ``Swizzle<B,M,S>``, some with non-power-of-two extents) with PyCuTe's offset for every coordinate;
* ``composition``, ``complement``, ``logical_divide``, ``logical_product``: random arguments and PyCuTe's result.

Everything is deterministic (fixed seed, cases in generation order).
"""

from __future__ import annotations

import argparse
import json
import random

import pycute
from pycute import ComposedLayout, Layout, Swizzle

SEED = 20261127
MAX_BITS = 20  # offsets stay below 2^20


def leaf_extents(rng: random.Random, budget: int) -> list[list[int]]:
    """A nested shape as a list of modes, each a list of leaf extents (log2), within `budget` bits."""
    modes = []
    for _ in range(rng.randint(1, 3)):
        leaves = [rng.choice([0, 1, 1, 2, 2, 3]) for _ in range(rng.choice([1, 1, 2, 3]))]
        modes.append(leaves)
    while sum(map(sum, modes)) > budget:
        mode = rng.choice([m for m in modes if sum(m) > 0])
        i = max(range(len(mode)), key=lambda k: mode[k])
        mode[i] -= 1
    return modes


def allocate(rng: random.Random, free: list[int], width: int) -> int | None:
    """Takes `width` consecutive free bit positions at a random place; their lowest, or None."""
    starts = [p for p in free if all(q in free for q in range(p, p + width))]
    if not starts:
        return None
    p = rng.choice(starts)
    for q in range(p, p + width):
        free.remove(q)
    return p


def strides_for(rng: random.Random, modes: list[list[int]], kind: str) -> list[list[int]]:
    """Strides whose input bits never share an offset bit. kind: "pow2" (one bit per stride, CuTe's usual) or
    "disjoint" (some strides with two bits, still never overlapping)."""
    free = list(range(MAX_BITS))
    out = []
    for mode in modes:
        strides = []
        for e in mode:
            if e == 0:
                # Extent 1: the stride never matters (but PyCuTe's divisibility checks read it).
                strides.append(rng.choice([0, 1, 3, 7] if kind == "disjoint" else [0, 1, 4]))
                continue
            if rng.random() < 0.1:
                strides.append(0)
                continue
            chunks = 2 if kind == "disjoint" and rng.random() < 0.4 else 1
            stride = 0
            for _ in range(chunks):
                p = allocate(rng, free, e)
                if p is not None:
                    stride |= 1 << p
            strides.append(stride)
        out.append(strides)
    return out


def nest(modes: list[list[int]]):
    """PyCuTe's nested tuple: a bare int for a one-leaf mode, a bare mode for a one-mode layout."""
    tup = tuple(m[0] if len(m) == 1 else tuple(m) for m in modes)
    return tup[0] if len(tup) == 1 else tup


def random_layout(rng: random.Random, budget: int, kind: str) -> Layout:
    logs = leaf_extents(rng, budget)
    strides = strides_for(rng, logs, kind)
    return Layout(nest([[1 << e for e in m] for m in logs]), nest(strides))


def bad_layout(rng: random.Random) -> Layout:
    """A layout that is not linear over GF(2): a non-power-of-two extent or strides whose bits overlap."""
    choice = rng.randrange(4)
    if choice == 0:
        return Layout((rng.choice([3, 5, 6, 12]), 4), (1, 16))
    if choice == 1:
        return Layout(4, rng.choice([3, 5, 6, 7]))  # stride·1 and stride·2 share a bit
    if choice == 2:
        s = 1 << rng.randrange(4)
        return Layout((2, 4), (s, s))  # two modes on the same bit
    return Layout(((2, 2), 8), ((1, 3), 8))


def evaluate(layout, size: int) -> list[int]:
    return [layout(i) for i in range(size)]


def layouts(rng: random.Random, n: int) -> list[dict]:
    cases = []
    for i in range(n):
        if i % 8 == 7:
            layout = bad_layout(rng)
            cases.append({"layout": str(layout), "values": evaluate(layout, pycute.size(layout))})
            continue
        layout = random_layout(rng, 8, rng.choice(["pow2", "disjoint"]))
        case = {"layout": str(layout)}
        f = layout
        if rng.random() < 0.4:
            bits = rng.randint(1, 3)
            base = rng.randint(0, 4)
            shift = rng.choice([1, -1]) * rng.randint(bits, bits + 3)
            f = ComposedLayout(Swizzle(bits, base, shift), 0, layout)
            case["swizzle"] = [bits, base, shift]
        case["values"] = evaluate(f, pycute.size(layout))
        cases.append(case)
    return cases


def composition(rng: random.Random, n: int) -> list[dict]:
    cases = []
    while len(cases) < n:
        a = random_layout(rng, 10, rng.choice(["pow2", "disjoint"]))
        size_a = pycute.size(a)
        # B indexes A's domain: power-of-two strides (CuTe's divisibility rule), cosize within size(A).
        b = random_layout(rng, 6, "pow2")
        if pycute.cosize(b) > size_a:
            continue
        cases.append({"a": str(a), "b": str(b), "result": str(pycute.composition(a, b))})
    return cases


def complement(rng: random.Random, n: int) -> list[dict]:
    cases = []
    while len(cases) < n:
        a = random_layout(rng, 8, "pow2")
        cosize = pycute.cosize(a)
        size = 1 << (max(cosize - 1, 1).bit_length() + rng.randint(0, 3))
        cases.append({"a": str(a), "size": size, "result": str(pycute.complement(a, size))})
    return cases


def logical_divide(rng: random.Random, n: int) -> list[dict]:
    cases = []
    while len(cases) < n:
        a = random_layout(rng, 10, rng.choice(["pow2", "disjoint"]))
        b = random_layout(rng, 6, "pow2")
        if pycute.cosize(b) > pycute.size(a):
            continue
        cases.append({"a": str(a), "b": str(b), "result": str(pycute.logical_divide(a, b))})
    return cases


def logical_product(rng: random.Random, n: int) -> list[dict]:
    cases = []
    while len(cases) < n:
        a = random_layout(rng, 6, "pow2")
        b = random_layout(rng, 6, "pow2")
        cases.append({"a": str(a), "b": str(b), "result": str(pycute.logical_product(a, b))})
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="tests/fixtures/cute.json")
    args = parser.parse_args()
    rng = random.Random(SEED)
    fixtures = {
        "generator": "scripts/cute_fixtures.py (PyCuTe from nvidia-cutlass 4.2.0.0)",
        "layouts": layouts(rng, 240),
        "composition": composition(rng, 200),
        "complement": complement(rng, 200),
        "logical_divide": logical_divide(rng, 200),
        "logical_product": logical_product(rng, 200),
    }
    with open(args.out, "w") as f:
        json.dump(fixtures, f, indent=1)
        f.write("\n")
    print({k: len(v) for k, v in fixtures.items() if isinstance(v, list)})


if __name__ == "__main__":
    main()
