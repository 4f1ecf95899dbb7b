"""Mathematical functions with automatic domain (NumPy's ``numpy.emath``): where the real
function has no real value (the square root or logarithm of a negative number, arcsin of 2),
the input becomes complex and so does the result; otherwise results are real, as the plain
functions give.

Whether an input needs the complex domain depends on its values, so each function evaluates
that test (one reduction) before it builds its result, as NumPy does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core, _math
from ._creation import asarray

if TYPE_CHECKING:
    from ._core import ArrayLike, ndarray

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

# NumPy's choice of complex type: single precision and 8- and 16-bit integers go to
# complex64 (float16 goes to complex128).
_TO_COMPLEX64 = {np.dtype(t) for t in ("float32", "int8", "int16", "uint8",
                                       "uint16", "complex64")}


def _to_complex(x: ndarray) -> ndarray:
    return x.astype(np.complex64 if x.dtype in _TO_COMPLEX64 else np.complex128)


def _real_below_zero(x: Any) -> ndarray:
    """x, complex where a real x has negative values."""
    x = asarray(x)
    if x.dtype.kind != "c" and x.dtype != np.bool_ and bool(_core.any(x < 0)):
        return _to_complex(x)
    return x


def _int_below_zero(x: Any) -> ndarray:
    """x, floating where an integer x has negative values (a negative integer power)."""
    x = asarray(x)
    if x.dtype.kind in "iu" and bool(_core.any(x < 0)):
        return x * 1.0
    return x


def _real_abs_above_one(x: Any) -> ndarray:
    """x, complex where a real x has values outside [-1, 1]."""
    x = asarray(x)
    if x.dtype.kind != "c" and bool(_core.any(_math.abs(x) > 1)):
        return _to_complex(x)
    return x


def sqrt(x: ArrayLike) -> ndarray:
    """The square root, complex for negative real inputs (numpy.emath.sqrt)."""
    return _math.sqrt(_real_below_zero(x))


def log(x: ArrayLike) -> ndarray:
    """The natural logarithm, complex for negative real inputs (numpy.emath.log)."""
    return _math.log(_real_below_zero(x))


def log10(x: ArrayLike) -> ndarray:
    """The base-10 logarithm, complex for negative real inputs (numpy.emath.log10)."""
    return _math.log10(_real_below_zero(x))


def log2(x: ArrayLike) -> ndarray:
    """The base-2 logarithm, complex for negative real inputs (numpy.emath.log2)."""
    return _math.log2(_real_below_zero(x))


def logn(n: ArrayLike, x: ArrayLike) -> ndarray:
    """The base-n logarithm of x, log(x) / log(n), complex where either is negative
    (numpy.emath.logn)."""
    return _math.log(_real_below_zero(x)) / _math.log(_real_below_zero(n))


def power(x: ArrayLike, p: ArrayLike) -> ndarray:
    """x to the power p, complex for negative real x, floating for negative integer p
    (numpy.emath.power)."""
    return _math.power(_real_below_zero(x), _int_below_zero(p))


def arccos(x: ArrayLike) -> ndarray:
    """The inverse cosine, complex for real inputs outside [-1, 1] (numpy.emath.arccos)."""
    return _math.arccos(_real_abs_above_one(x))


def arcsin(x: ArrayLike) -> ndarray:
    """The inverse sine, complex for real inputs outside [-1, 1] (numpy.emath.arcsin)."""
    return _math.arcsin(_real_abs_above_one(x))


def arctanh(x: ArrayLike) -> ndarray:
    """The inverse hyperbolic tangent, complex for real inputs outside [-1, 1]
    (numpy.emath.arctanh)."""
    return _math.arctanh(_real_abs_above_one(x))
