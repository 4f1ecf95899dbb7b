"""Each program of the corpus computes under accelpy what it computes under NumPy."""

import pytest

import runner

_, PROGRAMS = runner.load_corpus()


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program(program, device, numpy_runs):
    if runner.checkout_dir(program.source) is None:
        pytest.skip(f"no checkout of {program.source}: run scripts/program-corpus")
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
