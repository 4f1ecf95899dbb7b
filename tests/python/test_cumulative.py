"""cumsum, cumprod, cumulative_sum, cumulative_prod against NumPy: every dtype (NumPy's
accumulation dtypes: small integers in int64/uint64), axes, layouts, dtype=, out=,
include_initial, wrap-around, methods and np.add.accumulate dispatch, both devices.

Integer results equal NumPy's exactly; on the CPU float results too (the same sequential
order); on CUDA the scan adds in another order, so floats are compared within a bound that
grows with the row length."""

import ml_dtypes
import numpy as np
import pytest

import accelpy as ap
from helpers import ALL_DTYPES, BF16, assert_exact, make_array, random_values, to_device, to_numpy

LAYOUTS = ["0d", "empty", "1d", "2d", "3d", "noncontig", "negstride", "transposed", "strided3d"]
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def check(got, expected, device, length):
    got = to_numpy(got)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    # (NumPy's complex products may contract to FMA: 1-ulp differences, compared with tolerance.)
    if expected.dtype.kind in "biu" or (str(device) == "cpu" and expected.dtype.kind == "f"
                                        and expected.dtype != BF16):
        np.testing.assert_array_equal(got, expected)
        return
    wide = np.complex128 if expected.dtype.kind == "c" else np.float64
    info = ml_dtypes.finfo(BF16) if expected.dtype == BF16 else np.finfo(expected.dtype)
    rtol = float(info.eps) * 4 * max(length, 1)
    wide_expected = expected.astype(wide)
    scale = float(np.max(np.abs(wide_expected[np.isfinite(wide_expected)]), initial=1.0))
    np.testing.assert_allclose(got.astype(wide), wide_expected, rtol=rtol, atol=rtol * scale)


def np_ref(fn, a, **kw):
    if a.dtype == BF16:  # NumPy's bfloat16 scan goes through float32 per step
        out = fn(a.astype(np.float32), **kw)
        return out.astype(BF16) if kw.get("dtype") is None else out
    return fn(a, **kw)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_scan(device, rng, dtype, layout, name):
    dt = np.dtype(dtype)
    kw = {"low": 0.5, "high": 1.5} if name == "cumprod" and dt.kind not in "biu" else {}
    a_np, a_ap = make_array(rng, layout, dt, **kw)
    a_np = np.asarray(a_np)
    for axis in [None, *range(-a_np.ndim, a_np.ndim)]:
        got = getattr(ap, name)(a_ap, axis=axis)
        expected = np_ref(getattr(np, name), a_np, axis=axis)
        length = a_np.size if axis is None else a_np.shape[axis]
        check(got, expected, device, length)
    check(getattr(a_ap, name)(), np_ref(getattr(np, name), a_np), device, a_np.size)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float32, np.bool_], ids=str)
@pytest.mark.parametrize("out_dtype", [np.int8, np.int32, np.uint64, np.float64, np.bool_], ids=str)
def test_scan_dtype(device, rng, dtype, out_dtype):
    a_np, a_ap = make_array(rng, "2d", dtype, low=-3, high=3)
    for name in ("cumsum", "cumprod"):
        got = getattr(ap, name)(a_ap, axis=1, dtype=out_dtype)
        check(got, getattr(np, name)(a_np, axis=1, dtype=out_dtype), device, a_np.shape[1])


def test_integer_wraparound(device, rng):
    a = rng.integers(100, 127, size=(3, 50), dtype=np.int8)
    for name in ("cumsum", "cumprod"):
        for dt in (np.int8, np.int16, np.uint32):
            check(getattr(ap, name)(to_device(a), axis=1, dtype=dt),
                  getattr(np, name)(a, axis=1, dtype=dt), device, 50)
    big = np.array([2**62, 2**62, 2**62, -5], dtype=np.int64)
    check(ap.cumsum(to_device(big)), np.cumsum(big), device, 4)
    check(ap.cumprod(to_device(big)), np.cumprod(big), device, 4)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_array_api_cumulative(device, rng, name):
    a_np = rng.integers(-5, 5, size=(4, 6)).astype(np.int32)
    a_ap = to_device(a_np)
    fn, ref = getattr(ap, name), getattr(np, name)
    for axis in (0, 1, -1):
        for include_initial in (False, True):
            check(fn(a_ap, axis=axis, include_initial=include_initial),
                  ref(a_np, axis=axis, include_initial=include_initial), device, 6)
    one = a_np[0]
    check(fn(to_device(one), include_initial=True), ref(one, include_initial=True), device, 6)
    check(fn(to_device(one), dtype=np.float32), ref(one, dtype=np.float32), device, 6)
    empty = np.zeros((0, 3), np.float64)
    check(fn(to_device(empty), axis=0, include_initial=True),
          ref(empty, axis=0, include_initial=True), device, 1)
    with pytest.raises(ValueError, match="axis"):
        fn(a_ap)
    with pytest.raises(np.exceptions.AxisError):
        fn(a_ap, axis=2)


