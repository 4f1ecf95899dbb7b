"""repr and str of arrays, exactly as NumPy prints them."""

from . import _core


def array_repr(a):
    return repr(_core.asnumpy(a))


def array_str(a):
    return str(_core.asnumpy(a))


def install():
    _core.ndarray.__repr__ = array_repr
    _core.ndarray.__str__ = array_str
    _core.ndarray.__format__ = _format
    _core.ndarray.__iter__ = _iterate


def _format(a, spec):
    # NumPy formats a 0-d array as its element (f"{x}" of a float64 0-d array is Python's
    # float repr) and refuses a non-empty spec for other arrays.
    return format(_core.asnumpy(a), spec)


def _iterate(a):
    # Checked here, not inside a generator: iter() itself must raise, as NumPy's does.
    if a.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (a[i] for i in range(a.shape[0]))
