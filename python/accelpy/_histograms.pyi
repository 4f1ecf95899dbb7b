"""Type stubs of accelpy._histograms (hand-written)."""

from collections.abc import Sequence

from ._core import ArrayLike, ndarray

def bincount(x: ArrayLike, weights: ArrayLike | None = None, minlength: int = 0) -> ndarray: ...
def histogram_bin_edges(a: ArrayLike, bins: int | Sequence[float] | ArrayLike = 10,
                        range: tuple[float, float] | None = None,
                        weights: ArrayLike | None = None) -> ndarray: ...
def histogram(a: ArrayLike, bins: int | Sequence[float] | ArrayLike = 10,
              range: tuple[float, float] | None = None, density: bool | None = None,
              weights: ArrayLike | None = None) -> tuple[ndarray, ndarray]: ...
