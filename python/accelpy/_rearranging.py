"""Array manipulation, second half (NumPy's reference: "Array manipulation routines"): tiling
(tile, repeat), adding and removing elements (append, delete, insert, resize, trim_zeros) and
rearranging (flip, fliplr, flipud, roll, rot90).

Views stay views (flip: no copy, as NumPy); tile and repeat are broadcasts copied once.
Positions (delete's and insert's `obj`) are small arguments worked out on the host; the data is
gathered with ``take`` on the array's device."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import asarray, host_values
from ._util import along_axis, c_long, normalize_axes, normalize_axis

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ._core import ArrayLike

    Axes = int | Sequence[int] | None

__all__ = [
    "append",
    "delete",
    "flip",
    "fliplr",
    "flipud",
    "insert",
    "repeat",
    "resize",
    "roll",
    "rot90",
    "tile",
    "trim_zeros",
]



_REVERSED = slice(None, None, -1)


def flip(m: ArrayLike, axis: Axes = None) -> ndarray:
    """A view with the order of elements reversed along `axis` (all axes when None)."""
    if type(m) is ndarray and (
        axis is None or (type(axis) is int and m.ndim == 1 and axis in (0, -1))
    ):
        # A loop's flip of a vector (`dot(flip(r[:k]), y[:k])`): the view at once, without the
        # conversion and axis normalization that cost more than the view itself.
        return m[(_REVERSED,) * m.ndim]
    m = asarray(m)
    idx = [slice(None)] * m.ndim
    for ax in normalize_axes(axis, m.ndim):
        idx[ax] = slice(None, None, -1)
    return m[tuple(idx)]


def fliplr(m: ArrayLike) -> ndarray:
    """flip(m, axis=1) for arrays of at least two dimensions."""
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(m, 1)


def flipud(m: ArrayLike) -> ndarray:
    """flip(m, axis=0) for arrays of at least one dimension."""
    m = asarray(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(m, 0)


def roll(a: ArrayLike, shift: int | Sequence[int], axis: Axes = None) -> ndarray:
    """Elements shifted by `shift` along `axis`, wrapping around (numpy.roll)."""
    a = asarray(a)
    if axis is None:
        return roll(a.reshape(-1), shift, 0).reshape(a.shape)
    if type(shift) is int and type(axis) is int and -(2**63) <= shift < 2**63:
        # One shift along one axis (a stencil's neighbours): one call into the core instead of
        # the pairs' broadcast, two slices, the join and its layout from here (decisions D95).
        try:
            return _core._roll_axis(a, shift, axis)
        except TypeError:  # an axis past 64 bits: normalize_axis below raises NumPy's error
            pass
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = [normalize_axis(ax, a.ndim) for ax in axes]
    # NumPy's pairing: any shift int() takes, a Python int past int64 too (an object array).
    pairs = np.broadcast(shift, axes)
    if pairs.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    total = {}
    for s, ax in pairs:
        total[int(ax)] = total.get(int(ax), 0) + int(s)
    out = a
    for ax, s in total.items():
        n = a.shape[ax]
        if n == 0 or s % n == 0:
            continue
        s %= n
        out = _core.concatenate([out[along_axis(a.ndim, ax, slice(n - s, None))],
                                 out[along_axis(a.ndim, ax, slice(0, n - s))]], axis=ax)
    if out is a:
        return _core.copy(a)  # order 'K'
    # NumPy writes the pieces into empty_like(a): a's memory order.
    item = a.itemsize
    return _core._laid_out_like(out, tuple(a.shape), tuple(s // item for s in a.strides), False)


def tile(A: ArrayLike, reps: int | Sequence[int]) -> ndarray:
    """A repeated `reps` times along each axis (numpy.tile): one broadcast, copied once."""
    A = asarray(A)
    reps = tuple(c_long(r) for r in reps) if isinstance(reps, (tuple, list)) else (c_long(reps),)
    if any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    d = max(len(reps), A.ndim)
    reps = (1,) * (d - len(reps)) + reps
    shape = (1,) * (d - A.ndim) + tuple(A.shape)
    # NumPy's layouts: no repetition copies A in its memory order (order 'K'); an empty A is
    # only reshaped (a view); any other result is C-ordered.
    out_shape = tuple(r * s for r, s in zip(reps, shape, strict=True))
    if all(r == 1 for r in reps):
        return _core.copy(A).reshape(shape)
    if A.size == 0:
        return A.reshape(shape).reshape(out_shape)
    if 0 in reps:
        # NumPy's last repeat(0) makes a new empty (rows, n) array; its reshape gives the strides.
        n = last = A.size
        for s, r in zip(shape, reps, strict=True):
            if r != 1:
                last = n
            n //= s
        return _core.empty((0, last), A.dtype, device=A.device).reshape(out_shape)
    inter = []
    for s in shape:
        inter += [1, s]
    big = []
    for r, s in zip(reps, shape, strict=True):
        big += [r, s]
    out = _core.broadcast_to(A.reshape(tuple(inter)), tuple(big))
    return out.reshape(out_shape).copy()


def repeat(a: ArrayLike, repeats: ArrayLike, axis: int | None = None) -> ndarray:
    """Each element repeated `repeats` times along `axis` (flattened when None), numpy.repeat.

    `repeats` is an integer or one integer per element along the axis (then the result is a
    concatenation of broadcast pieces, one per distinct run).
    """
    a = asarray(a)
    if axis is None or a.ndim == 0:  # NumPy repeats a 0-d array as a 1-d one
        a = a.reshape(-1)
        axis = 0 if axis is None else axis
    axis = normalize_axis(axis, a.ndim)
    n = a.shape[axis]
    if isinstance(repeats, float):
        repeats = int(repeats)  # NumPy truncates a Python float (not a float array)
    if isinstance(repeats, ndarray):  # its dtype kept: an empty array's list would be float
        reps = np.asarray(repeats.tolist(), dtype=np.dtype(repeats.dtype))
    else:
        reps = np.asarray(repeats)
    if reps.dtype == object and all(type(r) is int for r in reps.reshape(-1).tolist()):
        raise OverflowError("Python int too large to convert to C long")  # NumPy's, past 64 bits
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
        piece = a[along_axis(a.ndim, axis, slice(i, i + 1))]
        big = list(a.shape)
        big[axis] = r
        pieces.append(_core.broadcast_to(piece, tuple(big)))
    if not pieces:
        shape = list(a.shape)
        shape[axis] = 0
        return _core.empty(tuple(shape), dtype=a.dtype, device=a.device)
    return _core.concatenate(pieces, axis=axis) if len(pieces) > 1 else pieces[0].copy()


def append(arr: ArrayLike, values: ArrayLike, axis: int | None = None) -> ndarray:
    """`arr` with `values` appended along `axis` (numpy.append); both flattened when axis is
    None."""
    arr = asarray(arr)
    values = asarray(values, device=arr.device)
    if axis is None:
        return _core.concatenate([arr.reshape(-1), values.reshape(-1)], axis=0)
    return _core.concatenate([arr, values], axis=axis)


def _positions(obj, n):
    """delete's / insert's `obj` as a host array of positions along an axis of length n."""
    if isinstance(obj, slice):
        return np.arange(*obj.indices(n), dtype=np.intp), False
    idx = host_values(obj)
    if idx.dtype == bool:
        return idx, True
    if idx.size == 0:
        return idx.astype(np.intp), False
    if idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return idx.astype(np.intp), False


def _edit_target(arr, obj, axis):
    """delete's and insert's operands: the array (flattened when axis is None), the axis, and
    obj's positions along it (see _positions)."""
    arr = asarray(arr)
    if axis is None:
        arr, axis = arr.reshape(-1), 0
    axis = normalize_axis(axis, arr.ndim)
    return (arr, axis, *_positions(obj, arr.shape[axis]))


