"""repr and str of arrays, exactly as NumPy prints them."""

import numpy as np

from . import _core


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


def array_repr(a):
    host, shape_text = _printable(a)
    if shape_text is None:
        return repr(host)
    with np.printoptions(threshold=0):
        text = repr(host)
    # NumPy ends a summarised repr with ", shape=..., dtype=...)", on a new line when it would
    # pass the line width: placed again for the real shape's text.
    at = text.rfind(shape_text[0])
    body, extras = text[:at].rstrip(), text[at:].replace(*shape_text, 1)
    last_line = len(body) - (body.rfind("\n") + 1)
    if last_line + len(extras) + 1 > np.get_printoptions()["linewidth"]:
        return body + "\n" + " " * len("array(") + extras
    return body + " " + extras


def array_str(a):
    host, shape_text = _printable(a)
    if shape_text is None:
        return str(host)
    with np.printoptions(threshold=0):
        return str(host)


def format_array(a, spec):
    # NumPy formats a 0-d array as its element (f"{x}" of a float64 0-d array is Python's
    # float repr) and refuses a non-empty spec for other arrays.
    return format(_core.asnumpy(a), spec)
