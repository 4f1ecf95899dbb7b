"""sort, argsort, partition, argpartition, searchsorted against NumPy: every dtype, layouts
(empty, 1-3 dimensions, non-contiguous, negative strides, transposed), axes, ties (stability),
NaN/inf/-0 (NaN last, also NaNs with the sign bit set), descending (Array API), both devices.

Sorted values and indices must equal NumPy's stable sort exactly."""

import ml_dtypes
import numpy as np
import pytest

import accelpy as ap
from helpers import ALL_DTYPES, BF16, make_array, to_device, to_numpy

LAYOUTS = ["empty", "1d", "2d", "3d", "noncontig", "negstride", "transposed", "strided3d"]
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def values_with_ties(rng, layout, dtype, device):
    """Few distinct values (many ties, so stability shows), plus NaN/inf/-0 for floats."""
    kw = {"low": -3, "high": 3} if np.dtype(dtype).kind in "iu" else {"specials": True}
    a_np, a_ap = make_array(rng, layout, dtype, device, **kw)
    if np.dtype(dtype).kind in "fc" or dtype == BF16:
        # Round to a few values so that floats tie too; the specials survive rounding.
        wide = np.complex128 if dtype.kind == "c" else np.float64
        rounded = np.round(np.asarray(a_np, dtype=wide))
        base = np.array(rounded.astype(dtype))
        a_np, a_ap = base, to_device(base, device)
    return np.asarray(a_np), a_ap


def np_sort(a, axis, kind="stable"):
    if a.dtype == BF16:  # NumPy sorts bfloat16 through its float32 values, same order
        return np.sort(a.astype(np.float32), axis=axis, kind=kind).astype(BF16)
    return np.sort(a, axis=axis, kind=kind)


def np_argsort(a, axis):
    src = a.astype(np.float32) if a.dtype == BF16 else a
    return np.argsort(src, axis=axis, kind="stable")


def np_argsort_descending(a, axis):
    """The Array API's descending stable argsort (as array_api_strict computes it)."""
    if axis is None:
        a, axis = a.reshape(-1), 0
    n = a.shape[axis] - 1
    return np.flip(n - np_argsort(np.flip(a, axis=axis), axis), axis=axis)


def assert_same_bits(got, expected):
    got = to_numpy(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if expected.dtype.kind in "fc" or expected.dtype == BF16:
        # Same values, NaN where NumPy has NaN (NaN payloads and zero signs may differ).
        wide = np.complex128 if expected.dtype.kind == "c" else np.float64
        np.testing.assert_array_equal(got.astype(wide), expected.astype(wide))
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_sort_and_argsort(device, rng, dtype, layout):
    a_np, a_ap = values_with_ties(rng, layout, dtype, device)
    for axis in [*range(-a_np.ndim, a_np.ndim), None]:
        assert_same_bits(ap.sort(a_ap, axis=axis), np_sort(a_np, axis))
        got = ap.argsort(a_ap, axis=axis)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(to_numpy(got), np_argsort(a_np, axis))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_descending(device, rng, dtype):
    a_np, a_ap = values_with_ties(rng, "2d", dtype, device)
    for axis in (0, 1, None):
        expected = np_argsort_descending(a_np, axis)
        np.testing.assert_array_equal(to_numpy(ap.argsort(a_ap, axis=axis, descending=True)),
                                      expected)
        flat = a_np.reshape(-1) if axis is None else a_np
        ax = 0 if axis is None else axis
        assert_same_bits(ap.sort(a_ap, axis=axis, descending=True),
                         np.flip(np_sort(flat, ax), axis=ax))


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32, np.float64,
                                   np.complex64, np.complex128], ids=str)
def test_nan_order(device, rng, dtype):
    """NaN last, whatever its sign bit (x86 makes negative NaNs: 0/0, -nan); -0 ties 0."""
    dt = np.dtype(dtype)
    real = np.array([1.0, np.nan, -np.inf, -0.0, 0.0, np.inf, -np.nan, 2.0, -1.0, np.nan] * 7)
    rng.shuffle(real)
    if dt.kind == "c":
        imag = rng.choice([0.0, 1.0, np.nan], size=real.size)
        a_np = (real + 1j * imag).astype(dt)
        a_np.imag[imag != imag] = np.nan
    else:
        a_np = real.astype(dt)
    a_ap = to_device(a_np)
    assert_same_bits(ap.sort(a_ap), np_sort(a_np, -1))
    np.testing.assert_array_equal(to_numpy(ap.argsort(a_ap)), np_argsort(a_np, -1))
    rows = np.stack([a_np, a_np[::-1], np.roll(a_np, 3)])
    r_ap = to_device(rows)
    assert_same_bits(ap.sort(r_ap, axis=1), np_sort(rows, 1))
    np.testing.assert_array_equal(to_numpy(ap.argsort(r_ap, axis=1)), np_argsort(rows, 1))
    np.testing.assert_array_equal(to_numpy(ap.argsort(a_ap, descending=True)),
                                  np_argsort_descending(a_np, -1))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64,
                                   np.uint64, np.float32, np.float64], ids=str)
