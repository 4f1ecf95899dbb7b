"""Mathematical functions composed in Python (NumPy's reference: "Mathematical functions"),
elementwise: angle, divmod, modf, frexp, ldexp, gcd, lcm, sinc, fix, float_power, nan_to_num,
spacing, real_if_close, bitwise_count, unwrap; the core's elementwise table, sums, products and
cumulative sums are re-exported here. Sums, products, differences and the miscellaneous
functions composed in Python are in _calculus.

Result dtypes are NumPy's own type resolution, asked of the ufunc on empty operands (no array
data leaves the device)."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._calculus import diff

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._core import (  # noqa: F401
    cumprod,
    cumsum,
    cumulative_prod,
    cumulative_sum,
    i0,
    imag,
    ndarray,
    prod,
    real,
    round,
    sum,
)
from ._creation import asarray, empty_like, full_like, zeros_like
from ._dtypes import promoted_dtype
from ._ufunc import make as make_ufunc
from ._util import (
    PY_SCALARS,
    along_axis,
    check_ufunc_options,
    is_complex_dtype,
    is_float_dtype,
    normalize_axis,
)

if TYPE_CHECKING:
    from ._core import ArrayLike


def clip(x: ArrayLike, /, min: ArrayLike | None = None, max: ArrayLike | None = None, *,
         out: ndarray | None = None) -> ndarray:
    """Limits the values of x to [min, max] (numpy.clip, NumPy 2; the Array API's clip): either
    bound may be None; NaN bounds propagate; Python ints beyond an integer array's range on
    their side are ignored. A Python function so that its signature can be inspected."""
    return _core.clip(x, min, max, out=out)


__all__ = [
    "angle", "bitwise_count", "divmod", "fix", "float_power", "frexp", "gcd", "lcm", "ldexp",
    "modf", "nan_to_num", "real_if_close", "sinc", "spacing", "unwrap", "add", "subtract",
    "multiply", "divide", "floor_divide", "remainder", "fmod", "pow", "negative", "positive", "abs",
    "square", "reciprocal", "sign", "conj", "maximum", "minimum", "fmax", "fmin", "floor", "ceil",
    "trunc", "rint", "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin",
    "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fabs",
    "i0", "deg2rad", "rad2deg", "copysign", "nextafter", "hypot", "atan2", "logaddexp",
    "logaddexp2", "heaviside", "clip", "round", "sum", "prod", "cumsum", "cumprod",
    "cumulative_sum", "cumulative_prod", "real", "imag", "signbit", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_invert", "bitwise_left_shift", "bitwise_right_shift", "absolute",
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "power", "conjugate",
    "invert", "left_shift", "right_shift", "degrees", "radians", "bitwise_not", "true_divide",
    "mod",
]


def _operand(x):
    return x if isinstance(x, PY_SCALARS) else asarray(x)


def _probe(x):
    # Python scalars stay weak (NEP 50), as NumPy resolves them.
    return x if isinstance(x, PY_SCALARS) else np.empty(0, x.dtype)


def _resolved(ufunc, *operands):
    """The output dtypes NumPy's `ufunc` gives these operands (TypeError where it has no loop)."""
    out = ufunc(*(_probe(x) for x in operands))
    return tuple(o.dtype for o in out) if isinstance(out, tuple) else (out.dtype,)


def _as(x, dtype, *others):
    """x as an array of dtype; a Python scalar goes to the device of the array among `others`
    (the default device when there is none)."""
    if isinstance(x, PY_SCALARS):
        device = next((o.device for o in others if isinstance(o, _core.ndarray)), None)
        return asarray(x, dtype=dtype, device=device)
    return x.astype(dtype) if x.dtype != dtype else x


def angle(z: ArrayLike, deg: bool = False) -> ndarray:
    """The counterclockwise angle from the positive real axis, in radians (degrees with
    ``deg``) (numpy.angle)."""
    z = asarray(z)
    if is_complex_dtype(z.dtype):
        a = _core.atan2(_core.imag(z), _core.real(z))
    else:
        a = _core.atan2(zeros_like(z, dtype=_resolved(np.arctan2, 0, z)[0]), z)
    return a * (180 / np.pi) if deg else a


def _divmod(x1: ArrayLike, x2: ArrayLike, /, out: Any = (None, None), *, where: Any = True,
           **kwargs: Any) -> tuple[ndarray, ndarray]:
    """(floor_divide(x1, x2), remainder(x1, x2)) in one call (numpy.divmod)."""
    check_ufunc_options("divmod", out, where, **kwargs)
    x1, x2 = _operand(x1), _operand(x2)
    _resolved(np.divmod, x1, x2)
    return _core.floor_divide(x1, x2), _core.remainder(x1, x2)


def _modf(x: ArrayLike, /, out: Any = (None, None), *, where: Any = True,
         **kwargs: Any) -> tuple[ndarray, ndarray]:
    """The fractional and integral parts, both with x's sign (numpy.modf)."""
    check_ufunc_options("modf", out, where, **kwargs)
    x = asarray(x)
    x = _as(x, _resolved(np.modf, x)[0])
    whole = _core.trunc(x)
    frac = _core.copysign(_core.where(_core.isinf(x), 0, x - whole), x)
    return frac, whole


def _pow2(k, dtype):
    """2**k for integral k in dtype's normal exponent range, built from its bits (biased
    exponent, zero mantissa): exact on every device, where exp2 need not be."""
    info = np.finfo(dtype)
    bits = np.dtype(f"i{np.dtype(dtype).itemsize}")
    return ((k.astype(bits) + (info.maxexp - 1)) << info.nmant).view(dtype)


def _frexp_parts(x):
    """(m, e) of float x: the two op-table rows, which one fused kernel computes together."""
    return _core._frexp_mantissa(x), _core._frexp_exponent(x)


def _frexp(x: ArrayLike, /, out: Any = (None, None), *, where: Any = True,
          **kwargs: Any) -> tuple[ndarray, ndarray]:
    """Mantissa in [0.5, 1) and int32 exponent with x == mantissa * 2**exponent
    (numpy.frexp); zeros, infinities and NaNs keep exponent 0."""
    check_ufunc_options("frexp", out, where, **kwargs)
    x = asarray(x)
    return _frexp_parts(_as(x, _resolved(np.frexp, x)[0]))  # NumPy dtype; complex: TypeError


def _ldexp(x1: ArrayLike, x2: ArrayLike, /, out: Any = None, *, where: Any = True,
          **kwargs: Any) -> ndarray:
    """x1 * 2**x2 for integer x2, correctly rounded where the result is subnormal
    (numpy.ldexp)."""
    check_ufunc_options("ldexp", out, where, **kwargs)
    x1, x2 = _operand(x1), _operand(x2)
    dt = _resolved(np.ldexp, x1, x2)[0]
    if dt == np.float32:
        # float32 * 2**k is exact in float64 for |k| <= 300 (past that the result is 0 or inf
        # whatever k is), and the cast rounds once, into the subnormals too: five operations
        # instead of the bit-level path below (CPU, 2^24 elements: 126 -> 13 ms with a scalar
        # exponent, 135 -> 40 with an int32 array; NumPy 19 and 17).
        k = _core.clip(_as(x2, np.int64, x1), -300, 300)
        return (_as(x1, np.float64, x2) * _pow2(k, np.float64)).astype(dt)
    info = np.finfo(dt)
    m, e = _frexp_parts(_as(x1, dt, x2))
    # x1 * 2**k == m * 2**E. Past [lo, hi] the result is 0 or inf whatever E is. The first
    # factor keeps m normal (exact); only the second may round (into the subnormals) or
    # overflow, so the result is rounded once, as NumPy's.
    lo, hi = info.minexp - info.nmant - 2, info.maxexp + 1
    k = _core.clip(_as(x2, np.int64, x1), lo - hi, hi - lo)
    big_e = _core.clip(e.astype(np.int64) + k, lo, hi)
    first = _core.clip(big_e, info.minexp + 1, info.maxexp - 1)
    return m * _pow2(first, dt) * _pow2(big_e - first, dt)


def _magnitudes(a, b):
    """|a| and |b| in the unsigned type of their width: |INT_MIN| is exact there, and C's
    wrapping results (NumPy's) come back by the cast to the signed type."""
    unsigned = np.dtype(f"u{np.dtype(a.dtype).itemsize}")
    return _core.abs(a).astype(unsigned), _core.abs(b).astype(unsigned)


def _euclid(a, b):
    """gcd(a, b) of unsigned a, b by Euclid's algorithm (at most ~93 remainder steps for
    64-bit integers; a step is a no-op once b is 0). Eight steps fuse into one kernel between
    checks of whether any divisor is left. No exact fixed composition exists; a new scalar op
    would be the alternative."""
    while a.size and bool(_core.any(b != 0)):
        for _ in range(8):
            nonzero = b != 0
            r = _core.remainder(a, _core.where(nonzero, b, 1))
            a, b = _core.where(nonzero, b, a), _core.where(nonzero, r, 0)
        _core.eval(a, b)
    return a


def _gcd(x1: ArrayLike, x2: ArrayLike, /, out: Any = None, *, where: Any = True,
        **kwargs: Any) -> ndarray:
    """The greatest common divisor of |x1| and |x2| (numpy.gcd); integers only."""
    check_ufunc_options("gcd", out, where, **kwargs)
    x1, x2 = _operand(x1), _operand(x2)
    dt = _resolved(np.gcd, x1, x2)[0]
    a, b = _magnitudes(*_core.broadcast_arrays(_as(x1, dt, x2), _as(x2, dt, x1)))
    return _euclid(a, b).astype(dt)


def _lcm(x1: ArrayLike, x2: ArrayLike, /, out: Any = None, *, where: Any = True,
        **kwargs: Any) -> ndarray:
    """The lowest common multiple of |x1| and |x2| (numpy.lcm); integers only."""
    check_ufunc_options("lcm", out, where, **kwargs)
    x1, x2 = _operand(x1), _operand(x2)
    dt = _resolved(np.lcm, x1, x2)[0]
    a, b = _magnitudes(*_core.broadcast_arrays(_as(x1, dt, x2), _as(x2, dt, x1)))
    g = _euclid(a, b)
    return (_core.floor_divide(a, _core.where(g == 0, 1, g)) * b).astype(dt)


def sinc(x: ArrayLike) -> ndarray:
    """sin(pi x) / (pi x), 1 at 0 (numpy.sinc)."""
    x = asarray(x) * np.pi
    eps = float(np.finfo(x.dtype).eps) if np.dtype(x.dtype).kind == "f" else 1e-20
    y = _core.where(x != 0, x, eps)
    return _core.sin(y) / y


def fix(x: ArrayLike, out: Any = None) -> ndarray:
    """Rounds toward zero (numpy.fix); integers are returned unchanged."""
    check_ufunc_options("fix", out)
    x = asarray(x)
    if x.dtype == np.bool_:
        raise TypeError("ufunc 'ceil' did not contain a loop with signature matching types "
                        "bool; fix() takes numbers")
    return _core.trunc(x) if is_float_dtype(x.dtype) else _core.copy(x)


def _float_power(x1: ArrayLike, x2: ArrayLike, /, out: Any = None, *, where: Any = True,
                **kwargs: Any) -> ndarray:
    """x1 ** x2 computed in float64 (complex128 for complex operands) (numpy.float_power)."""
    check_ufunc_options("float_power", out, where, **kwargs)
    x1, x2 = _operand(x1), _operand(x2)
    dt = _resolved(np.float_power, x1, x2)[0]
    return _core.pow(_as(x1, dt, x2), _as(x2, dt, x1))


def nan_to_num(x: ArrayLike, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> ndarray:
    """NaN replaced by `nan`, infinities by `posinf`/`neginf` (default: the dtype's largest
    finite magnitudes), on real and imaginary parts alike (numpy.nan_to_num). Always a new
    array: copy=False cannot write into accelpy's input."""
    x = asarray(x)
    if not (is_float_dtype(x.dtype) or is_complex_dtype(x.dtype)):
        return _core.copy(x)
    parts = (_core.real(x), _core.imag(x)) if is_complex_dtype(x.dtype) else (x,)
    info = np.finfo(parts[0].dtype)
    hi = info.max if posinf is None else posinf
    lo = info.min if neginf is None else neginf
    fixed = []
    for d in parts:  # the masks are the input's, as NumPy's (nan=inf is not then replaced)
        infinite = _core.where(_core.signbit(d), lo, hi)
        d = _core.where(_core.isnan(d), nan, _core.where(_core.isinf(d), infinite, d))
        fixed.append(d.astype(parts[0].dtype))
    # NumPy fixes a copy of x in place: the result has the copy's layout (order K, in which a
    # broadcast axis is the fastest), which an elementwise result of a broadcast input has not.
    if len(fixed) == 1:
        if x.flags.c_contiguous:  # the elementwise result is C-ordered too: no second pass
            return fixed[0]
        out = empty_like(x)
        out[...] = fixed[0]
        return out
    out = _core.copy(x)  # parts stored as they are (no complex arithmetic to move -0.0)
    out.real = fixed[0]
    out.imag = fixed[1]
    return out


def _spacing(x: ArrayLike, /, out: Any = None, *, where: Any = True, **kwargs: Any) -> ndarray:
    """The distance from x to the next representable value away from zero (numpy.spacing)."""
    check_ufunc_options("spacing", out, where, **kwargs)
    x = asarray(x)
    x = _as(x, _resolved(np.spacing, x)[0])
    if x.dtype == np.float16:
        # NumPy's float16 loop steps toward +inf for every x (positive spacings, NaN at
        # either infinity); kept for bit-identical results.
        up = _core.nextafter(x, full_like(x, np.inf)) - x
        return _core.where(_core.isinf(x), np.nan, up).astype(x.dtype)
    return _core.nextafter(x, _core.where(x < 0, -np.inf, np.inf).astype(x.dtype)) - x


def real_if_close(a: ArrayLike, tol: float = 100) -> ndarray:
    """The real part when every imaginary part is below `tol` machine epsilons (tol > 1) or
    below `tol` itself (tol <= 1), else `a` (numpy.real_if_close)."""
    a = asarray(a)
    if not is_complex_dtype(a.dtype):
        return a
    if tol > 1:
        tol = float(np.finfo(a.dtype).eps) * tol
    if bool(_core.all(_core.abs(_core.imag(a)) < tol)):
        return _core.real(a)
    return a


def _bitwise_count(x: ArrayLike, /, out: Any = None, *, where: Any = True,
                   **kwargs: Any) -> ndarray:
    """The number of 1 bits in |x| (numpy.bitwise_count), as uint8; integers only."""
    check_ufunc_options("bitwise_count", out, where, **kwargs)
    x = asarray(x)
    _resolved(np.bitwise_count, x)
    dt = np.dtype(x.dtype)
    unsigned = np.dtype(f"u{dt.itemsize}")
    v = (_core.abs(x) if dt.kind == "i" else x).astype(unsigned)
    # SWAR popcount: pairs, nibbles, bytes, then the bytes summed by one multiply.
    m1, m2, m4, h01 = (((1 << (8 * dt.itemsize)) - 1) // d for d in (3, 5, 17, 255))
    v = v - ((v >> 1) & m1)
    v = (v & m2) + ((v >> 2) & m2)
    v = (v + (v >> 4)) & m4
    v = (v * h01) >> (8 * (dt.itemsize - 1))
    return v.astype(np.uint8)


def unwrap(p: ArrayLike, discont: float | None = None, axis: int = -1, *,
           period: float = 2 * np.pi) -> ndarray:
    """p with jumps between neighbours larger than max(discont, period/2) along `axis` taken
    back by multiples of `period` (numpy.unwrap)."""
    p = asarray(p)
    axis = normalize_axis(axis, p.ndim) if p.ndim else normalize_axis(axis, 1)
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = promoted_dtype(dd.dtype, period)
    if dtype.kind in "iu":
        interval_high, rem = builtins.divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = _core.remainder(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = _core.where((ddmod == interval_low) & (dd > 0), interval_high, ddmod)
    ph_correct = _core.where(_core.abs(dd) < discont, 0, ddmod - dd)
    up = p.astype(dtype)
    head = up[along_axis(p.ndim, axis, slice(0, 1))]
    tail = p[along_axis(p.ndim, axis, slice(1, None))] + _core.cumsum(ph_correct, axis=axis)
    return _core.concatenate([head, tail.astype(dtype)], axis=axis)


# The ufuncs: accelpy.ufunc objects over the core's ops and the functions above, by NumPy's
# name; NumPy 2's other names for a ufunc are the same object (abs is absolute).
if TYPE_CHECKING:  # type checkers see a ufunc's call: its function's signature
    from ._core import (
        abs as absolute,
    )
    from ._core import (
        acos as arccos,
    )
    from ._core import (
        acosh as arccosh,
    )
    from ._core import (  # noqa: F401
        add,
        bitwise_and,
        bitwise_or,
        bitwise_xor,
        cbrt,
        ceil,
        copysign,
        cos,
        cosh,
        deg2rad,
        divide,
        exp,
        exp2,
        expm1,
        fabs,
        floor,
        floor_divide,
        fmax,
        fmin,
        fmod,
        heaviside,
        hypot,
        log,
        log1p,
        log2,
        log10,
        logaddexp,
        logaddexp2,
        maximum,
        minimum,
        multiply,
        negative,
        nextafter,
        positive,
        rad2deg,
        reciprocal,
        remainder,
        rint,
        sign,
        signbit,
        sin,
        sinh,
        sqrt,
        square,
        subtract,
        tan,
        tanh,
        trunc,
    )
    from ._core import (
        asin as arcsin,
    )
    from ._core import (
        asinh as arcsinh,
    )
    from ._core import (
        atan as arctan,
    )
    from ._core import (
        atan2 as arctan2,
    )
    from ._core import (
        atanh as arctanh,
    )
    from ._core import (
        bitwise_invert as invert,
    )
    from ._core import (
        bitwise_left_shift as left_shift,
    )
    from ._core import (
        bitwise_right_shift as right_shift,
    )
    from ._core import (
        conj as conjugate,
    )
    from ._core import (
        pow as power,
    )

    divmod = _divmod
    modf = _modf
    frexp = _frexp
    ldexp = _ldexp
    gcd = _gcd
    lcm = _lcm
    float_power = _float_power
    spacing = _spacing
    bitwise_count = _bitwise_count
else:
    add = make_ufunc(_core.add, "add", __name__)
    subtract = make_ufunc(_core.subtract, "subtract", __name__)
    multiply = make_ufunc(_core.multiply, "multiply", __name__)
    divide = make_ufunc(_core.divide, "divide", __name__)
    floor_divide = make_ufunc(_core.floor_divide, "floor_divide", __name__)
    remainder = make_ufunc(_core.remainder, "remainder", __name__)
    fmod = make_ufunc(_core.fmod, "fmod", __name__)
    negative = make_ufunc(_core.negative, "negative", __name__)
    positive = make_ufunc(_core.positive, "positive", __name__)
    square = make_ufunc(_core.square, "square", __name__)
    reciprocal = make_ufunc(_core.reciprocal, "reciprocal", __name__)
    sign = make_ufunc(_core.sign, "sign", __name__)
    maximum = make_ufunc(_core.maximum, "maximum", __name__)
    minimum = make_ufunc(_core.minimum, "minimum", __name__)
    fmax = make_ufunc(_core.fmax, "fmax", __name__)
    fmin = make_ufunc(_core.fmin, "fmin", __name__)
    floor = make_ufunc(_core.floor, "floor", __name__)
    ceil = make_ufunc(_core.ceil, "ceil", __name__)
    trunc = make_ufunc(_core.trunc, "trunc", __name__)
    rint = make_ufunc(_core.rint, "rint", __name__)
    sqrt = make_ufunc(_core.sqrt, "sqrt", __name__)
    cbrt = make_ufunc(_core.cbrt, "cbrt", __name__)
    exp = make_ufunc(_core.exp, "exp", __name__)
    exp2 = make_ufunc(_core.exp2, "exp2", __name__)
    expm1 = make_ufunc(_core.expm1, "expm1", __name__)
    log = make_ufunc(_core.log, "log", __name__)
    log2 = make_ufunc(_core.log2, "log2", __name__)
    log10 = make_ufunc(_core.log10, "log10", __name__)
    log1p = make_ufunc(_core.log1p, "log1p", __name__)
    sin = make_ufunc(_core.sin, "sin", __name__)
    cos = make_ufunc(_core.cos, "cos", __name__)
    tan = make_ufunc(_core.tan, "tan", __name__)
    sinh = make_ufunc(_core.sinh, "sinh", __name__)
    cosh = make_ufunc(_core.cosh, "cosh", __name__)
    tanh = make_ufunc(_core.tanh, "tanh", __name__)
    fabs = make_ufunc(_core.fabs, "fabs", __name__)
    deg2rad = make_ufunc(_core.deg2rad, "deg2rad", __name__)
    rad2deg = make_ufunc(_core.rad2deg, "rad2deg", __name__)
    copysign = make_ufunc(_core.copysign, "copysign", __name__)
    nextafter = make_ufunc(_core.nextafter, "nextafter", __name__)
    hypot = make_ufunc(_core.hypot, "hypot", __name__)
    logaddexp = make_ufunc(_core.logaddexp, "logaddexp", __name__)
    logaddexp2 = make_ufunc(_core.logaddexp2, "logaddexp2", __name__)
    heaviside = make_ufunc(_core.heaviside, "heaviside", __name__)
    signbit = make_ufunc(_core.signbit, "signbit", __name__)
    bitwise_and = make_ufunc(_core.bitwise_and, "bitwise_and", __name__)
    bitwise_or = make_ufunc(_core.bitwise_or, "bitwise_or", __name__)
    bitwise_xor = make_ufunc(_core.bitwise_xor, "bitwise_xor", __name__)
    absolute = make_ufunc(_core.abs, "absolute", __name__)
    arccos = make_ufunc(_core.acos, "arccos", __name__)
    arccosh = make_ufunc(_core.acosh, "arccosh", __name__)
    arcsin = make_ufunc(_core.asin, "arcsin", __name__)
    arcsinh = make_ufunc(_core.asinh, "arcsinh", __name__)
    arctan = make_ufunc(_core.atan, "arctan", __name__)
    arctan2 = make_ufunc(_core.atan2, "arctan2", __name__)
    arctanh = make_ufunc(_core.atanh, "arctanh", __name__)
    power = make_ufunc(_core.pow, "power", __name__)
    conjugate = make_ufunc(_core.conj, "conjugate", __name__)
    invert = make_ufunc(_core.bitwise_invert, "invert", __name__)
    left_shift = make_ufunc(_core.bitwise_left_shift, "left_shift", __name__)
    right_shift = make_ufunc(_core.bitwise_right_shift, "right_shift", __name__)
    divmod = make_ufunc(_divmod, "divmod", __name__)
    modf = make_ufunc(_modf, "modf", __name__)
    frexp = make_ufunc(_frexp, "frexp", __name__)
    ldexp = make_ufunc(_ldexp, "ldexp", __name__)
    gcd = make_ufunc(_gcd, "gcd", __name__)
    lcm = make_ufunc(_lcm, "lcm", __name__)
    float_power = make_ufunc(_float_power, "float_power", __name__)
    spacing = make_ufunc(_spacing, "spacing", __name__)
    bitwise_count = make_ufunc(_bitwise_count, "bitwise_count", __name__)

abs = absolute
acos = arccos
acosh = arccosh
asin = arcsin
asinh = arcsinh
atan = arctan
atan2 = arctan2
atanh = arctanh
pow = power
conj = conjugate
bitwise_invert = invert
bitwise_not = invert
bitwise_left_shift = left_shift
bitwise_right_shift = right_shift
true_divide = divide
mod = remainder
degrees = rad2deg  # NumPy has two ufuncs of one function; accelpy, one
radians = deg2rad
