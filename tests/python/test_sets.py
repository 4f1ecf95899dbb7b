"""unique (and the Array API's unique_*), isin, intersect1d, union1d, setdiff1d against NumPy:
dtypes, shapes (empty, n-d, non-contiguous), NaN handling (equal_nan), both devices.
Results are exact: values, indices, inverses and counts equal NumPy's."""

import numpy as np
import pytest

import accelpy as ap
from helpers import ALL_DTYPES, BF16, make_array, to_device, to_numpy

DTYPES = [d for d in ALL_DTYPES if d != BF16]  # NumPy's unique needs a sortable dtype
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def small_values(rng, layout, dtype, device):
    """Values with many repeats (and NaN, inf, -0 for floats)."""
    dt = np.dtype(dtype)
    a_np, _ = make_array(rng, layout, dt, **({"low": -4, "high": 4} if dt.kind in "iu" else {}))
    a_np = np.array(a_np)
    if dt.kind in "fc":
        a_np = np.round(a_np / 4).astype(dt)
        flat = a_np.reshape(-1)
        if flat.size > 4:
            flat[rng.choice(flat.size, 4, replace=False)] = [np.nan, np.inf, -0.0, np.nan]
    return a_np, to_device(a_np, device)


def assert_equal(got, expected):
    got = to_numpy(got)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("layout", ["0d", "empty", "1d", "3d", "noncontig", "negstride"])
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique(device, rng, dtype, layout, equal_nan):
    a_np, a_ap = small_values(rng, layout, dtype, device)
    assert_equal(ap.unique(a_ap, equal_nan=equal_nan), np.unique(a_np, equal_nan=equal_nan))
    got = ap.unique(a_ap, return_index=True, return_inverse=True, return_counts=True,
                    equal_nan=equal_nan)
    expected = np.unique(a_np, return_index=True, return_inverse=True, return_counts=True,
                         equal_nan=equal_nan)
    assert isinstance(got, tuple) and len(got) == 4
    for g, e in zip(got, expected, strict=True):
        assert_equal(g, e)
    values, counts = ap.unique(a_ap, return_counts=True)
    assert_equal(counts, np.unique(a_np, return_counts=True)[1])


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64, np.bool_], ids=str)
def test_array_api_unique(device, rng, dtype):
    """NumPy 2.4's unique_* leave the order unspecified (the Array API allows it); accelpy's are
    sorted: compare as sets, and check that the parts agree with each other and with x."""
    a_np, a_ap = small_values(rng, "3d", dtype, device)
    flat = a_np.reshape(-1)
    expected = np.unique_all(a_np)
    order = np.argsort(expected.values, kind="stable")
    values, indices, inverse, counts = ap.unique_all(a_ap)
    assert ap.unique_all(a_ap)._fields == expected._fields
    assert_equal(values, expected.values[order])
    assert_equal(counts, expected.counts[order])
    v = to_numpy(values)
    assert_equal(indices, np.unique(flat, return_index=True, equal_nan=False)[1])
    np.testing.assert_array_equal(flat[to_numpy(indices)], v)
    np.testing.assert_array_equal(v[to_numpy(inverse)], a_np)
    assert to_numpy(inverse).shape == a_np.shape
    got = ap.unique_counts(a_ap)
    assert got._fields == ("values", "counts")
    assert_equal(got.counts, expected.counts[order])
    got = ap.unique_inverse(a_ap)
    assert got._fields == ("values", "inverse_indices")
    np.testing.assert_array_equal(to_numpy(got.values)[to_numpy(got.inverse_indices)], a_np)
    assert_equal(ap.unique_values(a_ap), np.sort(np.unique_values(a_np)))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape, axis", [((12, 3), 0), ((12, 3), 1), ((4, 9, 2), 1),
                                         ((4, 9, 2), -1), ((7,), 0), ((5, 0), 0), ((0, 3), 1),
                                         ((0, 3), 0)])
