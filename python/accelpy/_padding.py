"""Padding arrays (NumPy's reference: "Padding arrays"): pad, every mode of numpy.pad, the border
filled by lazy generators and views on the array's device."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import asarray
from ._dtypes import promoted_dtype
from ._rearranging import flip
from ._statistics import median
from ._util import along_axis

if TYPE_CHECKING:
    from ._core import ArrayLike

__all__ = [
    "pad",
]


def _pad_widths(pad_width, ndim):
    w = np.asarray(pad_width)
    if w.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    try:
        w = np.broadcast_to(w, (ndim, 2))
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {np.shape(pad_width)} and requested shape "
                         f"({ndim},2)") from None
    if (w < 0).any():
        raise ValueError("index can't contain negative values")
    return [(int(b), int(a)) for b, a in w]


_PAD_MODES = {"constant": {"constant_values"}, "edge": set(), "reflect": {"reflect_type"},
              "symmetric": {"reflect_type"}, "wrap": set(), "empty": set(),
              "linear_ramp": {"end_values"}, "maximum": {"stat_length"},
              "minimum": {"stat_length"}, "mean": {"stat_length"}, "median": {"stat_length"}}


def _pad_axis_stat(out, ax, before, after, mode, lengths):
    """Pads with a statistic of the `lengths` values at each end (all of them when None), as
    NumPy's stat modes: integers get the rounded mean or median."""
    n = out.shape[ax]
    stat = {"maximum": lambda x: _core.max(x, axis=ax, keepdims=True),
            "minimum": lambda x: _core.min(x, axis=ax, keepdims=True),
            "mean": lambda x: _core.mean(x, axis=ax, keepdims=True),
            "median": lambda x: median(x, axis=ax, keepdims=True)}[mode]
    values = []
    for end, length in enumerate(lengths):
        length = n if length is None else min(int(length), n)
        if length == 0 and mode in ("maximum", "minimum"):
            raise ValueError("stat_length of 0 yields no value for padding")
        chunk = slice(0, length) if end == 0 else slice(n - length, n)
        v = stat(out[along_axis(out.ndim, ax, chunk)])
        if out.dtype.kind in "iu":
            v = _core.round(v)
        values.append(v.astype(out.dtype))
    shape_b, shape_a = list(out.shape), list(out.shape)
    shape_b[ax], shape_a[ax] = before, after
    return _core.concatenate([_core.broadcast_to(values[0], tuple(shape_b)), out,
                              _core.broadcast_to(values[1], tuple(shape_a))], axis=ax)


def _ramp(end_value, edge, width, ax, dtype):
    """numpy.linspace(end_value, edge, width, endpoint=False, dtype=dtype, axis=ax) for an edge
    slice of length 1 along `ax`, in the same arithmetic (floor for integer dtypes)."""
    dt = promoted_dtype(np.float64 if np.dtype(dtype).kind in "iub" else dtype)
    start = np.asarray(end_value).astype(dt)[()]
    delta = edge.astype(dt) - start
    shape = [1] * edge.ndim
    shape[ax] = width
    steps = _core.reshape(_core.arange(width, dtype=dt, device=edge.device), tuple(shape))
    step = delta / width
    if bool(_core.any(step == 0)):  # NumPy's own branch, decided over the whole edge
        y = steps / width * delta
    else:
        y = steps * step
    y = y + start
    if np.dtype(dtype).kind in "iu":
        y = _core.floor(y)
    return y.astype(dtype)


def _pad_axis_ramp(out, ax, before, after, end_values):
    n = out.shape[ax]
    first = out[along_axis(out.ndim, ax, slice(0, 1))]
    last = out[along_axis(out.ndim, ax, slice(n - 1, n))]
    parts = []
    if before:
        parts.append(_ramp(end_values[0], first, before, ax, out.dtype))
    parts.append(out)
    if after:
        parts.append(flip(_ramp(end_values[1], last, after, ax, out.dtype), ax))
    return _core.concatenate(parts, axis=ax)


