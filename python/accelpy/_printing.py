"""repr and str of arrays, exactly as NumPy prints them, and NumPy's print options.

The print options are NumPy's own (``set_printoptions``, ``get_printoptions``, ``printoptions``
re-exported): accelpy prints through NumPy, so one setting governs both libraries' arrays, per
thread and per context as NumPy keeps it.
"""

from typing import Any

import numpy as np

from . import _core

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "array2string", "array_repr",
           "array_str", "format_float_positional", "format_float_scientific", "base_repr"]

set_printoptions = np.set_printoptions
get_printoptions = np.get_printoptions
printoptions = np.printoptions
format_float_positional = np.format_float_positional
format_float_scientific = np.format_float_scientific
base_repr = np.base_repr  # the base-n string of one Python integer


def _host(a):
    return _core.asnumpy(a) if isinstance(a, _core.ndarray) else np.asarray(a)


def _printable(a):
    """A NumPy array that prints as `a` does, and the text NumPy writes for its shape in a
    summarised repr (what to write instead, None when nothing changes).

    Past the print threshold NumPy shows only `edgeitems` items at each end of every long axis
    and formats them from those items alone. Only they are brought to the host: along each such
    axis, the leading items, one filler (never printed) and the trailing items, so that NumPy
    still summarises that axis. A huge array prints without being computed whole."""
    opts = np.get_printoptions()
    edge = opts["edgeitems"]
    if a.size <= opts["threshold"] or all(n <= 2 * edge + 1 for n in a.shape):
        return _core.asnumpy(a), None
    small = a
    for axis, n in enumerate(a.shape):
        if n <= 2 * edge + 1:
            continue
        index = [slice(None)] * a.ndim
        parts = []
        for part in (slice(0, edge), slice(0, 1), slice(n - edge, n)):
            index[axis] = part
            parts.append(small[tuple(index)])
        small = _core.concatenate(parts, axis)
    host = _core.asnumpy(small)
    return host, (f"shape={host.shape}", f"shape={a.shape}")


def array_repr(arr: Any, max_line_width: int | None = None, precision: int | None = None,
               suppress_small: bool | None = None) -> str:
    """The repr of an array, as ``numpy.array_repr``."""
    if not isinstance(arr, _core.ndarray):
        return np.array_repr(np.asarray(arr), max_line_width, precision, suppress_small)
    host, shape_text = _printable(arr)
    if shape_text is None:
        return np.array_repr(host, max_line_width, precision, suppress_small)
    with np.printoptions(threshold=0):
        text = np.array_repr(host, max_line_width, precision, suppress_small)
    # NumPy ends a summarised repr with ", shape=..., dtype=...)", on a new line when it would
    # pass the line width: placed again for the real shape's text.
    at = text.rfind(shape_text[0])
    body, extras = text[:at].rstrip(), text[at:].replace(*shape_text, 1)
    last_line = len(body) - (body.rfind("\n") + 1)
    width = max_line_width or np.get_printoptions()["linewidth"]
    if last_line + len(extras) + 1 > width:
        return body + "\n" + " " * len("array(") + extras
    return body + " " + extras


def array_str(a: Any, max_line_width: int | None = None, precision: int | None = None,
              suppress_small: bool | None = None) -> str:
    """The str of an array, as ``numpy.array_str``."""
    if not isinstance(a, _core.ndarray):
        return np.array_str(np.asarray(a), max_line_width, precision, suppress_small)
    if a.ndim == 0 and a.dtype.kind in "biufc" and not np.get_printoptions()["legacy"]:
        # NumPy prints a 0-d array as its scalar (the print options do not apply), which is
        # made here from the element without wrapping the array for NumPy first.
        return str(a.dtype.type(a.item()))
    host, shape_text = _printable(a)
    if shape_text is None:
        return np.array_str(host, max_line_width, precision, suppress_small)
    with np.printoptions(threshold=0):
        return np.array_str(host, max_line_width, precision, suppress_small)


def array2string(a: Any, *args: Any, **kwargs: Any) -> str:
    """An array as text, as ``numpy.array2string`` (same arguments)."""
    return np.array2string(_host(a), *args, **kwargs)


def format_array(a, spec):
    # NumPy formats a 0-d array as its element (f"{x}" of a float64 0-d array is Python's
    # float repr) and refuses a non-empty spec for other arrays.
    return format(_core.asnumpy(a), spec)
