"""Python ints past 64 bits where the core's conversions fail: NumPy's answer or NumPy's error.

NumPy holds such ints in object arrays, which accelpy does not store. The core's fast paths
stay as they are; these run only after they raised OverflowError, to give NumPy's result where
it has one (searchsorted: such an int sorts before or after every element of an integer array)
or NumPy's exception type where it raises (arange's size), and otherwise an error that says
why."""

import numpy as np

from . import _core

OBJECT_INTS = (
    "a Python int past 64 bits makes a NumPy object array (dtype=object), which accelpy "
    "does not store"
)


def is_huge(value):
    return type(value) is int and not -(2**63) <= value < 2**64


def holds_huge(obj, depth=0):
    """Whether a number or nested list/tuple of numbers holds an int past 64 bits."""
    if type(obj) is int:
        return is_huge(obj)
    if isinstance(obj, (list, tuple)) and depth <= 64:
        return any(holds_huge(x, depth + 1) for x in obj)
    return False


def object_ints_error(what):
    """NumPy's OverflowError text for a C long, saying why accelpy has no other answer."""
    return OverflowError(f"Python int too large to convert to C long ({what}: {OBJECT_INTS})")


def arange_error(args, kwargs):
    """What NumPy raises for an arange whose bounds are Python ints past 64 bits: ValueError
    when its length does not fit (NumPy's size check), else accelpy's OverflowError (NumPy
    makes an object array). None when no bound is such an int."""
    names = ("start", "stop", "step")
    bounds = dict(zip(names, args[:3], strict=False))
    bounds.update({k: kwargs[k] for k in names if k in kwargs})
    if not any(is_huge(v) for v in bounds.values()):
        return None
    start, stop, step = bounds.get("start"), bounds.get("stop"), bounds.get("step")
    if stop is None:
        start, stop = 0, start
    start = 0 if start is None else start
    step = 1 if step is None else step
    if all(type(v) is int for v in (start, stop, step)) and step:
        length = max(0, -((start - stop) // step))  # ceil((stop - start) / step)
        if length >= 2**63:
            return ValueError("Maximum allowed size exceeded")
    return object_ints_error("arange's bounds")


def searchsorted(core_searchsorted, asarray, a, v, side, sorter):
    """searchsorted of Python ints past an integer array's range: such an int compares with
    every element the same way, so it goes to 0 or len(a), the others search as usual; into a
    float array, ints are floats. None when `v` is not such a case (the core's error stands)."""
    a = asarray(a)
    if a.ndim != 1 or a.dtype.kind not in "iuf":
        return None
    values = np.array(v, dtype=object)
    if values.dtype != object or not all(type(x) is int for x in values.flat):
        return None
    if a.dtype.kind == "f":
        return core_searchsorted(
            a, asarray(values.astype(np.float64), device=a.device), side, sorter
        )
    info = np.iinfo(a.dtype)
    below, above = values < info.min, values > info.max
    inside = np.where(below | above, 0, values).astype(a.dtype)
    found = core_searchsorted(a, asarray(inside, device=a.device), side, sorter)
    # on the array's device: the small masks go there, the results stay
    below, above = asarray(below, device=a.device), asarray(above, device=a.device)
    return _core.where(below, 0, _core.where(above, a.shape[0], found))
