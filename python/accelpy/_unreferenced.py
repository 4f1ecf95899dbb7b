"""Whether a NumPy array handed to ``accelpy.asarray`` is referenced by nothing but the call.

accelpy wraps a NumPy array on the CPU without copying. Where other code can still reach the
memory, it may write it at any time, through no accelpy barrier, so an operation reading the
import is computed at the call (``Storage::is_shared``, docs/decisions.md). A temporary
(``ap.asarray(n.copy())``, ``ap.asarray(np.random.rand(9))``) is reachable through the import
only: it is accelpy's alone, and operations over it stay lazy and fuse.

"Nothing else references it" is read from reference counts, compared with those of a temporary
argument measured once at import through a function of asarray's shape (the counts depend on
the interpreter's calling convention). A NumPy view counts only if its whole ``base`` chain is
ndarrays that nothing else references, ending in one that owns its memory (a ``frombuffer`` or
memory-mapped array never does). Any doubt answers "referenced", which only makes the import's
readers compute at the call.
"""

from __future__ import annotations

import sys
import weakref

import numpy as np


def _argument_refs(obj, dtype=None, device=None, copy=None):
    """sys.getrefcount of the first argument, read first thing, as asarray reads it."""
    return sys.getrefcount(obj)


def _base_refs(obj):
    """(base, its reference count) along obj's base chain, as `unreferenced` reads them."""
    out = []
    base = obj.base
    while base is not None:
        out.append((base, sys.getrefcount(base)))
        base = base.base if type(base) is np.ndarray else None
    return out


def _calibrate():
    temporary = _argument_refs(np.empty(1))
    named = np.empty(1)
    # Where a named argument is not told apart from a temporary (a calling convention that
    # borrows references), or reference counts do not mean this (free-threaded builds), no
    # import is taken as unreferenced.
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    usable = gil and _argument_refs(named) > temporary
    base_refs = [refs for _, refs in _base_refs(np.empty(2)[::2])]
    return (temporary if usable else -1), (base_refs[0] if base_refs else -1)


TEMPORARY_REFS, TEMPORARY_BASE_REFS = _calibrate()


def unreferenced(obj, refs: int) -> bool:
    """Whether NumPy array `obj`, whose reference count asarray read as `refs` on entry, and its
    memory are reachable through this call only."""
    if type(obj) is not np.ndarray or refs > TEMPORARY_REFS or weakref.getweakrefcount(obj):
        return False
    chain = _base_refs(obj)
    for base, base_refs in chain:
        if (type(base) is not np.ndarray or base_refs > TEMPORARY_BASE_REFS
                or weakref.getweakrefcount(base)):
            return False
    owner = chain[-1][0] if chain else obj
    return bool(owner.flags.owndata)
