"""The corpus of public programs (corpus.toml), each run under NumPy and under accelpy with only
its import line changed (runner.rewrite_import), per device: "cpu" always, "cuda" when a GPU is
present (ACCELPY_TEST_DEVICES=cuda,cpu narrows it, as for tests/python).

The programs are not vendored: scripts/program-corpus brings the pinned checkouts into
build/program-corpus (or PROGRAM_CORPUS_DIR / .gpu/program-corpus); without them every program
skips, naming the script.
"""

import os

import numpy as np
import pytest

import accelpy as ap
import runner


def _devices():
    wanted = os.environ.get("ACCELPY_TEST_DEVICES")
    found = ["cpu"] + (["cuda"] if ap.cuda.is_available() else [])
    return [d for d in wanted.split(",") if d in found] if wanted else found


@pytest.fixture(params=_devices())
def device(request):
    return request.param


@pytest.fixture(scope="session")
def numpy_runs():
    """The NumPy run of each program, made once for all devices."""
    return {}


def pytest_collection_modifyitems(items):
    for item in items:
        program = getattr(item, "callspec", None) and item.callspec.params.get("program")
        if isinstance(program, runner.Program) and program.xfail:
            item.add_marker(pytest.mark.xfail(strict=True, reason=program.xfail))
        elif isinstance(program, runner.Program) and program.numpy_at_least and _numpy_older(
                program.numpy_at_least):
            item.add_marker(pytest.mark.xfail(strict=True, reason=(
                f"accelpy follows NumPy {program.numpy_at_least} here; NumPy {np.__version__} "
                "differs")))


def _numpy_older(release):
    have = tuple(int(part) for part in np.__version__.split(".")[:2])
    return have < tuple(int(part) for part in release.split("."))
