"""median, quantile, percentile (and nan* forms), the nan* reductions, ptp and average against
NumPy: dtypes, layouts (n-d, non-contiguous, negative strides), axes (None, negative, tuples),
keepdims, NaNs (some, whole slices), both devices."""

import warnings

import numpy as np
import pytest

import accelpy as ap
from helpers import to_device, to_numpy

FLOATS = [np.float16, np.float32, np.float64]
DTYPES = FLOATS + [np.int32, np.int64]
AXES = [None, 0, -1, (0, 2), (1,)]


def sample(rng, dtype, nans):
    """A 3-D array with ties; floats get NaNs (and one all-NaN line along axis 2) when asked."""
    a = np.round(rng.standard_normal((4, 3, 6)) * 3)
    if np.dtype(dtype).kind == "f" and nans:
        a.reshape(-1)[rng.choice(a.size, 7, replace=False)] = np.nan
        a[2, 1, :] = np.nan
    return a.astype(dtype)


def views(a_np, device):
    """The array, a non-contiguous view, and a negative-stride view, on both sides."""
    a = to_device(a_np, device)
    return [(a_np, a), (a_np[:, ::2], a[:, ::2]), (a_np[::-1], a[::-1])]


def close(got, expected, dtype):
    got, expected = to_numpy(got), np.asarray(expected)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    rtol = {np.float16: 3e-3, np.float32: 2e-6}.get(dtype, 1e-12)
    # float16: NumPy interpolates in float16 (the fraction and each step rounded), so a result
    # is off by ulps of the data (integers up to ~12 here: 2^-7 apart), not of itself.
    atol = 2e-2 if dtype == np.float16 else rtol
    wide = np.complex128 if expected.dtype.kind == "c" else np.float64
    np.testing.assert_allclose(got.astype(wide), expected.astype(wide), rtol=rtol, atol=atol,
                               equal_nan=True)


def both(np_fn, ap_fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np_fn(), ap_fn()


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", ["nansum", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd",
                                  "median", "nanmedian", "ptp"])
def test_reductions(device, rng, dtype, name):
    a_np = sample(rng, dtype, nans=name != "ptp")
    for x_np, x in views(a_np, device):
        for axis in AXES:
            for keepdims in (False, True):
                expected, got = both(
                    lambda: getattr(np, name)(x_np, axis=axis, keepdims=keepdims),  # noqa: B023
                    lambda: getattr(ap, name)(x, axis=axis, keepdims=keepdims))  # noqa: B023
                close(got, expected, dtype)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_nanprod_and_ddof(device, rng, dtype):
    a_np = (sample(rng, np.float64, nans=True) / 4 + 1).astype(dtype)
    a = to_device(a_np, device)
    for axis in (None, 1):
        close(ap.nanprod(a, axis=axis), np.nanprod(a_np, axis=axis), dtype)
        expected, got = both(lambda: np.nanvar(a_np, axis=axis, ddof=1),  # noqa: B023
                             lambda: ap.nanvar(a, axis=axis, ddof=1))  # noqa: B023
        close(got, expected, dtype)


def reference(name, a, q, axis, method):
    """NumPy's quantiles in the documented layout (q's shape first): NumPy 2.4's nanquantile
    returns a 2-D q with a tuple axis in another order ((1, 3, 2) for (2, 1) and (3,)); and in
    the dtype quantile's rule gives."""
    fn = getattr(np, name)
    # The dtype by quantile's rule: NumPy's nanquantile returns float32 instead of float64 for
    # float32 data and float64 q when a slice along `axis` is all NaN (another code path).
    dtype = getattr(np, name.removeprefix("nan"))(np.zeros_like(a), q, axis=axis,
                                                  method=method).dtype
    if np.ndim(q) < 2:
        return fn(a, q, axis=axis, method=method).astype(dtype)
    parts = [fn(a, qi, axis=axis, method=method) for qi in np.ravel(q)]
    return np.stack(parts).reshape(np.shape(q) + np.shape(parts[0])).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("nan_form", [False, True])
def test_quantile_and_percentile(device, rng, dtype, method, nan_form):
    a_np = sample(rng, dtype, nans=True)
    quantile = "nanquantile" if nan_form else "quantile"
    percentile = "nanpercentile" if nan_form else "percentile"
    for x_np, x in views(a_np, device):
        for q in (0.0, 0.37, 1.0, [0.1, 0.5, 0.9], np.array([[0.25], [0.75]])):
            for axis in (None, 1, (0, 2)):
                expected, got = both(
                    lambda: reference(quantile, x_np, q, axis, method),  # noqa: B023
                    lambda: getattr(ap, quantile)(x, q, axis=axis, method=method))  # noqa: B023
                close(got, expected, dtype)
        expected, got = both(
            lambda: getattr(np, percentile)(x_np, [5, 50], axis=2, method=method,  # noqa: B023
                                            keepdims=True),
            lambda: getattr(ap, percentile)(x, [5, 50], axis=2, method=method,  # noqa: B023
                                            keepdims=True))
        close(got, expected, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64], ids=str)