@pytest.mark.parametrize("shape", [(300_001,), (1000, 3), (7, 20_000)])
def test_large(device, rng, dtype, shape):
    """Long rows (the CPU's radix sort, threaded for one row; CUB's one-row sort) and many
    short rows, with ties, zeros of both signs and NaNs of both signs for floats."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        a_np = np.round(rng.standard_normal(shape) * 3).astype(dt)
        flat = a_np.reshape(-1)
        flat[rng.choice(a_np.size, 50, replace=False)] = -0.0
        flat[rng.choice(a_np.size, 50, replace=False)] = -np.nan
        flat[rng.choice(a_np.size, 50, replace=False)] = np.nan
    elif dt == np.bool_:
        a_np = rng.random(shape) < 0.5
    else:
        info = np.iinfo(dt)
        a_np = rng.integers(max(info.min, -100), min(info.max, 100), size=shape).astype(dt)
        a_np.reshape(-1)[:3] = [info.min, info.max, 0]
    a_ap = to_device(a_np)
    assert_same_bits(ap.sort(a_ap), np.sort(a_np, kind="stable"))
    np.testing.assert_array_equal(to_numpy(ap.argsort(a_ap)), np.argsort(a_np, kind="stable"))
    np.testing.assert_array_equal(to_numpy(ap.argsort(a_ap, axis=0)),
                                  np.argsort(a_np, axis=0, kind="stable"))
    np.testing.assert_array_equal(to_numpy(ap.argsort(a_ap, descending=True)),
                                  np_argsort_descending(a_np, -1))
    assert_same_bits(ap.sort(a_ap, descending=True), np.flip(np.sort(a_np, kind="stable"), -1))


def test_zero_d(device):
    x = ap.asarray(np.float32(3))
    with pytest.raises(np.exceptions.AxisError):
        ap.sort(x)
    # NumPy's argsort (not its sort) takes a 0-d array along axis 0 as one of shape (1,).
    expected = np.argsort(np.asarray(np.float32(3)), axis=0)
    np.testing.assert_array_equal(to_numpy(ap.argsort(x, axis=0)), expected)
    np.testing.assert_array_equal(to_numpy(ap.sort(x, axis=None)), [3.0])
    np.testing.assert_array_equal(to_numpy(ap.argsort(x, axis=None)), [0])


def test_bad_arguments(device):
    x = ap.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(np.exceptions.AxisError):
        ap.sort(x, axis=2)
    with pytest.raises(ValueError, match="sort kind"):
        ap.sort(x, kind="bogus")
    with pytest.raises(ValueError, match="order"):
        ap.argsort(x, order="f")
    with pytest.raises(TypeError):
        ap.sort(x, axis=1.5)
    for kind in ("quicksort", "mergesort", "heapsort", "stable"):
        np.testing.assert_array_equal(to_numpy(ap.sort(x, kind=kind)), np.arange(6.0).reshape(2, 3))


def test_methods_sort_in_place(device, rng):
    base = rng.standard_normal((6, 8)).astype(np.float32)
    x = to_device(base)
    view = x[::2, 1:]
    view.sort(axis=0)
    expected = base.copy()
    expected[::2, 1:] = np.sort(expected[::2, 1:], axis=0)
    np.testing.assert_array_equal(to_numpy(x), expected)
    y = to_device(base)
    z = y + 1  # pending: reads y before the in-place sort writes it
    y.sort()
    np.testing.assert_array_equal(to_numpy(z), base + 1)
    np.testing.assert_array_equal(to_numpy(y), np.sort(base))
    np.testing.assert_array_equal(to_numpy(y.argsort(axis=0)),
                                  np.argsort(np.sort(base), axis=0, kind="stable"))
    ro = ap.broadcast_to(to_device(base[0]), (3, 8))
    with pytest.raises(ValueError, match="read-only"):
        ro.sort()


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex64], ids=str)
def test_partition(device, rng, dtype):
    a_np = rng.integers(-50, 50, size=(5, 40)).astype(dtype)
    a_ap = to_device(a_np)
    for kth in (0, 17, -1, [3, 20]):
        for axis in (1, 0, None):
            flat = a_np.reshape(-1) if axis is None else a_np
            ax = 0 if axis is None else axis
            if np.max(np.abs(np.atleast_1d(kth))) >= flat.shape[ax]:
                with pytest.raises(ValueError, match="out of bounds"):
                    ap.partition(a_ap, kth, axis=axis)
                continue
            p = to_numpy(ap.partition(a_ap, kth, axis=axis))
            s = np.sort(flat, axis=ax)
            ks = np.atleast_1d(kth) % flat.shape[ax]
            for k in ks:  # the partition property, as NumPy promises it
                np.testing.assert_array_equal(np.take(p, k, axis=ax), np.take(s, k, axis=ax))
            idx = to_numpy(ap.argpartition(a_ap, kth, axis=axis))
            np.testing.assert_array_equal(np.take_along_axis(flat, idx, axis=ax), p)
    x = to_device(a_np)
    x.partition(5)
    np.testing.assert_array_equal(np.take(to_numpy(x), 5, axis=1), np.sort(a_np, axis=1)[:, 5])
    with pytest.raises(ValueError, match="out of bounds"):
        ap.partition(a_ap, 40)
    with pytest.raises(ValueError, match="out of bounds"):
        ap.argpartition(a_ap, [1, -41])


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(device, rng, dtype, side):
    dt = np.dtype(dtype)
    kw = {"low": -20, "high": 20} if dt.kind in "iu" else {}
    a_np, _ = make_array(rng, "1d", dt, **kw)
    src = a_np.astype(np.float32) if dt == BF16 else a_np
    a_sorted = np.sort(a_np) if dt != BF16 else np.sort(src).astype(BF16)
    a_sorted = np.concatenate([a_sorted, a_sorted[3:6]])  # ties
    a_sorted = np_sort(a_sorted, -1)
    v_np, v_ap = make_array(rng, "noncontig", dt, **kw)
    v_np = np.array(v_np)
    v_np.reshape(-1)[:3] = a_sorted[[0, 5, -1]]  # exact hits
    v_ap = to_device(v_np)
    ref = (lambda a, v: np.searchsorted(a.astype(np.float32), v.astype(np.float32), side=side)) \
        if dt == BF16 else (lambda a, v: np.searchsorted(a, v, side=side))
    got = ap.searchsorted(to_device(a_sorted), v_ap, side=side)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(to_numpy(got), ref(a_sorted, v_np))
    # Through a sorter, on unsorted data; and the method.
    perm = rng.permutation(a_sorted.size)
    shuffled = a_sorted[perm]
    sorter = np.argsort(shuffled.astype(np.float32) if dt == BF16 else shuffled, kind="stable")
    got = ap.searchsorted(to_device(shuffled), v_ap, side=side, sorter=to_device(sorter))
    np.testing.assert_array_equal(to_numpy(got), ref(a_sorted, v_np))
    np.testing.assert_array_equal(to_numpy(to_device(a_sorted).searchsorted(v_ap, side=side)),
                                  ref(a_sorted, v_np))


def test_searchsorted_nan_and_scalars(device):
    a = np.array([-np.inf, -1.0, 0.0, 0.0, 2.5, np.inf, np.nan, np.nan])
    v = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 3.0, -np.nan])
    for side in ("left", "right"):
        got = ap.searchsorted(to_device(a), to_device(v), side=side)
        np.testing.assert_array_equal(to_numpy(got), np.searchsorted(a, v, side=side))
        got = ap.searchsorted(to_device(a), 2.5, side=side)
        assert got.shape == () and int(got) == np.searchsorted(a, 2.5, side=side)
    ints = np.array([1, 3, 5, 7], dtype=np.int8)
    np.testing.assert_array_equal(to_numpy(ap.searchsorted(to_device(ints), [2.5, 300, -1])),
                                  np.searchsorted(ints, [2.5, 300, -1]))
    np.testing.assert_array_equal(to_numpy(ap.searchsorted(ap.asarray(np.zeros(0)), [1.0])), [0])


def test_searchsorted_errors(device):
    a = ap.asarray(np.arange(4.0))
    with pytest.raises(ValueError, match="side"):
        ap.searchsorted(a, 1.0, side="middle")
    with pytest.raises(ValueError, match="too deep"):
        ap.searchsorted(ap.asarray(np.ones((2, 2))), 1.0)
    with pytest.raises(ValueError, match="out of range"):
        ap.searchsorted(a, 1.0, sorter=ap.asarray(np.array([0, 1, 2, 9])))
    with pytest.raises(ValueError, match="length"):
        ap.searchsorted(a, 1.0, sorter=ap.asarray(np.array([0, 1])))
    with pytest.raises(TypeError, match="integers"):
        ap.searchsorted(a, 1.0, sorter=ap.asarray(np.array([0.0, 1, 2, 3])))
