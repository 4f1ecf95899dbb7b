"""The demo: accelpy next to NumPy on the same data, with the results checked."""

import importlib.util
import os
import time

import numpy as np

import accelpy as ap


def _best(fn, repeat=5):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def run():
    dev = ap.get_default_device()
    print(f"accelpy {ap.__version__} on {dev}")
    rng = np.random.default_rng()
    n = 1 << 22
    x_np = rng.standard_normal(n, dtype=np.float32)
    y_np = rng.standard_normal(n, dtype=np.float32)
    x, y = ap.asarray(x_np), ap.asarray(y_np)

    print("\n1. NumPy names and semantics, lazily evaluated:")
    z = ap.sqrt(x * x + y * y) * 2.0 - x
    print(f"   z = ap.sqrt(x*x + y*y) * 2.0 - x   -> pending: {z._is_pending()}")
    print(f"   z[:4] = {z[:4]}   (reading evaluates)")
    ref = np.sqrt(x_np * x_np + y_np * y_np) * np.float32(2.0) - x_np
    assert np.allclose(ap.asnumpy(z), ref, rtol=1e-5, atol=1e-5)

    print("\n2. Reductions over any axes, NumPy's dtype rules:")
    m = x.reshape(1024, -1)
    print(f"   m.shape={m.shape}  m.sum(axis=0)[:3]={m.sum(axis=0)[:3]}  "
          f"m.std()={float(m.std()):.6f}")
    assert abs(float(m.std()) - x_np.std()) < 1e-4

    print("\n3. One fused pass instead of one pass per operation:")
    expr_ap = lambda: ap.eval(ap.sqrt(x * x + y * y) * 2.0 - x)  # noqa: E731
    expr_np = lambda: np.sqrt(x_np * x_np + y_np * y_np) * np.float32(2.0) - x_np  # noqa: E731
    t_ap, t_np = _best(expr_ap), _best(expr_np)
    print(f"   {n:,} float32 elements: accelpy {t_ap * 1e3:.2f} ms, NumPy {t_np * 1e3:.2f} ms "
          f"({t_np / t_ap:.2f}x)")
    s_ap = lambda: ap.eval(((x - y) * (x - y)).sum())  # noqa: E731
    s_np = lambda: ((x_np - y_np) ** 2).sum()  # noqa: E731
    t_ap, t_np = _best(s_ap), _best(s_np)
    print(f"   ((x - y)**2).sum(): accelpy {t_ap * 1e3:.2f} ms, NumPy {t_np * 1e3:.2f} ms "
          f"({t_np / t_ap:.2f}x)")
    print("\n4. A physics expression over six arrays (examples/seed/fusion.py):")
    _run_seed("fusion", ["--n", str(n)])
    print("\nAll results matched NumPy.")
    return 0


def _run_seed(name, argv):
    """Runs a seed program shipped with the package (or, in a source tree, from examples/)."""
    here = os.path.dirname(__file__)
    for path in (os.path.join(here, "_seed", f"{name}.py"),
                 os.path.join(here, "..", "..", "examples", "seed", f"{name}.py")):
        if os.path.exists(path):
            spec = importlib.util.spec_from_file_location(f"accelpy_seed_{name}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module.main(argv)
    print(f"   (seed program {name}.py not found)")
    return 1
