"""Integers to negative integer powers raise NumPy's ValueError at the call, whether the
exponent is a scalar or an array; an empty result raises nothing."""

import math
from fractions import Fraction

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, to_device

MESSAGE = "Integers to negative integer powers are not allowed"
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64]


# uint64 with an int64 exponent promotes to float64 (no error in NumPy either).
@pytest.mark.parametrize("dt", INTS[:-1], ids=lambda t: np.dtype(t).name)
def test_negative_array_exponent_raises(rng, device, dt):
    base = rng.integers(1, 5, (4, 3)).astype(dt)
    exp = rng.integers(0, 4, (4, 3)).astype(np.int64)
    exp[2, 1] = -1
    with pytest.raises(ValueError, match=MESSAGE):
        base ** exp
    with pytest.raises(ValueError, match=MESSAGE):
        to_device(base) ** to_device(exp)
    with pytest.raises(ValueError, match=MESSAGE):
        ap.power(to_device(base)[::-1], to_device(exp)[::-1])
    with pytest.raises(ValueError, match=MESSAGE):
        2 ** to_device(exp)  # a Python int base, an array exponent
    with pytest.raises(ValueError, match=MESSAGE):
        to_device(base) ** to_device(exp[2:3, 1:2])  # a broadcast exponent


@pytest.mark.parametrize("dt", INTS, ids=lambda t: np.dtype(t).name)
def test_non_negative_array_exponent_computes(rng, device, dt):
    base = rng.integers(0, 5, (4, 3)).astype(dt)
    exp = rng.integers(0, 4, (4, 3)).astype(np.int8)
    assert_exact(to_device(base) ** to_device(exp), base ** exp)
    # A pending exponent: checked and still computed right.
    e = to_device(exp) - 0
    assert_exact(to_device(base) ** e, base ** exp)


def test_scalar_negative_exponent_raises(device):
    with pytest.raises(ValueError, match=MESSAGE):
        ap.arange(3) ** -1
    with pytest.raises(ValueError, match=MESSAGE):
        ap.arange(3) ** np.int64(-2)


@pytest.mark.parametrize("exponent", [-1, np.int64(-1), "array"])
def test_empty_result_does_not_raise(device, exponent):
    base_np = np.array([], dtype=np.int64)
    exp = np.array([-1], dtype=np.int64) if exponent == "array" else exponent
    expected = base_np ** exp
    got = to_device(base_np) ** (to_device(exp) if exponent == "array" else exp)
    assert_exact(got, expected)
    # An empty exponent array with a non-empty base broadcast to nothing.
    assert_exact(to_device(np.arange(3)[:0]) ** to_device(np.array([-2])),
                 np.arange(3)[:0] ** np.array([-2]))


def test_float_results_are_untouched(device):
    a = np.array([1.0, 2.0, 4.0])
    assert_exact(to_device(a) ** to_device(np.array([-1, -2, 0])), a ** np.array([-1, -2, 0]))


