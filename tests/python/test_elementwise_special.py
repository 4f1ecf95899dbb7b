"""Elementwise corner cases against NumPy 2: values at the ends of the range (overflow,
subnormals, float16 ties, complex extremes), integer cases C leaves undefined, complex special
values and branch cuts (C99 Annex G), Python scalar operands (NEP 50), out= and where, and the
clip/round front-ends. The op table's rows over every dtype and layout are in
test_elementwise.py."""

import warnings

import numpy as np
import pytest
from test_elementwise import reference

import accelpy as ap
from helpers import (
    ALL_DTYPES,
    BF16,
    COMPLEX_DTYPES,
    FLOAT_DTYPES,
    INT_DTYPES,
    LAYOUTS,
    assert_matches,
    is_bf16,
    make_operands,
    random_values,
    to_device,
    to_numpy,
)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=str)
def test_hyperbolic_near_overflow(dtype, device):
    # Finite results just below overflow (sinh(89) = 2.24e38 in float32), which SLEEF's vector
    # sinh and cosh return as infinity; past overflow, infinity.
    big = {np.float32: [88.5, 89.0, 89.4, 89.5], np.float64: [709.5, 710.0, 710.4, 710.5]}[dtype]
    a = np.array([-v for v in big] + big + [1.5, -2.0], dtype)
    x = to_device(a, device)
    with np.errstate(over="ignore"):
        for name in ("sinh", "cosh"):
            assert_matches(getattr(ap, name)(x), getattr(np, name)(a), ulps=8)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=str)
def test_smallest_subnormals(dtype, device):
    # log1p, asinh and tan of the smallest subnormals are x itself (SLEEF's returned 0).
    tiny = np.finfo(dtype).smallest_subnormal
    a = np.array([tiny, -tiny, 3 * tiny, -0.0, 0.0], dtype)
    x = to_device(a, device)
    for name in ("log1p", "arcsinh", "tan", "sin", "expm1", "arctan", "tanh"):
        assert_matches(getattr(ap, name)(x), getattr(np, name)(a), rtol=0, atol=0)


# Complex values at the ends of the range, against NumPy (npymath): each was wrong once.
COMPLEX_EXTREMES = {
    "cosh": [12899.99 + 0j, -60543.5 + 0j, -0.0 + 0j],  # overflowing cosh(x) * 0 gave NaN
    "sinh": [12899.99 + 0j, -60543.5 - 0j],
    "cos": [63383.5j, -5000j],
    "log": [3.4e38 + 3.4e38j, -3e38 + 3e38j],  # |z| past the largest float32
    "log10": [3.4e38 + 3.4e38j],
    "sqrt": [1e-45j, 1e-45 + 1e-45j, -1e-45 - 1e-45j, 3e-39 + 2e-39j],  # subnormal roots
    "arccos": [-1 + 1e-45j, 1 - 1e-45j],  # through sqrt: an infinite imaginary part
    "arccosh": [-1 + 1e-45j],
}


@pytest.mark.parametrize("n", [5, 400])  # NumPy's scalar loop and its vector one
def test_float16_extrema_ties(device, n):
    # NumPy's float16 maximum, minimum, fmax and fmin keep the first operand on ties (+0, -0).
    a = np.resize(np.array([0.0, -0.0, np.nan, 1.0], np.float16), n)
    b = np.resize(np.array([-0.0, 0.0, 0.0, np.nan], np.float16), n)
    for name in ("maximum", "minimum", "fmax", "fmin"):
        got = to_numpy(getattr(ap, name)(to_device(a, device), to_device(b, device)))
        expected = getattr(np, name)(a, b)
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


def test_complex_power_of_infinities(device):
    # NumPy's complex power is the C library's cpow, which recovers infinities in b log a
    # (C99 Annex G); the plain product made 1j ** (inf + inf j) NaN instead of 0.
    v = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan]
    z = np.array([complex(a, b) for a in v for b in v], np.complex128)
    a, b = np.repeat(z, len(z)), np.tile(z, len(z))
    with np.errstate(all="ignore"):
        expected = np.power(a, b)
    got = to_numpy(ap.power(to_device(a, device), to_device(b, device)))
    for part in (np.real, np.imag):
        assert_matches(part(got), part(expected), ulps=16)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=str)