def test_unique_along_axis(device, rng, dtype, shape, axis):
    """Slices repeated from a few distinct ones, with -0 beside 0 and one NaN for floats; the
    array and a reversed (negative-stride) view of it."""
    dt = np.dtype(dtype)
    pool_shape = list(shape)
    pool_shape[axis] = min(3, shape[axis])
    pool = rng.integers(-2, 3, pool_shape).astype(dt)
    a_np = np.take(pool, rng.integers(0, max(pool_shape[axis], 1), shape[axis]), axis=axis)
    if dt.kind in "fc" and a_np.size > 2:
        flat = a_np.reshape(-1)
        zeros = np.flatnonzero(flat == 0)
        flat[zeros[: len(zeros) // 2]] = -0.0
        if dt != np.float16:  # NumPy orders float16 NaN slices first (its void compare), else last
            flat[rng.integers(0, flat.size)] = np.nan
    for arr in (a_np, np.flip(a_np, axis)):
        a_ap = to_device(np.ascontiguousarray(arr), device)
        if arr is not a_np:
            a_ap = ap.flip(to_device(a_np, device), axis)
        got = ap.unique(a_ap, return_index=True, return_inverse=True, return_counts=True,
                        axis=axis)
        expected = np.unique(arr, return_index=True, return_inverse=True, return_counts=True,
                             axis=axis)
        for g, e in zip(got, expected, strict=True):
            assert_equal(g, e)
        assert_equal(ap.unique(a_ap, axis=axis), np.unique(arr, axis=axis))


def test_unique_axis_errors(device):
    with pytest.raises(np.exceptions.AxisError):
        ap.unique(ap.asarray(np.float32(3)), axis=0)
    with pytest.raises(np.exceptions.AxisError):
        ap.unique(ap.ones((2, 3)), axis=2)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("invert", [False, True])
def test_isin(device, rng, dtype, invert):
    a_np, a_ap = small_values(rng, "3d", dtype, device)
    t_np, t_ap = small_values(rng, "noncontig", dtype, device)
    assert_equal(ap.isin(a_ap, t_ap, invert=invert), np.isin(a_np, t_np, invert=invert))
    assert_equal(ap.isin(a_ap, t_ap[:0], invert=invert), np.isin(a_np, t_np[:0], invert=invert))


def test_isin_mixed_dtypes(device):
    a = np.array([1, 2, 3, 300], dtype=np.int16)
    t = np.array([2.0, 3.5, 300.0])
    assert_equal(ap.isin(to_device(a), to_device(t)), np.isin(a, t))
    assert_equal(ap.isin(to_device(a), [3, 1]), np.isin(a, [3, 1]))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_intersect_union_setdiff(device, rng, dtype):
    a_np, a_ap = small_values(rng, "2d", dtype, device)
    b_np, b_ap = small_values(rng, "negstride", dtype, device)
    assert_equal(ap.intersect1d(a_ap, b_ap), np.intersect1d(a_np, b_np))
    got = ap.intersect1d(a_ap, b_ap, return_indices=True)
    expected = np.intersect1d(a_np, b_np, return_indices=True)
    for g, e in zip(got, expected, strict=True):
        assert_equal(g, e)
    ua, ub = np.unique(a_np), np.unique(b_np)
    got = ap.intersect1d(to_device(ua), to_device(ub), assume_unique=True, return_indices=True)
    expected = np.intersect1d(ua, ub, assume_unique=True, return_indices=True)
    for g, e in zip(got, expected, strict=True):
        assert_equal(g, e)
    assert_equal(ap.union1d(a_ap, b_ap), np.union1d(a_np, b_np))
    assert_equal(ap.setdiff1d(a_ap, b_ap), np.setdiff1d(a_np, b_np))
    assert_equal(ap.setdiff1d(to_device(ua), b_ap, assume_unique=True),
                 np.setdiff1d(ua, b_np, assume_unique=True))


def test_sets_empty(device):
    e = np.zeros(0, dtype=np.float32)
    x = np.array([1.0, 2.0], dtype=np.float32)
    assert_equal(ap.intersect1d(to_device(e), to_device(x)), np.intersect1d(e, x))
    assert_equal(ap.union1d(to_device(e), to_device(e)), np.union1d(e, e))
    assert_equal(ap.setdiff1d(to_device(e), to_device(x)), np.setdiff1d(e, x))
    assert_equal(ap.setdiff1d(to_device(x), to_device(e)), np.setdiff1d(x, e))


def test_large_unique(device, rng):
    a = rng.integers(0, 5000, size=300_000)
    got = ap.unique(to_device(a), return_index=True, return_inverse=True, return_counts=True)
    for g, e in zip(got, np.unique(a, return_index=True, return_inverse=True,
                                   return_counts=True), strict=True):
        assert_equal(g, e)


def test_numpy_functions_dispatch(device, rng):
    """NumPy's functions called on accelpy arrays run accelpy's (__array_function__)."""
    a_np = rng.integers(0, 6, size=40)
    b_np = rng.integers(3, 9, size=30)
    a, b = to_device(a_np), to_device(b_np)
    assert isinstance(np.sort(a), ap.ndarray)
    assert_equal(np.sort(a), np.sort(a_np))
    assert_equal(np.argsort(a, kind="stable"), np.argsort(a_np, kind="stable"))
    assert_equal(np.unique(a), np.unique(a_np))
    assert_equal(np.isin(a, b), np.isin(a_np, b_np))
    assert_equal(np.intersect1d(a, b), np.intersect1d(a_np, b_np))
    assert_equal(np.union1d(a, b), np.union1d(a_np, b_np))
    assert_equal(np.setdiff1d(a, b), np.setdiff1d(a_np, b_np))
    s = np.sort(a_np)
    assert_equal(np.searchsorted(to_device(s), b, side="right"),
                 np.searchsorted(s, b_np, side="right"))
    assert_equal(np.cumsum(a), np.cumsum(a_np))
