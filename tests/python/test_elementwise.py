"""Every row of the elementwise op table against NumPy 2: every dtype, every layout, special
values and mixed dtypes (corner cases, Python scalars, out= and clip/round are in
test_elementwise_special.py).

The ops come from accelpy._core._elementwise_ops(), so a new row is tested without editing this
file. bfloat16 has no NumPy loops of its own: its reference computes in float32 on the same
values and rounds to bfloat16 (and ml_dtypes' own ufunc is checked too where it has one)."""

import warnings

import numpy as np
import pytest

import accelpy as ap
from helpers import (
    ALL_DTYPES,
    BF16,
    LAYOUTS,
    assert_matches,
    is_bf16,
    make_operands,
    tolerance,
)

OPS = {name: (arity, tuple(dts), result)
       for name, arity, dts, result in ap._core._elementwise_ops()}
BINARY = sorted(n for n, (arity, _, _) in OPS.items() if arity == 2)
# Rows bound with a leading underscore: one result each of a NumPy function returning several.
PARTS = {"_frexp_mantissa": lambda x: np.frexp(x)[0], "_frexp_exponent": lambda x: np.frexp(x)[1]}


def ap_function(name):
    return getattr(ap._core, name) if name in PARTS else getattr(ap, name)


def np_function(name):
    return PARTS[name] if name in PARTS else getattr(np, name)


# Real-valued results computed by the same IEEE operations and algorithms as NumPy's: equal to
# the bit (up to the sign of zero and NaN payloads). Everything else goes through a math
# library (NumPy's SIMD kernels or libm against ours or CUDA's) and gets a few ulps.
EXACT = {
    "abs", "add", "bitwise_and", "bitwise_invert", "bitwise_left_shift", "bitwise_or",
    "bitwise_right_shift", "bitwise_xor", "ceil", "conj", "copysign", "divide", "equal",
    "fabs", "floor", "floor_divide", "fmax", "fmin", "fmod", "greater", "greater_equal",
    "heaviside", "isfinite", "isinf", "isnan", "less", "less_equal", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply", "negative",
    "nextafter", "not_equal", "positive", "reciprocal", "remainder", "rint", "sign", "signbit",
    "square", "subtract", "trunc", *PARTS,
}
# Compositions of library functions (log1p of exp, ...): CUDA's and glibc's differ by an ulp or
# two each, and the composition adds them up.
ULPS = {"deg2rad": 2, "rad2deg": 2, "logaddexp": 16, "logaddexp2": 16}
MATH_ULPS, COMPLEX_MATH_ULPS = 8, 64

# Real inputs where the function is defined (NaN elsewhere would test little); complex inputs
# use the default range, every function being defined there.
DOMAIN = {
    "acos": [(-1, 1)], "asin": [(-1, 1)], "atanh": [(-1, 1)], "acosh": [(1, 10)],
    "log": [(0, 10)], "log2": [(0, 10)], "log10": [(0, 10)], "log1p": [(-1, 10)],
    "sqrt": [(0, 10)], "pow": [(0, 4), (-3, 3)],
}


def operand_kw(name, index, dtype):
    """random_values keywords for operand `index` of op `name`."""
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        if name in ("bitwise_left_shift", "bitwise_right_shift") and index == 1:
            return {"low": -2, "high": dt.itemsize * 8 + 2}  # counts beyond the width too
        if name == "pow" and index == 1:
            return {"low": 0, "high": 12}  # NumPy raises for negative exponents
        if name in ("floor_divide", "remainder", "fmod") and index == 1:
            return {"low": -4, "high": 4}  # zeros and -1 often
        if name == "reciprocal":
            return {"low": -3, "high": 3}
        return {}
    if dt.kind == "b":
        return {}
    kw = {"specials": True}
    if dt.kind != "c" and name in DOMAIN:
        kw["low"], kw["high"] = DOMAIN[name][min(index, len(DOMAIN[name]) - 1)]
    return kw


def reference(name, np_ops):
    """NumPy's result; TypeError where NumPy has no loop. bfloat16 operands compute in float32
    and round to bfloat16, taking dtypes and errors from float16, the type they mirror."""
    fn = np_function(name)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "expm1" and np_ops[0].dtype.kind == "c":
            # The Array API's special values, exp(z) - 1 by C99's: NumPy's formula gives NaN
            # parts (inf * 0) at non-finite z. Finite z keep NumPy's result.
            z = np_ops[0]
            return np.where(np.isfinite(z), fn(z), np.exp(z) - 1).astype(z.dtype)
        if not any(is_bf16(a.dtype) for a in np_ops):
            return fn(*np_ops)
        proxy = fn(*[a.astype(np.float16) if is_bf16(a.dtype) else a for a in np_ops])
        if name == "nextafter":  # the float32 step rounds away; ml_dtypes has the real thing
            return fn(*np_ops)
        out = fn(*[a.astype(np.float32) if is_bf16(a.dtype) else a for a in np_ops])
        return out.astype(BF16) if proxy.dtype == np.float16 else out