def test_average(device, rng, dtype):
    a_np = sample(rng, dtype, nans=False)
    a = to_device(a_np, device)
    w_np = rng.uniform(0.5, 2.0, a_np.shape)
    close(ap.average(a), np.average(a_np), np.float64 if dtype == np.int64 else dtype)
    for axis in (None, 0, (1, 2)):
        close(ap.average(a, axis=axis, weights=w_np), np.average(a_np, axis=axis, weights=w_np),
              np.float64)
    avg, scale = ap.average(a, axis=2, weights=w_np[0, 0], returned=True, keepdims=True)
    e_avg, e_scale = np.average(a_np, axis=2, weights=w_np[0, 0], returned=True, keepdims=True)
    close(avg, e_avg, np.float64)
    close(scale, e_scale, np.float64)


def test_errors_and_warnings(device):
    a = ap.asarray(np.array([[1.0, np.nan], [np.nan, np.nan]]))
    with pytest.raises(ValueError, match="All-NaN"):
        ap.nanargmax(a, axis=1)
    b = ap.asarray(np.array([[1.0, np.nan], [np.nan, 2.0]]))
    np.testing.assert_array_equal(to_numpy(ap.nanargmin(b, axis=0)), [0, 1])
    np.testing.assert_array_equal(to_numpy(ap.nanargmax(b, axis=1)), [0, 1])
    with pytest.warns(RuntimeWarning, match="All-NaN"):
        ap.nanmax(a, axis=1)
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        ap.nanmean(a, axis=1)
    with pytest.raises(ValueError, match="range"):
        ap.quantile(a, 1.5)
    with pytest.raises(NotImplementedError, match="weibull"):
        ap.quantile(a, 0.5, method="weibull")
    with pytest.raises(ZeroDivisionError):
        ap.average(ap.ones((2, 3)), axis=1, weights=np.zeros(3))
    with pytest.raises(TypeError, match="Axis must be specified"):
        ap.average(ap.ones((2, 3)), weights=np.ones(3))
    with pytest.raises(np.exceptions.AxisError):
        ap.median(ap.ones((2, 3)), axis=2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128], ids=str)
def test_cov_and_corrcoef(device, rng, dtype):
    m_np = rng.standard_normal((3, 11)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        m_np = m_np + 1j * rng.standard_normal((3, 11))
    y_np = rng.standard_normal((2, 11))
    m, y = to_device(m_np, device), to_device(y_np, device)
    fw, aw = rng.integers(1, 4, 11), rng.uniform(0.5, 2.0, 11)
    result = np.result_type(dtype, np.float64)
    for kw in ({}, {"rowvar": False}, {"bias": True}, {"ddof": 3}, {"fweights": fw},
               {"aweights": aw}, {"fweights": fw, "aweights": aw}):
        x_np, x = (m_np.T, m.T) if kw.get("rowvar") is False else (m_np, m)
        close(ap.cov(x, **kw), np.cov(x_np, **kw), result)
    close(ap.cov(m, y), np.cov(m_np, y_np), result)
    close(ap.cov(m[0]), np.cov(m_np[0]), result)
    close(ap.corrcoef(m), np.corrcoef(m_np), result)
    close(ap.corrcoef(m, y), np.corrcoef(m_np, y_np), result)


def test_nancumsum_and_nancumprod(device, rng):
    a_np = rng.standard_normal((4, 5))
    a_np[1, 2] = a_np[3, 0] = np.nan
    a = to_device(a_np, device)
    for axis in (None, 0, 1):
        close(ap.nancumsum(a, axis=axis), np.nancumsum(a_np, axis=axis), np.float64)
        close(ap.nancumprod(a, axis=axis), np.nancumprod(a_np, axis=axis), np.float64)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex128])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_and_std_take_where_and_mean(device, rng, dtype, axis, name):
    # NumPy 2's keywords: the elements counted, and a mean already computed.
    x = (rng.standard_normal((5, 6)) * 3).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal((5, 6))
    where = rng.random((5, 6)) < 0.7
    where[:, 0] = True  # every slice counts an element or two
    where[0, :] = True
    a = ap.asarray(x)
    ours, theirs = getattr(ap, name), getattr(np, name)
    rtol = 1e-4 if dtype in (np.float32,) else 1e-10
    for kw in ({"where": where}, {"where": where[0]}, {"where": where, "ddof": 1},
               {"where": where, "keepdims": True}, {"where": where, "correction": 1}):
        np.testing.assert_allclose(ap.asnumpy(ours(a, axis=axis, **kw)),
                                   theirs(x, axis=axis, **kw), rtol=rtol, atol=rtol)
        assert ours(a, axis=axis, **kw).dtype == theirs(x, axis=axis, **kw).dtype
    m = x.mean(axis=axis, keepdims=True)
    np.testing.assert_allclose(ap.asnumpy(ours(a, axis=axis, mean=ap.asarray(m))),
                               theirs(x, axis=axis, mean=m), rtol=rtol, atol=rtol)
    out = ap.empty(np.shape(theirs(x, axis=axis)), dtype=theirs(x, axis=axis).dtype)
    assert ours(a, axis=axis, where=where, out=out) is out
    np.testing.assert_allclose(ap.asnumpy(out), theirs(x, axis=axis, where=where), rtol=rtol,
                               atol=rtol)


def test_var_where_counts_no_element_as_numpy_does(device):
    x = np.arange(6.0).reshape(2, 3)
    where = np.array([[True, False, True], [False, False, False]])
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        got = ap.asnumpy(ap.var(ap.asarray(x), axis=1, where=where))
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        np.testing.assert_array_equal(got, np.var(x, axis=1, where=where))
    with pytest.raises(ValueError, match="ddof and correction"):
        ap.var(ap.asarray(x), where=where, ddof=1, correction=1)

