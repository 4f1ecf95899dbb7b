"""Floating-point error handling (NumPy's chapter of that name): ``errstate``, ``seterr``,
``geterr``, ``seterrcall``, ``geterrcall`` are NumPy's own, so their arguments, return values
and per-thread, per-context state are NumPy's exactly, and a setting governs both libraries.

accelpy's CPU arithmetic is checked against those settings: the evaluation gathers the IEEE
flags its loops raised (src/core/fp_errors.cpp) and hands them here once, when it has completed;
``_report`` applies NumPy's modes with NumPy's texts. Work is deferred, so an error is reported
when the result is evaluated (printed, converted, ``ap.eval``), under the settings in force
then, once per kind of error per evaluation. GPU kernels report nothing (docs/user-guide.md,
"Floating-point errors").
"""

import sys
import warnings

import numpy as np

from . import _core

__all__ = ["errstate", "seterr", "geterr", "seterrcall", "geterrcall"]

errstate = np.errstate
seterr = np.seterr
geterr = np.geterr
seterrcall = np.seterrcall
geterrcall = np.geterrcall

# NumPy's order of reporting, its geterr() keys and its texts, by bit of the FPE mask.
_KINDS = (
    (1, "divide", "divide by zero"),
    (2, "over", "overflow"),
    (4, "under", "underflow"),
    (8, "invalid", "invalid value"),
)

# The name NumPy's message gives an operation, where accelpy's core names it otherwise:
# reductions are NumPy's "reduce", a variance's overflow is in its squares, NumPy's i0 is
# Python over exp.
_NUMPY_NAMES = {
    "pow": "power",
    "abs": "absolute",
    "conj": "conjugate",
    "asin": "arcsin",
    "acos": "arccos",
    "atan": "arctan",
    "asinh": "arcsinh",
    "acosh": "arccosh",
    "atanh": "arctanh",
    "atan2": "arctan2",
    "frexp_mantissa": "frexp",
    "sum": "reduce",
    "prod": "reduce",
    "mean": "reduce",
    "var": "multiply",
    "i0": "exp",
}


def _stacklevel():
    """The warning's stack level that names the user's line: the first frame outside accelpy
    above the call that evaluated (NumPy's C ufuncs name the caller's line the same way)."""
    level, frame = 2, sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("accelpy"):
        level, frame = level + 1, frame.f_back
    return level


def _report(flags, ops):
    """Applies numpy.geterr() to the errors an evaluation raised (called by the core)."""
    modes = np.geterr()
    for bit, (mask, key, text) in enumerate(_KINDS):
        if not flags & mask:
            continue
        mode = modes[key]
        if mode == "ignore":
            continue
        name = _NUMPY_NAMES.get(ops[bit], ops[bit])
        message = f"{text} encountered in {name}"
        if mode == "warn":
            warnings.warn(message, RuntimeWarning, stacklevel=_stacklevel())
        elif mode == "raise":
            raise FloatingPointError(message)
        elif mode == "call":
            callback = np.geterrcall()
            if callback is None:
                raise NameError(
                    f"python callback specified for {text} (in  {name}) but no function found."
                )
            callback(text, flags)
        elif mode == "log":
            log = np.geterrcall()
            if log is None:
                raise NameError(
                    f"log specified for {text} (in {name}) but no object with write method found."
                )
            log.write(f"Warning: {message}\n")
        elif mode == "print":
            sys.stderr.write(f"Warning: {message}\n")


_core._set_fp_error_handler(_report)
