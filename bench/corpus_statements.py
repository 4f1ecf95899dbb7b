"""Statements of the program corpus's loops (tests/programs/loops.py) timed one at a time beside
NumPy in the same process: CPU time (time.process_time, which a loaded machine's waiting does not
inflate) per call, medians of --rounds rounds, on one CPU thread (--threads to change), with
every result made a NumPy value (the evaluation inside).

    python bench/corpus_statements.py [--rounds N] [--threads N] [NAME_PART]...

Prints NumPy's time over accelpy's (>1 = accelpy faster) per statement. The statements are
those the corpus's slow programs spend their time on (decisions.md D71, D77).
"""

import argparse
import statistics
import time

import numpy as np

import accelpy as ap
from accelpy import _core


def _mandelbrot_state(n=256, steps=10):
    """fp2n_mandelbrot1's arrays after a few steps: about a quarter of the points bounded."""
    x = np.linspace(-2.25, 0.75, n, dtype=np.float32)
    y = np.linspace(-1.25, 1.25, n, dtype=np.float32)
    c = x + y[:, None] * 1j
    z = np.zeros(c.shape, np.complex64)
    for _ in range(steps):
        mask = np.less(abs(z), 2.0)
        z[mask] = z[mask] ** 2 + c[mask]
    return c, z, np.less(abs(z), 2.0)


def cases():
    """(name, make) pairs: make(xp) builds the inputs under xp and returns the timed call."""
    rng = np.random.default_rng(0)
    c, z, mask = _mandelbrot_state()
    board = rng.integers(0, 2, (130, 258))
    m = rng.random((130, 258))

    def less_abs(xp):
        zz = xp.asarray(z)
        return lambda: np.asarray(xp.less(abs(zz), 2.0))

    def fill_masked(xp):
        i, n = xp.asarray(mask), xp.zeros(c.shape, int)

        def run():
            n[i] = 5
            return np.asarray(n)

        return run

    def select_masked(xp):
        zz, i = xp.asarray(z), xp.asarray(mask)
        return lambda: np.asarray(zz[i])

    def assign_masked(xp):
        cc, zz, i = xp.asarray(c), xp.asarray(z.copy()), xp.asarray(mask)

        def run():
            zz[i] = zz[i] ** 2 + cc[i]
            return np.asarray(zz)

        return run

    def where(xp):
        i, n = xp.asarray(mask), xp.zeros(c.shape, int)
        return lambda: np.asarray(xp.where(i, 5, n))

    def life_births(xp):
        zz = xp.asarray(board)
        n = zz[1:-1, 1:-1] + zz[:-2, 1:-1] + zz[2:, 1:-1]  # a neighbour count's stand-in
        alive = (n == 3) | ((n == 2) & (zz[1:-1, 1:-1] == 1))

        def run():
            zz[1:-1, 1:-1][alive] = 1
            return np.asarray(zz)

        return run

    def life_clip(xp):
        mm = xp.asarray(m)

        def run():
            mm[mm > 0.25] = 0.25
            return np.asarray(mm)

        return run

    return [
        ("mandelbrot1 I = less(abs(Z), 2)", less_abs),
        ("mandelbrot1 N[I] = n", fill_masked),
        ("mandelbrot1 Z[I]", select_masked),
        ("mandelbrot1 Z[I] = Z[I]**2 + C[I]", assign_masked),
        ("where(I, 5, N), int64", where),
        ("game_of_life Z[1:-1, 1:-1][alive] = 1", life_births),
        ("game_of_life M[M > 0.25] = 0.25", life_clip),
    ]


def cpu_seconds(fn, rounds, calls):
    fn()
    out = []
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(calls):
            fn()
        out.append((time.process_time() - start) / calls)
    return statistics.median(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("only", nargs="*")
    args = parser.parse_args()
    _core._set_num_threads(args.threads)
    np.seterr(all="ignore")
    print(f"{'statement':40} {'numpy us':>9} {'accelpy us':>11} {'ratio':>7}")
    for name, make in cases():
        if args.only and not any(part in name for part in args.only):
            continue
        t_np = cpu_seconds(make(np), args.rounds, args.calls)
        t_ap = cpu_seconds(make(ap), args.rounds, args.calls)
        print(f"{name:40} {t_np * 1e6:9.1f} {t_ap * 1e6:11.1f} {t_np / t_ap:6.2f}x", flush=True)


if __name__ == "__main__":
    main()
