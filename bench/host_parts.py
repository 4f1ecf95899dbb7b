"""The parts of a small operation's host cost, accelpy beside NumPy: one node evaluated, a 0-d
sum read by the host, the loop bodies of bench/host.py per call, and groups reading a 0-d array
broadcast over 65,536 elements. Thread CPU time (time.thread_time: on a shared machine wall
time is mostly waiting for a core), medians of --repeat runs after a warm-up, both libraries in
the same process. docs/subsystems/host-cost.md (fifth round) reads these.

    python bench/host_parts.py [--repeat 7] [--json PATH]
"""

import argparse
import json
import statistics
import sys
import time

import numpy as np

import accelpy as ap


def per_call(fn, calls, repeat):
    """Median microseconds per call of fn(calls) (which makes `calls` calls)."""
    fn(max(1, calls // 10))
    samples = []
    for _ in range(repeat):
        t0 = time.thread_time()
        fn(calls)
        samples.append((time.thread_time() - t0) / calls * 1e6)
    return statistics.median(samples)


def small_cases(xp, n):
    y0 = xp.asarray(np.linspace(0, 1, n, dtype=np.float32))

    def one_node(calls):
        for _ in range(calls):
            z = y0 * y0
            if xp is ap:
                ap.eval(z)

    def host_sum(calls):
        for _ in range(calls):
            float(y0.sum())

    def scale(calls):  # per op: two ops a step
        y = y0
        for _ in range(calls // 2):
            y = y * 0.999 + 0.001
        float(y.sum())

    def sqrt_body(calls):
        y = y0
        for _ in range(calls):
            y = xp.sqrt(y * y + 1) - 1
            float(y.sum())

    return {
        f"y*y evaluated, {n} f32": (one_node, 4000),
        f"float(y.sum()), {n} f32": (host_sum, 4000),
        f"y*0.999+0.001 per op, {n} f32": (scale, 4000),
        f"sqrt(y*y+1)-1; float(sum) per iter, {n} f32": (sqrt_body, 2000),
    }


def broadcast_cases(xp):
    rng = np.random.default_rng(1)
    m0 = xp.asarray(rng.random(65536) * 0.2)
    z0 = xp.asarray(rng.random((256, 256)))
    s = xp.asarray(np.float64(0.5))  # a 0-d array: read broadcast

    def masked_fill(calls):
        for _ in range(calls):
            m = m0.copy()
            m[m > 0.25] = 0.25
            float(m[0])

    def where_0d(calls):
        for _ in range(calls):
            float(xp.where(z0 > 0.5, s, z0)[0, 0])

    def times_0d(calls):
        for _ in range(calls):
            float((z0 * s + s)[0, 0])

    return {
        "M[M > 0.25] = 0.25 after a copy, 65,536 f64": (masked_fill, 50),
        "where(Z > 0.5, s0d, Z), 256x256 f64": (where_0d, 50),
        "Z * s0d + s0d, 256x256 f64": (times_0d, 50),
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--json", metavar="PATH", help="write the results as JSON")
    args = p.parse_args(argv)
    rows = []
    for make in (lambda xp: small_cases(xp, 10), lambda xp: small_cases(xp, 1000), broadcast_cases):
        cases = {lib: make(xp) for lib, xp in (("accelpy", ap), ("numpy", np))}
        for name in cases["accelpy"]:
            got = {lib: per_call(*cases[lib][name], args.repeat) for lib in cases}
            rows.append({"case": name, **got})
            print(
                f"{name:<48} numpy {got['numpy']:9.3f} us  accelpy {got['accelpy']:9.3f} us  "
                f"{got['numpy'] / got['accelpy']:5.2f}x",
                flush=True,
            )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                    "clock": "thread",
                    "repeat": args.repeat,
                    "results": rows,
                },
                f,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
