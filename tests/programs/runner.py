"""Runs one program of the corpus under NumPy or under accelpy and collects what it computed.

The one change a user makes to move a NumPy (or CuPy) program to accelpy is its import line;
rewrite_import makes exactly that change and nothing else:

    import numpy as np      ->  import accelpy as np
    import numpy            ->  import accelpy as numpy
    import cupy as cp       ->  import accelpy as cp      (and import numpy as cp for the NumPy run)
    import cupy             ->  import accelpy as cupy    (import numpy as cupy)
    from numpy import *     ->  from accelpy import *

Before a run the harness seeds the module's own generator (``<module>.random.seed(0)``), the
way the program's author would make it repeatable. A run returns the program's final global
variables converted to NumPy values (arrays, numbers, and tuples/lists of them) and its printed
output. The programs themselves come from the pinned checkouts named in corpus.py.

A program runs as a script would: `sys.argv` is its path and the `argv` corpus.py gives it, its
directory is on `sys.path` (its sibling modules import) and its working directory is a fresh
one holding copies of its directory's files (it reads its data files; what it writes, even over
one of them, is discarded and reaches neither the checkout nor the directory the tests run in).
A notebook (MyST markdown or .ipynb) runs cell by cell (notebooks.py): what each cell displays
and which cells raise are compared too.

A program that draws, animates or runs forever names an `adapter` (adapters.py): the harness
then executes only the program's imports and definitions (load_definitions, with the same
import rewrite) and the adapter calls the program's own functions at `size`, on inputs made by
NumPy and moved to the module under test, and returns the final state to compare.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import numbers
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import notebooks
import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MODULES = ("numpy", "accelpy")

_IMPORT = re.compile(r"^(?P<indent>[ \t]*)import (?P<mod>numpy|cupy)(?P<alias> as \w+)?[ \t]*$",
                     re.MULTILINE)
_FROM_IMPORT = re.compile(r"^(?P<indent>[ \t]*)from (?P<mod>numpy|cupy) import ", re.MULTILINE)


@dataclass
class Program:
    """One program of the corpus: where it comes from and how to compare its two runs."""

    name: str
    source: str  # the key of its [sources.*] table
    path: str  # the file in that checkout
    exercise: int | None = None  # numpy-100: the exercise whose solution this is
    after: tuple = ()  # numpy-100: earlier exercises whose names (imports, functions) it uses
    compare: str = "values"  # "shapes": it draws random numbers (the generators differ);
    # "printed": it keeps no variables, only prints
    xfail: str | None = None  # "needs <what>": surface other work is adding
    numpy_at_least: str | None = None  # the NumPy release whose results accelpy follows
    # (eig always complex: 2.5); with an older NumPy the test is a strict xfail saying so
    adapter: str | None = None  # the function of adapters.py that drives the program
    size: int | None = None  # the problem size the adapter runs it at
    rtol: float | None = None  # floats: a wider tolerance where an iterative method amplifies
    # the rounding of reductions (whose order NumPy does not fix either)
    meta: dict = field(default_factory=dict)  # the source's url, commit, licence
    argv: tuple = ()  # its command-line arguments (sizes a CI run can afford)
    devices: tuple | None = None  # the devices it runs on (None: all); CuPy's need "cuda"
    requires: tuple = ()  # modules it imports besides NumPy (the test skips without them)
    ported: tuple = ("numpy", "cupy")  # the modules whose imports become accelpy
    preamble: str = ""  # what its own test runner defines first (NumPy's doctests: np)
    data: tuple = ()  # files of its checkout it reads besides itself (scripts/program-corpus
    # --export copies them with it)
    params: dict = field(default_factory=dict)  # npbench: the kernel's sizes (adapters.npbench)
    draws: str | None = None  # "numpy": its random numbers come from NumPy's seeded legacy
    # generator in both runs (moved to accelpy in its run), so values that depend on the
    # draws (the shape of a unique) compare


def load_corpus() -> tuple[dict, list[Program]]:
    """The sources and programs of corpus.py."""
    import corpus

    return corpus.SOURCES, [Program(meta=corpus.SOURCES[p["source"]], **p) for p in corpus.PROGRAMS]


def checkout_dir(source: str) -> Path | None:
    """Where the pinned checkout of a source lies: PROGRAM_CORPUS_DIR, .gpu/program-corpus,
    shared/program-corpus or build/program-corpus (scripts/program-corpus clones into the last);
    None if in none of them."""
    places = [os.environ.get("PROGRAM_CORPUS_DIR"), ROOT / ".gpu" / "program-corpus",
              ROOT / "shared" / "program-corpus", ROOT / "build" / "program-corpus"]
    for base in places:
        if base and (Path(base) / source).is_dir():
            return Path(base) / source
    return None


def program_source(program: Program) -> str:
    """The program's text as its author wrote it. A numpy-100 exercise is its solution block
    after exercise 1's (`import numpy as np`) and those of the earlier exercises whose names it
    uses (`after`), as when the exercises are run in order."""
    base = checkout_dir(program.source)
    if base is None:
        raise FileNotFoundError(f"no checkout of {program.source}: run scripts/program-corpus")
    text = (base / program.path).read_text()
    if notebooks.is_notebook(program.path, program.exercise):
        return "\n".join(notebooks.code_cells(text, program.path))
    if program.exercise is None:
        return text
    return "\n".join(_solution(text, n) for n in (1, *program.after, program.exercise))


def _solution(markdown: str, number: int) -> str:
    """The last ```python block under the heading `#### <number>.` of a numpy-100 file."""
    start = markdown.index(f"\n#### {number}. ")
    end = markdown.find("\n#### ", start + 1)
    blocks = re.findall(r"```python\n(.*?)```", markdown[start:end if end > 0 else None], re.S)
    return blocks[-1]