@pytest.mark.parametrize("name", sorted(COMPLEX_EXTREMES))
def test_complex_extremes(name, dtype, device):
    a = np.array(COMPLEX_EXTREMES[name], dtype)
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(a)
    got = to_numpy(getattr(ap, name)(to_device(a, device)))
    for part in (np.real, np.imag):
        assert_matches(part(got), part(expected), ulps=4)
        np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(expected)))


# ---- integer corner cases NumPy defines and C leaves undefined -------------------------------

@pytest.mark.parametrize("dtype", INT_DTYPES, ids=str)
def test_integer_division_corner_cases(dtype, device):
    info = np.iinfo(dtype)
    a = np.array([info.min, info.max, 7, -7 if info.min else 7, 0, info.min], dtype)
    b = np.array([-1 if info.min else 1, 0, 0, 2, 0, 3], dtype)
    x, y = to_device(a, device), to_device(b, device)
    with np.errstate(all="ignore"):
        for name in ("floor_divide", "remainder", "fmod"):
            assert_matches(getattr(ap, name)(x, y), getattr(np, name)(a, b))


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=str)
def test_shift_counts_beyond_the_width(dtype, device):
    bits = np.dtype(dtype).itemsize * 8
    info = np.iinfo(dtype)
    a = np.array([1, info.min, info.max, 5, info.min, 3], dtype)
    counts = [bits, bits + 1, bits - 1, 0, 1, 2 * bits if bits < 64 else 100]
    if info.min:
        counts[4] = -1
    b = np.array(counts, dtype)
    x, y = to_device(a, device), to_device(b, device)
    assert_matches(ap.bitwise_left_shift(x, y), np.left_shift(a, b))
    assert_matches(ap.bitwise_right_shift(x, y), np.right_shift(a, b))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.int64], ids=str)
def test_integer_pow(dtype, device, rng):
    a = random_values(rng, (64,), dtype)
    b = random_values(rng, (64,), dtype, low=0, high=70)
    assert_matches(ap.pow(to_device(a, device), to_device(b, device)), np.power(a, b))
    x = to_device(a, device)
    # NumPy: ValueError for negative exponents; a Python int the dtype cannot hold overflows.
    with pytest.raises(ValueError if np.iinfo(dtype).min else OverflowError):
        ap.pow(x, -1)
    with pytest.raises(ValueError, match="negative integer powers"):
        x ** np.int8(-2)
    with np.errstate(invalid="ignore"):  # negative bases: NaN, as accelpy gives
        expected = np.power(a, 2.5)
    assert_matches(ap.pow(x, 2.5), expected, ulps=8)


def test_integer_pow_negative_exponent_elements(device):
    # NumPy raises at the call, and so does accelpy: the exponent array is checked there
    # (docs/decisions.md D48; tests/python/test_integer_power.py has the rest).
    base = np.array([1, -1, -1, 2, -3, 0], np.int32)
    exp = np.array([-5, -3, -2, -1, -2, -1], np.int32)
    with pytest.raises(ValueError, match="Integers to negative integer powers"):
        base ** exp
    with pytest.raises(ValueError, match="Integers to negative integer powers"):
        ap.pow(to_device(base, device), to_device(exp, device))


@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32, np.float64], ids=str)
def test_float_division_special_values(dtype, device):
    vals = np.array([np.inf, -np.inf, 1, -1, 0, -0.0, 5, np.nan, 7.5, -7.5], np.float64)
    a, b = np.meshgrid(vals, np.array([2, -2, np.inf, -np.inf, 0, -0.0, np.nan, 0.5]))
    a, b = a.astype(dtype), b.astype(dtype)
    x, y = to_device(a, device), to_device(b, device)
    for name in ("floor_divide", "remainder", "fmod", "divide"):
        expected = reference(name, [a, b])
        got = to_numpy(getattr(ap, name)(x, y))
        assert_matches(got, expected, rtol=0, atol=0)
        # Signs of zeros and infinities must match; a NaN's sign bit is the hardware's (x86's
        # default NaN is negative, a GPU's positive) and NumPy leaves it unspecified.
        real = ~np.isnan(expected.astype(np.float32))
        np.testing.assert_array_equal(np.signbit(got.astype(np.float32))[real],
                                      np.signbit(expected.astype(np.float32))[real], err_msg=name)


