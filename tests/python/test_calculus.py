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
