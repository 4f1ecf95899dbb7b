"""Index arrays and index arithmetic (indices, ix_, the tril/triu/diag index families,
unravel_index, ravel_multi_index), choosing among arrays (choose, select, piecewise) and writing
into arrays (fill_diagonal, copyto, putmask, place), composed from the core's aranges, gathers,
where and setitem on the arrays' device."""

import operator

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import asarray
from ._manipulation import resize

__all__ = [
    "indices",
    "ix_",
    "tril_indices",
    "tril_indices_from",
    "triu_indices",
    "triu_indices_from",
    "diag_indices",
    "diag_indices_from",
    "diagflat",
    "unravel_index",
    "ravel_multi_index",
    "fill_diagonal",
    "copyto",
    "putmask",
    "place",
    "select",
    "piecewise",
    "choose",
]


def _device(device=None):
    return device if device is not None else _core.get_default_device()


def indices(dimensions, dtype=int, sparse=False):
    """The index grid of an array of shape `dimensions` (numpy.indices): one stacked array of
    shape (N, *dimensions), or with `sparse` a tuple of broadcastable aranges."""
    dims = tuple(operator.index(d) for d in dimensions)
    n = len(dims)
    grids = []
    for i, d in enumerate(dims):
        shape = (1,) * i + (d,) + (1,) * (n - i - 1)
        grids.append(_core.arange(d, dtype=dtype, device=_device()).reshape(shape))
    if sparse:
        return tuple(grids)
    if not grids:
        return _core.empty((0,), dtype=dtype, device=_device())
    return _core.stack([_core.broadcast_to(g, dims) for g in grids])


