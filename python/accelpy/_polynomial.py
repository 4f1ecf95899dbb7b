"""Power-series polynomials (NumPy's reference: "Polynomials", the poly1d family): polyval,
polyfit, polyadd, polysub, polymul, polydiv, polyder, polyint, poly, roots, composed from the
core's elementwise ops, convolve, lstsq and eigvals, so coefficients and samples stay on their
device (vander is array creation's)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._calculus import convolve
from ._core import ndarray
from ._creation import asarray, host_values, on_one_device, zeros_like
from ._dtypes import promoted_dtype
from ._logic import allclose
from ._matrices import vander

if TYPE_CHECKING:
    from ._core import ArrayLike

__all__ = [
    "poly",
    "poly1d",
    "polyadd",
    "polyder",
    "polydiv",
    "polyfit",
    "polyint",
    "polymul",
    "polysub",
    "polyval",
    "roots",
]



def _atleast_1d(*objs):
    out = tuple(_core.reshape(a, (1,)) if a.ndim == 0 else a for a in on_one_device(*objs))
    return out if len(out) > 1 else out[0]


def polyval(p: ArrayLike, x: ArrayLike) -> ndarray:
    """The polynomial with coefficients p (highest power first) at x, by Horner's scheme
    (numpy.polyval)."""
    p, x = on_one_device(p, x)
    if p.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    y = zeros_like(x)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def _padded(a, n):
    return _core.concatenate([_core.zeros(n, dtype=a.dtype, device=a.device), a]) if n else a


def polyadd(a1: ArrayLike, a2: ArrayLike) -> ndarray:
    """The sum of two polynomials, aligned at the constant term (numpy.polyadd)."""
    a1, a2 = _atleast_1d(a1, a2)
    n = max(a1.shape[0], a2.shape[0])
    return _padded(a1, n - a1.shape[0]) + _padded(a2, n - a2.shape[0])


def polysub(a1: ArrayLike, a2: ArrayLike) -> ndarray:
    """The difference of two polynomials, aligned at the constant term (numpy.polysub)."""
    a1, a2 = _atleast_1d(a1, a2)
    n = max(a1.shape[0], a2.shape[0])
    return _padded(a1, n - a1.shape[0]) - _padded(a2, n - a2.shape[0])


def _poly1d_coefficients(a):
    """a as numpy.poly1d keeps it: 1-D, leading zeros trimmed, [0] when nothing is left."""
    a = _atleast_1d(a)
    if a.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    nonzero = host_values(_core.flatnonzero(a))
    if len(nonzero) == 0:
        return _core.zeros((1,), dtype=a.dtype, device=a.device)
    return a[int(nonzero[0]) :]


def polymul(a1: ArrayLike, a2: ArrayLike) -> ndarray:
    """The product of two polynomials: their coefficients' convolution, leading zeros trimmed
    first as NumPy does (numpy.polymul)."""
    a1, a2 = on_one_device(a1, a2)
    return convolve(_poly1d_coefficients(a1), _poly1d_coefficients(a2))


def polyder(p: ArrayLike, m: int = 1) -> ndarray:
    """The m-th derivative of a polynomial (numpy.polyder)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = asarray(p)
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * _core.arange(n, 0, -1, device=p.device)
    return p


