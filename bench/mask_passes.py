"""Boolean selection and mask assignment over random masks and masks in runs, timed beside NumPy
in the same process: `x[m]`, `x[m] = v` (one value per true element) and `flatnonzero(m)`, per
call, median of --rounds rounds. Wall time and the caller's thread time (passes over more than
one 64K chunk also run on the pool's threads, which thread time does not see). decisions.md D94.

    python bench/mask_passes.py [--rounds N] [--sizes N,...] [NAME_PART]...
"""

import argparse
import statistics
import time

import numpy

import accelpy as ap


def random_mask(rng, n):
    return rng.random(n) < 0.5


def run_mask(rng, n):
    """A disc in a square grid, as Mandelbrot's bounded points: runs of a few hundred."""
    side = int(n**0.5)
    yy, xx = numpy.mgrid[-1 : 1 : side * 1j, -1 : 1 : (n // side) * 1j]
    out = numpy.zeros(n, bool)
    out[: side * (n // side)] = (xx**2 + yy**2 < 0.6).ravel()
    return out


MASKS = {"random": random_mask, "runs": run_mask}
DTYPES = ["float32", "complex128"]


def per_call(fn, rounds, calls):
    fn()
    wall, thread = [], []
    for _ in range(rounds):
        w0, t0 = time.perf_counter(), time.thread_time()
        for _ in range(calls):
            fn()
        wall.append((time.perf_counter() - w0) / calls)
        thread.append((time.thread_time() - t0) / calls)
    return statistics.median(wall), statistics.median(thread)


def cases(rng, n):
    for kind, make in MASKS.items():
        m_np = make(rng, n)
        for dtype in DTYPES:
            x_np = rng.random(n).astype(dtype)
            v_np = x_np[m_np] * 2
            for lib, x, m, v in ((numpy, x_np, m_np, v_np), (ap, ap.asarray(x_np), None, None)):
                if lib is ap:
                    m, v = ap.asarray(m_np), ap.asarray(v_np)

                def assign(x=x, m=m, v=v):
                    x[m] = v

                yield f"{kind} {n} {dtype} x[m]", lib, lambda x=x, m=m: x[m]
                yield f"{kind} {n} {dtype} x[m] = v", lib, assign
        for lib, m in ((numpy, m_np), (ap, ap.asarray(m_np))):
            yield f"{kind} {n} flatnonzero(m)", lib, lambda m=m, lib=lib: lib.flatnonzero(m)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--sizes", default="65536,1048576")
    parser.add_argument("only", nargs="*")
    args = parser.parse_args()
    rng = numpy.random.default_rng(0)
    times = {}
    for n in map(int, args.sizes.split(",")):
        calls = max(3, 4_000_000 // n)
        for name, lib, fn in cases(rng, n):
            if args.only and not any(part in name for part in args.only):
                continue
            times.setdefault(name, {})[lib.__name__] = per_call(fn, args.rounds, calls)
    print(f"{'case':42} {'numpy wall/thread us':>21} {'accelpy wall/thread us':>23}")
    for name, t in times.items():
        (nw, nt), (aw, at) = t["numpy"], t["accelpy"]
        print(f"{name:42} {nw * 1e6:10.1f} {nt * 1e6:10.1f} {aw * 1e6:11.1f} {at * 1e6:11.1f}")


if __name__ == "__main__":
    main()
