"""The timing loop that bench/programs.py and bench/host_corpus.py share: the columns a machine
can run (NumPy, accelpy on the CPU, and on a GPU accelpy and CuPy) and interleaved medians of
whole program runs."""

import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tests", "programs"))

import accelpy as ap  # noqa: E402
import runner  # noqa: E402


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


def program_seconds(program, module, device, clock="wall"):
    """One run of a corpus program; its own seconds (runner.Run.seconds: without the scratch
    directory the harness makes for it, which costs more than many programs on a busy disk).
    clock="thread": the running thread's CPU time instead (Run.thread_seconds)."""
    run = runner.run_program(program, module, device)
    return run.thread_seconds if clock == "thread" else run.seconds


def median_times(fns, repeat):
    """{label: (median, spread)} seconds of each fn (which returns the seconds its run took)
    over `repeat` rounds after one warm-up run of each (compiles, caches, the inputs a program
    builds once). The rounds interleave the columns (numpy, accelpy, numpy, ...), so a change in
    the shared machine's load falls on all of them; the spread is (max - min) / median, how noisy
    the machine was. A column whose run raises (a module without the program's surface) is
    (None, None)."""
    samples = {}
    for label, fn in fns.items():
        try:
            fn()
            samples[label] = []
        except Exception as e:  # noqa: BLE001 - a module without the program's surface
            print(f"  {label}: {type(e).__name__}: {e}", file=sys.stderr)
    for _ in range(repeat):
        for label in samples:
            samples[label].append(fns[label]())
    out = {label: (None, None) for label in fns}
    for label, ts in samples.items():
        mid = statistics.median(ts)
        out[label] = (mid, (max(ts) - min(ts)) / mid)
    return out


def geomean(ratios):
    """The geometric mean of the ratios given (None and 0 left out); None if there are none."""
    ratios = [r for r in ratios if r]
    return math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else None
