"""The examples of the documentation run: every ```python block of docs/user-guide.md, of the
pages it links in docs/guide/ and of README.md is executed as a program. A block preceded by
`<!-- requires: cuda numba -->` runs only where those are present (a GPU for `cuda`, an
importable module otherwise) and is skipped with the reason elsewhere."""

import importlib.util
import os
import re

import pytest

import accelpy as ap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = ["docs/user-guide.md", "docs/guide/custom-kernels.md", "docs/guide/interoperability.md",
        "README.md"]
BLOCK = re.compile(r"(?:<!-- requires: (?P<req>[\w ]+) -->\n)?```python\n(?P<code>.*?)```",
                   re.S)


def _examples():
    out = []
    for doc in DOCS:
        with open(os.path.join(ROOT, doc)) as f:
            text = f.read()
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start("code")) + 1
            section = re.findall(r"^#+ (.+)$", text[:m.start()], re.M)
            name = f"{os.path.basename(doc)}:{line}"
            if section:
                name += " " + re.sub(r"\W+", "-", section[-1].lower()).strip("-")
            out.append(pytest.param(doc, line, m.group("code"), (m.group("req") or "").split(),
                                    id=name))
    return out


def _missing(requirements):
    for r in requirements:
        if r == "cuda":
            if not ap.cuda.is_available():
                return f"needs a CUDA device ({ap.cuda.unavailable_reason()})"
        elif importlib.util.find_spec(r) is None:
            return f"needs {r}, which is not installed"
    return None


def test_docs_have_examples():
    assert len(_examples()) >= 10


@pytest.mark.parametrize("doc,line,code,requirements", _examples())
def test_example_runs(doc, line, code, requirements):
    why = _missing(requirements)
    if why:
        pytest.skip(why)
    # Line numbers in tracebacks point into the document.
    program = compile("\n" * (line - 1) + code, os.path.join(ROOT, doc), "exec")
    exec(program, {"__name__": "__main__"})
