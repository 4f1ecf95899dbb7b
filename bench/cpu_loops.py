"""The CPU's elementwise inner loops beside NumPy (cases for bench/cpu.py): fused chains of 2, 5
and 20 ops over float32, float64 and int64 from cache-resident to memory-bound sizes, complex
abs, hypot and the transcendental functions.

Run alone it prints a Markdown table (the one in docs/subsystems/cpu.md): the median of
`--repeat` samples per case after warm-up, accelpy and NumPy interleaved in the same run, and
the spread of the ratio over `--rounds` rounds (the build machine is shared).

    python bench/cpu_loops.py [--quick] [--filter TEXT] [--rounds 3]
"""

import argparse
import statistics
import sys
import time

import numpy as np

import accelpy as ap

SIZES = (1_000, 100_000, 1_000_000, 10_000_000)


def _chain(y, ops):
    """`ops` elementwise ops alternating y * 0.999 and y + 0.001 (y * 3 and y + 1 for ints)."""
    mul, add = (3, 1) if y.dtype == np.int64 else (0.999, 0.001)
    for k in range(ops):
        y = y * mul if k % 2 == 0 else y + add
    return y


def _size_name(n):
    return f"{n:.0e}".replace("+0", "").replace("+", "")


def chain_cases(rng, sizes=SIZES):
    """(name, bytes moved, accelpy fn, NumPy fn) for the fused chains."""
    out = []
    for dtype in (np.float32, np.float64, np.int64):
        for n in sizes:
            if dtype == np.int64:
                x = rng.integers(-100, 100, n)
            else:
                x = rng.standard_normal(n).astype(dtype)
            X = ap.asarray(x)
            for ops in (2, 5, 20):
                name = f"chain {ops:2d} ops {_size_name(n):>4} {np.dtype(dtype).name}"
                out.append((name, 2 * x.nbytes,
                            lambda X=X, ops=ops: ap.eval(_chain(X, ops)),
                            lambda x=x, ops=ops: _chain(x, ops)))
    return out


def loop_cases(rng):
    """The issue's loops over one array: y = y*0.999 + 0.001 repeated then summed, and
    y = sqrt(y*y + 1) - 1, timed per loop body."""
    out = []
    for n in (1_000, 100_000):
        y = rng.random(n, dtype=np.float32)
        Y = ap.asarray(y)

        def np_affine(y=y):
            for _ in range(200):
                y = y * np.float32(0.999) + np.float32(0.001)
            return float(y.sum())

        def ap_affine(Y=Y):
            for _ in range(200):
                Y = Y * 0.999 + 0.001
            return float(Y.sum())

        def np_sqrt(y=y):
            for _ in range(20):
                y = np.sqrt(y * y + np.float32(1)) - np.float32(1)
            return float(y.sum())

        def ap_sqrt(Y=Y):
            for _ in range(20):
                Y = ap.sqrt(Y * Y + 1) - 1
            return float(Y.sum())

        size = _size_name(n)
        out.append((f"200 x (y*0.999 + 0.001), sum {size} f32", 8 * n, ap_affine, np_affine))
        out.append((f"20 x (sqrt(y*y + 1) - 1), sum {size} f32", 8 * n, ap_sqrt, np_sqrt))
    return out


def function_cases(rng, n=1_000_000):
    """Complex abs, hypot and the transcendental functions over n elements."""
    out = []
    for dtype in (np.complex64, np.complex128):
        z = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
        Z = ap.asarray(z)
        out.append((f"abs {_size_name(n)} {np.dtype(dtype).name}", z.nbytes * 3 // 2,
                    lambda Z=Z: ap.eval(ap.abs(Z)), lambda z=z: np.abs(z)))
    for dtype in (np.float32, np.float64):
        out += _math_cases(rng, n, dtype)
    return out


def _math_cases(rng, n, dtype):
    x = rng.standard_normal(n).astype(dtype)
    y = rng.standard_normal(n).astype(dtype)
    p = np.abs(x)
    X, Y, P = ap.asarray(x), ap.asarray(y), ap.asarray(p)
    funcs = [
        ("hypot", lambda: ap.hypot(X, Y), lambda: np.hypot(x, y)),
        ("exp", lambda: ap.exp(X), lambda: np.exp(x)),
        ("log", lambda: ap.log(P), lambda: np.log(p)),
        ("sin", lambda: ap.sin(X), lambda: np.sin(x)),
        ("cos", lambda: ap.cos(X), lambda: np.cos(x)),
        ("tanh", lambda: ap.tanh(X), lambda: np.tanh(x)),
        ("arctan2", lambda: ap.arctan2(X, Y), lambda: np.arctan2(x, y)),
        ("power", lambda: ap.power(P, Y), lambda: np.power(p, y)),
    ]
    return [(f"{fname} {_size_name(n)} {np.dtype(dtype).name}", 3 * x.nbytes,
             lambda f_ap=f_ap: ap.eval(f_ap()), f_np) for fname, f_ap, f_np in funcs]


def cases(rng):
    """(name, bytes, accelpy fn, NumPy fn, numexpr fn) per case, for bench/cpu.py."""
    rows = chain_cases(rng) + loop_cases(rng) + function_cases(rng)
    return [(name, nbytes, f_ap, f_np, None) for name, nbytes, f_ap, f_np in rows]


def _median(fn, repeat, clock=time.perf_counter, budget=0.02):
    """Median seconds per call; each sample runs fn enough times to last about `budget` s."""
    fn()
    t0 = clock()
    fn()
    inner = max(1, int(budget / max(clock() - t0, 1e-7)))
    samples = []
    for _ in range(repeat):
        t0 = clock()
        for _ in range(inner):
            fn()
        samples.append((clock() - t0) / inner)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--filter", default="", help="only cases whose name contains this")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (for the ratio's spread)")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time with the process's CPU time, not the wall clock: on a loaded"
                        " machine, with ACCELPY_NUM_THREADS=1, the work of the loops alone")
    args = parser.parse_args()
    clock = time.process_time if args.cpu_time else time.perf_counter
    rng = np.random.default_rng(0)
    repeat = 3 if args.quick else 7
    rows = [c for c in cases(rng) if args.filter in c[0]]
    print(f"| case | NumPy | accelpy | speed vs NumPy (min-max over {args.rounds} rounds) |")
    print("| --- | ---: | ---: | --- |")
    for name, _, f_ap, f_np, _ in rows:
        t_ap, t_np = [], []
        for _ in range(args.rounds):
            t_np.append(_median(f_np, repeat, clock))
            t_ap.append(_median(f_ap, repeat, clock))
        ratios = [a / b for a, b in zip(t_np, t_ap, strict=True)]
        med_np, med_ap = statistics.median(t_np), statistics.median(t_ap)
        print(f"| {name} | {med_np * 1e6:.1f} us | {med_ap * 1e6:.1f} us | "
              f"{med_np / med_ap:.2f}x ({min(ratios):.2f}-{max(ratios):.2f}) |", flush=True)
    print(f"threads={ap._core._num_threads()}, clock={clock.__name__}", file=sys.stderr)


if __name__ == "__main__":
    main()
