"""The package's layout: every public name is where docs/api-map.md (and
api-map-submodules.md) says, and the modules import each other downward only (no circles,
nothing importing the package from inside it)."""

import ast
import os
import re
import sys
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
              "accelpy.testing": accelpy.testing, "accelpy.emath": ap.emath, "accelpy.rec": ap.rec,
              "accelpy.lib.stride_tricks": ap.lib.stride_tricks,
              "accelpy.lib.recfunctions": ap.lib.recfunctions}
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
        except AttributeError:  # a lazy submodule whose dependency is absent (distributed)
            if n in getattr(module, "_LAZY_SUBMODULES", ()):
                return True
            raise
    return [n for n in names if not is_module(n)]


def test_every_public_name_is_mapped():
    rows = _map_rows()
    missing = [f"{prefix}.{n}" for prefix, mod in _namespaces().items() for n in _public(mod)
               if f"{prefix}.{n}" not in rows]
    assert not missing, f"not in docs/api-map.md: {missing}"


def test_public_names_walk_past_a_missing_optional_dependency(monkeypatch):
    # The GPU image has no Dask distributed: the walk above must not stop at its lazy submodule.
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ModuleNotFoundError
    monkeypatch.delitem(sys.modules, "accelpy.distributed", raising=False)
    monkeypatch.delitem(ap.__dict__, "distributed", raising=False)
    test_every_public_name_is_mapped()


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
        assert any(v is obj for v in vars(ap._core).values()), (
            f"{qualified} is not bound in accelpy._core")
    elif kind == "numpy":  # NumPy's (or ml_dtypes') own object, re-exported there
        assert getattr(obj, "__module__", "").split(".")[0] in ("numpy", "builtins", "ml_dtypes")
    else:
        assert kind == "value", kind  # a constant


def _modules(root=PACKAGE):
    """name -> (path, package prefix) of the package's modules: top-level ones by file name, a
    subpackage's as "<subpackage>.<name>" (its __init__ as "<subpackage>"), whose relative
    imports of level 1 name "<subpackage>." modules."""
    modules = {}
    for entry in sorted(os.listdir(root)):
        path = os.path.join(root, entry)
        if entry.endswith(".py"):
            modules[entry[:-3]] = (path, "")
        elif os.path.isfile(os.path.join(path, "__init__.py")):
            for file in sorted(os.listdir(path)):
                if file.endswith(".py"):
                    name = entry if file == "__init__.py" else f"{entry}.{file[:-3]}"
                    modules[name] = (os.path.join(path, file), entry + ".")
    return modules


def _imports(root=PACKAGE):
    """module -> the package's modules it imports (anywhere in it), and those that import the
    package itself (by its name, or a relative import reaching the package's __init__ or above)."""
    modules = _modules(root)

    def target(base, dotted):  # the module a relative import names, or None (a package name)
        parts = dotted.split(".")
        if base == "" and parts[0] == "_core":  # the C++ module, below everything
            return "_core"
        for k in range(len(parts), 0, -1):
            if base + ".".join(parts[:k]) in modules:
                return base + ".".join(parts[:k])
        return None

    graph, upward = {}, []
    for name, (path, prefix) in modules.items():
        deps = set()
        for node in ast.walk(ast.parse(open(path).read())):
            if isinstance(node, ast.Import):
                if any(a.name == "accelpy" or a.name.startswith("accelpy.") for a in node.names):
                    upward.append(name)
                continue
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level == 0:
                if (node.module or "").split(".")[0] == "accelpy":
                    upward.append(name)
                continue
            # Level 1: the module's own package; level 2 from a subpackage: the top level.
            if node.level == 1:
                base = prefix
            elif node.level == 2 and prefix:
                base = ""
            else:
                upward.append(name)
                continue
            names = [node.module] if node.module else [a.name for a in node.names]
            for dotted in names:
                found = target(base, dotted)
                if found is None:  # a name of the package's __init__
                    upward.append(name)
                else:
                    deps.add(found)
        graph[name] = deps - {name, "_core"}
    return graph, upward


def test_no_module_imports_the_package():
    graph, upward = _imports()
    assert not [m for m in upward if m not in TOOLS], upward
    inside = {d for m, deps in graph.items() if m not in TOOLS for d in deps}
    assert not (inside & TOOLS)


def _circle(graph):
    """The first import circle of `graph` (module -> modules it imports), or None."""
    graph = dict(graph)
    graph.pop("__init__", None)
    state = {}

    def visit(m, path):
        if state.get(m) == "done":
            return None
        if state.get(m) == "open":
            return path + [m]
        state[m] = "open"
        for d in sorted(graph.get(m, ())):
            if found := visit(d, path + [m]):
                return found
        state[m] = "done"
        return None

    for m in sorted(graph):
        if found := visit(m, []):
            return found
    return None


def test_no_import_circles():
    graph, _ = _imports()
    circle = _circle(graph)
    assert circle is None, f"import circle: {' -> '.join(circle)}"


def test_import_checks_see_circles_and_upward_imports(tmp_path):
    # The two checks above on a package made to fail them: a circle through a subpackage, and
    # imports of the package's own names (from a module, and from a subpackage by `..`).
    files = {
        "__init__.py": "from ._a import f as f\n",
        "_a.py": "from ._b import g\nfrom . import f\n",
        "_b.py": "from .sub import h\n",
        "sub/__init__.py": "from . import _c as _c\n",
        "sub/_c.py": "from .._a import f\nfrom .. import f as g\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    graph, upward = _imports(str(tmp_path))
    assert graph["_a"] == {"_b"} and graph["sub"] == {"sub._c"} and graph["sub._c"] == {"_a"}
    assert sorted(upward) == ["_a", "sub._c"]
    assert _circle(graph) == ["_a", "_b", "sub", "sub._c", "_a"]
    assert _circle({"_a": {"_b"}, "_b": set()}) is None