def test_scan_out_and_dispatch(device, rng):
    a_np = rng.standard_normal((5, 40)).astype(np.float32)
    a_ap = to_device(a_np)
    out = ap.empty((5, 40), dtype=np.float64)
    r = ap.cumsum(a_ap, axis=1, out=out)
    assert r is out
    # Without dtype=, NumPy accumulates in out's dtype (float64 here, not float32).
    expected = np.empty((5, 40))
    np.cumsum(a_np, axis=1, out=expected)
    check(out, expected, device, 40)
    out_i = ap.empty((5, 40), dtype=np.int16)
    small = (a_np * 40).astype(np.int8)
    expected_i = np.empty((5, 40), np.int16)
    ap.cumulative_sum(to_device(small), axis=1, out=out_i)
    np.testing.assert_array_equal(to_numpy(out_i), np.cumulative_sum(small, axis=1, out=expected_i))
    check(np.add.accumulate(a_ap, axis=1), np.add.accumulate(a_np, axis=1), device, 40)
    check(np.cumprod(a_ap, axis=0), np.cumprod(a_np, axis=0), device, 5)
    with pytest.raises(np.exceptions.AxisError):
        ap.cumsum(a_ap, axis=2)
    with pytest.raises(TypeError):
        ap.cumsum(a_ap, axis=(0, 1))


@pytest.mark.parametrize("shape", [(1 << 20,), (3000, 7), (5, 100_000)])
def test_large_scan(device, rng, shape):
    a_np = rng.integers(-1000, 1000, size=shape).astype(np.int32)
    check(ap.cumsum(to_device(a_np), axis=-1), np.cumsum(a_np, axis=-1), device, shape[-1])
    f_np = rng.standard_normal(shape).astype(np.float32)
    check(ap.cumsum(to_device(f_np), axis=0), np.cumsum(f_np, axis=0), device, shape[0])


@pytest.mark.parametrize("fn", ["cumsum", "cumprod", "argsort", "nancumsum", "sort"])
@pytest.mark.parametrize("axis", [0, -1, 1, None])
def test_a_0d_array_along_an_axis_is_numpys(device, rng, fn, axis):
    # NumPy takes a 0-d array along axis 0 or -1 as one of shape (1,) in cumsum, cumprod and
    # argsort (not in sort); other axes raise AxisError.
    x_np = np.asarray(random_values(rng, (), np.float32, low=-5, high=5))
    x = to_device(x_np, device)
    try:
        expected = getattr(np, fn)(x_np, axis=axis)
    except np.exceptions.AxisError:
        with pytest.raises(np.exceptions.AxisError):
            getattr(ap, fn)(x, axis=axis)
        return
    assert_exact(getattr(ap, fn)(x, axis=axis), expected)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128], ids=lambda t: np.dtype(t).name)
def test_complex_cumprod_rounds_as_numpy(rng, dt):
    """NumPy's accumulate loop rounds each complex product before the sum (its elementwise
    multiply fuses them): the CPU's running product gives its bits, row by row and along axis 0.
    CUDA's scan runs in another order (compared within a tolerance in test_scan)."""
    x = (rng.uniform(0.5, 1.5, (6, 300)) * np.exp(1j * rng.uniform(-3, 3, (6, 300)))).astype(dt)
    for axis in (1, 0, None):
        got = ap.asnumpy(ap.cumprod(ap.asarray(x, device="cpu"), axis=axis))
        expected = np.cumprod(x, axis=axis)
        assert np.array_equal(got.view(got.real.dtype), expected.view(expected.real.dtype))
