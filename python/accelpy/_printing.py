"""repr and str of arrays, exactly as NumPy prints them, and NumPy's print options.

The print options are NumPy's own (``set_printoptions``, ``get_printoptions``, ``printoptions``
re-exported): accelpy prints through NumPy, so one setting governs both libraries' arrays, per
thread and per context as NumPy keeps it.
"""

from typing import Any

import numpy as np

from . import _core

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "array2string", "array_repr",
           "array_str", "format_float_positional", "format_float_scientific"]

set_printoptions = np.set_printoptions
get_printoptions = np.get_printoptions
printoptions = np.printoptions
format_float_positional = np.format_float_positional
format_float_scientific = np.format_float_scientific


def _host(a):
    return _core.asnumpy(a) if isinstance(a, _core.ndarray) else np.asarray(a)


def array_repr(arr: Any, max_line_width: int | None = None, precision: int | None = None,
               suppress_small: bool | None = None) -> str:
    """The repr of an array, as ``numpy.array_repr``."""
    return np.array_repr(_host(arr), max_line_width, precision, suppress_small)


def array_str(a: Any, max_line_width: int | None = None, precision: int | None = None,
              suppress_small: bool | None = None) -> str:
    """The str of an array, as ``numpy.array_str``."""
    return np.array_str(_host(a), max_line_width, precision, suppress_small)


def array2string(a: Any, *args: Any, **kwargs: Any) -> str:
    """An array as text, as ``numpy.array2string`` (same arguments)."""
    return np.array2string(_host(a), *args, **kwargs)


def format_array(a, spec):
    # NumPy formats a 0-d array as its element (f"{x}" of a float64 0-d array is Python's
    # float repr) and refuses a non-empty spec for other arrays.
    return format(_core.asnumpy(a), spec)
