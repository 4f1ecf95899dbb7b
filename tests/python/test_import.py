"""`import accelpy` stays light: ml_dtypes (bfloat16) is imported on first use, and every way
of naming bfloat16 still works after that, in a fresh interpreter each time."""

import subprocess
import sys

import pytest

PRELUDE = """
import sys
import numpy as np
import accelpy as ap
dev = sys.argv[1]
rng = np.random.default_rng(int(sys.argv[2]))
"""


def run(code, device, seed):
    proc = subprocess.run([sys.executable, "-c", PRELUDE + code, str(device), str(seed)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture
def seed(rng):
    return int(rng.integers(1, 2**31))


def test_import_does_not_load_ml_dtypes():
    out = run("print('ml_dtypes' in sys.modules, 'bfloat16' in dir(ap))", "cpu", 1)
    assert out.split() == ["False", "True"]


@pytest.mark.parametrize("spelling", ["'bfloat16'", "ap.bfloat16", "np.dtype(ap.bfloat16)"])
def test_bfloat16_by_any_spelling_loads_it(device, seed, spelling):
    code = f"""
x_np = rng.standard_normal(50).astype(np.float32)
x = ap.asarray(x_np, device=dev)
assert 'ml_dtypes' not in sys.modules
y = x.astype({spelling})
import ml_dtypes
assert y.dtype == np.dtype(ml_dtypes.bfloat16), y.dtype
np.testing.assert_array_equal(ap.asnumpy(y), x_np.astype(ml_dtypes.bfloat16))
assert ap.isdtype(y.dtype, 'real floating')
print('ok')
"""
    assert run(code, device, seed).strip() == "ok"


def test_bfloat16_from_numpy_when_user_imported_ml_dtypes(device, seed):
    code = """
import ml_dtypes
a = rng.standard_normal((3, 4)).astype(ml_dtypes.bfloat16)
x = ap.asarray(a, device=dev)
assert x.dtype == a.dtype, x.dtype
np.testing.assert_array_equal(ap.asnumpy(x * 2), a * ml_dtypes.bfloat16(2))
print('ok')
"""
    assert run(code, device, seed).strip() == "ok"


def test_lazy_submodule_missing_its_dependency_is_an_attribute_error():
    # Without Dask's distributed, accelpy.distributed cannot import: hasattr() says False and
    # what walks dir(accelpy) goes on, while the message names the package to install.
    code = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "distributed":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Block())
import inspect, accelpy as ap
assert not hasattr(ap, "distributed")
try:
    ap.distributed
except AttributeError as e:
    assert "'distributed' package" in str(e) and isinstance(e.__cause__, ModuleNotFoundError)
assert "distributed" in dir(ap) and len(inspect.getmembers(ap)) > 300
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.stdout.split() == ["ok"], proc.stderr
