"""accelpy._math against NumPy: every function over dtypes, layouts (0-d, empty, broadcast,
non-contiguous, negative strides) and devices, special values, and NumPy's errors."""

import numpy as np
import pytest

import accelpy as ap
from helpers import (
    LAYOUTS,
    assert_matches,
    assert_same_outcome,
    make_operands,
    random_values,
    to_device,
    to_numpy,
)

REAL = [np.dtype(t) for t in (np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float16,
                              np.float32, np.float64)]
INTS = [np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                              np.int64, np.uint64)]
FLOATS = [np.dtype(t) for t in (np.float16, np.float32, np.float64)]

# NumPy warns about the overflows and NaNs the special values are there to provoke.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def exact(got, expected):
    """Same dtype, shape and bits (NaN where NumPy has NaN; signs of zeros included)."""
    got = to_numpy(got)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    if expected.dtype.kind == "f":
        finite = ~np.isnan(expected)
        np.testing.assert_array_equal(np.signbit(got[finite]), np.signbit(expected[finite]))


def specials(rng, dtype, n=64):
    """Random values with zeros, -0, infinities, NaN, subnormals and the extremes mixed in."""
    info = np.finfo(dtype)
    base = (rng.standard_normal(n) * rng.choice([1e-3, 1, 1e3], n)).astype(dtype)
    extra = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, info.max, -info.max, info.tiny,
                      info.smallest_subnormal, -info.smallest_subnormal, 1.0, -1.0, 0.5],
                     dtype=dtype)
    out = np.concatenate([base, extra])
    rng.shuffle(out)
    return out


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex64,
                                   np.complex128], ids=str)
def test_angle(device, rng, layout, dtype):
    (a_np,), (a,) = make_operands(rng, layout, [dtype], device)
    assert_matches(ap.angle(a), np.angle(a_np))
    assert_matches(ap.angle(a, deg=True), np.angle(a_np, deg=True), ulps=8)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", REAL, ids=str)
def test_divmod(device, rng, layout, dtype):
    (x_np, y_np), (x, y) = make_operands(rng, layout, [dtype, dtype], device,
                                         per_operand=[{}, {"low": 1, "high": 9}])
    q, r = ap.divmod(x, y)
    eq, er = np.divmod(x_np, y_np)
    assert_matches(q, eq)
    assert_matches(r, er)
    q, r = ap.divmod(x, 3)
    assert_matches(q, np.divmod(x_np, 3)[0])
    assert_matches(r, np.divmod(x_np, 3)[1])


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("fn", ["modf", "frexp", "spacing"])
def test_float_decompositions_exact(device, rng, dtype, fn):
    x_np = specials(rng, dtype)
    x = to_device(x_np, device)
    got, expected = getattr(ap, fn)(x), getattr(np, fn)(x_np)
    if fn == "spacing":
        got, expected = (got,), (expected,)
    for g, e in zip(got, expected, strict=True):
        exact(g, e)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int32, np.float32, np.float64],
                         ids=str)
@pytest.mark.parametrize("fn", ["modf", "frexp", "spacing"])
def test_float_decompositions_layouts(device, rng, layout, dtype, fn):
    (x_np,), (x,) = make_operands(rng, layout, [dtype], device)
    result = assert_same_outcome(lambda: getattr(np, fn)(x_np), lambda: getattr(ap, fn)(x))
    if result is None:
        return
    expected, got = result
    if fn == "spacing":
        got, expected = (got,), (expected,)
    for g, e in zip(got, expected, strict=True):
        exact(g, e)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_ldexp(device, rng, layout, dtype):
    (m_np, e_np), (m, e) = make_operands(rng, layout, [dtype, np.int32], device,
                                         per_operand=[{}, {"low": -30, "high": 30}])
    exact(ap.ldexp(m, e), np.ldexp(m_np, e_np))
    exact(ap.ldexp(m, 3), np.ldexp(m_np, 3))


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_ldexp_extremes(device, rng, dtype):
    info = np.finfo(dtype)
    m_np = specials(rng, dtype, 32)
    span = info.maxexp - info.minexp + info.nmant
    e_np = rng.integers(-span - 40, span + 40, m_np.shape).astype(np.int64)
    e_np[:4] = [info.maxexp + 5, info.minexp - info.nmant - 5, 10**6, -(10**6)]
    with np.errstate(all="ignore"):
        expected = np.ldexp(m_np, e_np)
    got = to_numpy(ap.ldexp(to_device(m_np, device), to_device(e_np, device)))
    np.testing.assert_array_equal(got, expected)
    # Results in the subnormal range, from full-precision mantissas of any magnitude: one
    # rounding, as NumPy's.
    m_np = (rng.uniform(-1, 1, 200) * 2.0 ** rng.integers(-20, 20, 200)).astype(dtype)
    e_np = info.minexp - rng.integers(-2, info.nmant + 25, 200)
    exact(ap.ldexp(to_device(m_np, device), to_device(e_np, device)), np.ldexp(m_np, e_np))
    with pytest.raises(TypeError):
        ap.ldexp(to_device(m_np, device), 1.5)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", INTS, ids=str)
