"""Logic functions (NumPy's reference: "Logic functions"): array contents (isposinf, isneginf),
type testing (iscomplex, isreal, iscomplexobj, isrealobj, isscalar), comparison (isclose,
allclose, array_equal, array_equiv); the core's comparisons, logical operations, isfinite,
isinf, isnan, all and any are re-exported here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._core import (  # noqa: F401
    all,
    any,
    ndarray,
)
from ._creation import asarray, zeros_like
from ._dtypes import promoted_dtype
from ._ufunc import make as make_ufunc
from ._util import check_ufunc_options, is_complex_dtype, is_float_dtype

if TYPE_CHECKING:
    from ._core import ArrayLike

__all__ = [
    "allclose",
    "array_equal",
    "array_equiv",
    "isclose",
    "iscomplex",
    "iscomplexobj",
    "isfortran",
    "isneginf",
    "isposinf",
    "isreal",
    "isrealobj",
    "isscalar",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "logical_not",
    "isfinite",
    "isinf",
    "isnan",
    "any",
    "all",
]


def _operand(x, like):
    if isinstance(x, _core.ndarray):
        return x
    return asarray(x, device=like.device if isinstance(like, _core.ndarray) else None)


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> ndarray:
    """``|a - b| <= atol + rtol * |b|`` elementwise (infinities equal to themselves; NaNs
    equal to each other when `equal_nan`), as numpy.isclose."""
    a = _operand(a, b)
    b = _operand(b, a)
    dt = promoted_dtype(a, b, 1.0)
    x, y = a.astype(dt), b.astype(dt)
    finite = _core.isfinite(x) & _core.isfinite(y)
    close = _core.abs(x - y) <= atol + rtol * _core.abs(y)
    result = _core.where(finite, close, x == y)
    if equal_nan:
        result = result | (_core.isnan(x) & _core.isnan(y))
    return result


def allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """Whether every element of `a` is close to `b` (numpy.allclose): a Python bool."""
    return bool(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan).all())


def _signed_inf(name, x, out, negative):
    check_ufunc_options(name, out)
    x = asarray(x)
    if is_complex_dtype(x.dtype):
        raise TypeError("This operation is not supported for complex values because it would "
                        "be ambiguous.")
    if not is_float_dtype(x.dtype):
        return zeros_like(x, dtype=np.bool_)
    sign = _core.signbit(x)
    return _core.isinf(x) & (sign if negative else ~sign)


def isposinf(x: ArrayLike, out: Any = None) -> ndarray:
    """True where x is +inf (numpy.isposinf); complex input raises TypeError."""
    return _signed_inf("isposinf", x, out, False)


def isneginf(x: ArrayLike, out: Any = None) -> ndarray:
    """True where x is -inf (numpy.isneginf); complex input raises TypeError."""
    return _signed_inf("isneginf", x, out, True)


def _dtype_of(x):
    if isinstance(x, ndarray):
        return x.dtype
    dt = getattr(x, "dtype", None)
    return np.dtype(dt) if dt is not None else np.asarray(x).dtype


def iscomplexobj(x: Any) -> bool:
    """Whether x has a complex dtype, whatever its values (numpy.iscomplexobj)."""
    return _dtype_of(x).kind == "c"


def isrealobj(x: Any) -> bool:
    """Whether x has a non-complex dtype (numpy.isrealobj)."""
    return not iscomplexobj(x)


def iscomplex(x: ArrayLike) -> ndarray:
    """Elementwise: whether the imaginary part is nonzero (numpy.iscomplex)."""
    x = asarray(x)
    if x.dtype.kind == "c":
        return _core.imag(x) != 0
    return _core.zeros(x.shape, dtype=np.bool_, device=x.device)


def isreal(x: ArrayLike) -> ndarray:
    """Elementwise: whether the imaginary part is zero (numpy.isreal)."""
    x = asarray(x)
    if x.dtype.kind == "c":
        return _core.imag(x) == 0
    return _core.ones(x.shape, dtype=np.bool_, device=x.device)


def isscalar(element: Any) -> bool:
    """Whether `element` is a scalar (numpy.isscalar): arrays, 0-d included, are not."""
    return not isinstance(element, ndarray) and np.isscalar(element)


def isfortran(a: ndarray) -> bool:
    """Whether `a` is Fortran-contiguous and not also C-contiguous (numpy.isfortran)."""
    flags = a.flags
    return bool(flags.f_contiguous and not flags.c_contiguous)


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> bool:
    """Whether two arrays have the same shape and elements (numpy.array_equal); with
    `equal_nan`, NaNs in the same places count as equal."""
    a1 = asarray(a1)
    a2 = asarray(a2, device=a1.device)
    if a1.shape != a2.shape:
        return False
    same = a1 == a2
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        same = _core.logical_or(same, _core.logical_and(_core.isnan(a1), _core.isnan(a2)))
    return bool(_core.all(same))


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> bool:
    """Whether two arrays are equal after broadcasting to one shape (numpy.array_equiv)."""
    a1 = asarray(a1)
    a2 = asarray(a2, device=a1.device)
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(_core.all(a1 == a2))


# The ufuncs: accelpy.ufunc objects over the core's comparisons, logical operations and tests.
if TYPE_CHECKING:  # type checkers see a ufunc's call: its function's signature
    from ._core import (  # noqa: F401
        equal,
        greater,
        greater_equal,
        isfinite,
        isinf,
        isnan,
        less,
        less_equal,
        logical_and,
        logical_not,
        logical_or,
        logical_xor,
        not_equal,
    )
else:
    equal = make_ufunc(_core.equal, "equal", __name__)
    not_equal = make_ufunc(_core.not_equal, "not_equal", __name__)
    less = make_ufunc(_core.less, "less", __name__)
    less_equal = make_ufunc(_core.less_equal, "less_equal", __name__)
    greater = make_ufunc(_core.greater, "greater", __name__)
    greater_equal = make_ufunc(_core.greater_equal, "greater_equal", __name__)
    logical_and = make_ufunc(_core.logical_and, "logical_and", __name__)
    logical_or = make_ufunc(_core.logical_or, "logical_or", __name__)
    logical_xor = make_ufunc(_core.logical_xor, "logical_xor", __name__)
    logical_not = make_ufunc(_core.logical_not, "logical_not", __name__)
    isfinite = make_ufunc(_core.isfinite, "isfinite", __name__)
    isinf = make_ufunc(_core.isinf, "isinf", __name__)
    isnan = make_ufunc(_core.isnan, "isnan", __name__)
