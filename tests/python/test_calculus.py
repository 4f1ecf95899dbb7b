"""gradient and trapezoid against NumPy: spacings (none, one scalar, one per axis, coordinate
arrays, uniform coordinates), edge orders 1 and 2, axes, integer input; both devices."""

import numpy as np
import pytest

import accelpy as ap
from helpers import to_device, to_numpy


def close(got, expected):
    got = to_numpy(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    rtol = 1e-5 if expected.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64], ids=str)
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(device, rng, dtype, edge_order):
    f_np = (rng.standard_normal((5, 7)) * 4).astype(dtype)
    f = to_device(f_np, device)
    x = np.cumsum(rng.uniform(0.5, 2.0, 7))
    for args, kw in [((), {}), ((2.0,), {}), ((0.5, 3.0), {}), ((1.0, x), {}),
                     ((np.arange(5.0) * 2, 1.5), {}), ((), {"axis": 1}), ((x,), {"axis": -1}),
                     ((), {"axis": (1, 0)})]:
        got = ap.gradient(f, *args, edge_order=edge_order, **kw)
        expected = np.gradient(f_np, *args, edge_order=edge_order, **kw)
        assert isinstance(got, tuple) == isinstance(expected, tuple)
        for g, e in zip(got if isinstance(got, tuple) else (got,),
                        expected if isinstance(expected, tuple) else (expected,), strict=True):
            close(g, e)


def test_gradient_errors(device):
    with pytest.raises(ValueError, match="too small"):
        ap.gradient(ap.ones((2, 5)), edge_order=2)
    with pytest.raises(ValueError, match="match the length"):
        ap.gradient(ap.ones(5), np.arange(4.0))
    with pytest.raises(TypeError, match="invalid number"):
        ap.gradient(ap.ones((3, 3)), 1.0, 2.0, 3.0)
    with pytest.raises(np.exceptions.AxisError):
        ap.gradient(ap.ones((3, 3)), axis=2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64], ids=str)
def test_trapezoid(device, rng, dtype):
    y_np = (rng.standard_normal((4, 6)) * 3).astype(dtype)
    y = to_device(y_np, device)
    x1 = np.cumsum(rng.uniform(0.1, 1.0, 6))
    x2 = np.cumsum(rng.uniform(0.1, 1.0, (4, 6)), axis=1)
    close(ap.trapezoid(y), np.trapezoid(y_np))
    close(ap.trapezoid(y, dx=0.25, axis=0), np.trapezoid(y_np, dx=0.25, axis=0))
    close(ap.trapezoid(y, to_device(x1, device)), np.trapezoid(y_np, x1))
    close(ap.trapezoid(y, to_device(x2, device)), np.trapezoid(y_np, x2))


# digitize, interp, lexsort, convolve and correlate against NumPy: increasing and decreasing
# bins, values on the edges, NaN, ends and periodic interpolation, several keys with ties, every
# mode and either input longer; both devices.


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64], ids=str)
@pytest.mark.parametrize("right", [False, True])
def test_digitize(device, rng, dtype, right):
    bins = np.unique(rng.integers(-8, 8, 6)).astype(dtype)
    x = rng.integers(-10, 10, (5, 7)).astype(dtype)
    x.reshape(-1)[: len(bins)] = bins  # values on the edges
    if np.dtype(dtype).kind == "f":
        x[0, -1] = np.nan
    for b in (bins, bins[::-1]):
        got = ap.digitize(to_device(x, device), to_device(b, device), right=right)
        np.testing.assert_array_equal(to_numpy(got), np.digitize(x, b, right=right))
    with pytest.raises(ValueError, match="monotonically"):
        ap.digitize(to_device(x, device), to_device(np.array([0, 2, 1], dtype), device))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_interp(device, rng, dtype):
    xp = np.sort(rng.uniform(0, 10, 9)).astype(dtype)
    fp = rng.standard_normal(9).astype(dtype)
    x = rng.uniform(-2, 12, (4, 25)).astype(dtype)
    x.reshape(-1)[:9] = xp  # on the samples
    x[0, -1] = np.nan
    xs, xps, fps = (to_device(v, device) for v in (x, xp, fp))
    for kw in ({}, {"left": -7.0, "right": 7.0}, {"period": 4.0}):
        np.testing.assert_allclose(to_numpy(ap.interp(xs, xps, fps, **kw)),
                                   np.interp(x, xp, fp, **kw), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(to_numpy(ap.interp(xps, xps, fps)), np.interp(xp, xp, fp))
    one = ap.interp(xs, xps[:1], fps[:1])
    np.testing.assert_array_equal(to_numpy(one), np.interp(x, xp[:1], fp[:1]))
    with pytest.raises(ValueError, match="same length"):
        ap.interp(xs, xps, fps[:3])


def test_lexsort(device, rng):
    keys = [rng.integers(0, 3, (4, 30)) for _ in range(3)]
    keys[1] = keys[1].astype(np.float64)
    got = ap.lexsort([to_device(k, device) for k in keys])
    np.testing.assert_array_equal(to_numpy(got), np.lexsort(keys))
    got = ap.lexsort([to_device(k, device) for k in keys], axis=0)
    np.testing.assert_array_equal(to_numpy(got), np.lexsort(keys, axis=0))
    stacked = np.stack([k[0] for k in keys])
    np.testing.assert_array_equal(to_numpy(ap.lexsort(to_device(stacked, device))),
                                  np.lexsort(stacked))
    with pytest.raises(ValueError, match="same shape"):
        ap.lexsort([to_device(keys[0], device), to_device(keys[1][:, :5], device)])


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.complex128], ids=str)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_and_correlate(device, rng, dtype, mode):
    def draw(n):
        x = rng.integers(-5, 5, n).astype(dtype)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.integers(-5, 5, n)
        return x

    for n, m in ((9, 4), (4, 9), (6, 6), (1, 5), (7, 1)):
        a_np, v_np = draw(n), draw(m)
        a, v = to_device(a_np, device), to_device(v_np, device)
        for name in ("convolve", "correlate"):
            got = to_numpy(getattr(ap, name)(a, v, mode))
            expected = getattr(np, name)(a_np, v_np, mode)
            assert got.dtype == expected.dtype
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-5)
    with pytest.raises(ValueError, match="cannot be empty"):
        ap.convolve(to_device(draw(3), device), to_device(draw(0), device))
    with pytest.raises(ValueError, match="mode"):
        ap.correlate(to_device(draw(3), device), to_device(draw(2), device), "bogus")