# ---- complex special values (C99 Annex G) ----------------------------------------------------

COMPLEX_FUNCS = ["sqrt", "exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin",
                 "acos", "atan", "asinh", "acosh", "atanh", "log1p", "expm1", "exp2", "log2",
                 "log10"]


@pytest.mark.parametrize("name", COMPLEX_FUNCS)
def test_complex_special_values(name, device):
    parts = [0.0, -0.0, 0.5, -2.0, np.inf, -np.inf, np.nan]
    z = np.array([complex(r, i) for r in parts for i in parts], np.complex128)
    got = to_numpy(getattr(ap, name)(to_device(z, device)))
    expected = reference(name, [z])
    # Where the standard leaves a sign unspecified libraries differ; compare the class of each
    # part (NaN, infinite, finite) and finite values.
    for part in ("real", "imag"):
        g, e = getattr(got, part), getattr(expected, part)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(e), err_msg=f"{name} {part} NaN: {z}")
        np.testing.assert_array_equal(np.isinf(g), np.isinf(e), err_msg=f"{name} {part} inf: {z}")
        finite = np.isfinite(e)
        np.testing.assert_allclose(g[finite], e[finite], rtol=1e-13, atol=1e-15,
                                   err_msg=f"{name} {part}: {z[finite]}")


@pytest.mark.parametrize("name", ["asin", "acos", "atan", "asinh", "acosh", "atanh", "log",
                                  "sqrt"])
def test_complex_branch_cuts(name, device):
    # Points on and next to the cuts, with both signs of zero: the side follows the zero's sign.
    xs = np.array([-3.0, -1.5, -1.0, -0.5, 0.5, 1.0, 1.5, 3.0])
    zs = [complex(x, s) for x in xs for s in (0.0, -0.0)]
    zs += [complex(s, y) for y in xs for s in (0.0, -0.0)]
    z = np.array(zs, np.complex128)
    got = getattr(ap, name)(to_device(z, device))
    with np.errstate(divide="ignore", invalid="ignore"):  # the poles on the cuts
        e = getattr(np, name)(z)
    assert_matches(got, e, ulps=16)
    g = to_numpy(got)
    np.testing.assert_array_equal(np.signbit(g.imag), np.signbit(e.imag), err_msg=str(z))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=str)
def test_complex_atanh_next_to_its_poles(dtype, device):
    # 1 + tiny i: the squares of the distances to the pole underflow (complex64 gave inf on a GPU,
    # where the Array API suite drew 1 + 4.04e-37j).
    tiny = [4.04e-37, 1e-30, 1e-20, 3e-8] if dtype == np.complex64 else [1e-300, 1e-160, 1e-80]
    z = np.array([complex(r, s * t) for r in (1.0, -1.0) for t in tiny for s in (1, -1)], dtype)
    assert_matches(ap.atanh(to_device(z, device)), np.arctanh(z), ulps=16)
    assert_matches(ap.atan(to_device(1j * z, device)), np.arctan(1j * z), ulps=16)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=str)
def test_complex_past_exp_overflow(dtype, device, rng):
    # Real parts where e^x overflows but e^x cos y or e^x sin y may not (glibc, under NumPy,
    # scales cos y and sin y first); past three thresholds every nonzero part is infinite.
    t = 88 if dtype == np.complex64 else 709
    n = 4000
    x = rng.uniform(t - 5, 3 * t + 30, n) * rng.choice([-1, 1], n)
    z = (x + 1j * rng.uniform(-60, 60, n)).astype(dtype)
    w = (z.imag + 1j * z.real).astype(dtype)  # sin and cos reach sinh and cosh through i z
    with np.errstate(all="ignore"):
        for name, v in [("exp", z), ("exp2", z), ("sinh", z), ("cosh", z), ("sin", w),
                        ("cos", w)]:
            assert_matches(getattr(ap, name)(to_device(v, device)), getattr(np, name)(v),
                           ulps=16)
        # 70000 ** (z / 11): exp(b log a) with Re(b log a) around the thresholds.
        b = (z / 11).astype(dtype)
        assert_matches(ap.pow(70000, to_device(b, device)), np.power(dtype(70000), b), ulps=16)


