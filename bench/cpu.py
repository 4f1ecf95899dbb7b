"""CPU benchmarks: accelpy beside NumPy and numexpr, measured in the same run.

Each figure is the median of many timed runs after warm-up; accelpy's runs include evaluating
the result (ap.eval), so deferred work is counted. Results go to bench/results/cpu-<host>.json
with the date, the processor and the versions; a ratio table is printed last.

    python bench/cpu.py [--quick] [--loops] [--out PATH]

--loops runs the inner-loop cases of cpu_loops.py instead (fused chains, complex abs, hypot,
transcendentals; results to bench/results/cpu-<host>-loops.json).
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

import accelpy as ap

try:
    import numexpr as ne
except ImportError:  # numexpr is optional: its column is left empty
    ne = None

N = 1 << 24  # 16M elements, as the targets


def median_time(fn, *, repeat, warmup=3, inner=1):
    """Median seconds per call of fn over `repeat` timed samples of `inner` calls each."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - t0) / inner)
    return statistics.median(samples)


def cases(rng, n):
    """(name, bytes that must move, accelpy fn, NumPy fn, numexpr expression) per case."""
    f32 = lambda: rng.standard_normal(n, dtype=np.float32)  # noqa: E731
    env = dict(a=f32(), b=f32(), c=f32(), d=f32(), e=f32(), x=f32(), y=f32(),
               one_a=rng.standard_normal(1, dtype=np.float32),
               one_b=rng.standard_normal(1, dtype=np.float32))
    a, b, c, d, e, x, y, one_a, one_b = env.values()
    A, B, C, D, E, X, Y, One_a, One_b = (ap.asarray(v) for v in env.values())
    G, np_gen = ap.random.default_rng(0), np.random.default_rng(0)
    idx = rng.integers(0, n, size=n // 4)
    Idx = ap.asarray(idx)
    out = [
        ("add 16M f32", 3 * 4 * n,
         lambda: ap.eval(A + B), lambda: a + b, "a + b"),
        ("a*b + c*d - e (5 x 16M f32)", 6 * 4 * n,
         lambda: ap.eval(A * B + C * D - E), lambda: a * b + c * d - e, "a*b + c*d - e"),
        ("sqrt(x*x + y*y)*sin(x) + exp(-y)", 3 * 4 * n,
         lambda: ap.eval(ap.sqrt(X * X + Y * Y) * ap.sin(X) + ap.exp(-Y)),
         lambda: np.sqrt(x * x + y * y) * np.sin(x) + np.exp(-y),
         "sqrt(x*x + y*y)*sin(x) + exp(-y)"),
        ("sum 16M f32", 4 * n, lambda: ap.eval(A.sum()), lambda: a.sum(), "sum(a)"),
        ("((a - b)**2).sum()", 2 * 4 * n,
         lambda: ap.eval(((A - B) ** 2).sum()), lambda: ((a - b) ** 2).sum(), "sum((a - b)**2)"),
        ("random 16M f32 (Philox vs PCG64)", 4 * n,
         lambda: ap.eval(G.random(n, dtype=np.float32)),
         lambda: np_gen.random(n, dtype=np.float32), None),
        ("standard_normal 16M f32", 4 * n,
         lambda: ap.eval(G.standard_normal(n, dtype=np.float32)),
         lambda: np_gen.standard_normal(n, dtype=np.float32), None),
        ("standard_normal 16M f64", 8 * n,
         lambda: ap.eval(G.standard_normal(n)), lambda: np_gen.standard_normal(n), None),
        ("integers [0, 1000) 16M i64", 8 * n,
         lambda: ap.eval(G.integers(0, 1000, n)), lambda: np_gen.integers(0, 1000, n), None),
        ("x[x > 0] 16M f32", 4 * n + 2 * n,
         lambda: ap.eval(X[X > 0]), lambda: x[x > 0], None),
        ("x[idx] 4M int64 of 16M f32", 16 * (n // 4),
         lambda: ap.eval(X[Idx]), lambda: x[idx], None),
        ("1-element add + eval (dispatch)", 0,
         lambda: ap.eval(One_a + One_b), lambda: one_a + one_b, "one_a + one_b"),
        # Three ops through the planner (one fused group) against NumPy's three ufunc calls.
        ("1-element 3-op chain + eval (dispatch)", 0,
         lambda: ap.eval((One_a + One_b) * One_a - One_b),
         lambda: (one_a + one_b) * one_a - one_b, None),
    ]
    # Matrix products (bytes of the three matrices; numexpr has none): BLAS-backed float32 and
    # float64, a batch of small products, and int32 through accelpy's own GEMM (NumPy's integer
    # matmul is a plain loop).
    m32 = rng.standard_normal((1024, 1024), dtype=np.float32)
    m64 = rng.standard_normal((512, 512))
    bat = rng.standard_normal((512, 16, 16), dtype=np.float32)
    i32 = rng.integers(-100, 100, (256, 256), dtype=np.int32)
    M32, M64, Bat, I32 = (ap.asarray(v) for v in (m32, m64, bat, i32))
    out += [
        ("matmul 1024^2 f32", 3 * 4 * 1024**2, lambda: ap.eval(M32 @ M32), lambda: m32 @ m32, None),
        ("matmul 512^2 f64", 3 * 8 * 512**2, lambda: ap.eval(M64 @ M64), lambda: m64 @ m64, None),
        ("matmul 512 x 16^2 f32 batch", 3 * 4 * 512 * 16**2, lambda: ap.eval(Bat @ Bat),
         lambda: bat @ bat, None),
        ("matmul 256^2 int32", 3 * 4 * 256**2, lambda: ap.eval(I32 @ I32), lambda: i32 @ i32, None),
    ]
    # Sorting and scans (issue 6); numexpr has none of them.
    s_np = rng.standard_normal(n // 4, dtype=np.float32)
    S = ap.asarray(s_np)
    u_np = rng.integers(0, 1 << 16, size=n // 4)
    U = ap.asarray(u_np)
    out += [
        ("sort 4M f32", 2 * 4 * (n // 4), lambda: ap.eval(ap.sort(S)), lambda: np.sort(s_np), None),
        ("argsort 4M f32 (stable)", 12 * (n // 4), lambda: ap.eval(ap.argsort(S)),
         lambda: np.argsort(s_np, kind="stable"), None),
        ("cumsum 16M f32", 2 * 4 * n, lambda: ap.eval(ap.cumsum(A)), lambda: np.cumsum(a), None),
        ("unique 4M int64 (65536 values)", 2 * 8 * (n // 4), lambda: ap.eval(ap.unique(U)),
         lambda: np.unique(u_np), None),
    ]
    # NumPy breadth A (issue 6): multidimensional histograms, select, insert/delete.
    hx, hy = s_np, rng.standard_normal(n // 4, dtype=np.float32)
    HX, HY = S, ap.asarray(hy)
    cut = np.arange(0, n, 1000)
    out += [
        ("histogram2d 4M f32 points, 64x64 bins", 2 * 4 * (n // 4),
         lambda: ap.eval(ap.histogram2d(HX, HY, bins=64)[0]),
         lambda: np.histogram2d(hx, hy, bins=64), None),
        ("select 3 cases 16M f32", 2 * 4 * n,
         lambda: ap.eval(ap.select([A > 1, A < -1, B > 0], [A, B, A * B])),
         lambda: np.select([a > 1, a < -1, b > 0], [a, b, a * b]), None),
        ("delete every 1000th of 16M f32", 2 * 4 * n, lambda: ap.eval(ap.delete(A, cut)),
         lambda: np.delete(a, cut), None),
    ]
    # NumPy breadth composed from fused elementwise ops (issue 6, part B).
    coef = rng.standard_normal(9)
    out += [
        ("sinc 16M f32", 2 * 4 * n, lambda: ap.eval(ap.sinc(X)), lambda: np.sinc(x), None),
        ("i0 16M f32", 2 * 4 * n, lambda: ap.eval(ap.i0(X)), lambda: np.i0(x), None),
        ("polyval deg 8 16M f32", 2 * 4 * n, lambda: ap.eval(ap.polyval(coef, X)),
         lambda: np.polyval(coef, x), None),
        ("frexp 16M f32", 4 * n + 8 * n, lambda: ap.eval(*ap.frexp(X)), lambda: np.frexp(x),
         None),
        ("ldexp 16M f32, scalar exponent", 2 * 4 * n, lambda: ap.eval(ap.ldexp(X, 3)),
         lambda: np.ldexp(x, 3), None),
    ]
    # Complex abs and square, bit-identical to NumPy's loops (NumPy's formula, fused
    # multiply-adds).
    z64 = (rng.standard_normal(n // 4) + 1j * rng.standard_normal(n // 4)).astype(np.complex64)
    z128 = rng.standard_normal(n // 4) + 1j * rng.standard_normal(n // 4)
    Z64, Z128 = ap.asarray(z64), ap.asarray(z128)
    out += [
        ("abs 4M complex64", 12 * (n // 4), lambda: ap.eval(ap.abs(Z64)), lambda: np.abs(z64),
         None),
        ("abs 4M complex128", 24 * (n // 4), lambda: ap.eval(ap.abs(Z128)),
         lambda: np.abs(z128), None),
        ("square 4M complex128", 32 * (n // 4), lambda: ap.eval(ap.square(Z128)),
         lambda: np.square(z128), None),
    ]
    # numexpr looks names up in the caller's frame; hand them over explicitly.
    return [(name, nbytes, f_ap, f_np,
             (lambda expr=expr: ne.evaluate(expr, local_dict=env)) if ne and expr else None)
            for name, nbytes, f_ap, f_np, expr in out]


def check_correct(rng):
    """The benchmarked expressions agree with NumPy before anything is timed."""
    a, b = rng.standard_normal(1000, dtype=np.float32), rng.standard_normal(1000, dtype=np.float32)
    got = ap.asnumpy(ap.sqrt(ap.asarray(a) ** 2 + ap.asarray(b) ** 2) * ap.sin(ap.asarray(a)))
    np.testing.assert_allclose(got, np.sqrt(a * a + b * b) * np.sin(a), rtol=1e-5, atol=1e-6)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--loops", action="store_true", help="the cases of cpu_loops.py only")
    parser.add_argument("--out", help="JSON path (default bench/results/cpu-<host>.json)")
    args = parser.parse_args()
    rng = np.random.default_rng()
    check_correct(rng)
    repeat = 5 if args.quick else 21
    rows = []
    import cpu_kernels  # users' CUDA C kernels on the CPU, beside this file
    import cpu_loops  # the elementwise inner loops, beside this file
    import cpu_spectral  # fft and linalg (issue 8), beside this file

    if args.loops:
        all_cases = cpu_loops.cases(rng)
    else:
        all_cases = cases(rng, N) + cpu_spectral.cases(rng) + cpu_kernels.cases(rng, N)
    for name, nbytes, f_ap, f_np, f_ne in all_cases:
        small = nbytes == 0 and "dispatch" in name
        inner = 20000 if small else 50 if args.loops and nbytes < (1 << 20) else 1
        kw = dict(repeat=repeat, inner=inner)
        t_ap = median_time(f_ap, **kw)
        t_np = median_time(f_np, **kw)
        t_ne = median_time(f_ne, **kw) if f_ne is not None else None
        rows.append(dict(case=name, bytes=nbytes, accelpy_s=t_ap, numpy_s=t_np, numexpr_s=t_ne))
        print(f"  measured {name}", file=sys.stderr)
    result = dict(
        date=datetime.datetime.now().isoformat(timespec="seconds"),
        device=platform.processor() or platform.machine(),
        cpu_model=_cpu_model(), cores=os.cpu_count(), threads=ap._core._num_threads(),
        versions=dict(accelpy=ap.__version__, numpy=np.__version__,
                      numexpr=getattr(ne, "__version__", None), python=platform.python_version()),
        rows=rows)
    path = args.out or os.path.join(os.path.dirname(__file__), "results",
                                    f"cpu-{platform.node() or 'host'}"
                                    f"{'-loops' if args.loops else ''}.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(result, f, indent=2)
    print(f"\n{result['cpu_model']}, {result['cores']} cores, {result['date']}")
    print(f"{'case':36} {'accelpy':>10} {'numpy':>10} {'numexpr':>10} {'vs numpy':>9}")
    for r in rows:
        unit, scale = ("us", 1e6) if "dispatch" in r["case"] or args.loops else ("ms", 1e3)
        ne_s = f"{r['numexpr_s'] * scale:8.3f}{unit}" if r["numexpr_s"] else f"{'-':>10}"
        t_ap, t_np = r["accelpy_s"] * scale, r["numpy_s"] * scale
        print(f"{r['case']:36} {t_ap:8.3f}{unit} {t_np:8.3f}{unit} {ne_s}"
              f" {r['numpy_s'] / r['accelpy_s']:8.2f}x")


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


if __name__ == "__main__":
    main()
