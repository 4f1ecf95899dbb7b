"""Groups and memory traffic of common programs, as `ap.debug_fusion()` reports them: how many
groups (kernels) each program runs and the bytes they read and write. Each program is written the
way its users write it; the expected figures are the floor: every input read once, every result
written once, nothing in between. Values, group and byte counts are checked on every device.
"""

import numpy as np
import pytest

import accelpy as ap
from fusion_programs import black_scholes, layer_norm, softmax
from helpers import assert_matches


def logsumexp(xp, x):
    m = x.max(axis=1)
    return xp.log(xp.exp(x - m[:, None]).sum(axis=1)) + m


def cosine_similarity(xp, a, b):
    return (a * b).sum(-1) / (xp.sqrt((a * a).sum(-1)) * xp.sqrt((b * b).sum(-1)))


def gaussian_kernel(xp, x, y, sigma=1.5):
    d2 = ((x[:, None, :] - y[None, :, :]) ** 2).sum(-1)
    return xp.exp(-d2 / (2 * sigma * sigma))


def kmeans_assign(xp, x, c):
    return ((x[:, None, :] - c[None, :, :]) ** 2).sum(-1).argmin(axis=1)


def adam(xp, p, g, m, v, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8, t=3):
    m2 = b1 * m + (1 - b1) * g
    v2 = b2 * v + (1 - b2) * g * g
    p2 = p - lr * (m2 / (1 - b1**t)) / (xp.sqrt(v2 / (1 - b2**t)) + eps)
    return p2, m2, v2


def gray_scott(xp, u, v, du=0.16, dv=0.08, f=0.035, k=0.065, dt=1.0):
    """A finite-difference time step of two coupled fields (5-point Laplacian)."""
    def lap(a):
        return a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] - 4 * a[1:-1, 1:-1]

    uc, vc = u[1:-1, 1:-1], v[1:-1, 1:-1]
    uvv = uc * vc * vc
    return (uc + dt * (du * lap(u) - uvv + f * (1 - uc)),
            vc + dt * (dv * lap(v) + uvv - (f + k) * vc))


def leapfrog(xp, x, v, m, dt=0.01):
    """A physics kernel with three outputs: position, velocity and kinetic energy of a step
    in a harmonic well."""
    a = -x / m
    v2 = v + dt * a
    return x + dt * v2, v2, 0.5 * m * v2 * v2


def rms_norm(xp, x, w):
    return x / xp.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * w


def standardize_columns(xp, x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def centred_variance(xp, x):
    return ((x - x.mean(axis=1, keepdims=True)) ** 2).mean(axis=1)


def expm1_chain(xp, a, b, c, d, e):
    return a * b + c * d - e


N, D = 64, 96


def _u(rng, *shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, shape)


# name, program, inputs (NumPy, from rng), groups, bytes read, bytes written (float64 = 8 bytes)
CASES = [
    ("black_scholes", black_scholes,
     lambda r: [_u(r, 5000, lo=5, hi=30), _u(r, 5000, lo=1, hi=100), _u(r, 5000, lo=0.25, hi=10)],
     1, 3 * 5000 * 8, 2 * 5000 * 8),
    ("softmax", softmax, lambda r: [_u(r, N, D)], 1, N * D * 8, N * D * 8),
    ("layer_norm", layer_norm, lambda r: [_u(r, N, D), _u(r, D), _u(r, D)],
     1, (N * D + 2 * D) * 8, N * D * 8),
    ("logsumexp", logsumexp, lambda r: [_u(r, N, D)], 1, N * D * 8, N * 8),
    ("cosine_similarity", cosine_similarity, lambda r: [_u(r, N, D), _u(r, N, D)],
     1, 2 * N * D * 8, N * 8),
    ("gaussian_kernel", gaussian_kernel, lambda r: [_u(r, 40, 3), _u(r, 50, 3)],
     1, (40 + 50) * 3 * 8, 40 * 50 * 8),
    # The distances reduce over the features, the assignment over the centres: two row spaces.
    ("kmeans_assign", kmeans_assign, lambda r: [_u(r, 200, 4), _u(r, 8, 4)],
     2, (200 + 8) * 4 * 8 + 200 * 8 * 8, 200 * 8 * 8 + 200 * 8),
    ("adam", adam, lambda r: [_u(r, 3000), _u(r, 3000), _u(r, 3000), _u(r, 3000, lo=0, hi=1)],
     1, 4 * 3000 * 8, 3 * 3000 * 8),
    ("gray_scott", gray_scott, lambda r: [_u(r, 50, 60), _u(r, 50, 60)],
     1, 2 * (50 * 60 - 2) * 8, 2 * 48 * 58 * 8),  # the shifted slices span all but 2 corners
    ("leapfrog", leapfrog, lambda r: [_u(r, 4000), _u(r, 4000), _u(r, 4000, lo=1, hi=2)],
     1, 3 * 4000 * 8, 3 * 4000 * 8),
    ("rms_norm", rms_norm, lambda r: [_u(r, N, D), _u(r, D)], 1, (N * D + D) * 8, N * D * 8),
    ("standardize_columns", standardize_columns, lambda r: [_u(r, N, D)], 1, N * D * 8,
     N * D * 8),
    ("centred_variance", centred_variance, lambda r: [_u(r, N, D)], 1, N * D * 8, N * 8),
    ("a*b + c*d - e", expm1_chain, lambda r: [_u(r, 1000) for _ in range(5)], 1, 5 * 1000 * 8,
     1000 * 8),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_groups_and_bytes_moved(rng, device, fused, case):
    _, program, make, groups, read, written = case
    args = make(rng)
    expected = program(np, *args)
    with ap.debug_fusion(stream=None) as log:
        got = program(ap, *(ap.asarray(a.copy()) for a in args))
        outs = got if isinstance(got, tuple) else (got,)
        ap.eval(*outs)
    for g, e in zip(outs, expected if isinstance(expected, tuple) else (expected,), strict=True):
        assert_matches(g, e, rtol=1e-11, atol=1e-11)
    summary = [(r["kind"], len(r["ops"]), r["bytes_read"], r["bytes_written"]) for r in log]
    assert len(log) == groups, summary
    assert sum(r["bytes_read"] for r in log) == read, summary
    assert sum(r["bytes_written"] for r in log) == written, summary


def test_the_log_line_reports_bytes(rng, fused):
    x = ap.asarray(rng.uniform(-1, 1, (4, 5)))
    with ap.debug_fusion(stream=None) as log:
        ap.eval(softmax(ap, x))
    assert log[0]["line"].endswith("bytes read 160 written 160")
