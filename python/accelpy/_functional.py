"""Functional programming (NumPy's reference: "Functional programming"): apply_along_axis,
apply_over_axes, piecewise, vectorize and frompyfunc.

vectorize and frompyfunc call a Python function once per element, as NumPy's do: on accelpy
arrays they run NumPy's on host copies and put the result back on the arguments' device (there
is no object dtype; frompyfunc's results take the dtype NumPy infers from the values)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import asarray
from ._util import normalize_axis

if TYPE_CHECKING:
    from ._core import ArrayLike

__all__ = [
    "apply_along_axis",
    "apply_over_axes",
    "frompyfunc",
    "piecewise",
    "vectorize",
]


def piecewise(x: ArrayLike, condlist: Any, funclist: Sequence[Callable[..., Any] | Any], *args: Any,
              **kw: Any) -> ndarray:
    """x's elements mapped by the function (or constant) of the condition they meet, zero where
    none does; one more function than conditions is the 'otherwise' case (numpy.piecewise)."""
    x = asarray(x)
    n2 = len(funclist)
    if isinstance(condlist, ndarray):
        # NumPy looks at condlist[0]: a row (an array of conditions) only when it is >= 2-D.
        if condlist.ndim == 0 or (condlist.ndim == 1 and x.ndim != 0):
            condlist = [condlist]
        elif len(condlist) == 0:
            raise IndexError("index 0 is out of bounds for axis 0 with size 0")
    elif np.isscalar(condlist) or (
            not isinstance(condlist[0], (list, ndarray, np.ndarray)) and x.ndim != 0):
        condlist = [condlist]
    conds = [asarray(c, device=x.device).astype(np.bool_) for c in condlist]
    n = len(conds)
    if n == n2 - 1:
        taken = _core.any(_core.stack([_core.broadcast_to(c, x.shape) for c in conds]), axis=0)
        conds.append(_core.logical_not(taken))
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = _core.zeros(x.shape, dtype=x.dtype, device=x.device)
    for cond, func in zip(conds, funclist, strict=True):
        cond = _core.broadcast_to(cond, x.shape)
        if not callable(func):
            y[cond] = func
            continue
        vals = x[cond]
        if vals.size > 0:
            y[cond] = asarray(func(vals, *args, **kw), device=x.device).astype(x.dtype)
    return y


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: ArrayLike, *args: Any,
                     **kwargs: Any) -> ndarray:
    """func1d applied to every 1-D slice of `arr` along `axis`, its results stacked in that
    axis's place (numpy.apply_along_axis); one call per slice, as NumPy."""
    arr = asarray(arr)
    axis = normalize_axis(axis, arr.ndim)
    moved = _core.moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if any(d == 0 for d in outer):
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    results = [asarray(func1d(moved[idx], *args, **kwargs), device=arr.device)
               for idx in np.ndindex(*outer)]
    stacked = _core.stack(results).reshape(outer + results[0].shape)
    # The result's own axes replace `axis` (NumPy puts them there).
    res_nd = results[0].ndim
    order = list(range(axis)) + list(range(len(outer), len(outer) + res_nd)) + \
        list(range(axis, len(outer)))
    return _core.transpose(stacked, tuple(order))


def apply_over_axes(func: Callable[..., Any], a: ArrayLike, axes: Any) -> ndarray:
    """func(a, axis) applied for each axis in turn, each result keeping a's number of
    dimensions (a reduced axis is kept with length 1), as numpy.apply_over_axes."""
    val = asarray(a)
    n = val.ndim
    for axis in np.atleast_1d(np.asarray(axes)).tolist():
        axis = axis + n if axis < 0 else axis
        res = asarray(func(val, axis), device=val.device)
        if res.ndim != val.ndim:
            res = _core.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def _host_args(args):
    """(device of the first accelpy array or None, args with accelpy arrays as NumPy copies)."""
    device = next((a.device for a in args if isinstance(a, ndarray)), None)
    return device, [_core.asnumpy(a) if isinstance(a, ndarray) else a for a in args]


def _on_device(result, device, infer=False):
    if isinstance(result, tuple):
        return tuple(_on_device(r, device, infer) for r in result)
    if infer and isinstance(result, np.ndarray) and result.dtype == object:
        result = np.array(result.tolist())
    return asarray(result, device=device)


class vectorize:  # noqa: N801 - NumPy's name
    """numpy.vectorize for accelpy arrays: pyfunc called per element (on host copies) with
    NumPy's broadcasting, otypes, excluded, cache and signature; the result is an accelpy array
    on the arguments' device. Usable as a decorator, with or without arguments."""

    def __init__(self, pyfunc: Any = None, otypes: Any = None, doc: str | None = None,
                 excluded: Any = None, cache: bool = False, signature: str | None = None):
        self._options = {"otypes": otypes, "doc": doc, "excluded": excluded, "cache": cache,
                         "signature": signature}
        self._np = None if pyfunc is None else np.vectorize(pyfunc, **self._options)
        self.pyfunc = pyfunc
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._np is None:  # @vectorize(otypes=...) applied to the function
            (func,) = args
            return vectorize(func, **self._options)
        device, host = _host_args(list(args))
        host_kwargs = {k: _core.asnumpy(v) if isinstance(v, ndarray) else v
                       for k, v in kwargs.items()}
        if device is None:
            device = next((v.device for v in kwargs.values() if isinstance(v, ndarray)), None)
        return _on_device(self._np(*host, **host_kwargs), device)


class _PyUfunc:
    """What frompyfunc returns: a callable with nin and nout, as NumPy's object ufunc."""

    def __init__(self, func: Callable[..., Any], nin: int, nout: int, identity: Any):
        kwargs = {} if identity is None else {"identity": identity}
        self._ufunc = np.frompyfunc(func, nin, nout, **kwargs)
        self.nin, self.nout = nin, nout
        self.__name__ = getattr(func, "__name__", "pyfunc")

    def __call__(self, *args: Any) -> Any:
        device, host = _host_args(list(args))
        return _on_device(self._ufunc(*host), device, infer=True)


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *,
               identity: Any = None) -> _PyUfunc:
    """A broadcasting callable applying func per element (numpy.frompyfunc); on accelpy arrays
    the result is an accelpy array of the dtype NumPy infers from the values."""
    return _PyUfunc(func, nin, nout, identity)
