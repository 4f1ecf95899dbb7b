"""numpy.lib.stride_tricks: ``sliding_window_view``.

accelpy's views are the layouts its own operations make (slices, transposes, broadcasts), not
arbitrary strides, so the windows are gathered into a new array: the values, shape and dtype of
NumPy's view, which is read-only by default, so that a program reading it cannot tell. It costs
window-size times the memory; ``writeable=True`` (writing through overlapping windows) is
refused.
"""

import operator

import numpy as np

from .._core import arange, moveaxis, ndarray, take
from .._creation import asarray

__all__ = ["sliding_window_view"]


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Windows of ``window_shape`` sliding over ``x`` (numpy.lib.stride_tricks.
    sliding_window_view): the window axes follow x's, in the order of ``axis``."""
    if writeable:
        raise ValueError("sliding_window_view: writeable=True needs a view over x's memory, "
                         "which accelpy does not make; write to x instead")
    x = x if isinstance(x, ndarray) else asarray(x)
    window_shape = (tuple(window_shape) if np.iterable(window_shape)
                    else (window_shape,))
    window_shape = tuple(operator.index(w) for w in window_shape)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError(f"Since axis is `None`, must provide window_shape for all "
                             f"dimensions of `x`; got {len(window_shape)} window_shape "
                             f"elements and `x.ndim` is {x.ndim}.")
    else:
        axis = np.lib.array_utils.normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window_shape) != len(axis):
            raise ValueError(f"Must provide matching length window_shape and axis; got "
                             f"{len(window_shape)} window_shape elements and {len(axis)} "
                             f"axes elements.")
    result = x
    sizes = list(x.shape)
    for ax, w in zip(axis, window_shape, strict=True):
        if sizes[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        starts = sizes[ax] - w + 1
        index = (arange(starts, device=x.device).reshape(starts, 1)
                 + arange(w, device=x.device).reshape(1, w))
        # (.., starts, w, ..): the window axis goes last, the others keep their places
        result = moveaxis(take(result, index, axis=ax), ax + 1, -1)
        sizes[ax] = starts
    return result
