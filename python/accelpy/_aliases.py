"""NumPy's other names for accelpy's functions (the core uses the Array API names); the
ufuncs' other names are the same ufunc objects, in their chapter's module."""

from . import _core

around = _core.round
round_ = _core.round
amax = _core.max
amin = _core.min
permute_dims = _core.transpose

__all__ = [
    "around",
    "round_",
    "amax",
    "amin",
    "permute_dims",
]
