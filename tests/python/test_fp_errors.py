"""Floating-point error handling of accelpy's own arithmetic: numpy.geterr()'s modes applied to
the IEEE flags an evaluation raised, with NumPy's texts, compared with NumPy's warnings for the
same operations on fresh random data (one bad element among ordinary ones, placed where the
thread pool's last worker computes it). The CPU reports; GPU kernels report nothing
(docs/user-guide.md, "Floating-point errors")."""

import io
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches

N = 1 << 16  # large enough to be split over the thread pool's workers



@pytest.fixture(autouse=True)
def _on_the_cpu(request):
    """The GPU reports no floating-point errors (user guide): tests that are not parametrized
    over devices run on the CPU whatever the default device is."""
    if "device" in request.fixturenames:
        yield
        return
    with ap.device("cpu"):
        yield

def _messages(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught if w.category is RuntimeWarning]


def _floats(rng, dtype, bad):
    x = rng.uniform(0.5, 2.0, N).astype(dtype)
    x[-1] = bad
    return x


def _big_pair(rng, dtype, bad):
    x = _floats(rng, dtype, bad)
    x[-2] = bad  # the running result overflows at the last element
    return x


def _ints(rng, dtype):
    x = rng.integers(1, 100, N).astype(dtype)
    x[-1] = 0
    return x


KIND_ORDER = ["divide by zero", "overflow", "underflow", "invalid value"]