ALL_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("base_dt", ALL_INTS, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("exp_dt", ALL_INTS, ids=lambda t: np.dtype(t).name)
def test_integer_powers_are_numpys_bit_for_bit(device, base_dt, exp_dt):
    """Every pair of integer dtypes: NumPy's result dtype (uint64 ** int64 is float64) and its
    exact values, on every device. Where the pair promotes to a float, the float pow of integers
    is exact in NumPy (glibc rounds correctly); GPU pow is not, so accelpy squares there."""
    top = 100 if np.iinfo(base_dt).max >= 100 else np.iinfo(base_dt).max
    base = np.arange(top + 1, dtype=np.int64)
    base = np.concatenate([base, -base[1:]]) if np.iinfo(base_dt).min < 0 else base
    base = np.repeat(base, 12).astype(base_dt)
    exp = np.tile(np.arange(12), base.size // 12).astype(exp_dt)
    with np.errstate(all="ignore"):
        expected = base ** exp
    if expected.dtype.kind == "f":
        # Promoted to float64, NumPy's value is its libm's pow, which rounds an exact tie
        # between two doubles either way (glibc: 41.0 ** 10 is 13422659310152402, the tie
        # ...401 rounds to even ...400); accelpy returns the power rounded once, on every
        # backend, and NumPy is within an ulp of it.
        exact = exactly_rounded_powers(base, exp)
        assert within_an_ulp(expected, exact)
        expected = exact
    got = to_device(base) ** to_device(exp)
    assert got.dtype == expected.dtype
    assert_exact(got, expected)
    # A Python int exponent keeps the array's dtype (NEP 50).
    with np.errstate(all="ignore"):
        assert_exact(to_device(base) ** 7, base ** 7)


def within_an_ulp(a, b):
    with np.errstate(invalid="ignore"):
        return bool(np.all((a == b) | (np.abs(a - b) <= np.spacing(np.abs(b)))))


def exactly_rounded_powers(base, exp):
    """base ** exp in Python's integers, rounded once to float64 (inf past its range), of the
    base as float64 holds it (the cast comes first, as in NumPy)."""
    def one(b, e):
        b = int(float(b))
        try:
            return float(b ** e)
        except OverflowError:
            return math.copysign(math.inf, b) if e % 2 else math.inf
    pairs = zip(base.tolist(), exp.tolist(), strict=True)
    return np.array([one(b, e) for b, e in pairs], np.float64)


def rounded_once(value, dtype):
    """A Fraction rounded once to `dtype`, ties to even (inf past its range)."""
    guess = np.array(float(value), dtype)  # within an ulp: float() rounds first
    near = [guess, np.nextafter(guess, dtype(np.inf)), np.nextafter(guess, dtype(-np.inf))]
    finite = [c for c in near if np.isfinite(c)]
    if not finite:
        return guess
    def key(c):
        even = int(np.array(c).view(np.uint32 if dtype == np.float32 else np.uint64)) & 1
        return abs(Fraction(float(c)) - value), even
    best = min(finite, key=key)
    top = np.finfo(dtype).max
    half_ulp = Fraction(float(top - np.nextafter(top, dtype(0)))) / 2
    if abs(value) >= Fraction(float(top)) + half_ulp:
        return dtype(math.copysign(math.inf, value))
    return best


def exact_powers(base, exp, dtype):
    """base ** exp (integer-valued, exponents of either sign) of the exact rational power,
    rounded once to `dtype`."""
    def one(b, e):
        b, e = int(b), int(e)
        return rounded_once(Fraction(b) ** e, dtype)
    pairs = zip(base.tolist(), exp.tolist(), strict=True)
    return np.array([one(b, e) for b, e in pairs], dtype)


@pytest.mark.parametrize("pair", [(np.uint64, np.int64), (np.int64, np.uint64)],
                         ids=lambda p: f"{np.dtype(p[0]).name}-{np.dtype(p[1]).name}")
def test_integer_powers_promoted_to_float64_are_rounded_once(device, rng, pair):
    """Past 2^53 (where the squares stop being exact in float64) and up to overflow: the exact
    power rounded once, ties to even, on every backend (CUDA's pow is within 2 ulp, glibc's
    within 0.52); NumPy within an ulp of it."""
    base_dt, exp_dt = pair
    lo = 0 if base_dt == np.uint64 else -(10**6)
    base = np.concatenate([rng.integers(lo, 10**6, 3000), rng.integers(0, 2**62, 500),
                           [3, 41, 63, -3, 0, 1, -1] if lo else [3, 41, 63, 0, 1, 2**63 + 2**40]])
    base = base.astype(base_dt) if lo else np.array(base, dtype=object).astype(base_dt)
    exp = np.concatenate([rng.integers(0, 60, 3500), [34, 10, 9, 35, 2047, 1, 1200]])
    exp = exp[:base.size].astype(exp_dt)
    exact = exactly_rounded_powers(base, exp)
    with np.errstate(all="ignore"):
        expected = base ** exp
    assert expected.dtype == np.float64
    assert within_an_ulp(expected, exact)
    assert_exact(to_device(base) ** to_device(exp), exact)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_float_pow_of_integer_values_is_exact(device, rng, dt):
    """Integer-valued float bases and exponents: the exact power rounded once, past 2^24
    (float32) and 2^53 (float64) too, where NumPy's libm may round a tie either way (glibc's
    powf: 17.0**6 and 29.0**5 go up; CUDA's powf was 1 ulp off at 4.5% of these); NumPy within
    an ulp of it. Fractional operands use pow (within NumPy's ulps elsewhere in the suite)."""
    base = rng.integers(-60, 60, 4000).astype(dt)
    exp = rng.integers(0, 14, 4000).astype(dt)
    base[:4], exp[:4] = [17, 29, -34, 58], [6, 5, 6, 5]  # exact float32 ties
    expected = base ** exp
    exact = exact_powers(base.astype(np.int64), exp.astype(np.int64), dt)
    assert within_an_ulp(expected, exact)
    expected = exact
    assert_exact(to_device(base) ** to_device(exp), expected)
    # IEEE's special cases, which every pow gets exactly.
    specials = np.array([0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf], dt)
    ex = np.array([0.0, 1.0, 2.0, 3.0, 64.0, 65.0, np.nan], dt)
    b, e = np.meshgrid(specials, ex)
    with np.errstate(all="ignore"):
        assert_exact(to_device(b) ** to_device(e), b ** e)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_negative_integer_powers_are_one_over_the_exact_power(device, rng, dt):
    """A negative integer exponent whose positive power float64 holds exactly (below 2^53):
    1 / that power, rounded once (float32 through float64, the remainder deciding a tie), on
    every backend (CUDA's pow gave 4.0**-2.0 = 0.06249999999999999); NumPy within an ulp."""
    base = rng.integers(1, 60, 4000) * rng.choice([-1, 1], 4000)
    exp = -rng.integers(1, 14, 4000)
    base, exp = base.astype(dt), exp.astype(dt)
    base[:3], exp[:3] = [2, 4, 3], [-2, -2, -5]
    expected = base ** exp
    if dt == np.float64:
        # Past 2^53 the power is not exact: pow, within NumPy's ulps.
        small = np.abs(base.astype(np.float64)) ** np.abs(exp.astype(np.float64)) <= 2.0**53
        base, exp, expected = base[small], exp[small], expected[small]
    exact = exact_powers(base.astype(np.int64), exp.astype(np.int64), dt)
    assert within_an_ulp(expected, exact)
    assert_exact(to_device(base) ** to_device(exp), exact)
    assert_exact(to_device(base) ** dt(-2), exact_powers(base.astype(np.int64),
                                                         np.full(base.size, -2), dt))


def test_float32_reciprocal_powers_past_double_precision_are_rounded_once(device, rng):
    """float32 1 / base**n where base**n is past 2^53 (float64 no longer holds it), down into
    float32's subnormals and to zero: still the exact reciprocal rounded once on every backend
    (CUDA's powf is within 2 ulp; the subnormals round at a coarser step)."""
    base = rng.integers(2, 300, 3000) * rng.choice([-1, 1], 3000)
    exp = -rng.integers(7, 40, 3000)
    base[:4], exp[:4] = [7, -7, 3, 2], [-50, -51, -93, -149]
    b32, e32 = base.astype(np.float32), exp.astype(np.float32)
    exact = exact_powers(base, exp, np.float32)
    assert np.count_nonzero((exact != 0) & (np.abs(exact) < np.finfo(np.float32).tiny)) > 0
    with np.errstate(under="ignore"):
        assert within_an_ulp(b32 ** e32, exact)
    assert_exact(to_device(b32) ** to_device(e32), exact)


NVRTC = any(lib["name"] == "nvrtc" and lib["found"] for lib in ap.cuda._c.libraries())
POW_KERNEL = r"""
template <class T>
__device__ void pow_of(const double* a, const double* b, T* out, int i) {
  out[i] = accel::ops::Pow{}(static_cast<T>(a[i]), static_cast<T>(b[i]));
}
extern "C" __global__ void pow_every_type(const double* a, const double* b, float* f,
                                          double* d, int64_t* s, uint64_t* u, uint8_t* c) {
  const int i = threadIdx.x;
  pow_of(a, b, f, i);
  pow_of(a, b, d, i);
  pow_of(a, b, s, i);
  pow_of(a, b, u, i);
  pow_of(a, b, c, i);
}
"""


@pytest.mark.skipif(not NVRTC, reason="NVRTC not found")
def test_pow_functor_compiles_for_the_gpu():
    """The scalar functor the CPU loops and the generated CUDA kernels share: its device build
    (the exact integer path included) compiles with NVRTC for sm_90, without a GPU."""
    from accelpy._kernels import RawModule

    mod = RawModule(code=POW_KERNEL, name="pow_every_type", _with_prelude=True)
    info = mod._m.compile(90)  # NVRTC itself, also where kernels would run on the CPU
    assert info["image_bytes"] > 0
