"""The type stubs (python/hulhe.pyi, copied beside the module) name exactly what the module
has, and every function, class and method carries a docstring."""
import ast
import inspect
from pathlib import Path

import hulhe
from conftest import SOURCE_DIR


def stub_names():
    tree = ast.parse((SOURCE_DIR / "python" / "hulhe.pyi").read_text())
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return names, members


def test_stubs_match_the_module():
    names, members = stub_names()
    public = {n for n in dir(hulhe) if not n.startswith("_")}
    assert names == public
    for cls, methods in members.items():
        if cls == "InputError":  # a ValueError: its methods are the exception's
            continue
        have = {n for n in dir(getattr(hulhe, cls)) if not n.startswith("_")}
        assert methods - {"__init__"} == have, cls
    assert (Path(hulhe.__file__).parent / "hulhe.pyi").read_text() == \
        (SOURCE_DIR / "python" / "hulhe.pyi").read_text()


def test_everything_has_a_docstring():
    missing = []
    for name in dir(hulhe):
        if name.startswith("_"):
            continue
        obj = getattr(hulhe, name)
        if not inspect.getdoc(obj):
            missing.append(name)
        if inspect.isclass(obj) and obj is not hulhe.InputError:
            for m in dir(obj):
                if m.startswith("_"):
                    continue
                attr = getattr(obj, m)
                doc = inspect.getdoc(attr)
                # pybind11 gives every method its signature line; ask for more on functions.
                if callable(attr) and (not doc or "\n" not in doc and "(" in doc and len(doc) < 20):
                    missing.append(f"{name}.{m}")
    assert missing == []
