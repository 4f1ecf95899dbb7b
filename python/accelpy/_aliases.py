"""NumPy's other names for accelpy's functions (the core uses the Array API names)."""

from . import _core

_ALIASES = {
    "absolute": "abs",
    "true_divide": "divide",
    "power": "pow",
    "mod": "remainder",
    "invert": "bitwise_invert",
    "bitwise_not": "bitwise_invert",
    "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift",
    "arccos": "acos",
    "arcsin": "asin",
    "arctan": "atan",
    "arccosh": "acosh",
    "arcsinh": "asinh",
    "arctanh": "atanh",
    "arctan2": "atan2",
    "conjugate": "conj",
    "degrees": "rad2deg",
    "radians": "deg2rad",
    "around": "round",
    "round_": "round",
    "amax": "max",
    "amin": "min",
    "concat": "concatenate",
    "permute_dims": "transpose",
}

__all__ = []
for _alias, _name in _ALIASES.items():
    if hasattr(_core, _name):
        globals()[_alias] = getattr(_core, _name)
        __all__.append(_alias)