@pytest.mark.parametrize("fn", ["gcd", "lcm"])
def test_gcd_lcm(device, rng, layout, dtype, fn):
    (x_np, y_np), (x, y) = make_operands(rng, layout, [dtype, dtype], device, low=0, high=60,
                                         zeros=0.1)
    if np.dtype(dtype).kind == "i":  # negative operands: NumPy uses |x|
        x_np, x = -x_np, -x
    assert_matches(getattr(ap, fn)(x, y), getattr(np, fn)(x_np, y_np))
    assert_matches(getattr(ap, fn)(x, 12), getattr(np, fn)(x_np, 12))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64], ids=str)
def test_gcd_lcm_extremes(device, dtype):
    info = np.iinfo(dtype)
    x_np = np.array([info.min, info.min, info.min, info.max, 0, info.max], dtype=dtype)
    y_np = np.array([6, 0, info.min, info.max - 1, 0, -3], dtype=dtype)
    x, y = to_device(x_np, device), to_device(y_np, device)
    with np.errstate(all="ignore"):
        assert_matches(ap.gcd(x, y), np.gcd(x_np, y_np))
        assert_matches(ap.lcm(x, y), np.lcm(x_np, y_np))


def test_gcd_errors(device):
    with pytest.raises(TypeError):
        ap.gcd(ap.ones(3), ap.ones(3))
    with pytest.raises(TypeError):
        ap.lcm(ap.arange(3), 1.5)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64], ids=str)
def test_sinc(device, rng, layout, dtype):
    (x_np,), (x,) = make_operands(rng, layout, [dtype], device, zeros=0.2)
    assert_matches(ap.sinc(x), np.sinc(x_np), ulps=16)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.float16, np.float32, np.float64],
                         ids=str)
def test_fix(device, rng, layout, dtype):
    (x_np,), (x,) = make_operands(rng, layout, [dtype], device)
    # numpy.fix is numpy.trunc, dtype included; NumPy 2.5 deprecates fix in trunc's favour.
    exact(ap.fix(x), np.trunc(x_np))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtypes", [(np.float32, np.float32), (np.int32, np.float64),
                                    (np.float32, np.complex64), (np.int64, np.int8)], ids=str)
def test_float_power(device, rng, layout, dtypes):
    (x_np, y_np), (x, y) = make_operands(rng, layout, list(dtypes), device,
                                         per_operand=[{"low": 0.5, "high": 4},
                                                      {"low": -3, "high": 3}])
    x_np, y_np = np.abs(x_np), y_np
    x = ap.abs(x)
    assert_matches(ap.float_power(x, y), np.float_power(x_np, y_np), ulps=8)
    assert_matches(ap.float_power(x, 2), np.float_power(x_np, 2), ulps=8)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128, np.int32], ids=str)
def test_nan_to_num(device, rng, dtype):
    real = specials(rng, np.float64, 20)
    x_np = (real + 1j * rng.permutation(real)).astype(dtype) if np.dtype(dtype).kind == "c" \
        else (rng.integers(-9, 9, 33).astype(dtype) if np.dtype(dtype).kind == "i"
              else real.astype(dtype))
    x = to_device(x_np, device)
    assert_matches(ap.nan_to_num(x), np.nan_to_num(x_np), rtol=0, atol=0)
    kw = {"nan": 7.5, "posinf": 1e4, "neginf": -3.25}
    assert_matches(ap.nan_to_num(x, **kw), np.nan_to_num(x_np, **kw), rtol=0, atol=0)
    assert_matches(ap.nan_to_num(x[::-2]), np.nan_to_num(x_np[::-2]), rtol=0, atol=0)
    for y_np in (x_np[:32].reshape(4, 8), x_np[:32].reshape(4, 8).T, np.asarray(x_np[5])):
        assert_matches(ap.nan_to_num(to_device(y_np, device)), np.nan_to_num(y_np), rtol=0,
                       atol=0)
    fixed = ap.nan_to_num(x)  # always a new array, never x itself
    fixed[...] = 1
    assert_matches(x, x_np, rtol=0, atol=0)
    # Infinite replacements: NumPy's masks are the input's, so a NaN made inf stays inf.
    kw = {"nan": np.inf, "posinf": -np.inf}
    assert_matches(ap.nan_to_num(x, **kw), np.nan_to_num(x_np, **kw), rtol=0, atol=0)
    got, expected = to_numpy(ap.nan_to_num(x)), np.nan_to_num(x_np)
    for part in (np.real, np.imag):  # signs of zeros kept, as NumPy
        np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(expected)))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int64], ids=str)