def program_cells(program: Program) -> list[str] | None:
    """A notebook's code cells as its author wrote them (notebooks.code_cells); None for a
    program that is not a notebook."""
    if not notebooks.is_notebook(program.path, program.exercise):
        return None
    text = (checkout_dir(program.source) / program.path).read_text()
    return notebooks.code_cells(text, program.path)


def rewrite_import(source: str, module: str, ported: tuple = ("numpy", "cupy"),
                   required: bool = True) -> str:
    """The program with its import lines of the `ported` modules (numpy/cupy) importing `module`
    under the same name. A CuPy example that also imports NumPy for its CPU reference ports
    only cupy. `required`: a program without such a line is an error (a notebook's cells are
    rewritten one by one, and most import nothing)."""
    def swap(m):
        alias = m["alias"] or f" as {m['mod']}"
        if (module == "numpy" and m["mod"] == "numpy") or m["mod"] not in ported:
            return m[0]
        return f"{m['indent']}import {module}{alias}"

    def swap_from(m):
        keep = (module == "numpy" and m["mod"] == "numpy") or m["mod"] not in ported
        return m[0] if keep else f"{m['indent']}from {module} import "

    rewritten, n = _IMPORT.subn(swap, source)
    rewritten, n_from = _FROM_IMPORT.subn(swap_from, rewritten)
    if n + n_from == 0 and required:
        raise ValueError("the program has no `import numpy` / `import cupy` line to rewrite")
    return rewritten