def ix_(*args):
    """Open-mesh index arrays from 1-D sequences (numpy.ix_): the k-th has its values along
    axis k and length 1 elsewhere; boolean ones become the positions of their true values."""
    out = []
    nd = len(args)
    for k, arg in enumerate(args):
        a = arg if isinstance(arg, ndarray) else asarray(arg)
        if isinstance(arg, (list, tuple)) and len(arg) == 0:
            a = a.astype(np.intp)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.dtype == np.bool_:
            a = _core.nonzero(a)[0]
        out.append(a.reshape((1,) * k + (a.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _tri_indices(n, k, m, lower, device=None):
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    mask = _core.tri(n, m, k if lower else k - 1, dtype=np.bool_, device=_device(device))
    return _core.nonzero(mask if lower else _core.logical_not(mask))


def tril_indices(n, k=0, m=None):
    """(rows, columns) of the lower triangle of an (n, m) array, on and below diagonal k
    (numpy.tril_indices)."""
    return _tri_indices(n, k, m, True)


def triu_indices(n, k=0, m=None):
    """(rows, columns) of the upper triangle of an (n, m) array, on and above diagonal k
    (numpy.triu_indices)."""
    return _tri_indices(n, k, m, False)


def _two_d(arr):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return arr


def tril_indices_from(arr, k=0):
    """tril_indices for the shape of 2-D `arr`, on its device (numpy.tril_indices_from)."""
    arr = _two_d(arr)
    return _tri_indices(arr.shape[0], k, arr.shape[1], True, arr.device)


def triu_indices_from(arr, k=0):
    """triu_indices for the shape of 2-D `arr`, on its device (numpy.triu_indices_from)."""
    arr = _two_d(arr)
    return _tri_indices(arr.shape[0], k, arr.shape[1], False, arr.device)


def _diag_indices(n, ndim, device):
    idx = _core.arange(operator.index(n), device=_device(device))
    return (idx,) * ndim


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an n x ... x n array of `ndim` dimensions
    (numpy.diag_indices): `ndim` copies of arange(n)."""
    return _diag_indices(n, ndim, None)


def diag_indices_from(arr):
    """diag_indices for `arr`, whose dimensions must all be equal (numpy.diag_indices_from)."""
    arr = asarray(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return _diag_indices(arr.shape[0], arr.ndim, arr.device)


def diagflat(v, k=0):
    """A 2-D array with the flattened input on diagonal k (numpy.diagflat)."""
    from ._rearranging import diag

    return diag(asarray(v).reshape(-1), k)


def _integer_indices(a, what):
    a = asarray(a)
    if a.dtype.kind not in "iu":
        raise TypeError(f"only int {what} permitted")
    return a


def unravel_index(indices, shape, order="C"):
    """The multi-indices into an array of `shape` of flat `indices` (numpy.unravel_index): a
    tuple of intp arrays of the indices' shape."""
    idx = _integer_indices(indices, "indices")
    dims = (operator.index(shape),) if np.ndim(shape) == 0 else tuple(operator.index(d)
                                                                       for d in shape)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    size = int(np.prod(dims, dtype=np.int64))
    if idx.size and (bool(_core.any(idx < 0)) or bool(_core.any(idx >= size))):
        bad = int(_core.min(idx)) if bool(_core.any(idx < 0)) else int(_core.max(idx))
        raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    rest = idx.astype(np.intp)
    out = [None] * len(dims)
    order_dims = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    for i in order_dims:
        out[i] = rest % dims[i] if dims[i] else rest
        rest = rest // dims[i] if dims[i] else rest
    return tuple(out)


def _in_range(idx, n, mode, what):
    """Integer positions `idx` brought into [0, n) by NumPy's index mode: "raise" (ValueError
    naming `what`), "wrap" or "clip"."""
    if mode == "raise":
        if idx.size and (bool(_core.any(idx < 0)) or bool(_core.any(idx >= n))):
            raise ValueError(f"invalid entry in {what} array")
        return idx
    if mode == "wrap":
        return idx % n
    if mode == "clip":
        return _core.clip(idx, 0, n - 1)
    raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """The flat indices into an array of shape `dims` of the multi-index arrays
    (numpy.ravel_multi_index); mode 'raise', 'wrap' or 'clip' (one or one per dimension)."""
    dims = tuple(operator.index(d) for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("mode must be a string or a sequence of one mode per dimension")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    parts = [_integer_indices(m, "indices") for m in multi_index]
    parts = _core.broadcast_arrays(*[p.astype(np.intp) for p in parts])
    strides = [1] * len(dims)
    axes = range(len(dims) - 2, -1, -1) if order == "C" else range(1, len(dims))
    for i in axes:
        j = i + 1 if order == "C" else i - 1
        strides[i] = strides[j] * dims[j]
    total = None
    for p, d, m, s in zip(parts, dims, modes, strides, strict=True):
        term = _in_range(p, d, m, "coordinates") * s
        total = term if total is None else total + term
    return total


def fill_diagonal(a, val, wrap=False):
    """Writes `val` (repeated as needed) on the main diagonal of `a` in place
    (numpy.fill_diagonal); with `wrap`, a tall 2-D matrix's diagonal restarts every n + 1 rows."""
    if not isinstance(a, ndarray):
        raise TypeError("fill_diagonal needs an accelpy ndarray to write into")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(a.shape[:-1]).sum())
        end = None
    stop = a.size if end is None else min(end, a.size)
    positions = _core.arange(0, stop, step, dtype=np.intp, device=a.device)
    if positions.size:
        _core.put(a, positions, asarray(val, device=a.device).astype(a.dtype))


def _can_cast_value(src, dtype, casting):
    if isinstance(src, (bool, int, float, complex)) and not isinstance(src, np.generic):
        value = np.asarray(src)
        if isinstance(src, int) and not isinstance(src, bool) and dtype.kind in "iu":
            info = np.iinfo(dtype)
            if not info.min <= src <= info.max:
                raise OverflowError(f"Python integer {src} out of bounds for {dtype}")
        if not np.can_cast(value.dtype, dtype, casting) and not (
                casting == "same_kind" and np.can_cast(np.min_scalar_type(src), dtype, casting)):
            raise TypeError(f"Cannot cast scalar from {value.dtype!r} to {dtype!r} according to "
                            f"the rule {casting!r}")
        return
    if not np.can_cast(src.dtype, dtype, casting):
        raise TypeError(f"Cannot cast array data from {src.dtype!r} to {dtype!r} according to "
                        f"the rule {casting!r}")


def copyto(dst, src, casting="same_kind", where=True):
    """Copies `src` (broadcast) into `dst` in place where `where` is true (numpy.copyto);
    `casting` limits the dtype conversion."""
    if not isinstance(dst, ndarray):
        raise TypeError(f"copyto() argument 1 must be accelpy.ndarray, not "
                        f"{type(dst).__name__}")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                         f"'unsafe' (got {casting!r})")
    scalar = isinstance(src, (bool, int, float, complex)) and not isinstance(src, np.generic)
    if not scalar:
        src = asarray(src, device=dst.device)
    _can_cast_value(src, dst.dtype, casting)
    value = asarray(src, device=dst.device).astype(dst.dtype)
    value = _core.broadcast_to(value, dst.shape)
    if where is True:
        dst[...] = value
        return
    mask = asarray(where, device=dst.device)
    if mask.dtype != np.bool_:
        raise TypeError(f"Cannot cast array data from {mask.dtype!r} to dtype('bool') "
                        "according to the rule 'safe'")
    dst[...] = _core.where(_core.broadcast_to(mask, dst.shape), value, dst)


def putmask(a, /, mask, values):
    """Sets a.flat[i] = values.flat[i % len(values)] in place wherever mask.flat[i] is true
    (numpy.putmask)."""
    if not isinstance(a, ndarray):
        raise TypeError(f"putmask: first argument must be an accelpy.ndarray, not "
                        f"{type(a).__name__}")
    mask = asarray(mask, device=a.device)
    if mask.shape != a.shape:
        raise ValueError("putmask: mask and data must be the same size")
    scalar = isinstance(values, (bool, int, float, complex))
    values = asarray(values, device=a.device)
    if not scalar and not np.can_cast(values.dtype, a.dtype, "safe"):
        raise TypeError(f"Cannot cast array data from {values.dtype!r} to {a.dtype!r} according "
                        "to the rule 'safe'")
    if values.size == 0:
        return
    a[...] = _core.where(mask.astype(np.bool_), resize(values, a.shape).astype(a.dtype), a)


def place(arr, mask, vals):
    """Writes `vals` in order (repeated as needed) into the positions of `arr` where `mask` is
    true, in place (numpy.place)."""
    if not isinstance(arr, ndarray):
        raise TypeError(f"argument 1 must be accelpy.ndarray, not {type(arr).__name__}")
    mask = asarray(mask, device=arr.device).astype(np.bool_)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    mask = mask.reshape(arr.shape)
    count = int(_core.count_nonzero(mask))
    scalar = isinstance(vals, (bool, int, float, complex))
    vals = asarray(vals, device=arr.device)
    if not scalar and not np.can_cast(vals.dtype, arr.dtype, "safe"):
        raise TypeError(f"Cannot cast array data from {vals.dtype!r} to {arr.dtype!r} according "
                        "to the rule 'safe'")
    if count == 0:
        return
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    arr[mask] = resize(vals, (count,)).astype(arr.dtype)


def select(condlist, choicelist, default=0):
    """For each element, the value of the first choice whose condition holds, else `default`
    (numpy.select); one fused where chain."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [c if isinstance(c, (bool, int, float, complex)) else asarray(c)
               for c in choicelist]
    conds = [asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    dtype = _core.result_type(*choices, default)
    result = default
    for cond, choice in zip(reversed(conds), reversed(choices), strict=True):
        result = _core.where(cond, choice, result)
    # Every condition and choice went through a where: the result has their broadcast shape.
    return asarray(result).astype(dtype, copy=False)


def piecewise(x, condlist, funclist, *args, **kw):
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


def choose(a, choices, out=None, mode="raise"):
    """For each element, the entry of choices[a] at that position (numpy.choose): the index
    array and the choices broadcast together; mode 'raise', 'wrap' or 'clip' for indices
    outside [0, len(choices))."""
    a = asarray(a)
    if a.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to dtype('int64') according "
                        "to the rule 'safe'")
    choices = [asarray(c, device=a.device) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    a = _in_range(a.astype(np.intp), n, mode, "choice")
    parts = _core.broadcast_arrays(a, *choices)
    stacked = _core.stack(parts[1:])
    result = _core.take_along_axis(stacked, parts[0].reshape((1,) + parts[0].shape), axis=0)
    result = result.reshape(parts[0].shape)
    if out is not None:
        out[...] = result
        return out
    return result