def test_isposinf_isneginf(device, rng, dtype):
    x_np = specials(rng, np.float64, 20).astype(dtype) if np.dtype(dtype).kind == "f" \
        else rng.integers(-9, 9, 20).astype(dtype)
    x = to_device(x_np, device)
    exact(ap.isposinf(x), np.isposinf(x_np))
    exact(ap.isneginf(x[::-1]), np.isneginf(x_np[::-1]))
    with pytest.raises(TypeError):
        ap.isposinf(ap.asarray([1j]))
    with pytest.raises(TypeError):
        ap.isneginf(ap.asarray([1j]))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64], ids=str)
def test_i0(device, rng, layout, dtype):
    (x_np,), (x,) = make_operands(rng, layout, [dtype], device, low=-30, high=30)
    assert_matches(ap.i0(x), np.i0(x_np), ulps=64)
    with pytest.raises(TypeError):
        ap.i0(ap.asarray([1j]))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float64], ids=str)
def test_real_if_close(device, rng, dtype):
    re = rng.standard_normal(10)
    for imag, tol in [(1e-20, 100), (1e-3, 100), (1e-3, 1e-2), (0.0, 100)]:
        x_np = (re + 1j * imag).astype(dtype) if np.dtype(dtype).kind == "c" else re.astype(dtype)
        assert_matches(ap.real_if_close(to_device(x_np, device), tol=tol),
                       np.real_if_close(x_np, tol=tol), rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float32, np.complex128],
                         ids=str)
def test_sort_complex(device, rng, dtype):
    x_np = random_values(rng, (23,), dtype, low=-5, high=5)
    if np.dtype(dtype).kind == "c":  # ties of real parts ordered by imaginary parts
        x_np = np.round(x_np.real) + 1j * x_np.imag
    assert_matches(ap.sort_complex(to_device(x_np, device)), np.sort_complex(x_np), rtol=0,
                   atol=0)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_bitwise_count(device, rng, layout, dtype):
    (x_np,), (x,) = make_operands(rng, layout, [dtype], device)
    assert_matches(ap.bitwise_count(x), np.bitwise_count(x_np))
    info = np.iinfo(dtype)
    ext = np.array([info.min, info.max, 0, 1], dtype=dtype)
    assert_matches(ap.bitwise_count(to_device(ext, device)), np.bitwise_count(ext))
    with pytest.raises(TypeError):
        ap.bitwise_count(ap.ones(3))


def test_ufunc_keywords_of_the_composed_ufuncs(device):
    # Composed in Python, they are accelpy ufuncs too: out=, where= and casting= as NumPy's.
    x, n = ap.ones(3), np.ones(3)
    out, expected = ap.zeros(3), np.zeros(3)
    assert ap.spacing(x, out=out) is out
    assert_matches(out, np.spacing(n, out=expected))
    mask = np.array([True, False, True])
    assert_matches(ap.gcd(ap.arange(3), 2, out=ap.zeros(3, dtype=np.int64),
                          where=ap.asarray(mask)),
                   np.gcd(np.arange(3), 2, out=np.zeros(3, dtype=np.int64), where=mask))
    assert_matches(ap.ldexp(x, 2, casting="unsafe"), np.ldexp(n, 2, casting="unsafe"))


def test_operands_follow_the_array_device(device, rng):
    """Python scalars and lists meet an array on its device, whatever the default device."""
    k_np = rng.integers(-4, 4, 5)
    x_np = rng.standard_normal(5)
    k, x = to_device(k_np, device), to_device(x_np, device)
    with ap.device("cpu"):
        for got, expected in [(ap.ldexp(1.5, k), np.ldexp(1.5, k_np)),
                              (ap.gcd(k, 6), np.gcd(k_np, 6)),
                              (ap.float_power(2, x), np.float_power(2, x_np)),
                              (ap.polyval([1.0, -2.0, 0.5], x), np.polyval([1.0, -2.0, 0.5], x_np)),
                              (ap.kron([1, 2], x), np.kron([1, 2], x_np)),
                              (ap.polyadd([1.0, 2.0], x), np.polyadd([1.0, 2.0], x_np))]:
            assert got.device == device
            assert_matches(got, expected, ulps=16)
