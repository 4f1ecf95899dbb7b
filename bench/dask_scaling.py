"""Weak scaling of accelpy through Dask, beside Dask with CuPy chunks on the same GPUs.

    python bench/dask_scaling.py [--device cuda|cpu] [--gpus 1,2,4,8] [--size small|full]

For each worker count (one worker per GPU, accelpy.distributed.LocalCluster; CPU workers with
--device cpu, a smoke run), each case keeps a fixed chunk per worker and is timed as the median
of several computations after a warm-up:

- triad: a = b + s * c over float32 chunks (STREAM);
- stencil: ten steps of a five-point heat stencil by map_overlap (a halo exchange each step);
- matmul: a blocked float32 matmul, (n x n) per worker along the first axis times (n x n);
- sum: a global float32 sum.

Efficiency at k workers is t(1) / t(k). CuPy runs where it imports (GPU only), in the same
process tree, with the same cluster layout and chunks. Prints a table and writes JSON with --json.
"""

import argparse
import json
import statistics
import time

import dask
import dask.array as da
import numpy as np
from distributed import Client, wait

import accelpy as ap
import accelpy.distributed as apd

SIZES = {"small": {"vec": 1 << 22, "grid": 1024, "mat": 512},
         "full": {"vec": 1 << 28, "grid": 16384, "mat": 8192}}


def _timed(client, make, reps):
    """Median seconds of persisting `make()` (results stay on the workers), after one warm-up."""
    out = []
    for i in range(reps + 1):
        x = make()
        t = time.perf_counter()
        y = client.persist(x)
        wait(y)
        if i:
            out.append(time.perf_counter() - t)
        del y
    return statistics.median(out)


def _cases(backend, k, size):
    """name -> function building the Dask expression for k workers with `backend` chunks."""
    rng = {"accelpy": lambda: apd.default_rng(0)}.get(backend)
    v, g, m = size["vec"], size["grid"], size["mat"]

    def rand(shape, chunks):
        if rng is not None:
            return rng().random(shape, dtype=np.float32, chunks=chunks)
        with dask.config.set({"array.backend": backend}):
            return da.random.default_rng(0).random(shape, chunks=chunks, dtype=np.float32)

    def triad():
        b, c = rand((k * v,), v), rand((k * v,), v)
        return b + np.float32(3.0) * c

    def stencil():
        u = rand((k * g, g), (g, g))
        for _ in range(10):
            u = u.map_overlap(_heat, depth=1, boundary="periodic")
        return u

    def matmul():
        return rand((k * m, m), (m, m)) @ rand((m, m), (m, m))

    def total():
        return rand((k * v,), v).sum()

    return {"triad": triad, "stencil": stencil, "matmul": matmul, "sum": total}


def _heat(x):
    """One explicit heat step on a chunk with its halo (the same code for both libraries)."""
    out = x.copy()
    out[1:-1, 1:-1] = x[1:-1, 1:-1] + 0.1 * (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2]
                                              + x[1:-1, 2:] - 4 * x[1:-1, 1:-1])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--device", default="cuda" if ap.cuda.is_available() else "cpu")
    p.add_argument("--gpus", default=None, help="worker counts, e.g. 1,2,4,8")
    p.add_argument("--size", default="small", choices=sorted(SIZES))
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--json", default=None)
    a = p.parse_args()
    have = ap.cuda.device_count() if a.device == "cuda" else 2
    counts = [int(c) for c in a.gpus.split(",")] if a.gpus else [c for c in (1, 2, 4, 8)
                                                                 if c <= have]
    backends = ["accelpy"]
    if a.device == "cuda":
        try:
            import cupy  # noqa: F401

            backends.append("cupy")
        except ImportError:
            pass
    results = {}
    for k in counts:
        with apd.LocalCluster(k, device=a.device, threads=1) as cluster, Client(cluster) as c:
            for b in backends:
                for name, make in _cases(b, k, SIZES[a.size]).items():
                    results[(b, name, k)] = _timed(c, make, a.reps)
    print(f"| case | library | {' | '.join(f'{k} workers' for k in counts)} | efficiency |")
    print("| --- | --- |" + " --- |" * (len(counts) + 1))
    for b in backends:
        for name in ("triad", "stencil", "matmul", "sum"):
            ts = [results[(b, name, k)] for k in counts]
            eff = ts[0] / ts[-1]
            print(f"| {name} | {b} | {' | '.join(f'{t * 1e3:.2f} ms' for t in ts)} | {eff:.2f} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({f"{b}/{n}/{k}": t for (b, n, k), t in results.items()}, f, indent=1)


if __name__ == "__main__":
    main()
