"""bincount and histogram against NumPy: dtypes, weights, minlength, ranges, explicit edges,
values outside the range and NaN, density, layouts, and NumPy's errors."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, assert_same_outcome


def check(np_fn, ap_fn, **kw):
    out = assert_same_outcome(np_fn, ap_fn)
    if out is None:
        return
    expected, got = out
    if isinstance(expected, tuple):
        for e, g in zip(expected, got, strict=True):
            assert_matches(g, e, **kw)
    else:
        assert_matches(got, expected, **kw)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.uint32, np.int64])
def test_bincount(rng, device, dtype):
    hi = 2 if dtype == np.bool_ else 50
    for n in (0, 1, 1000, 100_000):
        one_bincount(rng, rng.integers(0, hi, n).astype(dtype))


def one_bincount(rng, x_np):
    n = x_np.size
    x = ap.asarray(x_np)
    check(lambda: np.bincount(x_np), lambda: ap.bincount(x))
    check(lambda: np.bincount(x_np, minlength=70), lambda: ap.bincount(x, minlength=70))
    w_np = rng.standard_normal(n)
    check(lambda: np.bincount(x_np, w_np), lambda: ap.bincount(x, ap.asarray(w_np)),
          rtol=1e-12, atol=1e-12)  # atomic float adds on GPUs: any order
    wi = rng.integers(-5, 5, n).astype(np.int32)
    check(lambda: np.bincount(x_np, wi, 3), lambda: ap.bincount(x, wi, 3))


def test_bincount_views(rng, device):
    base_np = rng.integers(0, 30, 400)
    base = ap.asarray(base_np)
    check(lambda: np.bincount(base_np[::-3]), lambda: ap.bincount(base[::-3]))
    check(lambda: np.bincount(base_np[5:300:7]), lambda: ap.bincount(base[5:300:7]))
    pending = base * 2 + 1
    check(lambda: np.bincount(base_np * 2 + 1), lambda: ap.bincount(pending))


def test_bincount_errors(device):
    cases = [
        (np.array([1, -1, 2]), {}),
        (np.array([[1, 2]]), {}),
        (np.array(3), {}),
        (np.array([1.0, 2.0]), {}),
        (np.array([1, 2**63 + 5], dtype=np.uint64), {}),
        (np.array([1, 2]), {"minlength": -1}),
        (np.array([1, 2]), {"weights": np.array([1.0])}),
        (np.array([1, 2]), {"weights": np.array([1j, 2j])}),
    ]
    for x_np, kw in cases:
        ap_kw = {k: (ap.asarray(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        check(lambda x_np=x_np, kw=kw: np.bincount(x_np, **kw),
              lambda x_np=x_np, kw=ap_kw: ap.bincount(ap.asarray(x_np), **kw))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8])
def test_histogram(rng, device, dtype):
    for n in (0, 1, 1000, 20_000):
        if np.dtype(dtype).kind == "f":
            one_histogram(rng, (rng.standard_normal(n) * 3).astype(dtype))
        else:
            one_histogram(rng, rng.integers(0, 100, n).astype(dtype))


def one_histogram(rng, a_np):
    n = a_np.size
    a = ap.asarray(a_np)
    for bins, rng_ in [(10, None), (1, None), (37, None), (8, (-2, 5)), (5, (0, 0))]:
        check(lambda b=bins, r=rng_: np.histogram(a_np, b, r),
              lambda b=bins, r=rng_: ap.histogram(a, b, r))
    edges = [-4, -1, 0, 0.5, 3, 50]
    check(lambda: np.histogram(a_np, edges), lambda: ap.histogram(a, edges))
    check(lambda: np.histogram(a_np, 12, density=True),
          lambda: ap.histogram(a, 12, density=True), ulps=16)
    w_np = rng.uniform(0, 2, n).astype(np.float32)
    check(lambda: np.histogram(a_np, 9, weights=w_np),
          lambda: ap.histogram(a, 9, weights=ap.asarray(w_np)), rtol=1e-5, atol=1e-5)


def test_histogram_edges_values_nan_and_layouts(rng, device):
    a_np = rng.uniform(-1, 1, (60, 40))
    a_np[3, 4] = np.nan
    a = ap.asarray(a_np)
    # Edge values themselves (both ends included in the last bin only at the top).
    e = np.linspace(-1, 1, 11)
    edge_vals = np.concatenate([e, [-1.5, 1.5]])
    check(lambda: np.histogram(edge_vals, 10, (-1, 1)),
          lambda: ap.histogram(ap.asarray(edge_vals), 10, (-1, 1)))
    check(lambda: np.histogram(a_np, 10, (-0.5, 0.5)), lambda: ap.histogram(a, 10, (-0.5, 0.5)))
    check(lambda: np.histogram(a_np.T[::2, ::-3], 6, (-1, 1)),
          lambda: ap.histogram(a.T[::2, ::-3], 6, (-1, 1)))
    check(lambda: np.histogram(a_np, 10), lambda: ap.histogram(a, 10))  # NaN: range not finite


def test_histogram_errors(device):
    a_np = np.arange(10.0)
    a = ap.asarray(a_np)
    for args, kw in [((0,), {}), ((-3,), {}), ((10, (5, 1)), {}), (([3, 2, 1],), {}),
                     ((10, (0, np.inf)), {}), ((2.5,), {}), (([[1, 2]],), {}),
                     ((10,), {"weights": np.ones(3)})]:
        ap_kw = {k: (ap.asarray(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        check(lambda args=args, kw=kw: np.histogram(a_np, *args, **kw),
              lambda args=args, kw=ap_kw: ap.histogram(a, *args, **kw))
    with pytest.raises(NotImplementedError):
        ap.histogram(a, "auto")
