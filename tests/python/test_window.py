"""The window functions and unwrap against NumPy: window lengths (0, 1, even, odd), kaiser's
beta, unwrap over dtypes, axes, discont, period, layouts and devices."""

import numpy as np
import pytest

import accelpy as ap
from helpers import LAYOUTS, assert_matches, make_operands, to_device


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [-2, 0, 1, 2, 7, 64])
def test_windows(device, name, M):
    got = getattr(ap, name)(M)
    assert got.device == device
    assert_matches(got, getattr(np, name)(M), rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("M", [0, 1, 2, 9, 50])
def test_kaiser(device, rng, M):
    beta = float(rng.uniform(0, 14))
    assert_matches(ap.kaiser(M, beta), np.kaiser(M, beta), rtol=1e-13, atol=1e-15)
    assert_matches(ap.kaiser(M, 0), np.kaiser(M, 0), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64], ids=str)
def test_unwrap(device, rng, layout, dtype):
    (p_np,), (p,) = make_operands(rng, layout, [dtype], device, low=-20, high=20)
    if p_np.ndim == 0:
        with pytest.raises(ValueError):
            np.unwrap(p_np)
        with pytest.raises(ValueError):
            ap.unwrap(p)
        return
    assert_matches(ap.unwrap(p), np.unwrap(p_np), ulps=64)
    assert_matches(ap.unwrap(p, axis=0), np.unwrap(p_np, axis=0), ulps=64)
    assert_matches(ap.unwrap(p, discont=4.0), np.unwrap(p_np, discont=4.0), ulps=64)
    assert_matches(ap.unwrap(p, period=7), np.unwrap(p_np, period=7), ulps=64)
    assert_matches(ap.unwrap(p, period=2.5), np.unwrap(p_np, period=2.5), ulps=64)


def test_unwrap_phase(device, rng):
    phase = np.cumsum(rng.uniform(-1, 3, 200))
    wrapped = np.angle(np.exp(1j * phase))
    got = ap.unwrap(to_device(wrapped, device))
    assert_matches(got, np.unwrap(wrapped), ulps=64)
    np.testing.assert_allclose(ap.asnumpy(got) - phase, (ap.asnumpy(got) - phase)[0],
                               atol=1e-9)  # phase recovered up to one constant
    with pytest.raises(np.exceptions.AxisError):
        ap.unwrap(to_device(wrapped, device), axis=1)