def delete(arr: ArrayLike, obj: int | slice | ArrayLike, axis: int | None = None) -> ndarray:
    """`arr` without the entries `obj` (an int, slice, integer array or boolean mask) along
    `axis` (numpy.delete); the flattened array when axis is None."""
    arr, axis, idx, is_mask = _edit_target(arr, obj, axis)
    n = arr.shape[axis]
    keep = np.ones(n, dtype=bool)
    if is_mask:
        if idx.shape != (n,):
            raise ValueError(f"boolean array argument obj to delete must be one dimensional "
                             f"and match the axis length of {n}")
        keep = ~idx
    else:
        if idx.size and (idx.min() < -n or idx.max() >= n):
            bad = idx[(idx < -n) | (idx >= n)][0]
            raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
        keep[idx] = False
    # A boolean mask along the axis (1 byte per slice to move; measured faster than take with
    # the kept positions on the CPU, 16M float32: 28 ms against 54 ms).
    return arr[along_axis(arr.ndim, axis, asarray(keep, device=arr.device))]


def insert(arr: ArrayLike, obj: int | slice | ArrayLike, values: ArrayLike,
           axis: int | None = None) -> ndarray:
    """`arr` with `values` inserted before the positions `obj` along `axis` (numpy.insert);
    the flattened array when axis is None."""
    arr, axis, idx, is_mask = _edit_target(arr, obj, axis)
    n = arr.shape[axis]
    if is_mask:
        if idx.ndim != 1:
            raise ValueError("boolean array argument obj to insert must be one dimensional")
        idx = np.flatnonzero(idx)
    elif idx.ndim > 1:
        raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    values = asarray(values, device=arr.device).astype(arr.dtype, copy=False)
    if idx.size == 1:
        index = int(idx.reshape(-1)[0])
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        if index < 0:
            index += n
        if values.ndim < arr.ndim:
            values = values.reshape((1,) * (arr.ndim - values.ndim) + values.shape)
        if idx.ndim == 0:
            values = _core.moveaxis(values, 0, axis)
        shape = list(arr.shape)
        shape[axis] = values.shape[axis]
        values = _core.broadcast_to(values, tuple(shape))
        lo = (slice(None),) * axis + (slice(None, index),)
        hi = (slice(None),) * axis + (slice(index, None),)
        return _core.concatenate([arr[lo], values, arr[hi]], axis=axis)
    if idx.size and (idx.min() < -n or idx.max() > n):
        bad = idx[(idx < -n) | (idx > n)][0]
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
    idx = np.where(idx < 0, idx + n, idx)
    numnew = idx.size
    order = np.argsort(idx, kind="stable")
    new_pos = np.empty(numnew, dtype=np.intp)
    new_pos[order] = idx[order] + np.arange(numnew)
    source = np.empty(n + numnew, dtype=np.intp)
    is_new = np.zeros(n + numnew, dtype=bool)
    is_new[new_pos] = True
    source[new_pos] = n + np.arange(numnew)
    source[~is_new] = np.arange(n)
    shape = list(arr.shape)
    shape[axis] = numnew
    values = _core.broadcast_to(values, tuple(shape))
    joined = _core.concatenate([arr, values], axis=axis)
    return _core.take(joined, asarray(source, device=arr.device), axis=axis)


