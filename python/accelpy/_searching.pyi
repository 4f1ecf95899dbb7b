"""Type stubs of accelpy._searching (hand-written)."""

from collections.abc import Sequence

from ._core import ArrayLike, ndarray

def digitize(x: ArrayLike, bins: ArrayLike, right: bool = False) -> ndarray: ...
def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: complex | None = None,
           right: complex | None = None, period: float | None = None) -> ndarray: ...
def lexsort(keys: Sequence[ArrayLike] | ArrayLike, axis: int = -1) -> ndarray: ...
