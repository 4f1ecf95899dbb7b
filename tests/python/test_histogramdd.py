"""histogramdd and histogram2d against NumPy: bin counts, explicit edges, ranges, weights,
density, points on edges and outside, empty samples, dtypes; both devices."""

import numpy as np
import pytest

import accelpy as ap
from helpers import random_values, to_device, to_numpy


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
