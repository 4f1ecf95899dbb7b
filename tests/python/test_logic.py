"""isclose / allclose (composed from fused elementwise ops) against NumPy, per device."""

import numpy as np
import pytest

import accelpy as ap


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.complex64])
def test_isclose_matches_numpy(device, rng, dt):
    a = (rng.standard_normal((7, 9)) * 3).astype(dt)
    b = a + (rng.standard_normal((7, 9)) * 1e-6).astype(dt)
    b[0, :3] += 1
    for rtol, atol in ((1e-5, 1e-8), (0, 1e-3), (1e-2, 0)):
        got = ap.asnumpy(ap.isclose(ap.asarray(a), ap.asarray(b), rtol=rtol, atol=atol))
        np.testing.assert_array_equal(got, np.isclose(a, b, rtol=rtol, atol=atol))
        assert ap.allclose(ap.asarray(a), ap.asarray(b), rtol=rtol, atol=atol) == np.allclose(
            a, b, rtol=rtol, atol=atol)
    assert ap.allclose(ap.asarray(a), ap.asarray(a))


def test_special_values_broadcasting_and_scalars(device):
    a = np.array([np.inf, -np.inf, np.nan, 1.0, np.nan, 0.0])
    b = np.array([np.inf, np.inf, np.nan, 1.0 + 1e-9, 1.0, -0.0])
    for equal_nan in (False, True):
        got = ap.asnumpy(ap.isclose(ap.asarray(a), ap.asarray(b), equal_nan=equal_nan))
        np.testing.assert_array_equal(got, np.isclose(a, b, equal_nan=equal_nan))
    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(ap.asnumpy(ap.isclose(ap.asarray(m), 5.0)),
                                  np.isclose(m, 5.0))
    np.testing.assert_array_equal(ap.asnumpy(ap.isclose(ap.asarray(m), ap.asarray(m[:1]))),
                                  np.isclose(m, m[:1]))
    assert ap.allclose(ap.asarray(m[:, ::-1]), np.ascontiguousarray(m[:, ::-1]))
    assert not ap.allclose(ap.asarray(a), ap.asarray(b))
    assert isinstance(ap.allclose(ap.asarray(m), m), bool)
