"""Type stubs of accelpy._histogramdd (hand-written)."""

from collections.abc import Sequence
from typing import Any

from ._core import ArrayLike, ndarray

def histogramdd(sample: ArrayLike | Sequence[ArrayLike], bins: Any = 10,
                range: Sequence[tuple[float, float]] | None = None,
                density: bool | None = None,
                weights: ArrayLike | None = None) -> tuple[ndarray, list[ndarray]]: ...
def histogram2d(x: ArrayLike, y: ArrayLike, bins: Any = 10,
                range: Sequence[tuple[float, float]] | None = None,
                density: bool | None = None,
                weights: ArrayLike | None = None) -> tuple[ndarray, ndarray, ndarray]: ...
