"""Functional programming (NumPy's reference: "Functional programming"): apply_along_axis and
piecewise."""

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
    "piecewise",
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
