"""accelpy.polynomial: NumPy's convenience classes (Polynomial, Chebyshev, Legendre, Hermite,
HermiteE, Laguerre) whose evaluation and fit run on accelpy arrays.

A series' coefficients are a handful of numbers, so everything that works on them (arithmetic,
deriv, integ, roots, convert, printing) is NumPy's own code on NumPy arrays: these classes
subclass numpy.polynomial's. What grows with the data runs on the device:

* ``p(x)`` with an accelpy array x: the series' recurrence (Horner's scheme or Clenshaw's) as
  elementwise operations with the coefficients as scalars, one fused kernel, on x's device;
  other x (lists, NumPy arrays, scalars) go to NumPy as before.
* ``Cls.fit(x, y, deg)`` with accelpy arrays: the pseudo-Vandermonde matrix built by the basis'
  three-term recurrence on the device and the column-scaled least-squares problem solved by
  accelpy.linalg.lstsq, as NumPy's fit does it; the coefficients come back to the host.
"""

import warnings

import numpy as np
import numpy.polynomial as _npp

from . import _core
from ._creation import asarray as _asarray
from ._polynomial import check_fit_samples

__all__ = ["Chebyshev", "Hermite", "HermiteE", "Laguerre", "Legendre", "Polynomial"]


def _float(x):
    """x as an inexact accelpy array (integers become float64, as NumPy's series do)."""
    return x if np.dtype(x.dtype).kind in "fc" else x.astype(np.float64)


class _OnDevice:
    """Evaluation and fit on accelpy arrays; the subclass gives its basis' recurrences."""

    @staticmethod
    def _device_val(x, c):
        raise NotImplementedError

    @staticmethod
    def _device_vander(x, deg):
        raise NotImplementedError

    def __call__(self, arg):
        if not isinstance(arg, _core.ndarray):
            return super().__call__(arg)
        off, scl = self.mapparms()
        x = _float(arg)
        return self._device_val(off + scl * x, [c.item() for c in self.coef])

    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None,
            symbol="x"):
        """Least-squares fit of degree `deg` (NumPy's ``fit``); on the device when x, y or w is
        an accelpy array and deg an integer."""
        on_device = any(isinstance(a, _core.ndarray) for a in (x, y, w))
        if not on_device or not isinstance(deg, (int, np.integer)):
            if on_device:  # a list of degrees: NumPy's fit on host copies
                x, y = np.asarray(x.tolist()), np.asarray(y.tolist())
                w = None if w is None else np.asarray(w.tolist())
            return super().fit(x, y, deg, domain=domain, rcond=rcond, full=full, w=w,
                               window=window, symbol=symbol)
        dev = next(a.device for a in (x, y, w) if isinstance(a, _core.ndarray))
        x, y = _float(_asarray(x, device=dev)), _float(_asarray(y, device=dev))
        check_fit_samples(x, y, deg, y_columns=False)
        if domain is None:
            domain = [float(_core.min(x)), float(_core.max(x))]
        if window is None:
            window = cls.window
        off, scl = _npp.polyutils.mapparms(domain, window)
        lhs = cls._device_vander(off + scl * x, int(deg))
        rhs = y
        if w is not None:
            w = _float(_asarray(w, device=dev))
            if w.ndim != 1:
                raise TypeError("expected 1D vector for w")
            if w.shape[0] != x.shape[0]:
                raise TypeError("expected x and w to have same length")
            lhs = lhs * w[:, None]
            rhs = rhs * w
        if rcond is None:
            rcond = x.shape[0] * float(np.finfo(x.dtype).eps)
        norms = _core.sqrt(_core.sum(lhs * lhs, axis=0))
        norms = _core.where(norms == 0, 1.0, norms)
        scaled = lhs / norms
        _core.eval(scaled)  # used several times below: computed once
        coef = None if full else _gram_solve(scaled, rhs)
        if coef is None:
            from . import linalg  # imported on first use, as accelpy does

            c, resids, rank, s = linalg.lstsq(scaled, rhs, rcond=rcond)
            coef, rank = _core.asnumpy(c), int(rank)
        else:
            rank = deg + 1
        coef = coef / _core.asnumpy(norms)
        if rank != deg + 1 and not full:
            warnings.warn("The fit may be poorly conditioned", np.exceptions.RankWarning,
                          stacklevel=2)
        series = cls(coef, domain=domain, window=window, symbol=symbol)
        if full:
            return series, [_core.asnumpy(resids), rank, _core.asnumpy(s), rcond]
        return series


# Above this many points a well-conditioned fit solves its normal equations (two device passes
# for a (deg+1)-square system, then two of iterative refinement) instead of the SVD of the tall
# matrix: several times faster, and as accurate as a QR solve when cond(lhs) <= 1e6 (checked:
# otherwise the SVD runs).
_GRAM_MIN_ROWS = 50_000
_GRAM_MAX_COND = 1e6


def _gram_solve(a, b):
    """The least-squares solution of a @ c = b by the semi-normal equations with two rounds of
    iterative refinement, or None when a is too ill-conditioned (or small) for them."""
    if a.shape[0] < _GRAM_MIN_ROWS:
        return None
    gram = _core.asnumpy(_core.matmul(a.T, a))
    evals = np.linalg.eigvalsh(gram)
    if not evals[0] > evals[-1] / _GRAM_MAX_COND**2:
        return None
    c = np.linalg.solve(gram, _core.asnumpy(_core.matmul(a.T, b)))
    for _ in range(2):
        r = b - _core.matmul(a, _asarray(c, device=a.device))
        c = c + np.linalg.solve(gram, _core.asnumpy(_core.matmul(a.T, r)))
    return c


