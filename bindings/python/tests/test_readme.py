"""The README's Python example runs and prints what its comments say."""

import contextlib
import io
import re

from conftest import FIXTURES

README = FIXTURES.parents[1] / "README.md"


def test_readme_example_prints_what_it_says():
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    assert len(block.strip().splitlines()) == 5
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md", "exec"), {})
    promised = re.findall(r"print\(.*# (.*)$", block, re.M)
    printed = out.getvalue().splitlines()
    assert printed[0] == promised[0] == "{'dim0': 33, 'dim1': 3}"
    assert printed[1] == "shared_memory"
