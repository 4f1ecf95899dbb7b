"""Type stubs of accelpy._calculus (hand-written)."""

from typing import Any

from ._core import ArrayLike, ndarray

def gradient(f: ArrayLike, *varargs: Any, axis: int | tuple[int, ...] | None = None,
             edge_order: int = 1) -> Any: ...
def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: float = 1.0,
              axis: int = -1) -> ndarray: ...