def _columns(second, step, x, deg):
    """The pseudo-Vandermonde matrix (x.size, deg + 1) of a three-term recurrence:
    v_k = step(k, v_{k-1}, v_{k-2}) from v_0 = 1 and v_1 = second(x)."""
    cols = [_core.ones(x.shape, x.dtype, device=x.device)]
    if deg >= 1:
        cols.append(second(x))
    for k in range(2, deg + 1):
        col = step(k, cols[-1], cols[-2])
        _core.eval(col)  # each column once (a lazy chain would be re-run for every column)
        cols.append(col)
    return _core.stack(cols, axis=-1)


def _clenshaw(x, c, step, finish):
    """NumPy's backward recurrence for series values: c0, c1 start at the two highest
    coefficients; step(i, nd, c0, c1) gives the next pair; finish(c0, c1) the value."""
    if len(c) == 1:
        return c[0] + 0.0 * x
    if len(c) == 2:
        return finish(c[0], c[1])
    c0, c1, nd = c[-2], c[-1], len(c)
    for i in range(3, len(c) + 1):
        nd -= 1
        c0, c1 = step(i, nd, c0, c1)
    return finish(c0, c1)


class Polynomial(_OnDevice, _npp.Polynomial):
    """numpy.polynomial.Polynomial, evaluated and fitted on accelpy arrays."""

    @staticmethod
    def _device_val(x, c):
        y = c[-1] + 0.0 * x
        for a in reversed(c[:-1]):
            y = y * x + a
        return y

    @staticmethod
    def _device_vander(x, deg):
        return _columns(lambda x: x, lambda k, v1, v2: v1 * x, x, deg)


class Chebyshev(_OnDevice, _npp.Chebyshev):
    """numpy.polynomial.Chebyshev, evaluated and fitted on accelpy arrays."""

    @staticmethod
    def _device_val(x, c):
        x2 = 2.0 * x
        return _clenshaw(x, c, lambda i, nd, c0, c1: (c[-i] - c1, c0 + c1 * x2),
                         lambda c0, c1: c0 + c1 * x)

    @staticmethod
    def _device_vander(x, deg):
        return _columns(lambda x: x, lambda k, v1, v2: 2.0 * x * v1 - v2, x, deg)


class Legendre(_OnDevice, _npp.Legendre):
    """numpy.polynomial.Legendre, evaluated and fitted on accelpy arrays."""

    @staticmethod
    def _device_val(x, c):
        return _clenshaw(
            x, c, lambda i, nd, c0, c1: (c[-i] - c1 * ((nd - 1) / nd),
                                         c0 + c1 * x * ((2 * nd - 1) / nd)),
            lambda c0, c1: c0 + c1 * x)

    @staticmethod
    def _device_vander(x, deg):
        return _columns(lambda x: x,
                        lambda k, v1, v2: (v1 * x * (2 * k - 1) - v2 * (k - 1)) / k, x, deg)


class Hermite(_OnDevice, _npp.Hermite):
    """numpy.polynomial.Hermite (physicists'), evaluated and fitted on accelpy arrays."""

    @staticmethod
    def _device_val(x, c):
        x2 = 2.0 * x
        return _clenshaw(x, c, lambda i, nd, c0, c1: (c[-i] - c1 * (2.0 * (nd - 1)),
                                                      c0 + c1 * x2),
                         lambda c0, c1: c0 + c1 * x2)

    @staticmethod
    def _device_vander(x, deg):
        return _columns(lambda x: 2.0 * x,
                        lambda k, v1, v2: 2.0 * x * v1 - 2.0 * (k - 1) * v2, x, deg)


class HermiteE(_OnDevice, _npp.HermiteE):
    """numpy.polynomial.HermiteE (probabilists'), evaluated and fitted on accelpy arrays."""

    @staticmethod
    def _device_val(x, c):
        return _clenshaw(x, c, lambda i, nd, c0, c1: (c[-i] - c1 * (nd - 1.0), c0 + c1 * x),
                         lambda c0, c1: c0 + c1 * x)

    @staticmethod
    def _device_vander(x, deg):
        return _columns(lambda x: x, lambda k, v1, v2: x * v1 - (k - 1.0) * v2, x, deg)


class Laguerre(_OnDevice, _npp.Laguerre):
    """numpy.polynomial.Laguerre, evaluated and fitted on accelpy arrays."""

    @staticmethod
    def _device_val(x, c):
        return _clenshaw(
            x, c, lambda i, nd, c0, c1: (c[-i] - c1 * ((nd - 1) / nd),
                                         c0 + c1 * ((2 * nd - 1) - x) / nd),
            lambda c0, c1: c0 + c1 * (1.0 - x))

    @staticmethod
    def _device_vander(x, deg):
        return _columns(lambda x: 1.0 - x,
                        lambda k, v1, v2: (v1 * (2 * k - 1 - x) - v2 * (k - 1)) / k, x, deg)