def test_complex_sign_is_z_over_abs(device):
    z = np.array([3 + 4j, 0j, complex(np.nan, 1), complex(np.inf, 1), complex(1, -np.inf),
                  complex(np.inf, np.inf), -2 + 0j], np.complex128)
    assert_matches(ap.sign(to_device(z, device)), np.sign(z))


# ---- Python scalars (NEP 50) -----------------------------------------------------------------

SCALARS = [1, -3, 1.5, 2j, True, 300, -129, 2**63, 2**64, -2**70, np.float32(2.5), np.int16(7)]


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int64, np.float16, np.float32,
                                   np.complex64], ids=str)
@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "divide", "floor_divide",
                                  "maximum", "less", "equal", "greater_equal", "pow",
                                  "bitwise_and", "atan2", "logical_and", "logical_xor"])
def test_python_scalar_operands(name, dtype, device, rng):
    a = random_values(rng, (6,), dtype, low=1, high=5)
    x = to_device(a, device)
    fn, np_fn = getattr(ap, name), getattr(np, name)
    for s in SCALARS:
        if name == "pow" and a.dtype.kind == "c" and s in (300, -129, 2**63, 2**64, -2**70):
            continue  # |a|^300, (2**63)^a: at complex64's overflow, libraries round differently
        for args, np_args in (((x, s), (a, s)), ((s, x), (s, a))):
            try:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = np_fn(*np_args)
            except (TypeError, OverflowError, ValueError) as e:
                with pytest.raises(type(e) if not isinstance(e, TypeError) else TypeError):
                    fn(*args)
                continue
            kw = {"ulps": 8} if name in ("atan2", "divide", "pow") else {"rtol": 0, "atol": 0}
            if np.asarray(expected).dtype.kind == "c":
                kw = {"ulps": 256 if name == "pow" else 8}  # pow: exp(b log a) amplifies error
            assert_matches(fn(*args), expected, **kw)


# ---- out= and where ----------------------------------------------------------------------

def test_out_keyword(device, rng):
    (a_np, b_np), (a, b) = make_operands(rng, "2d", [np.float32, np.float32], device)
    out = ap.zeros((5, 7), dtype=np.float32)
    res = ap.add(a, b, out=out)
    assert res is out
    assert_matches(out, a_np + b_np, rtol=0, atol=0)
    out64 = ap.zeros((5, 7))
    ap.sin(a, out=(out64,))
    assert_matches(out64, np.sin(a_np).astype(np.float64), rtol=8 * np.finfo(np.float32).eps)
    with pytest.raises(TypeError):
        ap.add(a, b, out=ap.zeros((5, 7), dtype=np.int32))  # same_kind, as NumPy
    with pytest.raises(ValueError):
        ap.add(a, b, out=ap.zeros((5, 8), dtype=np.float32))
    # Writing into an operand is allowed and reads the old values.
    ap.multiply(a, 2.0, out=a)
    assert_matches(a, a_np * np.float32(2.0), rtol=0, atol=0)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_where_matches_numpy(layout, device, rng):
    (c_np, x_np, y_np), (c, x, y) = make_operands(
        rng, layout, [np.bool_, np.int16, np.float32], device)
    assert_matches(ap.where(c, x, y), np.where(c_np, x_np, y_np), rtol=0, atol=0)
    assert_matches(ap.where(c, x, 2.5), np.where(c_np, x_np, 2.5), rtol=0, atol=0)
    assert_matches(ap.where(c, 1, y), np.where(c_np, 1, y_np), rtol=0, atol=0)



