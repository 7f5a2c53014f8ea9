"""Every ```python block of docs/python.md, run in order in one namespace from the source
folder (slow: its strategy is the HULHE fixture standing for runs/hulhe-quick.strategy). A block
after `<!-- python-test: skip (why) -->` is left out."""
import contextlib
import io
import os
import re

import pytest

from conftest import SOURCE_DIR

pytestmark = pytest.mark.slow

BLOCK = re.compile(r"(<!-- python-test: skip[^>]*-->\s*)?```python\n(.*?)```", re.S)


def blocks():
    text = (SOURCE_DIR / "docs" / "python.md").read_text()
    return [(m.group(1) is not None, m.group(2)) for m in BLOCK.finditer(text)]


def test_the_page_has_its_examples():
    found = blocks()
    assert len(found) >= 5 and sum(skip for skip, _ in found) == 1


def test_python_md_examples_run(hulhe_strategy, monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)
    namespace = {}
    for i, (skip, code) in enumerate(blocks()):
        if skip:
            continue
        code = code.replace('"runs/hulhe-quick.strategy"', repr(str(hulhe_strategy)))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"docs/python.md block {i + 1}", "exec"), namespace)
        assert out.getvalue(), f"block {i + 1} printed nothing"
    # The figures the page states.
    assert namespace["r"]["log"].splitlines()[-1].startswith("SCORE:")
    assert namespace["report"]["nash_conv"] > 0
    assert os.getcwd() == str(SOURCE_DIR)