# (name, make the operands from rng, the operation over a module): one per class of error.
CASES = [
    ("float divide by zero", lambda r: (_floats(r, np.float64, 0.0),), lambda m, x: 1.0 / x),
    ("0/0", lambda r: (_floats(r, np.float32, 0.0),), lambda m, x: (x - x) / (x - x)),
    ("overflow in exp", lambda r: (_floats(r, np.float64, 1000.0),), lambda m, x: m.exp(x)),
    ("overflow in multiply", lambda r: (_floats(r, np.float32, 1e30),), lambda m, x: x * x),
    ("int // 0", lambda r: (_ints(r, np.int64),), lambda m, x: 7 // x),
    ("int % 0", lambda r: (_ints(r, np.int32),), lambda m, x: 7 % x),
    ("int fmod 0", lambda r: (_ints(r, np.uint8),), lambda m, x: m.fmod(m.uint8(7), x)),
    ("sqrt(-1)", lambda r: (_floats(r, np.float64, -1.0),), lambda m, x: m.sqrt(x)),
    ("log(0)", lambda r: (_floats(r, np.float32, 0.0),), lambda m, x: m.log(x)),
    ("log(-1)", lambda r: (_floats(r, np.float64, -1.0),), lambda m, x: m.log10(x)),
    ("arcsin(2)", lambda r: (_floats(r, np.float64, 2.0),), lambda m, x: m.arcsin(x)),
    ("power(0, -1)", lambda r: (_floats(r, np.float64, 0.0),), lambda m, x: m.power(x, -1.0)),
    ("cast nan to int", lambda r: (_floats(r, np.float64, np.nan),),
     lambda m, x: x.astype(m.int32)),
    ("cast overflow", lambda r: (_floats(r, np.float64, 1e300),), lambda m, x: x.astype(m.float32)),
    ("sum overflow", lambda r: (_floats(r, np.float64, 1.7e308),), lambda m, x: m.sum(x + x)),
    ("sum inf - inf", lambda r: (_floats(r, np.float64, np.inf),),
     lambda m, x: m.sum(m.concatenate([x, -x]))),
    # float16 arithmetic rounds each result to float16, which overflows to inf past 65504
    ("float16 add overflow", lambda r: (_floats(r, np.float16, 60000.0),), lambda m, x: x + x),
    ("cast to float16 overflow", lambda r: (_floats(r, np.float32, 1e5),),
     lambda m, x: x.astype(m.float16)),
    ("cast float64 to float16 overflow", lambda r: (_floats(r, np.float64, -7e4),),
     lambda m, x: x.astype(m.float16)),
    ("float16 sum overflow", lambda r: (_floats(r, np.float16, 1.0),), lambda m, x: m.sum(x)),
    # scans (NumPy's accumulate): a running float16 sum stays near 4096 until the last element
    ("float16 cumsum overflow", lambda r: (_floats(r, np.float16, 65000.0),),
     lambda m, x: m.cumsum(x)),
    ("float16 cumprod overflow", lambda r: (r.uniform(250.0, 300.0, 5).astype(np.float16),),
     lambda m, x: m.cumprod(x)),
    ("float32 cumsum overflow", lambda r: (_big_pair(r, np.float32, 3e38),),
     lambda m, x: m.cumsum(x)),
    ("float64 cumprod overflow", lambda r: (_big_pair(r, np.float64, 1e200),),
     lambda m, x: m.cumprod(x)),
    ("cumsum inf - inf", lambda r: (_floats(r, np.float64, np.inf),),
     lambda m, x: m.cumsum(m.concatenate([x, -x]))),
    ("cumprod inf * 0", lambda r: (np.array([r.uniform(0.5, 2.0), np.inf, 0.0], np.float32),),
     lambda m, x: m.cumprod(x)),
    ("float16 cumsum along axis 0", lambda r: (_floats(r, np.float16, 65000.0).reshape(-1, 8),),
     lambda m, x: m.cumsum(x, axis=0)),
]


@pytest.mark.parametrize("name,make,op", CASES, ids=[c[0] for c in CASES])
def test_warnings_are_numpys(device, rng, name, make, op):
    args = make(rng)
    expected = _messages(lambda: op(np, *args))
    assert expected, "the case must make NumPy warn"
    inputs = [ap.asarray(a) for a in args]
    got = _messages(lambda: ap.asnumpy(op(ap, *inputs)))
    assert got == (expected if device.type == "cpu" else [])


@pytest.mark.parametrize("name,make,op", CASES, ids=[c[0] for c in CASES])
def test_raise_mode_raises_floating_point_error(device, rng, name, make, op):
    args = make(rng)
    with np.errstate(all="raise", under="ignore"):
        with pytest.raises(FloatingPointError) as expected:
            op(np, *args)
        inputs = [ap.asarray(a) for a in args]
        if device.type != "cpu":
            ap.asnumpy(op(ap, *inputs))
            return
        with pytest.raises(FloatingPointError) as got:
            ap.asnumpy(op(ap, *inputs))
    assert str(got.value) == str(expected.value)


def test_fused_chain_names_the_operation_that_raised(rng):
    x = _floats(rng, np.float64, 1000.0)
    a = ap.asarray(x)
    expected = _messages(lambda: np.exp(x * 2.0) + 1.0)
    got = _messages(lambda: ap.asnumpy(ap.exp(a * 2.0) + 1.0))
    assert got == expected == ["overflow encountered in exp"]
    x[-1] = 2.0
    a = ap.asarray(x)
    expected = _messages(lambda: np.arcsin(x * 2.0) - x)
    got = _messages(lambda: ap.asnumpy(ap.arcsin(a * 2.0) - a))
    assert got == expected == ["invalid value encountered in arcsin"]


def test_fused_reduction_reports_reduce(rng):
    # A reduction fused after the elementwise steps reports its own overflow as NumPy's "reduce".
    y = _floats(rng, np.float64, 1.5e308)
    y[-2] = 1.5e308
    expected = _messages(lambda: np.sum(y + 1.0))
    got = _messages(lambda: ap.asnumpy(ap.sum(ap.asarray(y) + 1.0)))
    assert got == expected == ["overflow encountered in reduce"]


def test_integer_floor_divide_overflow(rng):
    x = rng.integers(-100, 100, N).astype(np.int8)
    x[-1] = -128
    expected = _messages(lambda: x // np.int8(-1))
    got = _messages(lambda: ap.asnumpy(ap.asarray(x) // ap.int8(-1)))
    assert got == expected == ["overflow encountered in floor_divide"]


def test_each_kind_is_reported_once_per_evaluation(rng):
    x = _floats(rng, np.float64, 0.0)
    x[:10] = 0.0
    a = ap.asarray(x.copy())  # unshared: lazy until eval
    got = _messages(lambda: ap.eval((1.0 / a) * 2.0, a / 0.0))
    assert got == ["divide by zero encountered in divide", "invalid value encountered in divide"]


def test_nothing_is_reported_for_ordinary_values(device, rng):
    """SLEEF's vector routines and the loops raise no flag NumPy would not: every
    transcendental over values in its domain, under 'raise' for every error."""
    x = rng.uniform(0.1, 0.9, N)
    big = rng.uniform(-50.0, 50.0, N)
    fns = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
           "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arctanh", "sqrt",
           "cbrt", "square", "reciprocal", "rint", "floor", "deg2rad"]
    with np.errstate(all="raise"):
        for dtype in (np.float32, np.float64):
            xs, a = x.astype(dtype), ap.asarray(x.astype(dtype))
            for fn in fns:
                getattr(np, fn)(xs)
                ap.asnumpy(getattr(ap, fn)(a))
            ap.asnumpy(ap.power(a, 1.7) + ap.arctan2(a, a + 1) + ap.hypot(a, a))
            ap.asnumpy(ap.arccosh(a + 1.5) + ap.logaddexp(a, a) + ap.tanh(ap.asarray(big)))
            ap.asnumpy(ap.sum(a) + ap.mean(a) + ap.std(a) + ap.prod(a[:50]))
        for dtype in (np.int8, np.int32, np.uint64):
            i = ap.asarray(rng.integers(1, 100, N).astype(dtype))
            ap.asnumpy(i // 3 + i % 5 + ap.fmod(i, 7) + i * i)


def test_nan_comparisons_and_extrema_report_nothing(device, rng):
    x = rng.standard_normal(N)
    x[::7] = np.nan
    a = ap.asarray(x)
    with np.errstate(all="raise"):
        expected = [np.asarray(v) for v in (x < 0, np.maximum(x, 0), np.fmin(x, 0),
                                            np.sign(x), np.floor(x), np.isnan(x))]
        got = [ap.asnumpy(v) for v in (a < 0, ap.maximum(a, 0), ap.fmin(a, 0),
                                       ap.sign(a), ap.floor(a), ap.isnan(a))]
        # NaN operands of floor_divide, remainder and power raise nothing (NumPy compares quietly)
        for op in (np.floor_divide, np.remainder, np.power):
            got_op = ap.asnumpy(getattr(ap, op.__name__)(ap.abs(a), 1.5))
            # floor_divide and remainder are exact. pow is not: the CPU backend calls the C
            # library's, NumPy on an AVX-512 host its own SIMD pow (within an ulp of it), and
            # CUDA's is within 2 ulp of the C library's (the GPU raises no flag either way)
            ulps = 0 if op is not np.power else 1 if device.type == "cpu" else 2
            assert_matches(got_op, op(np.abs(x), 1.5), rtol=ulps * 2.3e-16, atol=0)
        # fused: comparisons next to arithmetic on the NaNs
        fused = ap.asnumpy(ap.where(a > 0, a * 2.0, ap.minimum(a, 1.0)))
        np.testing.assert_array_equal(fused, np.where(x > 0, x * 2.0, np.minimum(x, 1.0)))
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(g, e)


def test_max_of_nans_reports_nothing(rng):
    x = rng.standard_normal(N)
    x[::7] = np.nan
    with np.errstate(all="raise"):
        assert np.isnan(ap.asnumpy(ap.max(ap.asarray(x))))


def test_errstate_applies_when_lazy_work_is_evaluated(rng):
    """Work is deferred: an error is reported when the result is evaluated, under the settings
    in force then."""
    x = _floats(rng, np.float64, 0.0)
    a = ap.asarray(x.copy())  # unshared: its consumers stay lazy
    with np.errstate(divide="ignore"):
        y = 1.0 / a  # not evaluated yet
    with pytest.warns(RuntimeWarning, match="divide by zero encountered in divide"):
        ap.eval(y)
    with ap.errstate(divide="ignore"):
        assert _messages(lambda: ap.asnumpy(1.0 / a)) == []
    z = 1.0 / a
    with ap.errstate(divide="raise"), pytest.raises(FloatingPointError):
        ap.eval(z)
    # the result is computed all the same
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(ap.asnumpy(z), 1.0 / x)


def test_call_log_print_and_ignore_modes(rng, capsys):
    x = _floats(rng, np.float64, 0.0)
    x[0] = 0.0
    x[1] = 1e308
    a = ap.asarray(x.copy())  # unshared: one evaluation, as the expected calls assume
    calls = []
    with ap.errstate(all="call", call=lambda kind, flags: calls.append((kind, flags))):
        ap.eval(ap.where(a == 0, a / a, a * 10.0) + 1.0 / a)
    np_calls = []
    with np.errstate(all="call", call=lambda kind, flags: np_calls.append((kind, flags))):
        np.where(x == 0, x / x, x * 10.0) + 1.0 / x
    # NumPy calls once per operation with that operation's flags; accelpy once per kind per
    # evaluation, with the evaluation's flags.
    assert [kind for kind, _ in calls] == sorted({k for k, _ in np_calls}, key=KIND_ORDER.index)
    assert {flags for _, flags in calls} == {sum(1 << KIND_ORDER.index(k) for k, _ in calls)}

    log = io.StringIO()
    with ap.errstate(divide="log", call=log):
        ap.eval(1.0 / a)
    assert log.getvalue() == "Warning: divide by zero encountered in divide\n"

    with ap.errstate(all="print"):
        ap.eval(1.0 / a)
    assert "Warning: divide by zero encountered in divide" in capsys.readouterr().err

    with ap.errstate(all="ignore"):
        assert _messages(lambda: ap.eval(1.0 / a, ap.exp(a * 1e10))) == []

    old = ap.seterrcall(None)
    try:
        with ap.errstate(all="call"), pytest.raises(NameError, match="python callback"):
            ap.eval(1.0 / a)
        with ap.errstate(all="log"), pytest.raises(NameError, match="log specified"):
            ap.eval(1.0 / a)
    finally:
        ap.seterrcall(old)


def test_settings_are_numpys():
    assert ap.geterr() == np.geterr() == {
        "divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
    old = ap.seterr(all="raise")
    try:
        assert old == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
        assert np.geterr()["over"] == "raise"
    finally:
        assert ap.seterr(**old) == {k: "raise" for k in old}
    assert ap.geterrcall() is None
    with pytest.raises(ValueError):
        ap.seterr(divide="loudly")
    with pytest.raises(TypeError):
        ap.seterrcall(42)


def test_warnings_filter_set_to_error_raises_and_leaves_no_leak():
    code = (
        "import warnings, accelpy as ap\n"
        "warnings.simplefilter('error')\n"
        "try:\n"
        "    ap.eval(1.0 / ap.zeros(3))\n"
        "except RuntimeWarning as e:\n"
        "    print('caught', e)\n"
    )
    env = dict(os.environ, ACCELPY_DEFAULT_DEVICE="cpu")  # the GPU reports no flags
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "caught divide by zero encountered in divide"
    assert "leaked" not in out.stderr


def test_integer_division_sources_compile_with_nvrtc():
    """The integer division loops raise their flag through host-only code: the generated CUDA
    programs (which embed the same functors) must still compile."""
    libs = ap.cuda._c.libraries()
    if not any(lib["name"] == "nvrtc" and lib["found"] for lib in libs):
        pytest.skip("NVRTC not found")
    from accelpy._kernels import RawModule

    code = r"""
template <class T>
__device__ void divide_of(const T* a, const T* b, T* out, int i) {
  out[i] = accel::ops::FloorDivide{}(a[i], b[i]) + accel::ops::Remainder{}(a[i], b[i]) +
           accel::ops::Fmod{}(a[i], b[i]);
}
extern "C" __global__ void int_division(const int8_t* a, const int8_t* b, int8_t* c,
                                        const int64_t* d, const int64_t* e, int64_t* f,
                                        const uint32_t* g, const uint32_t* h, uint32_t* k) {
  const int i = threadIdx.x;
  divide_of(a, b, c, i);
  divide_of(d, e, f, i);
  divide_of(g, h, k, i);
}
"""
    mod = RawModule(code=code, name="int_division", _with_prelude=True)
    assert mod._m.compile(90)["image_bytes"] > 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_huge_arguments_of_arcsinh_and_arccosh_do_not_overflow(device, rng, dtype):
    """SLEEF's asinh and acosh square their argument: past sqrt(max) they returned infinity
    (and the overflow flag gave them away); the results are finite, as NumPy's."""
    top = 3e38 if dtype == np.float32 else 1.7e308
    x = (10.0 ** rng.uniform(15, np.log10(top), 4096)).astype(dtype)
    x[::2] *= -1
    a = ap.asarray(x)
    with np.errstate(over="raise", invalid="ignore"):
        asinh = ap.asnumpy(ap.arcsinh(a))
        acosh = ap.asnumpy(ap.arccosh(ap.abs(a)))
    np.testing.assert_allclose(asinh, np.arcsinh(x), rtol=4 * np.finfo(dtype).eps)
    np.testing.assert_allclose(acosh, np.arccosh(np.abs(x)), rtol=4 * np.finfo(dtype).eps)


# Axis 0 of a C-order matrix keeps the innermost iterated axis: NumPy adds in float16 one row at
# a time (accelpy's scan, reported as "reduce").
@pytest.mark.parametrize("shape,axis", [((10,), None), ((3, 50), 1), ((4, 3000), None),
                                        ((5, 700), 1), ((700, 5), 1), ((3, 50), 0),
                                        ((5, 700), 0), ((3, 4, 5), (0, 2))])
def test_float16_sum_that_overflows_is_numpys(rng, shape, axis):
    # The float sum of every row passes float16's largest value (65504): NumPy's result is inf,
    # with its warning, raised under errstate(over='raise') and silent under 'ignore'.
    x = rng.uniform(60000.0, 65000.0, shape).astype(np.float16)
    x.reshape(-1)[rng.integers(x.size)] = rng.uniform(0.5, 2.0)
    a = ap.asarray(x)
    expected = _messages(lambda: np.sum(x, axis=axis))
    assert expected == ["overflow encountered in reduce"]
    got = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = ap.asnumpy(ap.sum(a, axis=axis))
        got = [str(w.message) for w in caught if w.category is RuntimeWarning]
    assert got == expected
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(result, np.sum(x, axis=axis))
    assert result.dtype == np.float16
    with np.errstate(over="raise"):
        with pytest.raises(FloatingPointError, match="overflow encountered in reduce"):
            ap.asnumpy(ap.sum(a, axis=axis))
    with np.errstate(over="ignore"):
        assert _messages(lambda: ap.asnumpy(ap.sum(a, axis=axis))) == []


def test_float16_sum_within_range_does_not_warn(rng):
    x = rng.uniform(0.5, 2.0, 1000).astype(np.float16)
    with np.errstate(all="raise"):
        np.testing.assert_array_equal(ap.asnumpy(ap.sum(ap.asarray(x))), np.sum(x))


@pytest.mark.parametrize("src", [np.float16, np.float32, np.float64])
def test_float16_underflow_is_numpys(rng, src):
    # A result too small for float16 that loses bits underflows (NumPy's conversions say so);
    # an exact subnormal does not.
    x = rng.uniform(0.5, 2.0, 100).astype(src)
    x[-1] = 1e-6
    if src == np.float16:
        def fn(m, v):
            return v * v
    else:
        def fn(m, v):
            return v.astype(m.float16)
    with np.errstate(under="raise"):
        with pytest.raises(FloatingPointError) as expected:
            fn(np, x)
        with pytest.raises(FloatingPointError) as got:
            ap.asnumpy(fn(ap, ap.asarray(x)))
    assert str(got.value) == str(expected.value)
    exact = np.full(4, 2.0**-24, src)
    with np.errstate(under="raise"):
        np.testing.assert_array_equal(ap.asnumpy(ap.asarray(exact).astype(ap.float16)),
                                      exact.astype(np.float16))


# A Python number cast to the operation's dtype at the call (host work, reported on every
# device), and numbers that fit or are not finite (no report).
NUMBER_CASTS = [
    ("float16 + 1e6", np.float16, lambda m, x: x + 1e6, True),
    ("float16 < 2**69", np.float16, lambda m, x: x < 2**69, True),
    ("float32 * 2**200", np.float32, lambda m, x: x * 2**200, True),
    ("complex64 - 1e300j", np.complex64, lambda m, x: x - 1e300j, True),
    ("full float16 1e5", np.float16, lambda m, x: m.full(3, -1e5, dtype=m.float16), True),
    ("setitem float16 1e6", np.float16, lambda m, x: x.__setitem__(0, 1e6), True),
    ("fill float16 1e6", np.float16, lambda m, x: x.fill(1e6), True),
    ("float16 + 6e4", np.float16, lambda m, x: x + 6e4, False),
    ("float16 + inf", np.float16, lambda m, x: x + float("inf"), False),
    ("float16 * 1e-10", np.float16, lambda m, x: x * 1e-10, False),
    ("float16 + float64 scalar", np.float16, lambda m, x: x + np.float64(1e6), False),
    ("float64 + 1e300", np.float64, lambda m, x: x + 1e300, False),
]


@pytest.mark.parametrize("name,dtype,op,reports", NUMBER_CASTS, ids=[c[0] for c in NUMBER_CASTS])
def test_python_number_cast_overflow_is_numpys(device, rng, name, dtype, op, reports):
    x = rng.uniform(0.5, 2.0, 10).astype(dtype)
    expected = _messages(lambda: op(np, x.copy()))
    assert bool(expected) == reports
    def run_accelpy():
        result = op(ap, ap.asarray(x))
        if result is not None:  # (setitem and fill write in place)
            ap.asnumpy(result)

    assert _messages(run_accelpy) == expected
    if reports:
        with np.errstate(over="raise"):
            with pytest.raises(FloatingPointError) as expected_error:
                op(np, x.copy())
            with pytest.raises(FloatingPointError) as got_error:
                run_accelpy()
        assert str(got_error.value) == str(expected_error.value)
        with np.errstate(over="ignore"):
            assert _messages(run_accelpy) == []
