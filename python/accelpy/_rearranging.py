"""NumPy's manipulation functions composed from the core's views, lazy generators and
elementwise ops: flip, roll, tile, repeat, the split family, pad, meshgrid, tril/triu, diag,
diagonal, trace, diff.

Views stay views (flip, split, diagonal: no copy, as NumPy); the rest are lazy expressions that
fuse with their consumers: ``tril(a) * 2`` is one kernel over a (the mask comes from two
aranges), ``pad(a, 1)`` fills the border with a generator, ``tile``/``repeat`` are broadcasts
copied once.
"""

import operator

import numpy as np

from . import _core
from ._core import ndarray

__all__ = [
    "flip",
    "fliplr",
    "flipud",
    "roll",
    "tile",
    "repeat",
    "split",
    "array_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "pad",
    "meshgrid",
    "tril",
    "triu",
    "diag",
    "diagonal",
    "trace",
    "diff",
]


def _asarray(a):
    if isinstance(a, ndarray):
        return a
    from ._creation import asarray

    return asarray(a)


def _axis(axis, ndim):
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"an integer is required for the axis, got {type(axis).__name__}") from None
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        out = tuple(_axis(a, ndim) for a in axis)
        if len(set(out)) != len(out):
            raise ValueError("repeated axis")
        return out
    return (_axis(axis, ndim),)


def _along(ndim, axis, index):
    """An index tuple applying `index` (a slice or an int) to one axis."""
    return (slice(None),) * axis + (index,) + (slice(None),) * (ndim - axis - 1)


def flip(m, axis=None):
    """A view with the order of elements reversed along `axis` (all axes when None)."""
    m = _asarray(m)
    idx = [slice(None)] * m.ndim
    for ax in _axes(axis, m.ndim):
        idx[ax] = slice(None, None, -1)
    return m[tuple(idx)]


def fliplr(m):
    """flip(m, axis=1) for arrays of at least two dimensions."""
    m = _asarray(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(m, 1)


def flipud(m):
    """flip(m, axis=0) for arrays of at least one dimension."""
    m = _asarray(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(m, 0)


def roll(a, shift, axis=None):
    """Elements shifted by `shift` along `axis`, wrapping around (numpy.roll)."""
    a = _asarray(a)
    if axis is None:
        return roll(a.reshape(-1), shift, 0).reshape(a.shape)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    axes = [_axis(ax, a.ndim) for ax in axes]
    pairs = np.broadcast(np.asarray(shifts, dtype=np.int64), np.asarray(axes))
    total = {}
    for s, ax in pairs:
        total[int(ax)] = total.get(int(ax), 0) + int(s)
    out = a
    for ax, s in total.items():
        n = a.shape[ax]
        if n == 0 or s % n == 0:
            continue
        s %= n
        out = _core.concatenate([out[_along(a.ndim, ax, slice(n - s, None))],
                                 out[_along(a.ndim, ax, slice(0, n - s))]], axis=ax)
    return out if out is not a else a.copy()


def tile(A, reps):
    """A repeated `reps` times along each axis (numpy.tile): one broadcast, copied once."""
    A = _asarray(A)
    reps = tuple(operator.index(r) for r in reps) if isinstance(reps, (tuple, list)) else (
        operator.index(reps),)
    if any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    d = max(len(reps), A.ndim)
    reps = (1,) * (d - len(reps)) + reps
    shape = (1,) * (d - A.ndim) + tuple(A.shape)
    inter = []
    for s in shape:
        inter += [1, s]
    big = []
    for r, s in zip(reps, shape, strict=True):
        big += [r, s]
    out = _core.broadcast_to(A.reshape(tuple(inter)), tuple(big))
    return out.reshape(tuple(r * s for r, s in zip(reps, shape, strict=True))).copy()


def repeat(a, repeats, axis=None):
    """Each element repeated `repeats` times along `axis` (flattened when None), numpy.repeat.

    `repeats` is an integer or one integer per element along the axis (then the result is a
    concatenation of broadcast pieces, one per distinct run).
    """
    a = _asarray(a)
    if axis is None or a.ndim == 0:  # NumPy repeats a 0-d array as a 1-d one
        a = a.reshape(-1)
        axis = 0 if axis is None else axis
    axis = _axis(axis, a.ndim)
    n = a.shape[axis]
    if isinstance(repeats, float):
        repeats = int(repeats)  # NumPy truncates a Python float (not a float array)
    reps = np.asarray(repeats.tolist() if isinstance(repeats, ndarray) else repeats)
    if reps.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from dtype('{reps.dtype}') to dtype('int64') "
                        "according to the rule 'safe'")
    if reps.ndim > 1 or (reps.ndim == 1 and reps.size not in (1, n)):
        raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                         f"({', '.join(map(str, reps.shape))},)")
    if (reps < 0).any():
        raise ValueError("repeats may not contain negative values.")
    if reps.ndim == 0 or reps.size == 1:
        r = int(reps.reshape(-1)[0])
        shape = list(a.shape)
        exp = _core.expand_dims(a, [axis + 1])
        big = shape[:axis + 1] + [r] + shape[axis + 1:]
        out = _core.broadcast_to(exp, tuple(big))
        shape[axis] = n * r
        return out.reshape(tuple(shape)).copy()
    pieces = []
    for i, r in enumerate(reps.tolist()):
        if r == 0:
            continue
        piece = a[_along(a.ndim, axis, slice(i, i + 1))]
        big = list(a.shape)
        big[axis] = r
        pieces.append(_core.broadcast_to(piece, tuple(big)))
    if not pieces:
        shape = list(a.shape)
        shape[axis] = 0
        return _core.empty(tuple(shape), dtype=a.dtype, device=a.device)
    return _core.concatenate(pieces, axis=axis) if len(pieces) > 1 else pieces[0].copy()