@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_where_copies_the_chosen_elements_bits(dtype, device, rng):
    # A random mask over more elements than one block, every element size (1 to 16 bytes): the
    # chosen element's bits exactly, NaNs, infinities and -0.0 included (the CPU blends words).
    n = 3000
    c_np = rng.random(n) < 0.3
    x_np = random_values(rng, (n,), dtype, specials=True)
    y_np = random_values(rng, (n,), dtype, specials=True)
    c, x, y = (to_device(v, device) for v in (c_np, x_np, y_np))
    got = to_numpy(ap.where(c, x, y))
    expected = np.where(c_np, x_np, y_np)
    assert got.dtype == expected.dtype
    assert got.tobytes() == expected.tobytes()
    # Negative strides and a broadcast scalar, as x[mask] = scalar writes them.
    got = to_numpy(ap.where(c[::-1], x[::-1], y[0]))
    expected = np.where(c_np[::-1], x_np[::-1], y_np[0])
    assert got.tobytes() == expected.tobytes()
    x[c] = y[0]
    x_np[c_np] = y_np[0]
    assert to_numpy(x).tobytes() == x_np.tobytes()

def test_fused_chain_matches_numpy(device, rng):
    (a_np, b_np), (a, b) = make_operands(rng, "3d", [np.float64, np.float64], device)
    got = ap.clip(ap.exp(ap.sin(a)) * ap.hypot(a, b), -3, 3) - ap.floor_divide(b, 0.7)
    expected = np.clip(np.exp(np.sin(a_np)) * np.hypot(a_np, b_np), -3, 3) - b_np // 0.7
    # Subtracting a whole number from the clipped part (|.| <= 3) cancels, so its few-ulp error
    # (CUDA's exp, sin and hypot are not NumPy's) is absolute, on the scale of 3, not relative to
    # the difference: one run on the H200 differed by 4.4e-16 at -0.055, 36 ulps of the result.
    assert_matches(got, expected, ulps=16, atol=16 * 4 * np.finfo(np.float64).eps)


def test_numpy_aliases_are_the_same_functions():
    pairs = {"absolute": "abs", "arccos": "acos", "arcsinh": "asinh", "arctan2": "atan2",
             "power": "pow", "mod": "remainder", "invert": "bitwise_invert",
             "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift",
             "true_divide": "divide", "conjugate": "conj", "degrees": "rad2deg",
             "radians": "deg2rad", "around": "round"}
    for alias, name in pairs.items():
        assert getattr(ap, alias) is getattr(ap, name), alias


# ---- clip ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_clip_matches_numpy(dtype, device, rng):
    for layout in LAYOUTS:
        (a, lo, hi), (x, xlo, xhi) = make_operands(
            rng, layout, [dtype] * 3, device, specials=True)
        for args, np_args in (((xlo, xhi), (lo, hi)), ((None, xhi), (None, hi)),
                              ((xlo, None), (lo, None)), ((-5, 5), (-5, 5)),
                              ((None, None), (None, None))):
            context = f"clip {dtype} {layout} {[type(v).__name__ for v in np_args]}"
            try:
                expected = reference_clip(a, *np_args)
            except TypeError:
                with pytest.raises(TypeError):
                    ap.clip(x, *args)
                continue
            try:
                assert_matches(ap.clip(x, *args), expected, rtol=0, atol=0)
            except AssertionError as e:
                raise AssertionError(f"{context}: {e}") from None


def reference_clip(a, lo, hi):
    if is_bf16(a.dtype):
        wide = [v.astype(np.float32) if isinstance(v, np.ndarray) else v for v in (a, lo, hi)]
        return np.clip(*wide).astype(BF16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.clip(a, lo, hi)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.uint64], ids=str)
def test_clip_python_ints_beyond_the_range(dtype, device, rng):
    a = random_values(rng, (20,), dtype)
    x = to_device(a, device)
    for lo, hi in ((-1000, 1000), (-(2**70), 3), (None, 2**64), (-1, None), (0, 2**64 - 1)):
        assert_matches(x.clip(lo, hi), np.clip(a, lo, hi))
    for lo, hi in ((300, None), (None, -(2**65))):
        if lo is not None and lo <= np.iinfo(dtype).max:
            continue
        with pytest.raises(OverflowError):
            np.clip(a, lo, hi)
        with pytest.raises(OverflowError):
            ap.clip(x, lo, hi)