# Results that cancel to near zero (logaddexp(-0.5, 0.49) is small while its terms are ~1): the
# error is an ulp of the operands (|x| <= 10 here), not of the result.
CANCELLING = {"logaddexp", "logaddexp2"}


def tolerance_kw(name, dtypes):
    """Comparison keywords for op `name` over operands of `dtypes`."""
    if any(np.dtype(d).kind == "c" for d in dtypes):
        return {"ulps": 4 if name in EXACT else COMPLEX_MATH_ULPS}
    if name in EXACT:
        return {"rtol": 0, "atol": 0}
    kw = {"ulps": ULPS.get(name, MATH_ULPS)}
    if name in CANCELLING:
        widest = max(tolerance(d, kw["ulps"])[0] for d in dtypes)
        kw["atol"] = 10 * widest
    return kw


def complex_pow_condition(x, y):
    """How much x**y (complex) magnifies the error of its parts: it is exp(y * log(x)), and an
    error of an ulp in y * log(x) is one of |y * log(x)| ulps in the result; NumPy's and CUDA's
    each have it, so they may differ by twice that (NumPy 6.3e-15 and CUDA 8.3e-15 from the exact
    (-7.56+2.45j) ** (-6.88-8.11j), where |y * log(x)| is 37: 64.5 ulps apart). Allows 4 ulps
    per unit of |y * log(x)|, at least the 64 of other complex functions."""
    with np.errstate(all="ignore"):
        t = np.abs(np.asarray(y, np.complex128) * np.log(np.asarray(x, np.complex128)))
    t = t[np.isfinite(t)]
    return max(1.0, float(t.max()) / 16) if t.size else 1.0


def check(name, dtypes, layout, device, rng):
    kws = [operand_kw(name, i, dt) for i, dt in enumerate(dtypes)]
    np_ops, ap_ops = make_operands(rng, layout, dtypes, device, per_operand=kws)
    context = f"{name}{tuple(str(np.dtype(d)) for d in dtypes)} layout={layout}"
    try:
        expected = reference(name, np_ops)
    except TypeError:
        with pytest.raises(TypeError):
            ap_function(name)(*ap_ops)
        return
    got = ap_function(name)(*ap_ops)
    kw = tolerance_kw(name, [a.dtype for a in np_ops])
    if name == "pow" and "ulps" in kw and any(a.dtype.kind == "c" for a in np_ops):
        kw["ulps"] *= complex_pow_condition(*np_ops)
    try:
        assert_matches(got, expected, **kw)
        if any(is_bf16(a.dtype) for a in np_ops) and name != "nextafter":
            check_ml_dtypes(name, np_ops, got)
    except AssertionError as e:
        raise AssertionError(f"{context}: {e}") from None


def check_ml_dtypes(name, np_ops, got):
    """ml_dtypes registers some ufuncs for bfloat16; where it does, agree with it too."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            own = np_function(name)(*np_ops)
    except TypeError:
        return
    if own.dtype in (BF16, np.bool_):
        assert_matches(got, own, ulps=4)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("name", sorted(OPS))
def test_op_matches_numpy(name, dtype, device, rng):
    for layout in LAYOUTS:
        check(name, [dtype] * OPS[name][0], layout, device, rng)


MIXED = [
    (np.bool_, np.int16), (np.int8, np.uint8), (np.uint8, np.int16), (np.int32, np.uint32),
    (np.int64, np.uint64), (np.int16, np.float32), (np.uint8, np.float16), (np.int64, np.float64),
    (np.float16, np.float32), (np.float32, np.float64), (np.float32, np.complex64),
    (np.float64, np.complex64), (np.int32, np.complex128), (np.bool_, np.float64),
]


@pytest.mark.parametrize("pair", MIXED, ids=lambda p: f"{np.dtype(p[0])}-{np.dtype(p[1])}")
@pytest.mark.parametrize("name", BINARY)
def test_mixed_dtypes_match_numpy(name, pair, device, rng):
    for layout in ("2d", "broadcast", "0d"):
        check(name, list(pair), layout, device, rng)
        check(name, list(pair[::-1]), layout, device, rng)


def test_table_covers_the_array_api():
    api = {
        "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
        "bitwise_left_shift", "bitwise_invert", "bitwise_or", "bitwise_right_shift",
        "bitwise_xor", "ceil", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp",
        "expm1", "floor", "floor_divide", "greater", "greater_equal", "hypot", "isfinite",
        "isinf", "isnan", "less", "less_equal", "log", "log1p", "log2", "log10", "logaddexp",
        "logical_and", "logical_not", "logical_or", "logical_xor", "maximum", "minimum",
        "multiply", "negative", "nextafter", "not_equal", "positive", "pow", "reciprocal",
        "remainder", "sign", "signbit", "sin", "sinh", "square", "sqrt", "subtract", "tan",
        "tanh", "trunc",
    }
    assert api <= set(OPS)
    for name in api | {"clip", "round", "real", "imag"}:
        assert callable(getattr(ap, name)), name
