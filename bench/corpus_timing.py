"""The timing loop that bench/programs.py and bench/host_corpus.py share: the columns a machine
can run (NumPy, accelpy on the CPU, and on a GPU accelpy and CuPy) and interleaved medians of
whole program runs."""

import math
import statistics
import sys
import time

import accelpy as ap


def columns():
    """(label, module, device) of each column this machine can run; NumPy's first."""
    cols = [("numpy", "numpy", None), ("accelpy cpu", "accelpy", "cpu")]
    if ap.cuda.is_available():
        cols.append(("accelpy cuda", "accelpy", "cuda"))
        try:
            import cupy  # noqa: F401

            cols.append(("cupy", "cupy", None))
        except ImportError:
            pass
    return cols


def median_times(fns, repeat):
    """{label: (median, spread)} seconds of each fn over `repeat` rounds after one warm-up run
    of each (compiles, caches, the inputs a program builds once). The rounds interleave the
    columns (numpy, accelpy, numpy, ...), so a change in the shared machine's load falls on all
    of them; the spread is (max - min) / median, how noisy the machine was. A column whose run
    raises (a module without the program's surface) is (None, None)."""
    samples = {}
    for label, fn in fns.items():
        try:
            fn()
            samples[label] = []
        except Exception as e:  # noqa: BLE001 - a module without the program's surface
            print(f"  {label}: {type(e).__name__}: {e}", file=sys.stderr)
    for _ in range(repeat):
        for label in samples:
            t0 = time.perf_counter()
            fns[label]()
            samples[label].append(time.perf_counter() - t0)
    out = {label: (None, None) for label in fns}
    for label, ts in samples.items():
        mid = statistics.median(ts)
        out[label] = (mid, (max(ts) - min(ts)) / mid)
    return out


def geomean(ratios):
    """The geometric mean of the ratios given (None and 0 left out); None if there are none."""
    ratios = [r for r in ratios if r]
    return math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else None
