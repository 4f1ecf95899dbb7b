"""Property tests of the fusion planner: random programs of array expressions (random ops from a
table, dtypes, broadcasting, views, in-place updates and reductions interleaved), run on NumPy,
on accelpy with fusion and on accelpy with fusion off (ACCELPY_FUSION=0's switch).

accelpy must match NumPy within the ops' tolerances, and the fused run must give exactly the
unfused run's bits on the CPU: fusion changes how many kernels run, never a result. A fixed
number of programs per run, each drawn from the `rng` fixture (its seed is printed for replay).
"""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, with_fusion

core = ap._core

PROGRAMS = 12
STEPS = 24
SHAPES = [(4, 6), (6,), (4, 1), ()]
DTYPES = [np.float32, np.float64, np.int32]

UNARY = [
    lambda xp, a: -a,
    lambda xp, a: xp.abs(a),
    lambda xp, a: xp.sqrt(xp.abs(a) + 1),
    lambda xp, a: xp.sin(a),
    lambda xp, a: xp.tanh(a * 0.5),
    lambda xp, a: xp.exp(xp.minimum(a, 3)),
    lambda xp, a: a * a,
    lambda xp, a: a.astype(np.float32),
    lambda xp, a: a.astype(np.float64) * 0.75 + 0.5,
]
BINARY = [
    lambda xp, a, b: a + b,
    lambda xp, a, b: a - b * 0.5,
    lambda xp, a, b: a * b,
    lambda xp, a, b: xp.maximum(a, b),
    lambda xp, a, b: xp.minimum(a, b) + 1,
    # A margin: a > b flips on near-ties (y against y[::-1], tanh saturating near 2), where an ulp
    # of difference between libraries' tanh turns into a factor 2.
    lambda xp, a, b: xp.where(a > b + 0.25, a, b * 2),
]
REDUCE = [
    lambda xp, a, k: a.sum(axis=k, keepdims=True),
    lambda xp, a, k: a.max(axis=k, keepdims=True),
    lambda xp, a, k: a.mean(axis=k, keepdims=True),
]
VIEWS = [lambda a: a, lambda a: a[::-1] if a.ndim else a, lambda a: a[..., ::-1] if a.ndim else a]


def draw_program(rng):
    """A program as plain numbers, replayed identically on each library."""
    start = []
    for _ in range(4):
        shape = SHAPES[int(rng.integers(len(SHAPES)))]
        dtype = DTYPES[int(rng.integers(len(DTYPES)))]
        start.append((rng.uniform(-2, 2, shape) * (3 if dtype == np.int32 else 1)).astype(dtype))
    start[0] = rng.uniform(-2, 2, (4, 6))  # an in-place target: float64, the full shape
    ops = [tuple(int(v) for v in rng.integers(0, 1000, 6)) for _ in range(STEPS)]
    return start, ops


def run_program(xp, start, ops):
    pool = [xp.asarray(s.copy()) for s in start]
    kept = []
    for kind, i, j, f, v, k in ops:
        a, b = pool[i % len(pool)], pool[j % len(pool)]
        va, vb = VIEWS[v % 3](a), VIEWS[(v // 3) % 3](b)
        kind %= 10
        if kind <= 2:
            pool.append(UNARY[f % len(UNARY)](xp, va))
        elif kind <= 5:
            pool.append(BINARY[f % len(BINARY)](xp, va, vb))
        elif kind == 6 and a.ndim == 2:
            pool.append(REDUCE[f % len(REDUCE)](xp, va, k % 2))
        elif kind == 7:
            target = pool[0]  # float64 (4, 6): any pool value broadcasts and casts into it
            VIEWS[v % 3](target)[...] += vb * 0.25
        elif kind == 8:
            target = pool[0]
            rows = slice(k % 3, k % 3 + 2)
            target[rows] = xp.broadcast_to(vb, (4, 6))[rows] - target[rows][::-1]
        elif kind == 9:
            kept.append(va * 1)  # a result the program keeps while it goes on
        if len(pool) > 8:
            kept.append(pool.pop(1 + k % 7))
    return kept + pool


def tolerance(e, single=False, magnitude=1.0):
    """Tolerances for a result; `single`: float32 values (which round differently from NumPy's
    by an ulp in the transcendental functions) fed it, so float64 results get float32's too.
    `magnitude`: the largest value the program produced; an ulp of difference there survives
    cancellation (x*x - y with both large) as an absolute error in small results."""
    scale = max(1.0, float(np.max(np.abs(e))) if e.size else 1.0)
    if e.dtype == np.float32 or single:
        # ~32 float32 ulps of the largest value: what survives cancellation.
        return dict(rtol=2e-4, atol=max(2e-4 * scale, 4e-6 * magnitude))
    return dict(rtol=1e-9, atol=1e-9 * max(scale, magnitude))


def has_float32(start, ops):
    return any(s.dtype == np.float32 for s in start) or any(o[3] % len(UNARY) == 7 for o in ops)


def test_random_programs_match_numpy(rng, device):
    for _ in range(PROGRAMS):
        start, ops = draw_program(rng)
        single = has_float32(start, ops)
        expected = run_program(np, start, ops)
        got = with_fusion(True, lambda: run_program(ap, start, ops))  # noqa: B023
        assert len(got) == len(expected)
        finite = [np.abs(np.asarray(e, np.float64)) for e in expected]
        magnitude = max((float(np.max(f[np.isfinite(f)], initial=0)) for f in finite), default=1)
        for g, e in zip(got, expected, strict=True):
            e = np.asarray(e)
            assert_matches(g, e, **tolerance(e, single, magnitude))


def test_random_programs_fused_and_unfused_are_bit_identical(rng):
    with ap.device("cpu"):
        for _ in range(PROGRAMS):
            start, ops = draw_program(rng)
            fused = with_fusion(True, lambda: [ap.asnumpy(r) for r in run_program(ap, start, ops)])  # noqa: B023,E501
            unfused = with_fusion(False, lambda: [ap.asnumpy(r) for r in run_program(ap, start, ops)])  # noqa: B023,E501
            for f, u in zip(fused, unfused, strict=True):
                assert f.dtype == u.dtype and f.shape == u.shape
                assert f.tobytes() == u.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_random_chains_reduced_match_numpy(rng, device, dtype):
    """Long elementwise chains over broadcast operands, ended by a reduction over random axes."""
    for _ in range(PROGRAMS):
        x = rng.uniform(0.5, 1.5, (5, 7, 9)).astype(dtype)
        w = rng.uniform(0.5, 1.5, (7, 1)).astype(dtype)
        axes = tuple(int(a) for a in np.flatnonzero(rng.integers(0, 2, 3))) or None
        picks = rng.integers(0, 1000, (10, 2))

        def chain(xp, x=x, w=w, picks=picks, axes=axes):
            y = xp.asarray(x)
            w_ = xp.asarray(w)
            for f, g in picks:
                y = BINARY[int(f) % len(BINARY)](xp, y, w_ if g % 2 else y[::-1])
                y = xp.tanh(y) + 1.0
            return y.sum(axis=axes), y.max(axis=axes)

        expected = chain(np)
        got = chain(ap)
        for g, e in zip(got, expected, strict=True):
            e = np.asarray(e)
            assert_matches(g, e, **tolerance(e))