def test_clip_nan_bounds_and_promotion(device):
    a = np.array([1.0, np.nan, 3.0, -0.0, 0.0], np.float32)
    x = to_device(a, device)
    assert_matches(ap.clip(x, np.nan, 2), np.clip(a, np.nan, 2), rtol=0, atol=0)
    assert_matches(ap.clip(x, 0, np.nan), np.clip(a, 0, np.nan), rtol=0, atol=0)
    got = to_numpy(ap.clip(x, 0.0, 1.0))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(np.clip(a, 0.0, 1.0)))
    # The three operands promote together: float32 with a weak float and a float16 array.
    lo = np.array([0.5], np.float16)
    assert_matches(ap.clip(x, to_device(lo, device), 2.5), np.clip(a, lo, 2.5), rtol=0, atol=0)
    i = np.array([1, 5, 9], np.int8)
    assert_matches(ap.clip(to_device(i, device), 1.5, 7), np.clip(i, 1.5, 7), rtol=0, atol=0)
    with pytest.raises(TypeError):
        ap.clip(to_device(np.array([True]), device))


# ---- round ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_round_matches_numpy(dtype, device, rng):
    for layout in ("1d", "noncontig", "0d", "empty"):
        (a,), (x,) = make_operands(rng, layout, [dtype], device, specials=True, low=-300,
                                   high=300)
        for decimals in (0, 1, 2, -1, -2):
            try:
                expected = reference_round(a, decimals)
            except TypeError:
                with pytest.raises(TypeError):
                    ap.round(x, decimals)
                continue
            try:
                assert_matches(ap.round(x, decimals), expected, rtol=0, atol=0)
                assert_matches(x.round(decimals), expected, rtol=0, atol=0)
            except AssertionError as e:
                raise AssertionError(f"round {dtype} {layout} decimals={decimals}: {e}") from None


def reference_round(a, decimals):
    with np.errstate(all="ignore"):
        if is_bf16(a.dtype):
            # NumPy scales, rounds and scales back in the array's dtype, one rounding per step.
            if decimals == 0:
                return np.rint(a.astype(np.float32)).astype(BF16)
            f = BF16.type(10.0 ** abs(decimals)).astype(np.float32)
            x = a.astype(np.float32)
            x = (x * f if decimals > 0 else x / f).astype(BF16).astype(np.float32)
            x = np.rint(x)
            return (x / f if decimals > 0 else x * f).astype(BF16)
        return np.round(a, decimals)


def test_round_half_to_even_and_integers(device):
    a = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 1234.5], np.float64)
    x = to_device(a, device)
    assert_matches(ap.round(x), np.round(a), rtol=0, atol=0)
    assert_matches(ap.round(x, 2), np.round(a, 2), rtol=0, atol=0)
    i = np.array([15, 25, -15, 127, -128], np.int8)
    assert_matches(ap.round(to_device(i, device), -1), np.round(i, -1))
    r = ap.round(to_device(i, device))
    assert r.dtype == np.int8
    c = np.array([1.25 + 2.35j, complex(np.inf, 2.345), complex(np.nan, -1.55)])
    assert_matches(ap.round(to_device(c, device), 1), np.round(c, 1), rtol=0, atol=0)


def test_methods(device, rng):
    a = random_values(rng, (4, 3), np.complex64)
    x = to_device(a, device)
    assert_matches(x.conj(), a.conj(), rtol=0, atol=0)
    assert_matches(x.conjugate(), a.conjugate(), rtol=0, atol=0)
    f = random_values(rng, (4, 3), np.float64)
    y = to_device(f, device)
    assert_matches(y.clip(-1, 1), f.clip(-1, 1), rtol=0, atol=0)
    assert_matches(y.clip(max=0.5), f.clip(max=0.5), rtol=0, atol=0)
    assert_matches(y.round(1), f.round(1), rtol=0, atol=0)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES, ids=str)
def test_results_do_not_alias_inputs(dtype, device, rng):
    # A fresh result, never the input compared with itself.
    a = random_values(rng, (8,), dtype, low=1, high=2)
    x = to_device(a, device)
    y = ap.negative(x)
    assert y._storage_id() != x._storage_id()
    assert_matches(y, -a, rtol=0, atol=0)
