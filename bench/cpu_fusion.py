"""CPU benchmarks of whole-program fusion beside NumPy, measured in the same run: Black-Scholes
(one group, two outputs), row softmax and layer norm (row groups: one read of the input, one
write of the result). Targets on 2 cores: Black-Scholes >= 2.5x NumPy's speed, softmax and layer
norm >= 2x. Each figure is the median of timed runs after warm-up; the spread (min..max over the
runs) is printed beside it, since the machine may be shared.

    python bench/cpu_fusion.py [--quick] [--repeat N] [--clock process]

--clock process counts the CPU time of all the process's threads instead of wall time: on a
machine that other users load, wall time is mostly waiting for a core. With
ACCELPY_NUM_THREADS=1 it compares one core's work with NumPy's (single-threaded) loops.
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

import accelpy as ap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tests", "python"))
from fusion_programs import black_scholes, layer_norm, softmax  # noqa: E402


def times(fn, repeat, warmup=2, clock=time.perf_counter):
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        out.append(clock() - t0)
    return out


def cases(rng, quick):
    n = 1 << (20 if quick else 22)
    rows, cols = (1024, 1024) if quick else (4096, 4096)
    S, X, T = (rng.uniform(lo, hi, n).astype(np.float32) for lo, hi in ((5, 30), (1, 100),
                                                                         (0.25, 10)))
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    g = rng.uniform(0.5, 1.5, cols).astype(np.float32)
    b = rng.standard_normal(cols, dtype=np.float32)
    return [
        (f"black-scholes {n} f32 -> 2", black_scholes, (S, X, T), 2.5),
        (f"softmax {rows}x{cols} f32", softmax, (x,), 2.0),
        (f"layer norm {rows}x{cols} f32", layer_norm, (x, g, b), 2.0),
    ]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--repeat", type=int, default=9)
    p.add_argument("--shared-inputs", action="store_true",
                   help="import the NumPy inputs without copies: memory NumPy still holds, so "
                        "the first operation over each is computed at the call")
    p.add_argument("--clock", choices=("wall", "process"), default="wall")
    args = p.parse_args()
    clock = time.process_time if args.clock == "process" else time.perf_counter
    rng = np.random.default_rng(0)
    print(f"accelpy {ap.__version__}, NumPy {np.__version__}, {ap._core._num_threads()} threads, "
          f"{args.clock} clock")
    print(f"{'case':34} {'numpy ms':>18} {'accelpy ms':>18} {'speed-up':>9} target")
    ok = True
    for name, fn, host, target in cases(rng, args.quick):
        # Copies are accelpy's alone (lazy, fused); the host arrays stay referenced here.
        dev = [ap.asarray(h) if args.shared_inputs else ap.asarray(h.copy()) for h in host]

        def run_ap(fn=fn, dev=dev):
            r = fn(ap, *dev)
            ap.eval(*r) if isinstance(r, tuple) else ap.eval(r)

        # Interleaved, so that both see the same load from the machine's other users.
        t_np, t_ap = [], []
        for _ in range(3):
            t_np += times(lambda fn=fn, host=host: fn(np, *host), args.repeat // 3 or 1,
                          clock=clock)
            t_ap += times(run_ap, args.repeat // 3 or 1, clock=clock)
        m_np, m_ap = statistics.median(t_np), statistics.median(t_ap)
        speed = m_np / m_ap
        ok = ok and speed >= target
        print(f"{name:34} {m_np * 1e3:7.2f} ({min(t_np) * 1e3:.1f}..{max(t_np) * 1e3:.1f}) "
              f"{m_ap * 1e3:7.2f} ({min(t_ap) * 1e3:.1f}..{max(t_ap) * 1e3:.1f}) "
              f"{speed:8.2f}x >={target}x")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
