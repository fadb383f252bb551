"""The type stubs shipped in the wheel (weft/_weft.pyi) describe exactly the extension module: every public
name and every public method, no more."""

import ast
import inspect
from pathlib import Path

import weft
from weft import _weft


def _stub():
    path = Path(weft.__file__).with_name("_weft.pyi")
    assert path.exists(), "the wheel ships no stubs"
    assert path.with_name("py.typed").exists()
    return ast.parse(path.read_text())


def _public(names):
    return {n for n in names if not n.startswith("__") or n == "__version__"}


def test_stub_lists_every_module_name():
    tree = _stub()
    stubbed = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            stubbed.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            stubbed.add(node.target.id)
    module = _public(n for n in dir(_weft) if not inspect.ismodule(getattr(_weft, n)))
    assert stubbed - {"Bases", "DType"} == module


def test_stub_lists_every_method():
    for node in _stub().body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(_weft, node.name)
        stubbed = {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
        own = {n for n in vars(cls) if not n.startswith("__")}
        if issubclass(cls, BaseException):
            continue
        assert own <= stubbed, f"{node.name}: not in the stub: {own - stubbed}"
        for name in stubbed - {"__getattr__"}:  # a type slot, not a class attribute
            assert hasattr(cls, name), f"{node.name}.{name} is stubbed but does not exist"
