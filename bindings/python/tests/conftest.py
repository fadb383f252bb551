"""Shared helpers: the repository's Triton 3.9 fixtures (tests/fixtures), and layouts built through the
Python API from the fixtures' Gluon constructor arguments."""

import json
from pathlib import Path

import weft

FIXTURES = Path(__file__).resolve().parents[3] / "tests" / "fixtures"


def load(name):
    """The `cases` (or whole document) of a fixture file."""
    doc = json.loads((FIXTURES / name).read_text())
    return doc.get("cases", doc)


def build(spec):
    """The weft layout object of a fixture's `{"kind": <Gluon class>, "params": {...}}`, parents built first."""
    params = dict(spec["params"])
    for key in ("parent", "partition_layout"):
        if isinstance(params.get(key), dict):
            params[key] = build(params[key])
    return getattr(weft, spec["kind"])(**params)


def as_json(ll):
    """A LinearLayout in the fixtures' JSON form, read through the Python API only."""
    return {
        "in_dims": [[name, bases] for name, bases in ll.bases],
        "out_dims": [[name, size] for name, size in ll.out_dims],
    }


def normalized(layout_json):
    """In dims with no bases dropped (Triton lists all four hardware dims; a size-1 dim means nothing)."""
    ins = [(d[0], d[1]) for d in layout_json["in_dims"] if d[1]]
    outs = [d[1] for d in layout_json["out_dims"]]
    return ins, outs


def case_id(c):
    return f"{c.get('id')}-{c.get('kind', c.get('op', ''))}"