def array_split(ary, indices_or_sections, axis=0):
    """Views of `ary` split along `axis` into sections (sizes may differ by one) or at indices."""
    ary = _asarray(ary)
    axis = _axis(axis, ary.ndim)
    n = ary.shape[axis]
    try:
        bounds = [0] + [operator.index(i) for i in indices_or_sections] + [n]
    except TypeError:
        sections = operator.index(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extra = divmod(n, sections)
        sizes = [0] + extra * [each + 1] + (sections - extra) * [each]
        bounds = np.cumsum(sizes).tolist()
    return [ary[_along(ary.ndim, axis, slice(lo, hi))] for lo, hi in zip(bounds[:-1], bounds[1:],
                                                                         strict=True)]


def split(ary, indices_or_sections, axis=0):
    """As array_split, but an integer number of sections must divide the axis exactly."""
    ary = _asarray(ary)
    if isinstance(indices_or_sections, (int, np.integer)):
        n = ary.shape[_axis(axis, ary.ndim)]
        if n % indices_or_sections:  # ZeroDivisionError for 0 sections, as NumPy
            raise ValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """split along axis 1 (axis 0 for 1-D arrays)."""
    ary = _asarray(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """split along axis 0, for arrays of at least two dimensions."""
    ary = _asarray(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """split along axis 2, for arrays of at least three dimensions."""
    ary = _asarray(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


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
    from . import _statistics

    n = out.shape[ax]
    stat = {"maximum": lambda x: _core.max(x, axis=ax, keepdims=True),
            "minimum": lambda x: _core.min(x, axis=ax, keepdims=True),
            "mean": lambda x: _core.mean(x, axis=ax, keepdims=True),
            "median": lambda x: _statistics.median(x, axis=ax, keepdims=True)}[mode]
    values = []
    for end, length in enumerate(lengths):
        length = n if length is None else min(int(length), n)
        if length == 0 and mode in ("maximum", "minimum"):
            raise ValueError("stat_length of 0 yields no value for padding")
        chunk = slice(0, length) if end == 0 else slice(n - length, n)
        v = stat(out[_along(out.ndim, ax, chunk)])
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
    dt = np.result_type(np.float64 if np.dtype(dtype).kind in "iub" else dtype)
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
    first = out[_along(out.ndim, ax, slice(0, 1))]
    last = out[_along(out.ndim, ax, slice(n - 1, n))]
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
            mirrored = flip(out[_along(out.ndim, ax, slice(lo, lo + b))], ax)
            if odd:
                mirrored = 2 * out[_along(out.ndim, ax, slice(0, 1))] - mirrored
            parts.append(mirrored)
        parts.append(out)
        if a:
            mirrored = flip(out[_along(out.ndim, ax, slice(n - lo - a, n - lo))], ax)
            if odd:
                mirrored = 2 * out[_along(out.ndim, ax, slice(n - 1, n))] - mirrored
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
        pieces.append(out[_along(out.ndim, ax, slice(j, j + take))])
        i += take
    return _core.concatenate(pieces, axis=ax)


def pad(array, pad_width, mode="constant", **kwargs):
    """`array` padded as numpy.pad, in every NumPy mode: "constant" (constant_values), "edge",
    "reflect", "symmetric", "wrap", "linear_ramp" (end_values), "maximum", "minimum", "mean",
    "median" (stat_length) and "empty"; the border is lazy (fills, broadcasts, views and fused
    ops of the input) until the copy that assembles the result."""
    array = _asarray(array)
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
            first = out[_along(out.ndim, ax, slice(0, 1))]
            last = out[_along(out.ndim, ax, slice(n - 1, n))]
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


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate arrays from 1-D coordinate vectors (numpy.meshgrid)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = [_asarray(x).reshape(-1) for x in xi]
    ndim = len(xs)
    shapes = []
    for i in range(ndim):
        s = [1] * ndim
        s[i] = -1
        shapes.append(s)
    if indexing == "xy" and ndim > 1:
        shapes[0][0], shapes[0][1] = 1, -1
        shapes[1][0], shapes[1][1] = -1, 1
    out = [x.reshape(tuple(s)) for x, s in zip(xs, shapes, strict=True)]
    if not sparse and out:
        out = _core.broadcast_arrays(*out)
    if copy:
        out = [o.copy() for o in out]
    return tuple(out)


def _tri(m, k, lower):
    m = _asarray(m)
    if m.ndim == 0:
        raise TypeError("tril/triu of a 0-d array: the input needs at least one dimension")
    k = operator.index(k)
    rows = m.shape[-2] if m.ndim >= 2 else m.shape[-1]  # 1-D: an (n, n) mask, as NumPy
    # The mask is a lazy generator of the matrix's shape: for 2-D inputs it fuses into the
    # where (one kernel reading m once); batches broadcast it.
    mask = _core.tri(rows, m.shape[-1], k if lower else k - 1, dtype=np.bool_, device=m.device)
    if not lower:
        mask = _core.logical_not(mask)
    return _core.where(mask, m, False if m.dtype == np.bool_ else 0)


def tril(m, k=0):
    """The lower triangle of the last two axes (elements above diagonal k set to zero)."""
    return _tri(m, k, True)


def triu(m, k=0):
    """The upper triangle of the last two axes (elements below diagonal k set to zero)."""
    return _tri(m, k, False)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal `offset` of axes axis1 and axis2, as the last axis of a read-only view."""
    return _core._diagonal(_asarray(a), operator.index(offset), operator.index(axis1),
                           operator.index(axis2))


def diag(v, k=0):
    """The k-th diagonal of a 2-D array (a view), or a 2-D array with a 1-D array on it."""
    v = _asarray(v)
    k = operator.index(k)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = v.shape[0] + abs(k)
    fill = _core.zeros((abs(k),), dtype=v.dtype, device=v.device)
    # out[i, j] = v[i] where j - i == k >= 0, v[j] where i - j == -k > 0: v padded to n along
    # the axis that indexes it, broadcast over the other, masked by the diagonal.
    if k >= 0:
        vals = _core.concatenate([v, fill]).reshape(n, 1)
    else:
        vals = _core.concatenate([v, fill]).reshape(1, n)
    rows = _core.arange(n, device=v.device).reshape(-1, 1)
    cols = _core.arange(n, device=v.device).reshape(1, -1)
    zero = _core.zeros((), dtype=v.dtype, device=v.device)
    return _core.where(cols - rows == k, _core.broadcast_to(vals, (n, n)), zero)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum along a diagonal (numpy.trace)."""
    return _core.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


def diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    """The n-th discrete difference along `axis` (booleans: not_equal), numpy.diff."""
    a = _asarray(a)
    n = operator.index(n)
    if n == 0:
        return a  # before any other check, as NumPy
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _axis(axis, a.ndim)
    parts = []
    for value, where in ((prepend, "before"), (append, "after")):
        if value is np._NoValue:
            continue
        from ._creation import asarray

        v = asarray(value, device=a.device)
        if v.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            v = _core.broadcast_to(v, tuple(shape))
        parts.append((where, v))
    if parts:
        seq = [v for w, v in parts if w == "before"] + [a] + [v for w, v in parts if w == "after"]
        a = _core.concatenate(seq, axis=axis)
    for _ in range(n):
        m = a.shape[axis]
        hi = a[_along(a.ndim, axis, slice(1, None))]
        lo = a[_along(a.ndim, axis, slice(None, max(m - 1, 0)))]
        a = _core.not_equal(hi, lo) if a.dtype == np.bool_ else hi - lo
    return a


def install():
    """Adds the ndarray methods NumPy has for these functions."""

    def _diagonal(self, offset=0, axis1=0, axis2=1):
        return diagonal(self, offset, axis1, axis2)

    def _trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return trace(self, offset, axis1, axis2, dtype, out)

    def _repeat(self, repeats, axis=None):
        return repeat(self, repeats, axis)

    _diagonal.__doc__ = diagonal.__doc__
    _trace.__doc__ = trace.__doc__
    _repeat.__doc__ = repeat.__doc__
    ndarray.diagonal = _diagonal
    ndarray.trace = _trace
    ndarray.repeat = _repeat
