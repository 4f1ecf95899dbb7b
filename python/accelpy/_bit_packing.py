"""Bit-wise operations (NumPy's reference chapter of that name), the parts that are not
elementwise ufuncs (those are in _math): packing bits into bytes (``packbits``, ``unpackbits``)
and the output formatting ``binary_repr`` (NumPy's own: it formats one Python integer).

Packing and unpacking are lazy array expressions on the array's device (shifts, a masked sum
over groups of 8), so they fuse with what reads them.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._creation import asarray

if TYPE_CHECKING:
    from ._core import ArrayLike, ndarray

__all__ = ["packbits", "unpackbits", "binary_repr"]

binary_repr = np.binary_repr


def _bitorder_shifts(fn: str, bitorder: str, device: Any) -> ndarray:
    """The shift of each of the 8 bits of a byte, in the order they are stored."""
    if bitorder not in ("big", "little"):
        raise ValueError(f"{fn}: bitorder must be either 'big' or 'little', got {bitorder!r}")
    order = np.arange(8, dtype=np.uint8)
    if bitorder == "big":
        order = order[::-1].copy()
    return asarray(order, device=device)


def _along(fn: str, a: ndarray, axis: Any) -> tuple[ndarray, int]:
    """(the array, the axis) packbits and unpackbits work along: the flattened array's only
    axis when `axis` is None, else `axis` checked and made non-negative."""
    if axis is None:
        return a.reshape(-1), 0
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"{fn}: axis must be an integer or None, got "
                        f"'{type(axis).__name__}'") from None
    if not -a.ndim <= axis < a.ndim:
        raise np.exceptions.AxisError(axis, a.ndim)
    return a, axis % a.ndim


def packbits(a: ArrayLike, /, axis: int | None = None, bitorder: str = "big") -> ndarray:
    """The elements of an integer or boolean array as bits (nonzero is 1), packed 8 to a uint8
    along `axis` (the flattened array when None), the last byte padded with zeros
    (numpy.packbits)."""
    a = asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("packbits: a must be an array of integer or boolean data type, got "
                        f"{a.dtype}")
    shifts = _bitorder_shifts("packbits", bitorder, a.device)
    a, axis = _along("packbits", a, axis)
    bits = _core.moveaxis(a != 0, axis, -1).astype(np.uint8)
    n = bits.shape[-1]
    pad = -n % 8
    if pad:
        tail = _core.zeros((*bits.shape[:-1], pad), dtype=np.uint8, device=a.device)
        bits = _core.concatenate([bits, tail], axis=-1)
    groups = bits.reshape(*bits.shape[:-1], (n + pad) // 8, 8)
    packed = (groups << shifts).sum(axis=-1, dtype=np.uint8)
    return _core.moveaxis(packed, -1, axis)


def unpackbits(a: ArrayLike, /, axis: int | None = None, count: int | None = None,
               bitorder: str = "big") -> ndarray:
    """The bits of a uint8 array, 8 elements (0 or 1) for each byte along `axis` (the flattened
    array when None); `count` keeps that many bits (padding with zeros beyond the data) or, when
    negative, drops that many from the end (numpy.unpackbits)."""
    a = asarray(a)
    if a.dtype != np.uint8:
        raise TypeError("unpackbits: a must be an array of unsigned byte data type (uint8), got "
                        f"{a.dtype}")
    shifts = _bitorder_shifts("unpackbits", bitorder, a.device)
    a, axis = _along("unpackbits", a, axis)
    last = _core.moveaxis(a, axis, -1)
    bits = ((last[..., None] >> shifts) & np.uint8(1)).reshape(*last.shape[:-1],
                                                               last.shape[-1] * 8)
    if count is not None:
        try:
            count = operator.index(count)
        except TypeError:
            raise TypeError(f"unpackbits: count must be an integer or None, got "
                            f"'{type(count).__name__}'") from None
        n = bits.shape[-1]
        if count < -n:
            raise ValueError(f"unpackbits: -count ({-count}) is larger than the number of "
                             f"bits ({n})")
        keep = count if count >= 0 else n + count
        if keep <= n:
            bits = bits[..., :keep]
        else:
            tail = _core.zeros((*bits.shape[:-1], keep - n), dtype=np.uint8, device=a.device)
            bits = _core.concatenate([bits, tail], axis=-1)
    return _core.moveaxis(bits, -1, axis)
