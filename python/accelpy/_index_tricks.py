"""Index tricks (NumPy's "Indexing routines", index tricks part): ``mgrid``, ``ogrid``, ``r_``,
``c_``, ``s_``, ``index_exp``, ``ndindex``, ``ndenumerate``.

``s_``, ``index_exp`` and ``ndindex`` make only indices and tuples: they are NumPy's own objects.
The others build arrays: NumPy's objects compute them on the host (their inputs are slices,
scalars and small sequences) and the result moves to the device, the default device or, for
``r_``/``c_`` given accelpy arrays, the first array's device.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from . import _core
from ._creation import asarray

__all__ = ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp", "ndindex", "ndenumerate"]

s_ = np.s_
index_exp = np.index_exp
ndindex = np.ndindex


def _host_key(key):
    """The key with accelpy 0-d arrays as Python scalars and accelpy arrays as NumPy arrays."""
    if isinstance(key, tuple):
        return tuple(_host_key(k) for k in key)
    if isinstance(key, slice):
        return slice(_host_key(key.start), _host_key(key.stop), _host_key(key.step))
    if isinstance(key, _core.ndarray):
        return _core.asnumpy(key)[()] if key.ndim == 0 else _core.asnumpy(key)
    return key


def _device_of(key):
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, _core.ndarray):
            return k.device
    return None


class _Grid:
    def __init__(self, grid: Any, name: str) -> None:
        self._grid = grid
        self._name = name

    def __getitem__(self, key: Any) -> Any:
        out = self._grid[_host_key(key)]
        if isinstance(out, (tuple, list)):
            return type(out)(asarray(o) for o in out)
        return asarray(out)

    def __len__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"accelpy.{self._name}"


class _Concatenator:
    def __init__(self, concat: Any, name: str) -> None:
        self._concat = concat
        self._name = name

    def __getitem__(self, key: Any) -> Any:
        out = self._concat[_host_key(key)]
        return asarray(out, device=_device_of(key))

    def __len__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"accelpy.{self._name}"


mgrid = _Grid(np.mgrid, "mgrid")
ogrid = _Grid(np.ogrid, "ogrid")
r_ = _Concatenator(np.r_, "r_")
c_ = _Concatenator(np.c_, "c_")


class ndenumerate:  # noqa: N801 - NumPy's name
    """Pairs of (index tuple, element) over an array in C order, as ``numpy.ndenumerate`` (the
    data is copied to the host once; elements are NumPy scalars)."""

    def __init__(self, arr: Any) -> None:
        host = _core.asnumpy(arr) if isinstance(arr, _core.ndarray) else np.asarray(arr)
        self._it = np.ndenumerate(host)

    def __iter__(self) -> Iterator[tuple[tuple[int, ...], Any]]:
        return self

    def __next__(self) -> tuple[tuple[int, ...], Any]:
        return next(self._it)