def resize(a: ArrayLike, new_shape: int | Sequence[int]) -> ndarray:
    """An array of `new_shape` filled with `a`'s elements repeated in order (numpy.resize); a
    zero-size `a` gives zeros."""
    a = asarray(a)
    shape = (new_shape,) if isinstance(new_shape, (int, np.integer)) else tuple(new_shape)
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = int(np.prod(shape, dtype=np.int64))
    flat = a.reshape(-1)
    if a.size == 0 or size == 0:
        return _core.zeros(shape, dtype=a.dtype, device=a.device)
    reps = -(-size // a.size)
    if reps > 1:
        flat = _core.broadcast_to(flat, (reps, a.size)).reshape(-1)
    return flat[:size].reshape(shape)


def rot90(m: ArrayLike, k: int = 1, axes: Sequence[int] = (0, 1)) -> ndarray:
    """`m` rotated by 90 degrees k times in the plane of `axes`, from the first towards the
    second (numpy.rot90); a view."""
    m = asarray(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim:
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    a0, a1 = axes[0] % m.ndim, axes[1] % m.ndim
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return _core.transpose(flip(m, axes[1]), tuple(perm))
    return flip(_core.transpose(m, tuple(perm)), axes[1])


def trim_zeros(filt: ArrayLike, trim: str = "fb",
               axis: int | Sequence[int] | None = None) -> ndarray:
    """`filt` without its leading ('f') and/or trailing ('b') zeros along `axis` (all axes when
    None), as numpy.trim_zeros: the box bounding the nonzero elements; a view."""
    a = asarray(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = normalize_axes(axis, a.ndim)
    if not axes:
        return a
    nonzero = a != 0
    if not bool(_core.any(nonzero)):
        return a[tuple(slice(0, 0) if ax in axes else slice(None) for ax in range(a.ndim))]
    index = []
    for ax in range(a.ndim):
        if ax not in axes:
            index.append(slice(None))
            continue
        others = tuple(i for i in range(a.ndim) if i != ax)
        along = _core.any(nonzero, axis=others) if others else nonzero
        n = along.shape[0]
        start = int(_core.argmax(along)) if "f" in trim else None
        stop = n - int(_core.argmax(flip(along, 0))) if "b" in trim else None
        index.append(slice(start, stop))
    return a[tuple(index)]
