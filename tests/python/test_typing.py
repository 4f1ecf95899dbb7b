"""Types: the package ships them (py.typed, the annotated modules, the bindings' _core.pyi),
_core.pyi matches what scripts/gen_stubs.py generates from the bindings, and mypy checks user
code with them: it accepts a correct program and reports the mistakes in a wrong one."""

import os
import re
import subprocess
import sys

import pytest

import accelpy as ap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "tests", "python", "typing_samples")
STUBS = ["_core.pyi", "py.typed"]


def test_package_ships_stubs():
    here = os.path.dirname(ap.__file__)
    missing = [f for f in STUBS if not os.path.exists(os.path.join(here, f))]
    assert not missing, f"the installed package lacks {missing}"


def test_stubs_are_current():
    pytest.importorskip("nanobind.stubgen", reason="nanobind's stubgen is not installed")
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_stubs.py"), "--check"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, (
        "python/accelpy/_core.pyi differs from the bindings: run `scripts/dev stubs` (or "
        "`python scripts/gen_stubs.py` after a build) and commit the result\n"
        f"{r.stdout[-4000:]}{r.stderr[-2000:]}")


def test_public_names_have_stubs():
    # mypy sees the names __init__.py re-exports (`from .m import x as x`) or defines, with
    # their modules' annotations; bfloat16 comes through the module's __getattr__.
    with open(os.path.join(ROOT, "python", "accelpy", "__init__.py")) as f:
        source = f.read()
    declared = set(re.findall(r" import (\w+) as \1$", source, re.M)) | set(
        re.findall(r"^(\w+)\s*[:=]", source, re.M)) | {"bfloat16"}
    # The lazily imported submodules are modules (accelpy.distributed needs Dask's distributed).
    public = {n for n in dir(ap) if not n.startswith("_")} - {"annotations"} - set(
        ap._LAZY_SUBMODULES)
    missing = sorted(n for n in public if n not in declared and not isinstance(
        getattr(ap, n), type(os)))
    assert not missing, f"public names without stubs (run scripts/gen_stubs.py): {missing}"


def test_mypy_checks_user_code(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy)")
    env = {**os.environ, "MYPYPATH": os.path.join(ROOT, "python")}
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir",
         str(tmp_path / "cache"), "--hide-error-context", os.path.join(SAMPLES, "good.py"),
         os.path.join(SAMPLES, "bad.py")],
        capture_output=True, text=True, env=env, cwd=ROOT)
    lines = [ln for ln in r.stdout.splitlines() if ": error:" in ln]
    good = [ln for ln in lines if "good.py" in ln]
    bad = [ln for ln in lines if "bad.py" in ln]
    others = [ln for ln in lines if ln not in good and ln not in bad]
    assert not good and not others, "\n".join(good + others) or r.stderr
    expected = {6: "tuple[int, ...]", 7: 'Unexpected keyword argument "axis" for "sqrt"',
                8: 'Argument "device" to "zeros"', 9: '"ndarray", variable has type "str"'}
    found = {int(ln.split(":")[1]): ln for ln in bad}
    assert sorted(found) == sorted(expected), "\n".join(bad)
    for line, text in expected.items():
        assert text in found[line], found[line]
