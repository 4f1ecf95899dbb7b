"""Type stubs of accelpy._creation (hand-written)."""

from typing import Any, Literal, overload

import numpy

from ._core import ArrayLike, DeviceLike, DTypeLike, ShapeLike, ndarray

def asarray(obj: ArrayLike, dtype: DTypeLike | None = None, device: DeviceLike | None = None,
            copy: bool | None = None) -> ndarray: ...
def array(obj: ArrayLike, dtype: DTypeLike | None = None, *, copy: bool | None = True,
          device: DeviceLike | None = None) -> ndarray: ...
def empty_like(a: ArrayLike, dtype: DTypeLike | None = None, *, shape: ShapeLike | None = None,
               device: DeviceLike | None = None) -> ndarray: ...
def zeros_like(a: ArrayLike, dtype: DTypeLike | None = None, *, shape: ShapeLike | None = None,
               device: DeviceLike | None = None) -> ndarray: ...
def ones_like(a: ArrayLike, dtype: DTypeLike | None = None, *, shape: ShapeLike | None = None,
              device: DeviceLike | None = None) -> ndarray: ...
def full_like(a: ArrayLike, fill_value: complex, dtype: DTypeLike | None = None, *,
              shape: ShapeLike | None = None, device: DeviceLike | None = None) -> ndarray: ...
@overload
def linspace(start: complex, stop: complex, num: int = 50, endpoint: bool = True,
             retstep: Literal[False] = False, dtype: DTypeLike | None = None, *,
             device: DeviceLike | None = None) -> ndarray: ...
@overload
def linspace(start: complex, stop: complex, num: int = 50, endpoint: bool = True, *,
             retstep: Literal[True], dtype: DTypeLike | None = None,
             device: DeviceLike | None = None) -> tuple[ndarray, numpy.floating[Any]]: ...
def identity(n: int, dtype: DTypeLike | None = None, *,
             device: DeviceLike | None = None) -> ndarray: ...