def polyint(p: ArrayLike, m: int = 1, k: ArrayLike | None = None) -> ndarray:
    """The m-th antiderivative of a polynomial, with integration constants k (numpy.polyint)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = np.zeros(m, float) if k is None else np.atleast_1d(host_values(k))
    if len(k) == 1 and m > 1:
        k = k[0] * np.ones(m, float)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    p = asarray(p)
    for i in range(m):
        c = asarray(k[i : i + 1], device=p.device)
        p = _core.concatenate([p / _core.arange(p.shape[0], 0, -1, device=p.device), c])
    return p


def polydiv(u: ArrayLike, v: ArrayLike) -> tuple[ndarray, ndarray]:
    """Quotient and remainder of polynomial division (numpy.polydiv)."""
    u, v = _atleast_1d(u, v)
    u, v = u + 0.0, v + 0.0
    dt = promoted_dtype(u, v)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    r = u.astype(dt)
    quotient = []
    for k in range(m - n + 1):
        d = scale * r[k]
        quotient.append(d)
        r[k : k + n + 1] = r[k : k + n + 1] - d * v
    q = (_core.stack(quotient) if quotient
         else _core.zeros((1,), dtype=dt, device=u.device)).astype(dt)
    while r.shape[-1] > 1 and bool(allclose(r[0], 0, rtol=1e-14)):
        r = r[1:]
    return q, r


def poly(seq_of_zeros: ArrayLike) -> Any:
    """The coefficients of the monic polynomial with the given roots, or the characteristic
    polynomial of a square matrix (numpy.poly)."""
    z = _atleast_1d(seq_of_zeros)
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        z = _eigvals(z)
    elif len(sh) == 1:
        z = z.astype(np.mintypecode(np.dtype(z.dtype).char))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    dt = z.dtype
    a = _core.ones((1,), dtype=dt, device=z.device)
    for i in range(z.shape[0]):  # a * (x - z_i): one shifted multiply-subtract per root
        zero = _core.zeros((1,), dtype=dt, device=z.device)
        a = _core.concatenate([a, zero]) - z[i] * _core.concatenate([zero, a])
    if np.dtype(dt).kind == "c":
        roots_ = z.astype(np.complex128)
        if bool(_core.all(_core.sort(roots_) == _core.sort(_core.conj(roots_)))):
            a = _core.copy(_core.real(a))
    return a


def _core_linalg():
    # accelpy.linalg is imported on first use (keeping `import accelpy` fast), so here too.
    from . import linalg

    return linalg


def _eigvals(a):
    """Eigenvalues as numpy.linalg.eigvals returns them: real when a is real and they all are."""
    w = _core_linalg().eigvals(a)
    if np.dtype(a.dtype).kind != "c" and bool(_core.all(_core.imag(w) == 0)):
        w = _core.copy(_core.real(w))
    return w


def roots(p: ArrayLike) -> ndarray:
    """The roots of a polynomial: eigenvalues of its companion matrix (numpy.roots)."""
    p = _atleast_1d(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    non_zero = host_values(_core.flatnonzero(p))
    if len(non_zero) == 0:
        return _core.zeros((0,), dtype=np.float64, device=p.device)
    trailing = p.shape[0] - int(non_zero[-1]) - 1
    p = p[int(non_zero[0]) : int(non_zero[-1]) + 1]
    if np.dtype(p.dtype).kind not in "fc":
        p = p.astype(np.float64)
    n = p.shape[0]
    if n > 1:
        a = _core.eye(n - 1, n - 1, k=-1, dtype=p.dtype, device=p.device)
        a[0, :] = -p[1:] / p[0]
        r = _eigvals(a)
    else:
        r = _core.zeros((0,), dtype=np.float64, device=p.device)
    return _core.concatenate([r, _core.zeros((trailing,), dtype=r.dtype, device=p.device)])


def check_fit_samples(x: ndarray, y: ndarray, deg: Any, y_columns: bool) -> None:
    """NumPy's checks of a least-squares fit's degree and samples, with its messages (polyfit
    and the series classes' fit); `y_columns`: y may be 2-D, one fit per column."""
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > (2 if y_columns else 1):
        raise TypeError("expected 1D or 2D array for y" if y_columns else "expected 1D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")


def polyfit(x: ArrayLike, y: ArrayLike, deg: int, rcond: float | None = None, full: bool = False,
            w: ArrayLike | None = None, cov: bool | str = False) -> Any:
    """Least-squares polynomial fit of degree `deg`, highest power first (numpy.polyfit):
    a column-scaled Vandermonde system solved by accelpy.linalg.lstsq."""
    linalg = _core_linalg()
    order = int(deg) + 1
    x, y, w = on_one_device(x, y, w) if w is not None else (*on_one_device(x, y), None)
    x, y = x + 0.0, y + 0.0
    check_fit_samples(x, y, deg, y_columns=True)
    if rcond is None:
        rcond = x.shape[0] * float(np.finfo(x.dtype).eps)
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = w + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = _core.sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond=rcond)
    c = (c.T / scale).T
    rank = int(rank)
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = linalg.inv(lhs.T @ lhs) / _core.outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order to scale the "
                                 "covariance matrix")
            fac = resids / (x.shape[0] - order)
        return c, (vbase * fac if y.ndim == 1 else vbase[:, :, None] * fac)
    return c


class poly1d(np.poly1d):  # noqa: N801 - NumPy's name
    """numpy.poly1d whose value at an accelpy array is computed on that array's device (Horner's
    scheme, :func:`polyval`); its coefficients are NumPy's (a polynomial is a few numbers), and
    so are roots, deriv, integ and the arithmetic, whose results are accelpy poly1d again."""

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None):
        if isinstance(c_or_r, ndarray):
            c_or_r = host_values(c_or_r)
        super().__init__(c_or_r, r=r, variable=variable)

    def __call__(self, val: Any) -> Any:
        if isinstance(val, ndarray):
            return polyval(asarray(self.coeffs, device=val.device), val)
        if isinstance(val, np.poly1d):
            return poly1d(super().__call__(val))
        return super().__call__(val)


def _keeps_class(name):
    method = getattr(np.poly1d, name)

    def wrapped(self, *args, **kwargs):
        out = method(self, *args, **kwargs)
        if isinstance(out, tuple):
            return tuple(poly1d(o) if isinstance(o, np.poly1d) else o for o in out)
        return poly1d(out) if isinstance(out, np.poly1d) and type(out) is not poly1d else out

    wrapped.__name__ = wrapped.__qualname__ = name
    wrapped.__doc__ = method.__doc__
    return wrapped


# NumPy's poly1d methods build numpy.poly1d results; these give this class back.
for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__pow__", "__neg__", "__pos__", "deriv", "integ"):
    setattr(poly1d, _name, _keeps_class(_name))

