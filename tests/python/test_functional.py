"""vectorize, frompyfunc and apply_over_axes against NumPy's, on accelpy arrays (the result on
the arguments' device), over dtypes, shapes (0-d, empty, broadcast, non-contiguous) and
NumPy's errors."""

import math

import numpy as np
import pytest

import accelpy as ap


def _f(a, b):
    return a * 2 + b if a > 0 else b - a


@pytest.mark.parametrize("shapes", [((), ()), ((5,), ()), ((3, 1), (4,)), ((0,), (1,))])
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_vectorize_matches_numpy(device, rng, shapes, dtype):
    a = (rng.standard_normal(shapes[0]) * 5).astype(dtype)
    b = (rng.standard_normal(shapes[1]) * 5).astype(dtype)
    if a.size == 0:  # NumPy cannot tell the output type without a call
        with pytest.raises(ValueError, match="otypes"):
            np.vectorize(_f)(a, b)
        with pytest.raises(ValueError, match="otypes"):
            ap.vectorize(_f)(ap.asarray(a), ap.asarray(b))
        return
    want = np.vectorize(_f)(a, b)
    got = ap.vectorize(_f)(ap.asarray(a), ap.asarray(b))
    assert isinstance(got, ap.ndarray) and got.device == device
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(ap.asnumpy(got), want)


def test_vectorize_options(device, rng):
    base = rng.standard_normal((4, 6))
    x = ap.asarray(base)[::-1, ::2]
    got = ap.vectorize(math.floor, otypes=[np.float32])(x)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(ap.asnumpy(got), np.floor(base[::-1, ::2]).astype(np.float32))

    @ap.vectorize
    def clipped(v, lo=0.0):
        return max(v, lo)

    np.testing.assert_array_equal(ap.asnumpy(clipped(x, lo=ap.asarray(0.5))),
                                  np.maximum(base[::-1, ::2], 0.5))

    @ap.vectorize(signature="(n)->()")
    def spread(row):
        return row.max() - row.min()

    np.testing.assert_allclose(ap.asnumpy(spread(ap.asarray(base))), np.ptp(base, axis=1))
    two = ap.vectorize(lambda v: (v, -v))(ap.asarray([1.0, 2.0]))
    assert isinstance(two, tuple) and ap.asnumpy(two[1]).tolist() == [-1.0, -2.0]
    ex = ap.vectorize(lambda v, k: v * len(k), excluded={1})(ap.asarray([1, 2]), [0, 0, 0])
    assert ap.asnumpy(ex).tolist() == [3, 6]
    with pytest.raises(ValueError):
        ap.vectorize(lambda v: v, signature="(n)->()")(ap.asarray(1.0))


def test_frompyfunc(device, rng):
    a = rng.integers(0, 50, (3, 4))
    b = rng.integers(1, 50, (4,))
    gcd = ap.frompyfunc(math.gcd, 2, 1)
    assert gcd.nin == 2 and gcd.nout == 1
    got = gcd(ap.asarray(a), ap.asarray(b))
    assert isinstance(got, ap.ndarray) and got.device == device
    np.testing.assert_array_equal(ap.asnumpy(got), np.gcd(a, b))
    divmod_ = ap.frompyfunc(divmod, 2, 2)
    q, r = divmod_(ap.asarray(a), 7)
    np.testing.assert_array_equal(ap.asnumpy(q), a // 7)
    np.testing.assert_array_equal(ap.asnumpy(r), a % 7)
    floats = ap.frompyfunc(lambda v: v / 2, 1, 1)(ap.asarray([1, 3]))
    assert ap.asnumpy(floats).tolist() == [0.5, 1.5]


@pytest.mark.parametrize("axes", [0, 1, [0, 2], (-1,), [2, 0, 1]])
def test_apply_over_axes_matches_numpy(device, rng, axes):
    a = rng.standard_normal((3, 4, 5))
    for func, npfunc in [(ap.sum, np.sum), (ap.max, np.max)]:
        got = ap.apply_over_axes(func, ap.asarray(a), axes)
        want = np.apply_over_axes(npfunc, a, axes)
        assert got.shape == want.shape and got.device == device
        np.testing.assert_allclose(ap.asnumpy(got), want, rtol=1e-12)
    keep = ap.apply_over_axes(lambda v, ax: ap.cumsum(v, axis=ax), ap.asarray(a)[:, ::-1], axes)
    np.testing.assert_allclose(ap.asnumpy(keep),
                               np.apply_over_axes(np.cumsum, a[:, ::-1], axes), rtol=1e-12)


def test_apply_over_axes_errors(device):
    with pytest.raises(ValueError, match="correct shape"):
        np.apply_over_axes(lambda v, ax: v[None, None], np.ones((2, 3)), [1])
    with pytest.raises(ValueError, match="correct shape"):
        ap.apply_over_axes(lambda v, ax: v[None, None], ap.ones((2, 3)), [1])
