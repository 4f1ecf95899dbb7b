"""Index tricks and iterating over arrays (NumPy's "Indexing routines"): ``mgrid``, ``ogrid``,
``r_``, ``c_``, ``s_``, ``index_exp``, ``ndindex``, ``ndenumerate``, ``nditer``.

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

__all__ = ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp", "ndindex", "ndenumerate", "nditer"]

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


def _host_in_layout(x: _core.ndarray) -> np.ndarray:
    """A NumPy copy of x whose strides order its axes (and their directions) as x's do, so
    that order='K' visits the elements in the same order for both."""
    strides = x.strides
    perm = sorted(range(x.ndim), key=lambda i: -abs(strides[i]))
    flip = tuple(slice(None, None, -1) if strides[i] < 0 else slice(None) for i in perm)
    host = np.array(_core.asnumpy(x.transpose(perm)[flip]))  # C order: x's memory order
    return host[flip].transpose(np.argsort(perm))


def _written(op_flags: Any, n: int) -> list[bool]:
    """For each of n operands, whether its op_flags let the loop write it."""
    if op_flags is None:
        return [False] * n
    if isinstance(op_flags, str):
        op_flags = [op_flags]
    per_op = op_flags if op_flags and not isinstance(op_flags[0], str) else [op_flags] * n
    return [any(f in ("readwrite", "writeonly") for f in flags) for flags in per_op]


class nditer:  # noqa: N801 - NumPy's name
    """NumPy's multi-dimensional iterator (``numpy.nditer``) over accelpy arrays: the same
    arguments, flags and attributes (multi_index, finished, iternext, external_loop, allocated
    outputs, ...). It iterates over host copies: the elements it yields are NumPy arrays, and
    what the loop writes into operands flagged 'readwrite' or 'writeonly' goes back to the
    accelpy arrays when the iteration ends, on close() or leaving a ``with`` block, and when
    ``operands`` is read. Allocated operands (None) come back as accelpy arrays on the first
    operand's device."""

    def __init__(self, op: Any, flags: Any = None, op_flags: Any = None, op_dtypes: Any = None,
                 order: str = "K", casting: str = "safe", op_axes: Any = None,
                 itershape: Any = None, buffersize: int = 0) -> None:
        many = isinstance(op, (list, tuple))
        ops = list(op) if many else [op]
        self._device = next((o.device for o in ops if isinstance(o, _core.ndarray)), None)
        self._targets = ops
        self._written = _written(op_flags, len(ops))
        host = [_host_in_layout(o) if isinstance(o, _core.ndarray) else o for o in ops]
        self._it = np.nditer(host if many else host[0], flags=flags, op_flags=op_flags,
                             op_dtypes=op_dtypes, order=order, casting=casting, op_axes=op_axes,
                             itershape=itershape, buffersize=buffersize)
        self._synced = False

    def _sync(self) -> list[Any]:
        """Copies what the loop wrote back into the accelpy operands; the operands."""
        out = []
        for k, (target, host) in enumerate(zip(self._targets, self._it.operands, strict=True)):
            if target is None:
                target = self._targets[k] = asarray(host, device=self._device)
            elif self._written[k] and isinstance(target, _core.ndarray):
                target[...] = asarray(host, device=target.device)
            out.append(target)
        return out

    @property
    def operands(self) -> tuple[Any, ...]:
        return tuple(self._sync())

    def __iter__(self) -> nditer:
        return self

    def __next__(self) -> Any:
        try:
            return next(self._it)
        except StopIteration:
            self._sync()
            raise

    def iternext(self) -> bool:
        more = self._it.iternext()
        if not more:
            self._sync()
        return more

    def close(self) -> None:
        self._sync()
        self._it.close()

    def __enter__(self) -> nditer:
        self._it.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._sync()
        self._it.__exit__(*exc)

    def __len__(self) -> int:
        return len(self._it)

    def __getitem__(self, key: Any) -> Any:
        return self._it[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        self._it[key] = value

    def __getattr__(self, name: str) -> Any:
        # multi_index, index, finished, value, shape, itersize, reset, ...: NumPy's own.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._it, name)
