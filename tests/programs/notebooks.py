"""The notebooks of the corpus (MyST markdown and Jupyter .ipynb files, and reStructuredText
pages whose `>>>` examples are the cells, as doctest reads them): their code cells, run one
after the other in one namespace, as Jupyter runs a notebook (or doctest a page).

What a reader of a notebook sees of each cell is what the harness compares:

- its displayed value: a cell's last expression, which Jupyter shows as its `Out[n]`, is kept
  under that name (none when the line ends with `;`, which hides it in IPython too);
- its error: authors show errors on purpose (adding arrays whose shapes do not broadcast,
  `a or b` of arrays). Jupyter shows the traceback and the reader goes on to the next cell; so
  does the harness: it records the exception's type, and the accelpy run must raise where the
  NumPy run raised, the same type, and nowhere else.

IPython's own lines are not Python and are left out: `%magics` (a cell magic's body still runs,
once), `!shell` commands, `name?` help; so are MyST's cell options (`:tags: ...`) and the
examples a page marks `# doctest: +SKIP` (its authors do not run them).
"""

from __future__ import annotations

import ast
import doctest
import json
import re

_CELL_MYST = re.compile(r"```\{code-cell\}[^\n]*\n(.*?)```", re.S)
_HELP = re.compile(r"^\s*[\w.\[\]()]+\?\??\s*$")


def is_notebook(path: str, exercise: int | None) -> bool:
    """A notebook: an .ipynb file, a page of doctest examples (.rst), or a MyST .md file
    (numpy-100's exercises are .md too, but each is one solution block, not a notebook)."""
    return path.endswith((".ipynb", ".rst")) or (path.endswith(".md") and exercise is None)


def code_cells(text: str, path: str) -> list[str]:
    """The notebook's code cells in order, without IPython's lines and MyST's options."""
    if path.endswith(".ipynb"):
        cells = ["".join(c["source"]) for c in json.loads(text)["cells"]
                 if c["cell_type"] == "code"]
    elif path.endswith(".rst"):
        cells = [example.source for example in doctest.DocTestParser().get_examples(text)
                 if not example.options.get(doctest.SKIP)]
    else:
        cells = _CELL_MYST.findall(text)
    return ["\n".join(line for line in cell.splitlines() if _is_python(line)) for cell in cells]


def _is_python(line: str) -> bool:
    stripped = line.lstrip()
    return not stripped.startswith(("%", "!", ":")) and not _HELP.match(line)


def run_cells(cells: list[str], namespace: dict, filename: str) -> tuple[dict, dict]:
    """Runs the cells in `namespace`; returns ({"Out[n]": value} of the cells that display a
    value, {n: exception type name} of the cells that raised)."""
    displayed, errors = {}, {}
    for n, cell in enumerate(cells):
        try:
            where = f"<{filename} cell {n}>"
            tree = ast.parse(cell, where)
            last = None
            shown = not cell.rstrip().endswith(";")
            if tree.body and isinstance(tree.body[-1], ast.Expr) and shown:
                last = ast.Expression(tree.body.pop().value)
            exec(compile(tree, where, "exec"), namespace)
            if last is not None:
                displayed[f"Out[{n}]"] = eval(compile(last, where, "eval"), namespace)
        except Exception as error:  # noqa: BLE001 - the notebook shows it and goes on
            errors[n] = exception_name(error)
            messages[(filename, n)] = f"{type(error).__name__}: {str(error)[:300]}"
    return displayed, errors


# What each cell that raised said, by (program, cell): for a failing comparison's message.
messages: dict[tuple[str, int], str] = {}


def exception_name(error: Exception) -> str:
    """The exception type a program can catch: its own name, or for NumPy's private classes
    (numpy._core._exceptions' UFuncTypeError and kin, not importable by their names) the
    first public class they derive from (TypeError)."""
    for cls in type(error).__mro__:
        if not cls.__module__.startswith("numpy._"):
            return cls.__name__
    return type(error).__name__