def _pad_axis_mirror(out, ax, before, after, symmetric, odd=False):
    """Mirrors about the edges (reflect: the edge value once; symmetric: twice), repeatedly
    when the pad is wider than the axis, as NumPy does; `odd` reflects the values through the
    edge value too (2 edge - mirrored)."""
    while before or after:
        n = out.shape[ax]
        room = n if symmetric else n - 1
        b, a = min(before, room), min(after, room)
        lo = 0 if symmetric else 1
        parts = []
        if b:
            mirrored = flip(out[along_axis(out.ndim, ax, slice(lo, lo + b))], ax)
            if odd:
                mirrored = 2 * out[along_axis(out.ndim, ax, slice(0, 1))] - mirrored
            parts.append(mirrored)
        parts.append(out)
        if a:
            mirrored = flip(out[along_axis(out.ndim, ax, slice(n - lo - a, n - lo))], ax)
            if odd:
                mirrored = 2 * out[along_axis(out.ndim, ax, slice(n - 1, n))] - mirrored
            parts.append(mirrored)
        out = _core.concatenate(parts, axis=ax)
        before -= b
        after -= a
    return out


def _pad_axis_wrap(out, ax, before, after):
    """Index i of the padded axis (from -before) takes element i mod n."""
    n = out.shape[ax]
    pieces, i = [], -before
    while i < n + after:
        j = i % n
        take = min(n - j, n + after - i)
        pieces.append(out[along_axis(out.ndim, ax, slice(j, j + take))])
        i += take
    return _core.concatenate(pieces, axis=ax)


def pad(array: ArrayLike, pad_width: Any, mode: str = "constant", **kwargs: Any) -> ndarray:
    """`array` padded as numpy.pad, in every NumPy mode: "constant" (constant_values), "edge",
    "reflect", "symmetric", "wrap", "linear_ramp" (end_values), "maximum", "minimum", "mean",
    "median" (stat_length) and "empty"; the border is lazy (fills, broadcasts, views and fused
    ops of the input) until the copy that assembles the result."""
    array = asarray(array)
    if mode not in _PAD_MODES:
        raise ValueError(f"mode '{mode}' is not supported")
    widths = _pad_widths(pad_width, array.ndim)
    unknown = set(kwargs) - _PAD_MODES[mode]
    if unknown:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {sorted(unknown)}")
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"unsupported reflect_type {reflect_type!r}: 'even' or 'odd'")
    values = np.broadcast_to(np.asarray(kwargs.get("constant_values", 0)), (array.ndim, 2))
    ends = np.broadcast_to(np.asarray(kwargs.get("end_values", 0)), (array.ndim, 2))
    stat_length = kwargs.get("stat_length")
    lengths = ([(None, None)] * array.ndim if stat_length is None
               else _pad_widths(stat_length, array.ndim))
    if mode == "empty":  # the border's values are unspecified: zeros
        mode, values = "constant", np.zeros((array.ndim, 2))
    out = array
    for ax, (before, after) in enumerate(widths):
        if before == 0 and after == 0:
            continue
        n = out.shape[ax]
        if mode == "constant":
            parts = []
            for width, value in ((before, values[ax][0]), (after, values[ax][1])):
                shape = list(out.shape)
                shape[ax] = width
                # NumPy casts the constant to the array's dtype (unsafe: 1.5 pads ints with 1).
                v = np.asarray(value).astype(out.dtype)[()]
                parts.append(_core.full(tuple(shape), v, dtype=out.dtype, device=out.device))
            out = _core.concatenate([parts[0], out, parts[1]], axis=ax)
        elif n == 0:
            raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' "
                             "or 'empty'")
        elif mode == "edge" or (mode == "reflect" and n == 1):
            first = out[along_axis(out.ndim, ax, slice(0, 1))]
            last = out[along_axis(out.ndim, ax, slice(n - 1, n))]
            shape_b, shape_a = list(out.shape), list(out.shape)
            shape_b[ax], shape_a[ax] = before, after
            out = _core.concatenate([_core.broadcast_to(first, tuple(shape_b)), out,
                                     _core.broadcast_to(last, tuple(shape_a))], axis=ax)
        elif mode == "wrap":
            out = _pad_axis_wrap(out, ax, before, after)
        elif mode == "linear_ramp":
            out = _pad_axis_ramp(out, ax, before, after, ends[ax])
        elif mode in ("maximum", "minimum", "mean", "median"):
            out = _pad_axis_stat(out, ax, before, after, mode, lengths[ax])
        else:
            out = _pad_axis_mirror(out, ax, before, after, mode == "symmetric",
                                   reflect_type == "odd")
    return out if out is not array else array.copy()
