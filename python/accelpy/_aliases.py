"""NumPy's other names for accelpy's functions (the core uses the Array API names)."""

from . import _core

absolute = _core.abs
true_divide = _core.divide
power = _core.pow
mod = _core.remainder
invert = _core.bitwise_invert
bitwise_not = _core.bitwise_invert
left_shift = _core.bitwise_left_shift
right_shift = _core.bitwise_right_shift
arccos = _core.acos
arcsin = _core.asin
arctan = _core.atan
arccosh = _core.acosh
arcsinh = _core.asinh
arctanh = _core.atanh
arctan2 = _core.atan2
conjugate = _core.conj
degrees = _core.rad2deg
radians = _core.deg2rad
around = _core.round
round_ = _core.round
amax = _core.max
amin = _core.min
concat = _core.concatenate
permute_dims = _core.transpose

__all__ = [
    "absolute",
    "true_divide",
    "power",
    "mod",
    "invert",
    "bitwise_not",
    "left_shift",
    "right_shift",
    "arccos",
    "arcsin",
    "arctan",
    "arccosh",
    "arcsinh",
    "arctanh",
    "arctan2",
    "conjugate",
    "degrees",
    "radians",
    "around",
    "round_",
    "amax",
    "amin",
    "concat",
    "permute_dims",
]
