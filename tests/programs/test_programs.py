"""Each program of the corpus computes under accelpy what it computes under NumPy."""

import os

import notebooks
import pytest

import runner

_, PROGRAMS = runner.load_corpus()


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program(program, device, numpy_runs):
    if runner.checkout_dir(program.source) is None:
        pytest.skip(f"no checkout of {program.source}: run scripts/program-corpus")
    if program.devices is not None and device not in program.devices:
        pytest.skip(f"{program.name} runs on {', '.join(program.devices)} only")
    for module in program.requires:
        pytest.importorskip(module, reason=f"{program.name} imports {module}")
    if program.compare == "self":  # CuPy's examples: their NumPy run is part of the program
        runner.run_program(program, "accelpy", device)
        return
    if program.name not in numpy_runs:
        numpy_runs[program.name] = runner.run_program(program, "numpy")
    got = runner.run_program(program, "accelpy", device)
    runner.compare(numpy_runs[program.name], got, program.compare, program.rtol)


def test_import_rewrite_is_the_only_change():
    """The harness changes import lines and nothing else, in both directions."""
    source = "import numpy as np\nimport cupy\nfrom numpy import *\nx = np.numpy_thing  # numpy\n"
    assert runner.rewrite_import(source, "accelpy") == (
        "import accelpy as np\nimport accelpy as cupy\nfrom accelpy import *\n"
        "x = np.numpy_thing  # numpy\n")
    assert runner.rewrite_import(source, "numpy") == (
        "import numpy as np\nimport numpy as cupy\nfrom numpy import *\n"
        "x = np.numpy_thing  # numpy\n")
    with pytest.raises(ValueError, match="no `import numpy`"):
        runner.rewrite_import("x = 1\n", "accelpy")


def test_cupy_example_ports_only_cupy():
    """A CuPy example keeps `import numpy` (its CPU reference): only cupy becomes accelpy."""
    source = "import cupy\nimport numpy\nimport numpy as np\nfrom cupy import testing\n"
    assert runner.rewrite_import(source, "accelpy", ("cupy",)) == (
        "import accelpy as cupy\nimport numpy\nimport numpy as np\nfrom accelpy import testing\n")


def test_notebook_code_is_its_code_cells():
    text = ("# Title\n```{code-cell} ipython3\nimport numpy as np\n%matplotlib inline\nx = 1\n```\n"
            "prose\n```python\nnot = code\n```\n```{code-cell}\n!head f.csv\ny = x\n```\n")
    cells = notebooks.code_cells(text, "notebook.md")
    assert "\n".join(cells) == "import numpy as np\nx = 1\ny = x"


def test_notebook_cells_display_and_raise_as_jupyter():
    """A cell's last expression is its Out[n] (not when `;` hides it); a cell that raises is
    recorded and the next cell runs; IPython's help lines and .ipynb cells are read."""
    cells = ["x = 2\nx * 3", "x + 1;", "undefined_name", "y = x\ny", "np.zeros?"]
    displayed, errors = notebooks.run_cells(
        notebooks.code_cells(_ipynb(cells), "n.ipynb"), {}, "n")
    assert displayed == {"Out[0]": 6, "Out[3]": 2}
    assert errors == {2: "NameError"}
    expected = runner.Run({}, "", {2: "NameError"})
    runner.compare(expected, runner.Run({}, "", {2: "NameError"}), "values")
    with pytest.raises(AssertionError, match="cells that raised"):
        runner.compare(expected, runner.Run({}, "", {}), "values")


def _ipynb(cells):
    import json

    return json.dumps({"cells": [{"cell_type": "markdown", "source": ["text"]}] + [
        {"cell_type": "code", "source": cell.splitlines(keepends=True)} for cell in cells]})


def test_program_writes_stay_in_its_scratch_directory(tmp_path, monkeypatch):
    """What a program writes (a new file, or over one of its data files) lands in a scratch
    directory that is removed afterwards: never in its checkout, nor where the tests run."""
    checkout = tmp_path / "corpus" / "writer"
    checkout.mkdir(parents=True)
    (checkout / "data.csv").write_text("1,2\n")
    (checkout / "writer.py").write_text(
        "import numpy as np\n"
        "a = np.loadtxt('data.csv', delimiter=',')\n"
        "np.save('filename.npy', a)\n"
        "np.savetxt('data.csv', a * 10)\n"
        "b = np.load('filename.npy')\n")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("PROGRAM_CORPUS_DIR", str(tmp_path / "corpus"))
    program = runner.Program(name="writer", source="writer", path="writer.py")
    for module in runner.MODULES:
        run = runner.run_program(program, module)
        assert run.values["b"].tolist() == [1.0, 2.0]
    assert sorted(p.name for p in checkout.iterdir()) == ["data.csv", "writer.py"]
    assert (checkout / "data.csv").read_text() == "1,2\n"
    assert list(cwd.iterdir()) == []
    assert os.getcwd() == str(cwd)


def test_corpus_directory_holds_no_program_output():
    """tests/programs holds the harness only: files a program run wrote there would be
    committed by mistake."""
    stray = [p.name for p in runner.HERE.iterdir()
             if p.is_file() and p.suffix not in (".py", ".md")]
    assert stray == []


def test_numpy_draws_give_both_runs_numpys_numbers(tmp_path, monkeypatch):
    """`draws="numpy"`: the accelpy run draws NumPy's seeded numbers (as accelpy arrays), and
    accelpy's own generator is back afterwards."""
    import accelpy

    checkout = tmp_path / "corpus" / "drawer"
    checkout.mkdir(parents=True)
    (checkout / "drawer.py").write_text(
        "import numpy as np\nz = np.random.randint(0, 100, (4, 3))\nu = np.random.random(5)\n")
    monkeypatch.setenv("PROGRAM_CORPUS_DIR", str(tmp_path / "corpus"))
    program = runner.Program(name="drawer", source="drawer", path="drawer.py", draws="numpy")
    own = accelpy.random.randint
    want, got = runner.run_program(program, "numpy"), runner.run_program(program, "accelpy")
    runner.compare(want, got, "values")
    assert accelpy.random.randint is own
    plain = runner.run_program(runner.Program(name="drawer", source="drawer", path="drawer.py"),
                               "accelpy")
    assert not (plain.values["z"] == want.values["z"]).all()
