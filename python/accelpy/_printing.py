"""repr and str of arrays, exactly as NumPy prints them."""

from . import _core


def array_repr(a):
    return repr(_core.asnumpy(a))


def array_str(a):
    return str(_core.asnumpy(a))


def format_array(a, spec):
    # NumPy formats a 0-d array as its element (f"{x}" of a float64 0-d array is Python's
    # float repr) and refuses a non-empty spec for other arrays.
    return format(_core.asnumpy(a), spec)
