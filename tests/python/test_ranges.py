"""logspace and geomspace against NumPy: scalar and array endpoints, bases, endpoint, num 0/1,
negative and complex endpoints, dtype, axis, devices."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, to_numpy


@pytest.mark.parametrize("num", [0, 1, 2, 7, 50])
@pytest.mark.parametrize("endpoint", [True, False])
def test_logspace_scalars(device, rng, num, endpoint):
    start, stop = rng.uniform(-3, 3, 2)
    base = float(rng.uniform(1.5, 10))
    got = ap.logspace(start, stop, num, endpoint, base)
    assert got.device == device
    assert_matches(got, np.logspace(start, stop, num, endpoint, base), ulps=64)
    assert_matches(ap.logspace(start, stop, num, endpoint, dtype=np.float32),
                   np.logspace(start, stop, num, endpoint, dtype=np.float32))
    assert_matches(ap.logspace(int(start), 2, num), np.logspace(int(start), 2, num), ulps=64)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_logspace_arrays(device, rng, axis):
    start = rng.uniform(-2, 2, 3)
    stop = rng.uniform(-2, 2, 3)
    base = rng.uniform(2, 5, 3)
    assert_matches(ap.logspace(start, stop, 5, axis=axis),
                   np.logspace(start, stop, 5, axis=axis), ulps=64)
    assert_matches(ap.logspace(start, stop, 4, base=base, axis=axis, endpoint=False),
                   np.logspace(start, stop, 4, base=base, axis=axis, endpoint=False), ulps=64)
    assert_matches(ap.logspace(start, 1.0, 4, axis=axis), np.logspace(start, 1.0, 4, axis=axis),
                   ulps=64)
    with pytest.raises(np.exceptions.AxisError):
        ap.logspace(start, stop, 3, axis=2)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # opposite signs: NaN
@pytest.mark.parametrize("num", [0, 1, 2, 9])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("signs", [(1, 1), (-1, -1), (1, -1)])
def test_geomspace(device, rng, num, endpoint, signs):
    start, stop = rng.uniform(0.01, 100, 2) * np.array(signs)
    expected = np.geomspace(start, stop, num, endpoint)
    got = ap.geomspace(start, stop, num, endpoint)
    assert got.device == device
    assert_matches(got, expected, ulps=64)
    if num > 1 and expected.dtype.kind == "f":  # endpoints exact, as NumPy
        assert to_numpy(got)[0] == start
        if endpoint:
            assert to_numpy(got)[-1] == stop


def test_geomspace_more(device, rng):
    start = rng.uniform(1, 10, 3)
    stop = -rng.uniform(1, 10, 3)
    for axis in (0, 1, -1):
        assert_matches(ap.geomspace(start, -stop, 5, axis=axis),
                       np.geomspace(start, -stop, 5, axis=axis), ulps=64)
    assert_matches(ap.geomspace(1j, 1000j, 4), np.geomspace(1j, 1000j, 4), ulps=64)
    assert_matches(ap.geomspace(-1 + 0j, 1 + 0j, 5), np.geomspace(-1 + 0j, 1 + 0j, 5), ulps=64,
                   atol=1e-15)
    assert_matches(ap.geomspace(2, 64, 6, dtype=np.int64), np.geomspace(2, 64, 6, dtype=np.int64))
    assert_matches(ap.geomspace(1, 100, 3, dtype=np.float32),
                   np.geomspace(1, 100, 3, dtype=np.float32))
    with pytest.raises(ValueError):
        ap.geomspace(0, 10, 3)
    with pytest.raises(ValueError):
        ap.geomspace(1, 10, -1)
