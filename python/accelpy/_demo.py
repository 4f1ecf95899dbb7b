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
    print("\n5. The seed tutorial's five programs (examples/seed/):")
    failed = run_seed_programs()
    print("\nAll results matched NumPy." if not failed else f"\n{failed} program(s) failed.")
    return 1 if failed else 0


# The tutorial's programs: (file, what it needs besides the CPU).
SEED_PROGRAMS = (("cuda_kernel", None), ("pycuda_style", None), ("cupy_style", None),
                 ("torch_style", "random"), ("tf_style", "random"))


def _seed_path(name):
    here = os.path.dirname(__file__)
    for path in (os.path.join(here, "_seed", f"{name}.py"),
                 os.path.join(here, "..", "..", "examples", "seed", f"{name}.py")):
        if os.path.exists(path):
            return path
    return None


def seed_skip_reason(need):
    """Why a seed program cannot run here ("" when it can)."""
    if need == "gpu" and not ap.cuda.is_available():
        return f"needs a CUDA GPU ({ap.cuda.unavailable_reason()})"
    if need == "random" and not hasattr(ap, "random"):
        return "needs accelpy.random, which this build does not have"
    return ""


def run_seed_programs():
    """Runs each seed program (timing it) and the add it performs at a larger size against
    NumPy; returns the number that failed."""
    import contextlib
    import io
    import runpy

    failed = 0
    for name, need in SEED_PROGRAMS:
        path = _seed_path(name)
        reason = "not found" if path is None else seed_skip_reason(need)
        if reason:
            print(f"   {name + '.py':18s} skipped: {reason}")
            continue
        out = io.StringIO()
        t0 = time.perf_counter()
        try:
            with contextlib.redirect_stdout(out):
                runpy.run_path(path, run_name="__main__")
        except Exception as e:  # noqa: BLE001 - reported, and counted as a failure
            failed += 1
            print(f"   {name + '.py':18s} FAILED: {type(e).__name__}: {e}")
            continue
        dt = time.perf_counter() - t0
        last = out.getvalue().strip().splitlines()[-1] if out.getvalue().strip() else ""
        print(f"   {name + '.py':18s} {dt * 1e3:8.1f} ms (first run, compiling included)  {last}")
    n = 1 << 24
    rng = np.random.default_rng()
    a_np = rng.standard_normal(n, dtype=np.float32)
    b_np = rng.standard_normal(n, dtype=np.float32)
    a, b = ap.asarray(a_np), ap.asarray(b_np)
    sync = ap.cuda.synchronize if a.device.type == "cuda" else (lambda: None)

    def add_ap():
        ap.eval(a + b)
        sync()

    t_ap, t_np = _best(add_ap), _best(lambda: a_np + b_np)
    print(f"   their add at N={n:,} on {a.device}: accelpy {t_ap * 1e3:.2f} ms, NumPy "
          f"{t_np * 1e3:.2f} ms ({t_np / t_ap:.2f}x)")
    if a.device.type == "cuda":
        k = ap.RawKernel("""extern "C" __global__ void add(const float* a, const float* b,
            float* c, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) c[i] = a[i] + b[i]; }""", "add")
        c = ap.empty(n, dtype=np.float32)

        def add_raw():
            k(((n + 255) // 256,), (256,), (a, b, c, np.int32(n)))
            sync()

        t_raw = _best(add_raw)
        print(f"   the raw CUDA kernel: {t_raw * 1e3:.2f} ms ({t_np / t_raw:.2f}x NumPy)")
    return failed


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
