"""The parts of the Python Array API standard (2024.12) that are not NumPy functions: the
inspection namespace (``__array_namespace_info__``) and ``unstack`` (isdtype, finfo and iinfo
are in _dtypes).

Code written for "any array library" (array-api-compat, SciPy's array API support) takes the
namespace from ``x.__array_namespace__()``, which is accelpy itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core, _dtypes, cuda
from ._core import Device, ndarray
from ._creation import asarray
from ._dtypes import isdtype

if TYPE_CHECKING:
    from ._core import DeviceLike, DTypeLike

    _Kind = str | DTypeLike | tuple[str | DTypeLike, ...]

__all__ = [
    "__array_api_version__",
    "__array_namespace_info__",
    "unstack",
]

__array_api_version__ = "2024.12"


def unstack(x: ndarray, /, *, axis: int = 0) -> tuple[ndarray, ...]:
    """The slices of x along `axis`, as a tuple of views (Array API unstack)."""
    x = _core.moveaxis(x, axis, 0) if x.ndim else x
    if x.ndim == 0:
        raise ValueError("unstack: a 0-d array has no axis to split")
    return tuple(x[i] for i in range(x.shape[0]))


class Info:
    """The Array API inspection namespace (``accelpy.__array_namespace_info__()``)."""

    def capabilities(self) -> dict[str, bool | int | None]:
        """What this library does: boolean indexing and data-dependent output shapes (found
        from the live namespace, so they turn on when the functions exist), max dimensions."""
        data_dependent = hasattr(_core, "nonzero")  # unique_* are composed in Python
        return {"boolean indexing": _boolean_indexing(), "data-dependent shapes": data_dependent,
                "max dimensions": 64}

    def default_device(self) -> Device:
        """Where arrays go when no device is named."""
        return _core.get_default_device()

    def devices(self) -> list[Device]:
        """Every device accelpy can use here: the CPU and each CUDA device."""
        found = [_core.Device("cpu")]
        if cuda.is_available():
            found += [_core.Device(f"cuda:{i}") for i in range(cuda.device_count())]
        return found

    def default_dtypes(self, *, device: DeviceLike | None = None) -> dict[str, np.dtype[Any]]:
        """The dtypes used when none is given (the same on every device)."""
        self._check(device)
        return {"real floating": np.dtype(np.float64), "complex floating": np.dtype(np.complex128),
                "integral": np.dtype(np.int64), "indexing": np.dtype(np.int64)}

    def dtypes(self, *, device: DeviceLike | None = None,
               kind: _Kind | None = None) -> dict[str, np.dtype[Any]]:
        """The standard's dtypes, all of which accelpy stores on every device, by name; `kind`
        as in isdtype selects some. float16 and bfloat16, which accelpy also stores, are not
        listed: the standard has no such dtypes, and generic code takes every dtype listed
        here for one of its own."""
        self._check(device)
        out = {}
        for dt in _dtypes.eager_dtypes():
            if dt is None or dt == np.float16:  # None: bfloat16's place
                continue
            if kind is None or isdtype(dt, kind):
                out["bool" if dt.kind == "b" else dt.name] = dt
        return out

    def _check(self, device):
        if device is not None and _core.Device(device) not in self.devices():
            raise ValueError(f"device {device} is not available here")


def __array_namespace_info__() -> Info:
    """The Array API inspection namespace: capabilities, default_device, devices, dtypes,
    default_dtypes."""
    return Info()


_BOOLEAN_INDEXING = []


def _boolean_indexing():
    """Whether arrays take boolean masks as indices (tried once, on two elements)."""
    if not _BOOLEAN_INDEXING:
        try:
            _core.zeros((2,), device="cpu")[asarray(np.array([True, False]), device="cpu")]
            works = True
        except (NotImplementedError, IndexError, TypeError):
            works = False
        _BOOLEAN_INDEXING.append(works)
    return _BOOLEAN_INDEXING[0]
