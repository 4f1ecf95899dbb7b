"""bincount and histogram against NumPy: dtypes, weights, minlength, ranges, explicit edges,
values outside the range and NaN, density, layouts, and NumPy's errors."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, assert_same_outcome, random_values, to_device, to_numpy


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
    for bins, rng_ in [(10, None), (1, None), (37, None), (1000, None), (8, (-2, 5)), (5, (0, 0))]:
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


# histogramdd and histogram2d against NumPy: bin counts, explicit edges, ranges, weights,
# density, points on edges and outside, empty samples, dtypes; both devices.


def close(got, expected):
    g = to_numpy(got)
    assert g.dtype == expected.dtype and g.shape == expected.shape
    np.testing.assert_allclose(g, expected, rtol=1e-12, atol=1e-300)


def edges_equal(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert isinstance(g, ap.ndarray)
        g = to_numpy(g)
        assert g.dtype == e.dtype
        np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64], ids=str)
@pytest.mark.parametrize("n", [0, 1, 200])
def test_histogramdd(dtype, n, device, rng):
    s_np = random_values(rng, (n, 3), dtype, low=-20, high=20)
    s = to_device(s_np, device)
    w_np = rng.random(n)
    edges0 = np.sort(rng.uniform(-25, 25, 6))
    cases = [{}, {"bins": 4}, {"bins": (2, 5, 3)}, {"bins": [edges0, 3, edges0[::2]]},
             {"range": [(-5, 5), (0, 10), (-20, 0)]}, {"density": True, "bins": 3},
             {"weights": w_np, "bins": (3, 3, 2)}]
    for kw in cases:
        if n == 0 and kw.get("density"):
            continue  # 0 / 0: NumPy's NaNs with a warning; nothing to compare
        ap_kw = {k: to_device(v, device) if k == "weights" else v for k, v in kw.items()}
        hist, edges = ap.histogramdd(s, **ap_kw)
        expected, expected_edges = np.histogramdd(s_np, **kw)
        close(hist, expected)
        edges_equal(edges, expected_edges)
        assert hist.device == s.device
    # A sequence of coordinate arrays, and points on the edges.
    cols_np = [np.round(s_np[:, i]) for i in range(3)]
    hist, edges = ap.histogramdd([to_device(c, device) for c in cols_np], bins=5)
    expected, expected_edges = np.histogramdd(cols_np, bins=5)
    close(hist, expected)
    edges_equal(edges, expected_edges)


def test_histogramdd_shapes(device, rng):
    x_np = random_values(rng, (30,), np.float64)
    for sample_np in (x_np, x_np.tolist(), x_np.reshape(-1, 1), x_np.reshape(-1, 1)[::-1]):
        sample = to_device(sample_np, device) if isinstance(sample_np, np.ndarray) else sample_np
        hist, edges = ap.histogramdd(sample, bins=4)
        expected, expected_edges = np.histogramdd(sample_np, bins=4)
        close(hist, expected)
        edges_equal(edges, expected_edges)


def test_histogramdd_errors(device, rng):
    s_np = random_values(rng, (10, 2), np.float64)
    s = to_device(s_np, device)
    for kw in ({"bins": (2, 3, 4)}, {"bins": 0}, {"bins": [np.array([2.0, 1.0]), 2]},
               {"range": [(0, 1)]}, {"bins": 2.5}):
        with pytest.raises(Exception) as exc:  # noqa: PT011 - the type is NumPy's, compared next
            np.histogramdd(s_np, **kw)
        with pytest.raises(type(exc.value)):
            ap.histogramdd(s, **kw)
    nan_np = s_np.copy()
    nan_np[3, 1] = np.nan
    with pytest.raises(ValueError):
        ap.histogramdd(to_device(nan_np, device))


@pytest.mark.parametrize("dtype", [np.int64, np.float32], ids=str)
def test_histogram2d(dtype, device, rng):
    x_np = random_values(rng, (150,), dtype, low=-9, high=9)
    y_np = random_values(rng, (150,), dtype, low=-9, high=9)
    w_np = random_values(rng, (150,), np.float64)
    x, y = to_device(x_np, device), to_device(y_np, device)
    e = np.linspace(-10, 10, 7)
    for kw in [{}, {"bins": 3}, {"bins": (4, 2)}, {"bins": e}, {"bins": [e, e[::2]]},
               {"bins": [4, e]}, {"range": [(-3, 3), (0, 9)], "density": True},
               {"weights": w_np}]:
        ap_kw = {k: to_device(v, device) if k == "weights" else v for k, v in kw.items()}
        hist, xedges, yedges = ap.histogram2d(x, y, **ap_kw)
        expected, ex, ey = np.histogram2d(x_np, y_np, **kw)
        close(hist, expected)
        edges_equal((xedges, yedges), (ex, ey))
    with pytest.raises(ValueError, match="same length"):
        ap.histogram2d(x, y[1:])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int64, np.uint8])
@pytest.mark.parametrize("bins", [3, 1000, 4097])
def test_histogram_of_values_on_and_beside_equal_edges(rng, device, dtype, bins):
    """Equal bins put each value in the bin of the last edge it reaches, as NumPy's histogram
    does: values on every edge and one step to either side of it, over the data's range and
    over a range that cuts the data."""
    if np.dtype(dtype).kind == "f":
        base = (rng.standard_normal(3000) * 7).astype(dtype)
        # (float16 cannot make 4097 distinct edges: NumPy's ValueError, which both must raise)
        on = np.linspace(float(base.min()), float(base.max()), bins + 1).astype(dtype)
        values = np.concatenate([base, on, np.nextafter(on, dtype(np.inf)),
                                 np.nextafter(on, dtype(-np.inf))]).astype(dtype)
    else:
        info = np.iinfo(dtype)
        values = rng.integers(max(info.min, -2**40), min(info.max, 2**40), 5000, dtype=dtype,
                              endpoint=True)
    a = to_device(values, device)
    with np.errstate(all="ignore"):
        lo, hi = np.percentile(values.astype(np.float64), [10, 80])
        check(lambda: np.histogram(values, bins), lambda: ap.histogram(a, bins))
        check(lambda: np.histogram(values, bins, (lo, hi)),
              lambda: ap.histogram(a, bins, (lo, hi)))


def test_histogram_estimates_bins_in_the_edges_dtype(rng, device):
    """NumPy estimates a value's bin in the edges' dtype: in float16 that estimate can be more
    than a bin off, and its one correction then leaves the value beside the edges' answer. Both
    must count alike (about one such float16 draw in four at 1,000 bins over the data's range;
    a range of Python floats or float64 scalars divides in float64)."""
    for _ in range(20):
        values = rng.uniform(-1, 1, 4000).astype(np.float16)
        a = to_device(values, device)
        lo, hi = np.percentile(values.astype(np.float64), [10, 80])
        for bounds in [None, (float(lo), float(hi)), (lo, hi)]:
            expected = np.histogram(values, 1000, bounds)
            got = ap.histogram(a, 1000, bounds)
            assert_matches(got[0], expected[0])
            assert_matches(got[1], expected[1])