def load_definitions(program: Program, module: str) -> dict:
    """The namespace of the program's imports, functions and classes, with its imports rewritten
    to `module`: what `from program import *` gives, without the top-level code that draws,
    animates or parses a command line. Imports other than numpy, cupy and the standard library
    (matplotlib, scipy: drawing and commented-out alternatives) are left out."""
    tree = ast.parse(rewrite_import(program_source(program), module, program.ported))
    keep = (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
    tree.body = [node for node in tree.body if isinstance(node, keep) and _kept_import(node)]
    namespace = {"__name__": program.name}
    exec(compile(tree, f"<{program.name}>", "exec"), namespace)
    return namespace


def load_set_up(program: Program, module: str) -> dict:
    """load_definitions' namespace after the program's top-level set-up too: the statements
    before its first function or class (the arrays an animation's update() then steps), with
    the same imports left out. What comes after its definitions (drawing, animating) is not
    run."""
    tree = ast.parse(rewrite_import(program_source(program), module, program.ported))
    keep = (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
    first = next((i for i, node in enumerate(tree.body)
                  if isinstance(node, (ast.FunctionDef, ast.ClassDef))), len(tree.body))
    tree.body = [node for node in tree.body[:first] if _kept_import(node)] + [
        node for node in tree.body[first:] if isinstance(node, keep) and _kept_import(node)]
    namespace = {"__name__": program.name}
    exec(compile(tree, f"<{program.name}>", "exec"), namespace)
    return namespace


def _kept_import(node) -> bool:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        names = [node.module or ""]
    else:
        return True
    allowed = {"numpy", "cupy", "accelpy", "__future__"} | set(sys.stdlib_module_names)
    return all(name.split(".")[0] in allowed for name in names)


@dataclass
class Run:
    values: dict  # name -> NumPy value
    printed: str
    errors: dict = field(default_factory=dict)  # notebooks: cell number -> the type it raised
    # The program's own time: its run and the conversion of its results to NumPy values, without
    # setting up and removing its scratch directory (the benchmarks' measure).
    seconds: float = 0.0
    said: dict = field(default_factory=dict)  # cell number -> what its exception said
    # The same span in the running thread's CPU time (time.thread_time): what a loaded machine's
    # waiting does not inflate; work on other threads (the CPU pool's) is not in it.
    thread_seconds: float = 0.0


def run_program(program: Program, module: str, device: str | None = None) -> Run:
    """Executes the program with its import rewritten to `module` (on `device` for accelpy)."""
    mod = importlib.import_module(module)
    scope = mod.device(device or "cpu") if module == "accelpy" else contextlib.nullcontext()
    out = io.StringIO()
    draws = _numpy_draws(mod) if program.draws == "numpy" else contextlib.nullcontext()
    with scope, contextlib.redirect_stdout(out), _as_script(program, mod), draws:
        mod.random.seed(0)
        start, thread_start = time.perf_counter(), time.thread_time()
        cells = program_cells(program)
        errors = {}
        if program.adapter:
            import adapters

            namespace = getattr(adapters, program.adapter)(program, mod)
        elif cells is not None:
            # it imports numpy somewhere (or its runner does)
            rewrite_import("\n".join([program.preamble, *cells]), module, program.ported)
            namespace = {"__name__": "__main__", "__file__": f"{program.name}.py"}
            cells = [rewrite_import(c, module, program.ported, required=False)
                     for c in ([program.preamble] if program.preamble else []) + cells]
            displayed, errors = notebooks.run_cells(cells, namespace, program.name)
            namespace.update(displayed)
        else:
            namespace = {"__name__": "__main__", "__file__": f"{program.name}.py"}
            source = rewrite_import(program_source(program), module, program.ported)
            try:
                exec(compile(source, f"<{program.name}>", "exec"), namespace)
            except SystemExit as done:  # a script's `sys.exit(main())`: success is 0 or None
                if done.code not in (0, None):
                    raise AssertionError(f"{program.name} exited with {done.code!r}") from done
        seconds = time.perf_counter() - start
        thread_seconds = time.thread_time() - thread_start
    start, thread_start = time.perf_counter(), time.thread_time()
    values = {}
    for name, value in namespace.items():
        if name.startswith("__"):
            continue
        converted = _to_numpy(value)
        if converted is not None:
            values[name] = converted
    said = {n: notebooks.messages.pop((program.name, n), "") for n in errors}
    return Run(values, out.getvalue(), errors, seconds + time.perf_counter() - start, said,
               thread_seconds + time.thread_time() - thread_start)


# The legacy functions a program draws with; under `draws="numpy"` the module's are NumPy's
# (and default_rng NumPy's Generator).
_DRAWS = ("rand", "randn", "randint", "random", "random_sample", "uniform", "normal", "choice",
          "permutation")


@contextlib.contextmanager
def _numpy_draws(mod):
    """mod.random's legacy functions drawing from NumPy's generator seeded as the NumPy run's
    (`seed(0)`), and its default_rng making NumPy's Generator, each array moved to `mod`;
    restored afterwards."""
    if mod is np:
        yield
        return
    state = np.random.RandomState(0)
    saved = {name: getattr(mod.random, name) for name in (*_DRAWS, "default_rng")}

    def moved(method):
        def draw(*args, **kwargs):
            value = method(*args, **kwargs)
            return mod.asarray(value) if isinstance(value, np.ndarray) else value
        return draw

    class Generator:
        """NumPy's Generator seeded as the program asks, its arrays moved to `mod`."""

        def __init__(self, *args, **kwargs):
            self._numpy = np.random.default_rng(*args, **kwargs)

        def __getattr__(self, name):
            return moved(getattr(self._numpy, name))

    try:
        for name in _DRAWS:
            setattr(mod.random, name, moved(getattr(state, name)))
        mod.random.default_rng = Generator
        yield
    finally:
        for name, fn in saved.items():
            setattr(mod.random, name, fn)


@contextlib.contextmanager
def _as_script(program: Program, mod):
    """sys.argv, sys.path and the working directory of the program run as a script (see the
    module's docstring); all restored afterwards. Its sibling modules are part of the program:
    under accelpy their `import cupy` is ported too (`cupy` names accelpy while it runs), and
    they are imported afresh by each run."""
    home = checkout_dir(program.source) / os.path.dirname(program.path)
    saved = sys.argv, list(sys.path), os.getcwd()
    modules = dict(sys.modules)
    if "cupy" in program.ported and mod.__name__ == "accelpy":
        sys.modules["cupy"] = mod
    os.environ.setdefault("MPLBACKEND", "Agg")  # plots are drawn to no screen
    if "matplotlib.pyplot" in sys.modules:  # a fresh process has no figures: the last run's
        sys.modules["matplotlib.pyplot"].close("all")  # current axes would be this one's
    with tempfile.TemporaryDirectory(prefix=f"{program.name}-") as work:
        _scratch_copy(home, work)
        sys.argv = [str(home / os.path.basename(program.path)), *program.argv]
        sys.path.insert(0, str(home))
        os.chdir(work)
        try:
            yield
        finally:
            sys.argv, sys.path[:] = saved[0], saved[1]
            os.chdir(saved[2])
            for name in set(sys.modules) - set(modules):
                if str(getattr(sys.modules[name], "__file__", "")).startswith(str(home)):
                    del sys.modules[name]
            if "cupy" in modules:
                sys.modules["cupy"] = modules["cupy"]
            else:
                sys.modules.pop("cupy", None)


def _scratch_copy(home: Path, work: str) -> None:
    """Fills the scratch working directory with the program's directory: its files copied (a
    program that writes one of them, or a file of the same name, changes only the copy; a link
    would write through to the checkout), its subdirectories linked (read-only use)."""
    for entry in home.iterdir():
        target = os.path.join(work, entry.name)
        if entry.is_file():
            shutil.copyfile(entry, target)
        else:
            os.symlink(entry, target)


def _to_numpy(value):
    """A NumPy array or tuple of them for an array, number or sequence of those; else None.
    Records (structured arrays and their scalars) become the tuple of their fields."""
    if isinstance(value, (np.ndarray, np.void)) and value.dtype.names is not None:
        return _fields(np.asarray(value))
    if type(value).__module__.startswith("accelpy") and getattr(
            getattr(value, "dtype", None), "names", None) is not None:
        return _fields(np.asarray(value.get()))  # records: NumPy's packed copy, any device
    if isinstance(value, (bool, numbers.Number, np.generic)):
        return np.asarray(value)
    if isinstance(value, np.ndarray):
        return value if value.dtype.kind in "biufcmM" else None
    if type(value).__module__.startswith("cupy") and type(value).__name__ == "ndarray":
        return value.get()  # bench/programs.py runs the CuPy port too (its arrays only)
    if type(value).__module__.startswith("accelpy") and type(value).__name__ == "ndarray":
        # Only arrays: `from accelpy import *` also brings objects such as r_, whose
        # never-ending __getitem__ NumPy would iterate as a sequence.
        return importlib.import_module("accelpy").asnumpy(value)  # from any device
    if isinstance(value, (tuple, list)) and value:
        items = [_to_numpy(v) for v in value]
        return tuple(items) if all(i is not None for i in items) else None
    return None


def _fields(records: np.ndarray) -> tuple:
    """A structured array's fields, each an array (strings included: they are values here)."""
    return tuple(_fields(records[name]) if records.dtype[name].names is not None
                 else np.ascontiguousarray(records[name]) for name in records.dtype.names)


def compare(expected: Run, got: Run, how: str, rtol: float | None = None) -> None:
    """Asserts the accelpy run computed what the NumPy run did: same variables, integers and
    booleans exactly, floats within tolerance; for `shapes`, the shapes and dtypes only; for
    `printed` (a program that only prints), the same printed text; for `self` (the program
    compares its own NumPy and accelpy results), nothing more. A notebook's cells must raise
    (the same exception type) where NumPy's raised, and nowhere else."""
    if got.errors != expected.errors:
        said = {n: got.said.get(n) for n in got.errors if got.errors[n] != expected.errors.get(n)}
        raise AssertionError(f"cells that raised (cell: type): {got.errors}, NumPy "
                             f"{expected.errors}; accelpy's differing ones said {said}")
    if how == "printed":
        assert got.printed == expected.printed
        return
    if how == "self":  # it checks itself (a CuPy example against its own NumPy run)
        return
    missing = sorted(set(expected.values) - set(got.values))
    assert not missing, f"variables not produced (or not arrays) under accelpy: {missing}"
    for name, want in expected.values.items():
        _compare_value(name, want, got.values[name], how, rtol)


def _compare_value(name, want, have, how, rtol=None):
    if isinstance(want, tuple):
        assert isinstance(have, tuple) and len(have) == len(want), f"{name}: {have!r} vs {want!r}"
        for i, (w, h) in enumerate(zip(want, have, strict=True)):
            _compare_value(f"{name}[{i}]", w, h, how, rtol)
        return
    assert have.shape == want.shape, f"{name}: shape {have.shape}, NumPy {want.shape}"
    assert have.dtype.kind == want.dtype.kind, f"{name}: dtype {have.dtype}, NumPy {want.dtype}"
    if how == "shapes":
        return
    if want.dtype.kind in "fc":
        tol = 1e-5 if want.dtype.itemsize <= 4 * (1 + (want.dtype.kind == "c")) else 1e-9
        tol = max(tol, rtol or 0)
        np.testing.assert_allclose(have, want, rtol=tol, atol=tol, equal_nan=True, err_msg=name)
    else:
        np.testing.assert_array_equal(have, want, err_msg=name)


if __name__ == "__main__":  # python tests/programs/runner.py NAME [numpy|accelpy]
    _, corpus = load_corpus()
    chosen = next(p for p in corpus if p.name == sys.argv[1])
    result = run_program(chosen, sys.argv[2] if len(sys.argv) > 2 else "accelpy")
    print(result.printed)
    print({k: getattr(v, "shape", v) for k, v in result.values.items()})
