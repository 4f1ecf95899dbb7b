"""Type stubs of accelpy._array_api (hand-written)."""

from typing import Any

import numpy

from ._core import ArrayLike, Device, DeviceLike, DTypeLike, ndarray

__array_api_version__: str

_Kind = str | DTypeLike | tuple[str | DTypeLike, ...]

def isdtype(dtype: DTypeLike, kind: _Kind) -> bool: ...

class finfo_object:
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: numpy.dtype[Any]

class iinfo_object:
    bits: int
    max: int
    min: int
    dtype: numpy.dtype[Any]

def finfo(type: DTypeLike | ndarray) -> finfo_object: ...
def iinfo(type: DTypeLike | ndarray) -> iinfo_object: ...
def unstack(x: ndarray, /, *, axis: int = 0) -> tuple[ndarray, ...]: ...
def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> ndarray: ...

class Info:
    def capabilities(self) -> dict[str, bool | int | None]: ...
    def default_device(self) -> Device: ...
    def devices(self) -> list[Device]: ...
    def default_dtypes(self, *,
                       device: DeviceLike | None = None) -> dict[str, numpy.dtype[Any]]: ...
    def dtypes(self, *, device: DeviceLike | None = None,
               kind: _Kind | None = None) -> dict[str, numpy.dtype[Any]]: ...

def __array_namespace_info__() -> Info: ...
