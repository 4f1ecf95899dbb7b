"""Start-up cost: what `import accelpy` loads and the legacy global generator made on first use.
Each case runs in a new interpreter, as start-up does."""

import os
import subprocess
import sys

import numpy as np
import pytest

import accelpy as ap


def run(code, env=None):
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, **(env or {})))
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_import_leaves_slow_modules_unloaded():
    # numpy.random (and secrets, hashlib) came with the global generator; dataclasses with
    # finfo's record; uuid with Dask's token; threading with the generator's lock.
    # accelpy.linalg and accelpy.fft are imported on first use.
    heavy = ["numpy.random", "secrets", "dataclasses", "uuid", "threading", "ml_dtypes",
             "accelpy.linalg", "accelpy.fft"]
    # Only what accelpy itself brings in counts (site hooks or numpy may import some of them).
    out = run("import sys, numpy\nbefore = set(sys.modules)\nimport accelpy\n"
              f"print([m for m in {heavy!r} if m in sys.modules and m not in before])")
    assert out.strip() == "[]"


def test_lazy_submodules_load_on_first_use(rng):
    a = rng.standard_normal((4, 4)) + 4 * np.eye(4)
    out = run(f"""
import numpy as np
import accelpy as ap
assert "linalg" in dir(ap) and "fft" in dir(ap)
a = np.array({a.tolist()!r})
np.testing.assert_allclose(float(ap.linalg.det(ap.asarray(a))), np.linalg.det(a), rtol=1e-12)
from accelpy import fft
import accelpy.linalg
assert fft is ap.fft and accelpy.linalg is ap.linalg
np.testing.assert_allclose(ap.asnumpy(ap.fft.fft(ap.asarray(a[0]))), np.fft.fft(a[0]),
                           rtol=1e-12, atol=1e-12)
# NumPy's functions dispatch to them through __array_function__ in a new process too.
np.testing.assert_allclose(float(np.linalg.det(ap.asarray(a))), np.linalg.det(a), rtol=1e-12)
print("ok")
""")
    assert out.strip() == "ok"


def test_import_loads_no_cuda_library():
    out = run("import accelpy\n"
              "maps = open('/proc/self/maps').read()\n"
              "print([n for n in ('libcuda', 'libnvrtc', 'libcublas', 'libcufft', 'libcusolver',"
              " 'libaccel_cub') if n in maps])")
    assert out.strip() == "[]"


def test_global_generator_is_made_on_first_use_and_seed_replaces_it(rng):
    seed = int(rng.integers(1, 2**31))
    out = run(f"""
import sys, threading
import numpy as np
import accelpy as ap
legacy = sys.modules["accelpy._random_legacy"]  # the module functions' global generator
assert legacy._global is None
# Concurrent first draws share one generator.
seen = []
threads = [threading.Thread(target=lambda: seen.append(legacy._global_generator()))
           for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
assert len({{id(g) for g in seen}}) == 1, seen
a = ap.asnumpy(ap.random.random(64, device="cpu"))
b = ap.asnumpy(ap.random.random(64, device="cpu"))
assert not np.array_equal(a, b)
ap.random.seed({seed})
c = ap.asnumpy(ap.random.random(64, device="cpu"))
ap.random.seed({seed})
d = ap.asnumpy(ap.random.random(64, device="cpu"))
np.testing.assert_array_equal(c, d)
np.testing.assert_array_equal(
    c, ap.asnumpy(ap.random.default_rng({seed}).random(64, device="cpu")))
print("ok")
""")
    assert out.strip() == "ok"


def test_finfo_iinfo_records_are_frozen_values():
    f = ap.finfo(np.float32)
    assert f == ap.finfo(ap.float32) and hash(f) == hash(ap.finfo(np.float32))
    assert f != ap.finfo(np.float64)
    assert (f.bits, f.eps, f.dtype) == (32, float(np.finfo(np.float32).eps), np.dtype(np.float32))
    assert "smallest_normal=" in repr(f)
    with pytest.raises(AttributeError, match="frozen"):
        f.eps = 1.0
    i = ap.iinfo(np.int16)
    assert (i.bits, i.min, i.max) == (16, -32768, 32767)
    with pytest.raises(AttributeError, match="frozen"):
        del i.max
