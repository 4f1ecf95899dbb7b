"""Floating-point error handling (NumPy's chapter of that name): ``errstate``, ``seterr``,
``geterr``, ``seterrcall``, ``geterrcall`` are NumPy's own, so their arguments, return values
and per-thread, per-context state are NumPy's exactly, and a setting governs both libraries.

What accelpy reports: its CPU loops and GPU kernels compute IEEE results (inf, nan, wrapped
integers) as NumPy's do, and do not check them, so no mode ('warn', 'raise', 'call', 'log')
fires for accelpy's own arithmetic; work accelpy hands to NumPy on the host honours them. A GPU
kernel cannot report without a reduction over its output after every operation (which would
undo fusion); docs/user-guide.md ("Floating-point errors") says how to check results instead.
"""

import numpy as np

__all__ = ["errstate", "seterr", "geterr", "seterrcall", "geterrcall"]

errstate = np.errstate
seterr = np.seterr
geterr = np.geterr
seterrcall = np.seterrcall
geterrcall = np.geterrcall
