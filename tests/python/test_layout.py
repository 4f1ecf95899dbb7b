"""The package's layout: every public name is where docs/api-map.md (and
api-map-submodules.md) says, and the modules import each other downward only (no circles,
nothing importing the package from inside it)."""

import ast
import os
import re
import types

import pytest

import accelpy as ap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAPS = [os.path.join(ROOT, "docs", name) for name in ("api-map.md", "api-map-submodules.md")]
PACKAGE = os.path.dirname(ap.__file__)
# The command-line tools (`python -m accelpy demo|bench|info`): programs using the package, run
# by __main__ and imported by nothing inside it.
TOOLS = {"__main__", "_bench", "_demo", "_info"}


def _map_rows():
    rows = {}
    for path in MAPS:
        with open(path) as f:
            for line in f:
                m = re.match(r"\|\s*`([\w.]+)`\s*\|\s*`([\w.]+)`\s*\|\s*(\w+)", line)
                if m:
                    rows[m.group(1)] = (m.group(2), m.group(3))
    return rows


def _namespaces():
    import accelpy.fft
    import accelpy.linalg
    import accelpy.polynomial
    import accelpy.random
    import accelpy.testing

    spaces = {"accelpy": ap, "accelpy.linalg": accelpy.linalg, "accelpy.fft": accelpy.fft,
              "accelpy.random": accelpy.random, "accelpy.polynomial": accelpy.polynomial,
              "accelpy.testing": accelpy.testing, "accelpy.emath": ap.emath,
              "accelpy.lib.stride_tricks": ap.lib.stride_tricks}
    try:  # accelpy.distributed needs Dask's distributed
        import accelpy.distributed
    except ImportError:
        pass
    else:
        spaces["accelpy.distributed"] = accelpy.distributed
    return spaces


def _public(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    def is_module(n):
        try:
            return isinstance(getattr(module, n), types.ModuleType)
        except ImportError:  # a lazily imported submodule whose dependency is absent (distributed)
            return True
    return [n for n in names if not is_module(n)]


def test_every_public_name_is_mapped():
    rows = _map_rows()
    missing = [f"{prefix}.{n}" for prefix, mod in _namespaces().items() for n in _public(mod)
               if f"{prefix}.{n}" not in rows]
    assert not missing, f"not in docs/api-map.md: {missing}"


@pytest.mark.parametrize("qualified", sorted(_map_rows()))
def test_name_comes_from_its_module(qualified):
    import importlib

    module_name, kind = _map_rows()[qualified]
    prefix, name = qualified.rsplit(".", 1)
    if prefix == "accelpy.distributed":
        pytest.importorskip("distributed", reason="accelpy.distributed needs Dask's distributed")
    obj = getattr(importlib.import_module(prefix), name)
    module = importlib.import_module(module_name)
    assert getattr(module, name) is obj, f"{module_name} does not export {name}"
    if kind == "python":  # defined there
        assert obj.__module__ == module_name
    elif kind == "bound":  # bound in C++, re-exported there
        assert getattr(ap._core, name, None) is obj or getattr(obj, "__module__", None) == (
            "accelpy._core"), f"{qualified} is not bound in accelpy._core"
    elif kind == "numpy":  # NumPy's (or ml_dtypes') own object, re-exported there
        assert getattr(obj, "__module__", "").split(".")[0] in ("numpy", "builtins", "ml_dtypes")
    else:
        assert kind == "value", kind  # a constant


def _imports():
    """module -> the package's modules it imports (anywhere in it), and those that import the
    package itself."""
    graph, upward = {}, []
    for file in sorted(os.listdir(PACKAGE)):
        if not file.endswith(".py"):
            continue
        name = file[:-3]
        deps = set()
        for node in ast.walk(ast.parse(open(os.path.join(PACKAGE, file)).read())):
            if isinstance(node, ast.Import):
                if any(a.name == "accelpy" or a.name.startswith("accelpy.") for a in node.names):
                    upward.append(name)
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0 and (node.module or "").split(".")[0] == "accelpy":
                    upward.append(name)
                elif node.level == 1 and node.module:
                    deps.add(node.module.split(".")[0])
                elif node.level == 1:
                    for a in node.names:
                        if os.path.exists(os.path.join(PACKAGE, a.name + ".py")):
                            deps.add(a.name)
                        elif a.name != "_core":
                            upward.append(name)
                elif node.level > 1:
                    upward.append(name)
        graph[name] = deps - {name, "_core"}
    return graph, upward


def test_no_module_imports_the_package():
    graph, upward = _imports()
    assert not [m for m in upward if m not in TOOLS], upward
    inside = {d for m, deps in graph.items() if m not in TOOLS for d in deps}
    assert not (inside & TOOLS)


def test_no_import_circles():
    graph, _ = _imports()
    graph.pop("__init__", None)
    state = {}

    def visit(m, path):
        if state.get(m) == "done":
            return
        assert state.get(m) != "open", f"import circle: {' -> '.join(path + [m])}"
        state[m] = "open"
        for d in sorted(graph.get(m, ())):
            visit(d, path + [m])
        state[m] = "done"

    for m in sorted(graph):
        visit(m, [])
