"""Type stubs of accelpy._ranges (hand-written)."""

from typing import Any

from ._core import ArrayLike, ndarray

def logspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
             base: ArrayLike = 10.0, dtype: Any = None, axis: int = 0, *,
             device: Any = None) -> ndarray: ...
def geomspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
              dtype: Any = None, axis: int = 0, *, device: Any = None) -> ndarray: ...
